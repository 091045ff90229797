"""Message schemas of the web table (pydantic) and the size limits on what clients send.

Every client frame is one JSON object of at most :data:`MAX_FRAME_BYTES` bytes with
a ``"type"``; :func:`parse_frame` turns it into one of the frame models below or
raises :class:`ProtocolError` with an error code for the ``error`` reply. Schemas
are strict (no coercion of ``"3"`` to ``3``, no unknown fields). See
``docs/web-protocol.md``.

>>> parse_frame('{"type": "wager", "wager": "3x2", "id": 7}')
Wager(id=7, type='wager', wager='3x2')
>>> try:
...     parse_frame('{"type": "bet", "amount_cp": "200"}')
... except ProtocolError as error:
...     print(error.code, "|", error.message)
bad-message | amount_cp: Input should be a valid integer
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from tavern_dice.errors import TavernError

CLOSE_BAD_TOKEN = 4401
"""The WebSocket close code for a token that opens no seat (any more): the page forgets it."""
MAX_FRAME_BYTES = 4096
"""Largest client WebSocket frame, in bytes (UTF-8), that the server reads."""

MAX_BODY_BYTES = 4096
"""Largest HTTP request body the API reads."""

MAX_NAME = 32
MAX_ID = 64
MAX_GOLD_CP = 10**12

Ref = Annotated[str, Field(max_length=MAX_ID)] | StrictInt | None
Name = Annotated[str, Field(min_length=1, max_length=MAX_NAME)]
PlayerId = Annotated[str, Field(min_length=1, max_length=MAX_ID)]


class ProtocolError(TavernError):
    """A client frame the server cannot read; ``code`` goes into the ``error`` reply."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class _Frame(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)
    id: Ref = None


class Hello(_Frame):
    type: Literal["hello"]
    token: Annotated[str, Field(max_length=128)] | None = None


class Ping(_Frame):
    type: Literal["ping"]


class Wager(_Frame):
    """Liar's Dice: a wager code from the view's ``legal_wagers`` (``'3x2'``, ``'sum 7'``)."""

    type: Literal["wager"]
    wager: Annotated[str, Field(min_length=1, max_length=32)]


class Accuse(_Frame):
    """Liar's Dice: call the standing wager. ``round`` and ``wager`` (optional) name the
    wager the caller saw; if it no longer stands the call is refused, saying why."""

    type: Literal["accuse"]
    round: Annotated[StrictInt, Field(ge=0, le=10**6)] | None = None
    wager: Annotated[str, Field(min_length=1, max_length=32)] | None = None


class TypedDice(_Frame):
    """Liar's Dice with physical dice: the faces the sender's cup shows this round.

    ``faces`` is read by the engine's own check of the round's chance node (the count is
    the seat's dice, each face 1 to ``sides``), whose refusal names what would fit; so it
    is any JSON value here, a frame's 4 KiB bounding its size."""

    type: Literal["dice"]
    faces: Any


class ConfirmDice(_Frame):
    """Liar's Dice with physical dice: at a reveal, whether the sender's cup shows the
    faces revealed for their seat in ``round``."""

    type: Literal["confirm_dice"]
    round: Annotated[StrictInt, Field(ge=0, le=10**6)]
    match: StrictBool


class Bet(_Frame):
    type: Literal["bet"]
    amount_cp: Annotated[StrictInt, Field(ge=0, le=MAX_GOLD_CP)]


class SitOut(_Frame):
    type: Literal["sit_out"]


class Roll(_Frame):
    type: Literal["roll"]


class Stand(_Frame):
    type: Literal["stand"]
    bonus: Annotated[StrictInt, Field(ge=-100, le=100)] = 0


class AddBot(_Frame):
    type: Literal["add_bot"]
    kind: Annotated[str, Field(min_length=1, max_length=32)]
    name: Name | None = None


class Remove(_Frame):
    type: Literal["remove"]
    player_id: PlayerId


class Move(_Frame):
    type: Literal["move"]
    player_id: PlayerId
    to: Annotated[StrictInt, Field(ge=0, le=99)]


class SetOptions(_Frame):
    type: Literal["set_options"]
    options: dict[str, Any]


class Start(_Frame):
    type: Literal["start"]


class Pause(_Frame):
    type: Literal["pause"]


class Resume(_Frame):
    type: Literal["resume"]


class End(_Frame):
    type: Literal["end"]


class HouseRoll(_Frame):
    """Blackjack: roll the house's dice (digital), or give the DM's faces (manual)."""

    type: Literal["house_roll"]
    target: Annotated[StrictInt, Field(ge=-1000, le=1000)] | None = None
    house: Annotated[list[Annotated[StrictInt, Field(ge=-1000, le=1000)]],
                     Field(max_length=10)] | None = None


class D12(_Frame):
    type: Literal["d12"]
    face: Annotated[StrictInt, Field(ge=-1000, le=1000)]


