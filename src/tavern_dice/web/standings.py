"""Ratings at a web table (the table option ``rated``): each person's rating for the
table's Liar's Dice games, shown with its change on the final standings.

The model and scale are the terminal's (:mod:`tavern_dice.play.ratings`): everyone
starts at 1500, and a finished game's finishing order (the winner, then the players in
the reverse order they went out) moves each person's rating, the rated levels held at
their shipped ratings and the other people at their own table ratings.

A game is rated when it finishes (not when the DM ends it) at a table with ``rated`` on
(which changes only between games), someone at it is a person, and every bot at it is a
rated level. A game with any other bot (``random``, ``strong``, ...) is rated for nobody:
that bot has no measured rating to lose or win points against, and leaving its seat
out would rate a person who finished behind it as if it had not been there. The final
standings then say why. A person covered by a stand-in bot is still rated: the seat is
theirs.

Each rated game writes one row per person, with its last step and in the same
transaction (the store's ``ratings``): the rating before and after, and the place. A
table's ratings are those rows taken in order, so a restarted server shows the same
figures. The rows are kept, rather than worked out again from the game logs, because the
levels' shipped ratings are measured again as the levels change: a person's figures at a
table must not move when the server is upgraded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tavern_dice.play.ratings import MU, SIGMA, Rating, level_rating, placing, rate_people
from tavern_dice.web.journal import GameSession
from tavern_dice.web.rows import RatingEntry
from tavern_dice.web.seating import Occupant

__all__ = ["TableRatings", "change"]


def change(entry: RatingEntry) -> int:
    """The change in the rating as shown: the rounded rating after less the rounded
    rating before, so that the figures shown game after game add up."""
    return round(entry.mu) - round(entry.mu_before)


class TableRatings:
    """The people's ratings at one table, from its rated games' rows (oldest first)."""

    def __init__(self, entries: Iterable[RatingEntry] = ()) -> None:
        self.current: dict[str, Rating] = {}
        self.games: dict[str, int] = {}
        self.last: dict[str, RatingEntry] = {}
        self.by_game: dict[str, list[RatingEntry]] = {}
        self.unrated: dict[str, str] = {}
        """Why a game that finished with ``rated`` on was not rated (this process only)."""
        self.add(entries)

    def add(self, entries: Iterable[RatingEntry]) -> None:
        """Take a rated game's rows (once they are stored)."""
        for e in entries:
            self.by_game.setdefault(e.game_id, []).append(e)
            self.current[e.player_id] = Rating(e.mu, e.sigma)
            self.games[e.player_id] = self.games.get(e.player_id, 0) + 1
            self.last[e.player_id] = e

    def rating(self, player_id: str) -> Rating:
        """A person's rating at this table now (1500 before their first rated game)."""
        return self.current.get(player_id, Rating(MU, SIGMA))

    def rate(self, s: GameSession, occupants: Mapping[str, Occupant]) -> list[RatingEntry]:
        """The rows a finished Liar's Dice game ``s`` writes: one per person; none when the
        game cannot be rated (noting why in :attr:`unrated` when a bot is not a level)."""
        people: dict[int, Rating] = {}
        bots: dict[int, str] = {}
        for seat, pid in enumerate(s.seats):
            occupant = occupants[pid]
            if occupant.kind == "bot":
                bots[seat] = occupant.bot_kind or ""
            else:
                people[seat] = self.rating(pid)
        unrated = [occupants[s.seats[seat]] for seat, kind in bots.items()
                   if level_rating(kind) is None]
        if unrated:
            names = ", ".join(f"{o.name} ({o.bot_kind})" for o in unrated)
            self.unrated[s.id] = (f"not rated: {names} has no rating; only the rated levels "
                                  "(tavern levels) may sit at a rated game")
            return []
        if not people:
            return []
        order = placing(s.engine.log)
        after = rate_people(people, bots, order)
        return [RatingEntry(s.id, s.seats[seat], order.index(seat) + 1, before.mu,
                            before.sigma, after[seat].mu, after[seat].sigma)
                for seat, before in sorted(people.items())]

    def summary(self) -> dict[str, Any]:
        """Each rated person's table rating now, by player id (``TableSummary.ratings``)."""
        return {pid: {"rating": round(r.mu), "mu": r.mu, "sigma": r.sigma,
                      "games": self.games[pid], "change": change(self.last[pid])}
                for pid, r in self.current.items()}

    def standings(self, s: GameSession, occupants: Mapping[str, Occupant]
                  ) -> dict[str, Any] | None:
        """The ``game.ratings`` object of a finished game: its finishing order with each
        person's rating after it and the change, and each level's rating; or why the
        game was not rated; ``None`` for a game not rated at all (``rated`` off)."""
        why = self.unrated.get(s.id)
        if why is not None:
            return {"rated": False, "why": why, "standings": None}
        entries = self.by_game.get(s.id)
        if entries is None:
            return None
        people = {e.player_id: e for e in entries}
        rows: list[dict[str, Any]] = []
        for place, seat in enumerate(placing(s.engine.log), start=1):
            pid = s.seats[seat]
            row: dict[str, Any] = {"seat": seat, "place": place, "player_id": pid}
            entry = people.get(pid)
            if entry is not None:
                row.update(rating=round(entry.mu), change=change(entry), mu=entry.mu,
                           sigma=entry.sigma, rating_before=round(entry.mu_before))
            else:
                level = level_rating(occupants[pid].bot_kind or "")
                row.update(rating=None if level is None else round(level.mu), change=None,
                           level=occupants[pid].bot_kind)
            rows.append(row)
        return {"rated": True, "why": None, "standings": rows}
