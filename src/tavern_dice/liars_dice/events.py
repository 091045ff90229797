"""Liar's Dice events. Inputs: :class:`~tavern_dice.events.DiceRolled`,
:class:`WagerMade`, :class:`Accused`; everything else is derived by the engine."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from tavern_dice.events import Event, slot_builder, slot_setter
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager


@dataclasses.dataclass(frozen=True, slots=True)
class RollOffResult(Event):
    """L2: the roll-off's sums; ``leaders`` roll again if more than one."""

    type: ClassVar[str] = "roll_off_result"
    seats: tuple[int, ...]
    sums: tuple[int, ...]
    leaders: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    """L3/L10/L11: a round begins; ``starter`` wagers first; ``sum_wagers`` marks the endgame."""

    type: ClassVar[str] = "round_started"
    round: int
    starter: int
    dice_counts: tuple[int, ...]
    sum_wagers: bool


@dataclasses.dataclass(frozen=True, slots=True)
class WagerMade(Event):
    """L4/L5/L10: ``seat`` wagers. ``quantity``/``face`` for a count wager, ``total`` for a sum."""

    type: ClassVar[str] = "wager_made"
    is_input: ClassVar[bool] = True
    seat: int
    quantity: int | None
    face: int | None
    total: int | None

    @staticmethod
    def of(seat: int, wager: AnyWager) -> WagerMade:
        """Build the event for ``wager``."""
        if type(wager) is Wager:  # the common case, built without __init__ (no checks to skip)
            event = _new(WagerMade)
            _set_seat(event, seat)
            _set_quantity(event, wager.quantity)
            _set_face(event, wager.face)
            _set_total(event, None)
            return event
        if isinstance(wager, SumWager):
            return WagerMade(seat, None, None, wager.total)
        return WagerMade(seat, wager.quantity, wager.face, None)

    @property
    def wager(self) -> AnyWager:
        """The wager this event records."""
        if self.total is not None:
            return SumWager(self.total)
        assert self.quantity is not None and self.face is not None
        return Wager(self.quantity, self.face)


# WagerMade.of and the new_* functions build the engine's events through their slots'
# setters (see tavern_dice.events.slot_setter): the same events, made faster.
_new = object.__new__
_set_seat = slot_setter(WagerMade, "seat")
_set_quantity = slot_setter(WagerMade, "quantity")
_set_face = slot_setter(WagerMade, "face")
_set_total = slot_setter(WagerMade, "total")


@dataclasses.dataclass(frozen=True, slots=True)
class Accused(Event):
    """L7: ``accuser`` calls ``wager_maker`` a liar."""

    type: ClassVar[str] = "accused"
    is_input: ClassVar[bool] = True
    accuser: int
    wager_maker: int


@dataclasses.dataclass(frozen=True, slots=True)
class Revealed(Event):
    """L8: all dice shown; ``count`` is the matching dice (or the sum); ``losers`` lose a die.

    ``outcome`` is ``'false'`` (the wager-maker loses), ``'true'`` (the accuser
    loses) or ``'spot-on'`` (everyone but the wager-maker loses). ``counted`` says, die by
    die of ``hands``, which dice counted toward the wager: those showing its face and,
    with a wild face, the wild dice (L6); every die of a sum wager (L10). It is derived
    from the hands and the wager, so it takes no part in comparing events, and a log
    written before it was recorded (``None`` there) replays to equal events.
    """

    type: ClassVar[str] = "revealed"
    hands: tuple[tuple[int, ...], ...]
    count: int
    outcome: str
    losers: tuple[int, ...]
    dice_counts: tuple[int, ...]
    counted: tuple[tuple[bool, ...], ...] | None = dataclasses.field(default=None, compare=False)


@dataclasses.dataclass(frozen=True, slots=True)
class PlayerOut(Event):
    """L9: ``seat`` has no dice left and is out of the game."""

    type: ClassVar[str] = "player_out"
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class GameWon(Event):
    """L9: ``seat`` is the last player with dice."""

    type: ClassVar[str] = "game_won"
    seat: int


new_accused = slot_builder(Accused)
"""``Accused(accuser, wager_maker)``, built through its slots' setters."""
new_revealed = slot_builder(Revealed)
"""``Revealed(hands, count, outcome, losers, dice_counts, counted)``, built through its
slots' setters."""
new_round_started = slot_builder(RoundStarted)
"""``RoundStarted(round, starter, dice_counts, sum_wagers)``, built through its slots'
setters."""
