"""Who sits at a table: occupants and the seat list, seat tokens, names, and presence.

A table's :class:`Seating` knows every person or bot ever seated there (identity across
games: ``player_id``), the seat list for the next game, the hashes of the seat tokens,
and who is connected now. A person whose last connection closed is *away*; once the
grace period passes (:mod:`.schedule`) they are *covered*: a stand-in bot plays for them
until they return. Nothing here writes to the store or sends a frame.
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable
from typing import Any

from tavern_dice.web.catalog import ActionError
from tavern_dice.web.names import same_name
from tavern_dice.web.rows import PlayerRow
from tavern_dice.web.store import token_hash

REMOVED = "the DM took you off this table's seat list; join again to sit down"
"""What a removed player's page is told (its seat token then opens nothing)."""


@dataclasses.dataclass(slots=True)
class Occupant:
    """A person or bot at a table (identity across games: ``player_id``)."""

    player_id: str
    name: str
    kind: str
    bot_kind: str | None
    proficiency: int | None


class Seating:
    """The people and bots at one table, and who of them is here now."""

    def __init__(self, seats: Iterable[str], players: Iterable[PlayerRow]) -> None:
        players = list(players)
        self.seat_list: list[str] = list(seats)
        """Player ids in seat order for the next game (the host arranges it)."""
        self.occupants: dict[str, Occupant] = {
            r.id: Occupant(r.id, r.name, r.kind, r.bot_kind, r.proficiency) for r in players
        }
        self.token_hashes: dict[str, str] = {
            r.token_hash: r.id for r in players if r.token_hash is not None
        }
        self.online: dict[str, int] = {}
        """Open connections per person."""
        self.covered: set[str] = set()
        """People away past the grace period: a stand-in plays for them."""

    def add(self, occupant: Occupant, digest: str | None) -> None:
        """Seat a new occupant last (``digest``: their seat token's hash, if a person)."""
        self.seat_list = [*self.seat_list, occupant.player_id]
        self.occupants[occupant.player_id] = occupant
        if digest is not None:
            self.token_hashes[digest] = occupant.player_id

    def known(self, pid: str) -> Occupant:
        """The occupant ``pid``.

        Raises:
            ActionError: ``illegal``, no such player at this table.
        """
        occupant = self.occupants.get(pid)
        if occupant is None:
            raise ActionError("illegal", f"no player {pid!r} at this table")
        return occupant

    def seated(self, pid: str) -> None:
        """Refuse a player who is not on the seat list.

        Raises:
            ActionError: ``illegal`` for an unknown player or one with no seat.
        """
        self.known(pid)
        if pid not in self.seat_list:
            raise ActionError("illegal", "that player has no seat in the seat list")

    # ------------------------------------------------------------------ tokens

    def role_for(self, token: str | None, host_hash: str,
                 playing: Iterable[str] = ()) -> tuple[str, str | None]:
        """``(role, player_id)`` for a token; ``None`` is a spectator.

        Raises:
            ActionError: ``bad-token`` for a token that is neither the host's (whose hash
                is ``host_hash``) nor a player's, or the token of a player the DM removed
                (on neither the seat list nor among ``playing``, the running game's).
        """
        if token is None:
            return "spectator", None
        digest = token_hash(token)
        if secrets.compare_digest(digest, host_hash):
            return "host", None
        pid = self.token_hashes.get(digest)
        if pid is None:
            raise ActionError("bad-token", "this token belongs to no seat at this table")
        if pid not in self.seat_list and pid not in playing:
            raise ActionError("bad-token", REMOVED)
        return "player", pid

    # ------------------------------------------------------------------ names

    def names_in_use(self, playing: Iterable[str]) -> list[str]:
        """Names of everyone on the seat list or among ``playing`` (the running game's)."""
        pids = set(self.seat_list) | set(playing)
        return [self.occupants[pid].name for pid in pids]

    def check_name_free(self, name: str, playing: Iterable[str]) -> None:
        """Refuse a name someone at the table already has: the log and the reveal name
        players, and two Anns could not be told apart.

        Raises:
            ActionError: naming the clash.
        """
        if any(same_name(name, taken) for taken in self.names_in_use(playing)):
            raise ActionError("conflict", f"someone at this table is already called "
                              f"{name!r}; choose another name", "name")

    def bot_name(self, kind: str, playing: Iterable[str]) -> str:
        """A free name for an unnamed bot: a rated level's persona name (``Mags``), else
        ``Random Bot``; numbered, so two of a kind can be told apart."""
        from tavern_dice.bots.levels import persona_of

        taken = self.names_in_use(playing)
        found = persona_of(kind)
        base = name = f"{kind.title()} Bot" if found is None else found.name
        number = 1
        while any(same_name(name, t) for t in taken):
            number += 1
            name = f"{base} {number}"
        return name

    # ------------------------------------------------------------------ presence

    def presence(self, pid: str) -> str:
        """``bot``, ``online``, ``covered`` (a stand-in plays) or ``away``."""
        if self.occupants[pid].kind == "bot":
            return "bot"
        if self.online.get(pid):
            return "online"
        return "covered" if pid in self.covered else "away"

    def occupant_dict(self, pid: str) -> dict[str, Any]:
        """An occupant as the table summary lists them (``Occupant`` in the protocol)."""
        o = self.occupants[pid]
        return {"player_id": pid, "name": o.name, "kind": o.kind, "bot_kind": o.bot_kind,
                "proficiency": o.proficiency, "presence": self.presence(pid)}

    def server_plays(self, pid: str) -> bool:
        """Whether the server plays ``pid``'s seat: a bot, or a covered person."""
        return self.occupants[pid].kind == "bot" or pid in self.covered

    def arrive(self, pid: str) -> None:
        """A connection of ``pid`` opened: they are here (and no longer covered)."""
        self.online[pid] = self.online.get(pid, 0) + 1
        self.covered.discard(pid)

    def leave(self, pid: str) -> bool:
        """A connection of ``pid`` closed; return whether it was their last."""
        self.online[pid] = max(0, self.online.get(pid, 0) - 1)
        return not self.online[pid]

    def away_people(self, pids: Iterable[str]) -> list[str]:
        """The people among ``pids`` with no connection open."""
        return [pid for pid in pids
                if self.occupants[pid].kind == "person" and not self.online.get(pid)]
