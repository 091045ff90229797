"""Ratings: the levels' measured ratings, and a person's rating after a game against them.

One multiplayer rating model for everything: OpenSkill's Plackett-Luce model (Weng & Lin
2011), which rates a whole finishing order at once (in Liar's Dice the winner first, then
the players in the reverse order they went out). Its scale is set to read like a chess
rating: everyone starts at :data:`MU` 1500 with uncertainty :data:`SIGMA` 350, and
:data:`BETA` makes a 400-point lead heads-up worth 10 to 1 odds, as in Elo.

The levels' ratings are measured offline by ``benchmarks/levels.py`` (a round-robin of
simulated games at 2, 4 and 6 players) and shipped in ``data/level_ratings.json``; at play
time they are only read (:func:`level_rating`). A person's rating moves after each game in
which every other seat is a rated level (or another person being rated), the levels'
ratings held fixed (:func:`rate_people`).

>>> round(level_rating("mags").mu) > round(level_rating("tobb").mu)
True
>>> placing([PlayerOut(2), PlayerOut(0), GameWon(1)])
[1, 0, 2]
>>> after = rate_people({0: Rating(1500, 350)}, {1: "pip", 2: "vell"}, [0, 2, 1])
>>> after[0].mu > 1500 and after[0].sigma < 350
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from tavern_dice.errors import TavernError
from tavern_dice.events import Event
from tavern_dice.liars_dice.events import GameWon, PlayerOut

MU = 1500.0
"""Everyone's starting rating."""
SIGMA = 350.0
"""The starting uncertainty (one standard deviation)."""
BETA = 400.0 / (math.log(10.0) * math.sqrt(2.0))
"""The spread of one game's performance: heads-up, a 400-point lead wins 10 games in 11."""
PERSON_TAU = 5.0
"""How much a person's uncertainty grows before each game (people change; bots do not)."""
Z95 = 1.959963984540054
"""Half a 95 % interval, in standard deviations."""

RATINGS_FILE = "level_ratings.json"
"""The shipped levels' ratings, in ``tavern_dice/data/`` (written by ``benchmarks/levels.py``)."""


class RatingError(TavernError):
    """A game that cannot be rated: a seat that is neither a rated level nor a person."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating: ``mu`` (the estimate) and ``sigma`` (its standard deviation)."""

    mu: float
    sigma: float

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval ``mu ± 1.96 sigma``."""
        return self.mu - Z95 * self.sigma, self.mu + Z95 * self.sigma


@dataclass(frozen=True, slots=True)
class LevelRating:
    """A level's measured rating and the games it was measured on."""

    kind: str
    rating: Rating
    games: int

    @property
    def mu(self) -> float:
        return self.rating.mu


def model(tau: float = 0.0) -> Any:
    """The Plackett-Luce model on this scale (``tau``: uncertainty added before each game)."""
    from openskill.models import PlackettLuce  # here: 60 ms that only rating needs

    return PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=tau)


def placing(log: Iterable[Event]) -> list[int]:
    """A finished Liar's Dice game's finishing order, best first: the winner, then the
    players in the reverse order they went out (L9).

    Raises:
        RatingError: the game has no winner yet.
    """
    out: list[int] = []
    winner: int | None = None
    for event in log:
        if isinstance(event, PlayerOut):
            out.append(event.seat)
        elif isinstance(event, GameWon):
            winner = event.seat
    if winner is None:
        raise RatingError("an unfinished game has no finishing order")
    return [winner, *reversed(out)]


@cache
def _shipped() -> dict[str, Any]:
    text = resources.files("tavern_dice.data").joinpath(RATINGS_FILE).read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def shipped_table() -> dict[str, Any]:
    """The shipped ratings file as read: ``{"all": {kind: {...}}, "sizes": {"2": ...},
    "measured": ..., "command": ...}``."""
    return _shipped()


def _entry(kind: str, row: Mapping[str, Any]) -> LevelRating:
    return LevelRating(kind, Rating(float(row["mu"]), float(row["sigma"])), int(row["games"]))


def level_rating(kind: str, players: int | None = None) -> LevelRating | None:
    """A level's measured rating: over every table size (``players`` ``None``), or at one
    size measured (2, 4 or 6); ``None`` for a bot that is not a rated level there."""
    table = _shipped()
    rows = table["all"] if players is None else table["sizes"].get(str(players), {})
    row = rows.get(kind.strip().lower())
    return None if row is None else _entry(kind.strip().lower(), row)


def rated_kinds() -> list[str]:
    """The bot kinds with a measured rating, strongest first."""
    rows = _shipped()["all"]
    return sorted(rows, key=lambda k: -float(rows[k]["mu"]))


def rate_people(
    people: Mapping[int, Rating], bots: Mapping[int, str], order: Sequence[int],
) -> dict[int, Rating]:
    """Each person's rating after a game: ``people`` (seat -> rating before) and ``bots``
    (seat -> level kind) finished in ``order`` (seats, best first). The levels' ratings
    are held fixed: only the people's move.

    Raises:
        RatingError: a bot that is not a rated level, or an order that does not name each
            seat once.
    """
    seats = set(people) | set(bots)
    if sorted(order) != sorted(seats) or len(seats) != len(people) + len(bots):
        raise RatingError(f"the finishing order {list(order)} does not name each seat once")
    current: dict[int, Rating] = dict(people)
    for seat, kind in bots.items():
        found = level_rating(kind)
        if found is None:
            raise RatingError(f"{kind!r} is not a rated level; rated: {', '.join(rated_kinds())}")
        current[seat] = found.rating
    rater = model(tau=PERSON_TAU)
    teams = [[rater.rating(mu=current[s].mu, sigma=current[s].sigma)] for s in order]
    new = rater.rate(teams, ranks=list(range(1, len(order) + 1)))
    return {seat: Rating(float(team[0].mu), float(team[0].sigma))
            for seat, team in zip(order, new, strict=True) if seat in people}


def is_rated_table(kinds: Iterable[str | None]) -> bool:
    """Whether a game at this table can be rated: every bot seat (kind not ``None``) is a
    rated level (a ``None`` is a person)."""
    return all(kind is None or level_rating(kind) is not None for kind in kinds)


__all__ = [
    "BETA", "MU", "PERSON_TAU", "SIGMA", "LevelRating", "Rating", "RatingError",
    "is_rated_table", "level_rating", "model", "placing", "rate_people", "rated_kinds",
]
