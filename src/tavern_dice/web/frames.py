"""The ``state`` frames a table sends: each connection gets its own seat's view only.

A frame is JSON text, built once per distinct reader per change and encoded in parts,
each part once: the table summary and the parts of the game every seat shares are
encoded once per change (by :class:`Frames`), each seat's view once per change, and each
log entry once per reader who may see it differently (entries every viewer sees alike,
everything but secret rolls, once per game: ``GameSession.public_events``). A frame is
those parts joined; two connections with the same seat, role and unsent log entries get
the same text. Encoding is :mod:`orjson`'s (several times :mod:`json`'s speed on these
frames; ``benchmarks/web_frames.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Protocol

import orjson

from tavern_dice.web import physical
from tavern_dice.web.journal import GameSession
from tavern_dice.web.seating import Seating

_OPTIONS = orjson.OPT_NON_STR_KEYS
"""As :func:`json.dumps` does: a number used as a key becomes text."""


def encode(value: Any) -> str:
    """``value`` as compact JSON text (a frame; text, as WebSocket text frames carry)."""
    try:
        return orjson.dumps(value, option=_OPTIONS).decode()
    except orjson.JSONEncodeError:
        # What orjson refuses and json writes: an integer beyond 64 bits (a client's
        # frame ``id`` echoed as ``ref``).
        return json.dumps(value, separators=(",", ":"))


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
        self._table: str | None = None
        self._shared_game: str | None = None
        self._shared_view: str | None = None
        self._public: Any = None
        """The public view (``seat=None``) of this change, once built."""
        self._games: dict[tuple[int | None, int], str] = {}
        self._texts: dict[tuple[str, str | None, int | None, int], str] = {}
        self._you: dict[tuple[str, str | None, int | None], str] = {}
        """Each reader's ``you`` object: it never changes, so it is kept across changes."""

    def changed(self) -> None:
        """The table changed: every frame is built afresh."""
        self._table = None
        self._shared_game = None
        self._shared_view = None
        self._public = None
        self._games = {}
        self._texts = {}

    def state_text(self, s: GameSession | None, conn: Listener) -> str:
        """The ``state`` frame for ``conn`` (noting the log entries it has now been sent)."""
        seat = s.seat_of(conn.player_id) if s is not None else None
        start = 0
        if s is not None:
            start = conn.sent_events if conn.sent_game == s.id else 0
            start = min(start, len(s.engine.log))
        key = (conn.role, conn.player_id, seat, start)
        text = self._texts.get(key)
        if text is None:
            table = self._table
            if table is None:
                table = self._table = encode(self._summary())
            game = "null" if s is None else self._game(s, seat, start)
            you_key = (conn.role, conn.player_id, seat)
            you = self._you.get(you_key)
            if you is None:
                you = self._you[you_key] = encode(
                    {"role": conn.role, "player_id": conn.player_id, "seat": seat})
            # The frame {"type", "you", "table", "game"}, joined from its encoded parts.
            text = self._texts[key] = (
                f'{{"type":"state","you":{you},"table":{table},"game":{game}}}')
        if s is not None:
            conn.sent_game = s.id
            conn.sent_events = len(s.engine.log)
        return text

    def _game(self, s: GameSession, seat: int | None, events_from: int) -> str:
        """The ``game`` object for ``seat``, with the log entries from ``events_from``:
        the shared parts, then ``view``, ``events_from`` and ``events``."""
        key = (seat, events_from)
        game = self._games.get(key)
        if game is None:
            shared = self._shared_game
            if shared is None:
                shared = self._shared_game = encode(self._shared(s))
            view = self._view(s, seat)
            events = ",".join([event_text(s, index, seat)
                               for index in range(events_from, len(s.engine.log))])
            # The shared object is never empty: its closing brace gives way to the rest.
            game = self._games[key] = (
                f'{shared[:-1]},"view":{view},"events_from":{events_from},'
                f'"events":[{events}]}}')
        return game

    def _view(self, s: GameSession, seat: int | None) -> str:
        """``seat``'s view, encoded: its own fields (``personal_dict``) joined to the
        fields every viewer sees alike (``shared_dict``), which are encoded once per
        change, from the public view (a seat's may list its legal actions, at length)."""
        public = self._public
        if public is None:
            public = self._public = s.engine.view(None)
            self._shared_view = encode(public.shared_dict())
        assert self._shared_view is not None
        view = public if seat is None else s.engine.view(seat)
        return _join_objects(encode(view.personal_dict()), self._shared_view)


def _join_objects(first: str, second: str) -> str:
    """Two encoded JSON objects with no key in common, as one."""
    if first == "{}":
        return second
    if second == "{}":
        return first
    return f"{first[:-1]},{second[1:]}"


def event_text(s: GameSession, index: int, seat: int | None) -> str:
    """One log entry as ``seat`` may see it, encoded. Entries that mask to themselves
    (everything but secret rolls) are public, so they are encoded once per game."""
    event = s.engine.log[index]
    masked = event.masked_for(seat)
    if masked is not event:
        return encode(masked.to_dict())
    text = s.public_events.get(index)
    if text is None:
        text = s.public_events[index] = encode(event.to_dict())
    return text


def shared_game(s: GameSession, seating: Seating, timer: dict[str, Any] | None,
                pending_roll: dict[str, Any] | None, *, dice_checks: bool,
                ratings: dict[str, Any] | None = None) -> dict[str, Any]:
    """The parts of the ``game`` object every seat sees alike: seats and presence, the
    open round's commitments and the latest proofs, players' answers at the latest
    reveal (``dice_checks``: a table whose players type their dice), the turn timer, the
    dice the table waits for, why the server paused the game, and a finished rated
    game's standings with the people's ratings (public: they follow from the finishing
    order, which everyone saw)."""
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
        "ratings": ratings,
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
