"""Dice Blackjack actions: one vocabulary for every caller (bots, people, the web, replays).

A player's action is :class:`Bet` or :class:`SitOut` while bets are open (B2), then
:class:`Roll` or :class:`Stand` on their turn (B6, B7), all frozen. The game state
answers the same four questions about any of them, seat first, as Liar's Dice does:
``legal_actions(seat)``, ``can(seat, action)``, ``verify(seat, action)`` and
``apply(seat, action)``, which returns the action's event. The per-action methods
(``place_bet``, ``sit_out``, ``roll_again``, ``stand`` and their ``verify_*``) stay as
the engine's primitives. A malformed action raises
:class:`~tavern_dice.errors.InvalidActionError`, one the rules refuse now
:class:`~tavern_dice.errors.IllegalActionError`.

>>> from tavern_dice.blackjack import BlackjackGame
>>> from tavern_dice.dice import ScriptedDice
>>> game = BlackjackGame(["Ann"], dice=ScriptedDice([(14,), (9, 17), (8,), (5,)]),
...                      balances=1000, proficiency=[4])
>>> game.legal_actions(0)                        # any bet from 1 cp to the balance
[Bet(amount=1), Bet(amount=1000), SitOut()]
>>> game.apply(0, Bet(300))
BetPlaced(seat=0, amount=300)
>>> game.legal_actions(0)                        # total 8 against the target 14
[Roll(), Stand(bonus=0), Stand(bonus=1), Stand(bonus=2)]
>>> game.apply(0, Roll()), game.can(0, Stand(2)), game.can(0, Stand(1))
(RolledAgain(seat=0), False, True)
>>> game.apply(0, Stand(1))                      # 13 + 1: on the target
Stood(seat=0, bonus=1)
>>> Stand(1.5)                                    # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tavern_dice.errors.InvalidActionError: a bonus is a whole number of points, ... not Stand(1.5)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from tavern_dice.errors import InvalidActionError, allowed
from tavern_dice.events import Event

if TYPE_CHECKING:
    from tavern_dice.blackjack.events import BetPlaced, RolledAgain, SatOut, Stood


def _whole(value: object) -> bool:
    # type(), not isinstance(): True is an int to Python but no amount.
    return type(value) is int


@dataclass(frozen=True, slots=True)
class Bet:
    """Stake ``amount`` cp on this round (B2: "whoever wants to play places their bet")."""

    kind: ClassVar[str] = "bet"
    amount: int

    def __post_init__(self) -> None:
        if not _whole(self.amount):
            raise InvalidActionError(
                f"a bet is a whole number of cp, such as Bet(100) for 1 gp, not "
                f"Bet({self.amount!r})"
            )


@dataclass(frozen=True, slots=True)
class SitOut:
    """Sit this round out (B2: only "whoever wants to play" bets)."""

    kind: ClassVar[str] = "sit-out"


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll another d12 and add it (B6: "they can roll another d12")."""

    kind: ClassVar[str] = "roll"


@dataclass(frozen=True, slots=True)
class Stand:
    """Stand on the total plus ``bonus`` points of proficiency (B6, B7)."""

    kind: ClassVar[str] = "stand"
    bonus: int = 0

    def __post_init__(self) -> None:
        if not _whole(self.bonus):
            raise InvalidActionError(
                f"a bonus is a whole number of points, such as Stand(1), not "
                f"Stand({self.bonus!r})"
            )


BlackjackAction = Bet | SitOut | Roll | Stand
"""Any Dice Blackjack action."""

_ACTIONS = (Bet, SitOut, Roll, Stand)


def as_action(action: object) -> BlackjackAction:
    """``action`` if it is a Dice Blackjack action.

    Raises:
        InvalidActionError: anything else (the kind names of ``action_kinds`` included:
            ``"stand"`` does not say with what bonus).
    """
    if isinstance(action, _ACTIONS):
        return action
    raise InvalidActionError(
        f"{action!r} is no Dice Blackjack action; an action is Bet(cp), SitOut(), Roll() "
        "or Stand(bonus)"
    )