class NextRound(_Frame):
    type: Literal["next_round"]


class RollFor(_Frame):
    """Liar's Dice with physical dice: the DM has the server roll a seat's hand (a player
    who never types would hold the table forever)."""

    type: Literal["roll_for"]
    seat: Annotated[StrictInt, Field(ge=0, le=100)]


class Grant(_Frame):
    type: Literal["grant"]
    player_id: PlayerId
    amount_cp: Annotated[StrictInt, Field(ge=-MAX_GOLD_CP, le=MAX_GOLD_CP)]


Frame = Annotated[
    Hello | Ping | Wager | Accuse | TypedDice | ConfirmDice | Bet | SitOut | Roll | Stand
    | AddBot | Remove | Move | SetOptions | Start | Pause | Resume | End | HouseRoll | D12
    | NextRound | RollFor | Grant,
    Field(discriminator="type"),
]

PLAYER_FRAMES = (Wager, Accuse, TypedDice, ConfirmDice, Bet, SitOut, Roll, Stand)
"""Frames a player sends for their own seat."""
HOST_FRAMES = (AddBot, Remove, Move, SetOptions, Start, Pause, Resume, End, HouseRoll, D12,
               NextRound, RollFor, Grant)
"""Frames only the host (DM) may send."""


class _Envelope(BaseModel):
    model_config = ConfigDict(strict=True)
    frame: Frame


def parse_frame(data: str | bytes | None) -> Any:
    """Read one client frame (a JSON text of at most :data:`MAX_FRAME_BYTES` bytes).

    Returns:
        one of the frame models (``Hello``, ``Wager``, ...).

    Raises:
        ProtocolError: code ``too-large``, ``bad-json`` or ``bad-message``.
    """
    if data is None or isinstance(data, bytes):
        raise ProtocolError("bad-json", "send JSON objects as text frames")
    if len(data) > MAX_FRAME_BYTES or len(data.encode("utf-8")) > MAX_FRAME_BYTES:
        raise ProtocolError("too-large", f"frames are at most {MAX_FRAME_BYTES} bytes")
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        raise ProtocolError("bad-json", "the frame is not JSON") from None
    if not isinstance(raw, dict):
        raise ProtocolError("bad-json", "a frame is a JSON object with a 'type'")
    try:
        return _Envelope.model_validate({"frame": raw}).frame
    except ValidationError as error:
        first = error.errors()[0]
        # loc is ("frame", <type tag>, field, ...); the first two say nothing to a client.
        where = ".".join(str(part) for part in first["loc"][2:])
        message = f"{where}: {first['msg']}" if where else str(first["msg"])
        raise ProtocolError("bad-message", message) from None


def frame_ref(data: str | bytes | None) -> str | int | None:
    """The ``id`` of a frame that failed to parse, if it can be read at all (for ``ref``)."""
    if not isinstance(data, str) or len(data) > MAX_FRAME_BYTES:
        return None
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError):
        return None
    ref = raw.get("id") if isinstance(raw, dict) else None
    if isinstance(ref, str) and len(ref) <= MAX_ID:
        return ref
    if isinstance(ref, int) and not isinstance(ref, bool):
        return ref
    return None


# ---------------------------------------------------------------------- HTTP bodies


class TableOptions(BaseModel):
    """A table's options (see ``docs/web-protocol.md``). ``None`` for ``standin_bot``
    means the game's default stand-in."""

    model_config = ConfigDict(extra="forbid", strict=True)
    grace_s: Annotated[StrictInt, Field(ge=0, le=3600)] = 30
    turn_timer_s: Annotated[StrictInt, Field(ge=0, le=3600)] = 0
    standin_bot: Annotated[str, Field(max_length=32)] | None = None
    bot_delay_ms: Annotated[StrictInt, Field(ge=0, le=10_000)] = 700
    starting_gold_cp: Annotated[StrictInt, Field(ge=0, le=MAX_GOLD_CP)] = 1000
    stake_cp: Annotated[StrictInt, Field(ge=0, le=MAX_GOLD_CP)] = 0
    dice_mode: Literal["digital", "manual"] = "digital"
    auto_house: StrictBool = False
    rated: StrictBool = False


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    game: Literal["liars-dice", "blackjack"]
    name: Annotated[str, Field(max_length=64)] = ""
    preset: Annotated[str, Field(max_length=32)] = "tavern"
    rules: dict[str, Any] = Field(default_factory=dict)
    options: dict[str, Any] = Field(default_factory=dict)


class HostLink(BaseModel):
    """``POST /api/tables/{id}/host-link``: the DM key, to get the DM link and its QR code."""

    model_config = ConfigDict(extra="forbid", strict=True)
    host_token: Annotated[str, Field(min_length=1, max_length=128)]


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    name: Annotated[str, Field(max_length=200)]
    proficiency: Annotated[StrictInt, Field(ge=0, le=30)] | None = None
