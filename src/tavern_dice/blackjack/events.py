"""Dice Blackjack events. Inputs: :class:`BetPlaced`, :class:`SatOut`,
:class:`~tavern_dice.events.DiceRolled`, :class:`RolledAgain`, :class:`Stood`;
the rest is derived by the engine. Amounts are integer copper pieces (cp)."""

from __future__ import annotations

import dataclasses
from typing import ClassVar

from tavern_dice.events import Event


@dataclasses.dataclass(frozen=True, slots=True)
class RoundOpened(Event):
    """B2/B9: a round opens for bets; ``eligible`` seats have gold for the table minimum."""

    type: ClassVar[str] = "round_opened"
    round: int
    eligible: tuple[int, ...]
    balances: tuple[int, ...]


@dataclasses.dataclass(frozen=True, slots=True)
class BetPlaced(Event):
    """B2: ``seat`` stakes ``amount`` cp before any die is rolled."""

    type: ClassVar[str] = "bet_placed"
    is_input: ClassVar[bool] = True
    seat: int
    amount: int


@dataclasses.dataclass(frozen=True, slots=True)
class SatOut(Event):
    """B2/B9: ``seat`` does not play this round."""

    type: ClassVar[str] = "sat_out"
    is_input: ClassVar[bool] = True
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class TargetSet(Event):
    """B3: the house's large d20 sets the target number."""

    type: ClassVar[str] = "target_set"
    target: int


@dataclasses.dataclass(frozen=True, slots=True)
class HouseRolled(Event):
    """B5: the house's two d20s; ``house_roll`` is the best not over the target, or ``None``
    if the house busts."""

    type: ClassVar[str] = "house_rolled"
    dice: tuple[int, ...]
    house_roll: int | None


@dataclasses.dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    """B6: ``seat`` starts rolling d12s."""

    type: ClassVar[str] = "turn_started"
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class RolledAgain(Event):
    """B6: ``seat`` asks for another d12 (the first is rolled without asking)."""

    type: ClassVar[str] = "rolled_again"
    is_input: ClassVar[bool] = True
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class TotalChanged(Event):
    """B6: ``seat``'s d12s now add up to ``total``; ``bust`` if it is over the target."""

    type: ClassVar[str] = "total_changed"
    seat: int
    total: int
    bust: bool


@dataclasses.dataclass(frozen=True, slots=True)
class Stood(Event):
    """B6/B7: ``seat`` stands, adding ``bonus`` (0..ceil(PB/2)) for proficiency."""

    type: ClassVar[str] = "stood"
    is_input: ClassVar[bool] = True
    seat: int
    bonus: int


@dataclasses.dataclass(frozen=True, slots=True)
class Settled(Event):
    """B4/B8: ``seat``'s bet is settled.

    ``outcome`` is one of ``'collected'`` (target 1), ``'bust'``, ``'exact'`` (1.5x),
    ``'house-bust'``, ``'win'`` or ``'lose'``; ``delta`` is the player's gain in cp
    (negative for a loss); ``balance`` the player's balance after it.
    """

    type: ClassVar[str] = "settled"
    seat: int
    bet: int
    final: int | None
    outcome: str
    delta: int
    balance: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoundClosed(Event):
    """The round is over; ``house_net`` is the house's gain in cp over the whole session."""

    type: ClassVar[str] = "round_closed"
    round: int
    house_net: int