class BlackjackActions:
    """The generic action methods of :class:`~tavern_dice.blackjack.state.BlackjackGame`,
    written over its per-action primitives."""

    if TYPE_CHECKING:
        def bet_limits(self, seat: int) -> tuple[int, int]: ...
        def legal_bonuses(self, seat: int) -> tuple[int, ...]: ...
        def can_roll_again(self, seat: int) -> bool: ...
        def verify_bet(self, seat: int, amount: int) -> None: ...
        def verify_roll_again(self, seat: int) -> None: ...
        def verify_stand(self, seat: int, bonus: int = 0) -> None: ...
        def _verify_betting_seat(self, seat: int) -> None: ...
        def place_bet(self, seat: int, amount: int) -> BetPlaced: ...
        def sit_out(self, seat: int) -> SatOut: ...
        def roll_again(self, seat: int) -> RolledAgain: ...
        def stand(self, seat: int, bonus: int = 0) -> Stood: ...

    def action_kinds(self, seat: int) -> list[str]:
        """The kinds of action ``seat`` may take now: ``'bet'`` and ``'sit-out'`` while they
        may bet, ``'roll'`` and ``'stand'`` on their turn (what views and the web page show,
        and what ``legal_actions`` returned before actions had a type)."""
        if self.can_sit_out(seat):
            return [Bet.kind, SitOut.kind]
        if self.can_roll_again(seat):
            return [Roll.kind, Stand.kind]
        return []

    def legal_actions(self, seat: int) -> list[BlackjackAction]:
        """What ``seat`` may do now. While they may bet: ``Bet`` at the smallest and the
        largest amount of :meth:`bet_limits` (every whole amount between is legal too),
        and ``SitOut()`` (B2). On their turn, once their d12 is rolled: ``Roll()``, and
        ``Stand(bonus)`` for each of :meth:`legal_bonuses` (B6, B7). Else nothing."""
        if self.can_sit_out(seat):
            low, high = self.bet_limits(seat)
            bets = [Bet(low)] if low == high else [Bet(low), Bet(high)]
            return [*bets, SitOut()]
        if self.can_roll_again(seat):
            return [Roll(), *(Stand(b) for b in self.legal_bonuses(seat))]
        return []

    def verify_sit_out(self, seat: int) -> None:
        """Raise if ``seat`` may not sit this round out (bets are closed, the seat has
        not the table minimum, or it has already bet or sat out)."""
        self._verify_betting_seat(seat)

    def can_sit_out(self, seat: int) -> bool:
        """Whether :meth:`verify_sit_out` would pass."""
        return allowed(self.verify_sit_out, seat)

    def verify(self, seat: int, action: BlackjackAction) -> None:
        """Raise if ``seat`` may not take ``action`` now.

        Raises:
            InvalidActionError: ``action`` is no action (see :func:`as_action`).
            IllegalActionError: the rules refuse it now (its message says what is legal):
                see ``verify_bet``, ``verify_sit_out``, ``verify_roll_again`` and
                ``verify_stand``.
        """
        chosen = as_action(action)
        if isinstance(chosen, Bet):
            self.verify_bet(seat, chosen.amount)
        elif isinstance(chosen, SitOut):
            self.verify_sit_out(seat)
        elif isinstance(chosen, Roll):
            self.verify_roll_again(seat)
        else:
            self.verify_stand(seat, chosen.bonus)

    def can(self, seat: int, action: BlackjackAction) -> bool:
        """Whether :meth:`verify` would pass."""
        return allowed(self.verify, seat, action)

    def apply(self, seat: int, action: BlackjackAction) -> Event:
        """``seat`` takes ``action``; return its event (``BetPlaced``, ``SatOut``,
        ``RolledAgain`` or ``Stood``). A refused action changes nothing.

        Raises:
            InvalidActionError, IllegalActionError: see :meth:`verify`.
        """
        chosen = as_action(action)
        if isinstance(chosen, Bet):
            return self.place_bet(seat, chosen.amount)
        if isinstance(chosen, SitOut):
            return self.sit_out(seat)
        if isinstance(chosen, Roll):
            return self.roll_again(seat)
        return self.stand(seat, chosen.bonus)
