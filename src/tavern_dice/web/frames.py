"""The ``state`` frames a table sends: each connection gets its own seat's view only.

A frame is a dict encoded with :func:`json.dumps`, once per distinct reader per change:
the table summary, the parts of the game every seat shares, each seat's view and the log
entries a connection has not had yet are built once per change (by :class:`Frames`) and
reused for every connection that reads them; log entries every viewer sees alike are
turned into JSON-ready data once per game (``GameSession.public_events``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

from tavern_dice.web import physical
from tavern_dice.web.journal import GameSession
from tavern_dice.web.seating import Seating


class Listener(Protocol):
    """A connection as a table sees it (implemented by :class:`~tavern_dice.web.ws.Connection`)."""

    role: str
    player_id: str | None
    sent_game: str | None
    sent_events: int

    def send_text(self, text: str) -> None:
        """Queue one frame; never blocks."""
        ...

    def close_soon(self, code: int, reason: str) -> None:
        """Close the connection (the table is leaving this process); never blocks."""
        ...


class Frames:
    """The ``state`` frames of one table, cached until the table's next change.

    Args:
        summary: the public table summary (``TableSummary``).
        shared: the ``game`` object's parts every seat sees alike (seats, commitments,
            proofs, dice checks, timer, pending roll, notice), without the view and log.
    """

    def __init__(self, summary: Callable[[], dict[str, Any]],
                 shared: Callable[[GameSession], dict[str, Any]]) -> None:
        self._summary = summary
        self._shared = shared
        self._table: dict[str, Any] | None = None
        self._shared_game: dict[str, Any] | None = None
        self._games: dict[tuple[int | None, int], dict[str, Any]] = {}
        self._texts: dict[tuple[str, str | None, int | None, int], str] = {}

    def changed(self) -> None:
        """The table changed: every frame is built afresh."""
        self._table = None
        self._shared_game = None
        self._games = {}
        self._texts = {}

    def state_text(self, s: GameSession | None, conn: Listener) -> str:
        """The ``state`` frame for ``conn`` (noting the log entries it has now been sent)."""
        if self._table is None:
            self._table = self._summary()
        seat = s.seat_of(conn.player_id) if s is not None else None
        start = 0
        if s is not None:
            start = conn.sent_events if conn.sent_game == s.id else 0
            start = min(start, len(s.engine.log))
        key = (conn.role, conn.player_id, seat, start)
        text = self._texts.get(key)
        if text is None:
            game = None if s is None else self._game(s, seat, start)
            frame = {"type": "state",
                     "you": {"role": conn.role, "player_id": conn.player_id, "seat": seat},
                     "table": self._table, "game": game}
            text = self._texts[key] = json.dumps(frame, separators=(",", ":"))
        if s is not None:
            conn.sent_game = s.id
            conn.sent_events = len(s.engine.log)
        return text

    def _game(self, s: GameSession, seat: int | None, events_from: int) -> dict[str, Any]:
        """The ``game`` object for ``seat``, with the log entries from ``events_from``."""
        key = (seat, events_from)
        game = self._games.get(key)
        if game is None:
            if self._shared_game is None:
                self._shared_game = self._shared(s)
            view: dict[str, Any] = s.engine.view(seat).to_dict(include_log=False)
            events = [event_data(s, index, seat)
                      for index in range(events_from, len(s.engine.log))]
            game = self._games[key] = {**self._shared_game, "view": view,
                                       "events_from": events_from, "events": events}
        return game


def event_data(s: GameSession, index: int, seat: int | None) -> dict[str, Any]:
    """One log entry as ``seat`` may see it. Entries that mask to themselves (everything
    but secret rolls) are public, so they are turned into data once."""
    event = s.engine.log[index]
    masked = event.masked_for(seat)
    if masked is not event:
        return masked.to_dict()
    data = s.public_events.get(index)
    if data is None:
        data = s.public_events[index] = event.to_dict()
    return data


def shared_game(s: GameSession, seating: Seating, timer: dict[str, Any] | None,
                pending_roll: dict[str, Any] | None, *, dice_checks: bool) -> dict[str, Any]:
    """The parts of the ``game`` object every seat sees alike: seats and presence, the
    open round's commitments and the latest proofs, players' answers at the latest
    reveal (``dice_checks``: a table whose players type their dice), the turn timer, the
    dice the table waits for, and why the server paused the game."""
    occupants = seating.occupants
    return {
        "game_id": s.id,
        "game": s.kind,
        "status": s.status,
        "seats": [
            {"seat": i, "player_id": pid, "name": occupants[pid].name,
             "kind": occupants[pid].kind, "presence": seating.presence(pid)}
            for i, pid in enumerate(s.seats)
        ],
        "commitments": _commitments_public(s),
        "proofs": _proofs(s),
        "dice_checks": physical.checks_public(s) if dice_checks else None,
        "server_rolled": physical.server_rolled(
            s, lambda seat: occupants[s.seats[seat]].kind != "bot") if dice_checks else None,
        "timer": timer,
        "pending_roll": pending_roll,
        "notice": s.notice,
    }


def _commitments_public(s: GameSession) -> dict[str, Any] | None:
    if s.open_round is None:
        return None
    items = [c.public() for c in s.commitments.get(s.open_round, {}).values()]
    return {"round": s.open_round, "items": items}


def _proofs(s: GameSession) -> dict[str, Any] | None:
    if s.proof_round is None:
        return None
    items = [c.proof() for c in s.commitments.get(s.proof_round, {}).values() if c.revealed]
    return {"round": s.proof_round, "items": items}
