"""Liar's Dice actions: one vocabulary for every caller (bots, people, the web, replays).

An action is a :class:`~tavern_dice.liars_dice.wager.Wager`, a
:class:`~tavern_dice.liars_dice.wager.SumWager` (L10) or :class:`Accuse` (L7), all
frozen. The game state answers the same four questions about any of them, seat first:
``legal_actions(seat)``, ``can(seat, action)``, ``verify(seat, action)`` and
``apply(seat, action)``, which returns the action's main event. The per-action methods
(``wager``, ``accuse``, ``verify_wager`` ...) stay as the engine's primitives.

A malformed action (something that is no action at all, such as the text ``"liar"``
passed where an action belongs) raises :class:`~tavern_dice.errors.InvalidActionError`;
an action the rules refuse now raises :class:`~tavern_dice.errors.IllegalActionError`
(python-chess keeps ``InvalidMoveError`` apart from ``IllegalMoveError`` the same way).

>>> from tavern_dice.dice import ScriptedDice
>>> from tavern_dice.liars_dice import LiarsDiceGame, LiarsDiceRules
>>> dice = ScriptedDice([(6, 6), (1, 4), (2, 2), (2, 5), (6, 6), (3,)])
>>> game = LiarsDiceGame(["Ann", "Bo"], rules=LiarsDiceRules(dice_per_player=2), dice=dice)
>>> game.legal_actions(0)[:3]
[Wager(quantity=1, face=1), Wager(quantity=1, face=2), Wager(quantity=1, face=3)]
>>> game.can(0, Accuse()), game.can(0, Wager(3, 2))     # no wager to call yet (L7)
(False, True)
>>> game.apply(0, Wager(3, 2))
WagerMade(seat=0, quantity=3, face=2, total=None)
>>> game.legal_actions(0), game.legal_actions(1)[-1]
([], Accuse())
>>> game.apply(1, Accuse()).outcome                      # three twos: spot-on (L8)
'spot-on'
>>> game.verify(1, "liar")                              # doctest: +ELLIPSIS
Traceback (most recent call last):
...
tavern_dice.errors.InvalidActionError: 'liar' is no Liar's Dice action; an action is ...
>>> parse_action("liar"), parse_action("3 twos")
(Accuse(), Wager(quantity=3, face=2))
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Final

from tavern_dice.errors import InvalidActionError, allowed
from tavern_dice.events import Event
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager, parse_wager

if TYPE_CHECKING:
    from tavern_dice.liars_dice.events import Revealed, WagerMade


@dataclass(frozen=True)  # no slots: a slotted frozen class without fields refuses
class Accuse:              # attributes with a TypeError, not as frozen
    """Call the standing wager a lie (L7: "another player can accuse the wager-maker of
    lying"). The seat that accuses is the one the action is applied for. Every
    ``Accuse()`` is equal to every other (it has no fields), and to nothing else."""

    kind: ClassVar[str] = "accuse"

    def code(self) -> str:
        """Short form ``'accuse'`` that :func:`parse_action` reads back."""
        return self.kind


LiarsDiceAction = Wager | SumWager | Accuse
"""Any Liar's Dice action."""

_ACTION_TYPES = frozenset({Wager, SumWager, Accuse})

ACCUSE: Final[Accuse] = Accuse()
"""An ``Accuse()`` to share: the one :meth:`LiarsDiceActions.legal_actions` lists, and
what bots answer (frozen, no fields: every ``Accuse()`` is equal, so one serves every
state)."""

ACCUSE_WORDS = frozenset({"accuse", "a", "liar", "l", "call", "lie", "lying"})
"""Words a person may type to accuse (``tavern play``)."""


def as_action(action: object) -> LiarsDiceAction:
    """``action`` if it is a Liar's Dice action.

    Raises:
        InvalidActionError: anything else, text included (text a person typed is read by
            :func:`parse_action`).
    """
    if type(action) in _ACTION_TYPES:  # type() first: asked at every decision
        return action  # type: ignore[return-value]
    if isinstance(action, Wager | SumWager | Accuse):
        return action
    raise InvalidActionError(
        f"{action!r} is no Liar's Dice action; an action is a Wager(quantity, face), a "
        "SumWager(total) or Accuse()"
    )


def parse_action(text: str) -> LiarsDiceAction:
    """Read an action a person typed: an accusation (``'accuse'``, ``'liar'``, ``'a'`` ...)
    or a wager in any form :func:`~tavern_dice.liars_dice.wager.parse_wager` reads.

    Raises:
        InvalidActionError: text that is neither.
    """
    if isinstance(text, str) and text.strip().lower() in ACCUSE_WORDS:
        return Accuse()
    return parse_wager(text)


class LiarsDiceActions:
    """The generic action methods of :class:`~tavern_dice.liars_dice.state.LiarsDiceGame`,
    written over its per-action primitives (kept apart so that the engine module holds
    the rules and this one only the dispatch)."""

    if TYPE_CHECKING:
        turn: int | None

        def legal_wagers(self) -> list[AnyWager]: ...
        def _legal_wagers(self) -> tuple[AnyWager, ...]: ...
        def can_accuse(self, seat: int) -> bool: ...
        def verify_wager(self, wager: AnyWager, seat: int | None = None) -> None: ...
        def verify_accuse(self, seat: int) -> None: ...
        def wager(self, wager: AnyWager, seat: int | None = None) -> WagerMade: ...
        def accuse(self, seat: int) -> Revealed: ...

    def legal_actions(self, seat: int | None = None) -> list[LiarsDiceAction]:
        """What ``seat`` (default: the player to act) may do now: on their turn the legal
        wagers, smallest first (L4, L5, L10), then :class:`Accuse` if a wager stands (L7);
        out of turn :class:`Accuse` alone, after another player's wager. Empty when
        ``seat`` may do nothing (no raise is legal: only ``Accuse``)."""
        turn = self.turn
        if seat is None:
            seat = turn
            if seat is None:
                return []
        actions: list[LiarsDiceAction] = (
            list(self._legal_wagers()) if seat == turn else []
        )
        if self.can_accuse(seat):
            actions.append(ACCUSE)
        return actions

    def verify(self, seat: int, action: LiarsDiceAction) -> None:
        """Raise if ``seat`` may not take ``action`` now.

        Raises:
            InvalidActionError: ``action`` is no action (see :func:`as_action`), or
                ``seat`` no seat number.
            IllegalActionError: the rules refuse it now; see ``verify_wager`` and
                ``verify_accuse``, whose messages say what would be legal.
        """
        action = as_action(action)
        if isinstance(action, Accuse):
            self.verify_accuse(seat)
        else:
            self.verify_wager(action, seat)

    def can(self, seat: int, action: LiarsDiceAction) -> bool:
        """Whether :meth:`verify` would pass."""
        return allowed(self.verify, seat, action)

    def apply(self, seat: int | LiarsDiceAction,
              action: LiarsDiceAction | int | None = None) -> Event:
        """``seat`` takes ``action`` (an item of :meth:`legal_actions`); return its main
        event: :class:`~tavern_dice.liars_dice.events.WagerMade` for a wager, the
        :class:`~tavern_dice.liars_dice.events.Revealed` that settles an accusation. A
        refused action changes nothing.

        The older order ``apply(action)`` / ``apply(action, seat)`` (the action first,
        the seat defaulting to the player to act) is still read: an alias kept for
        callers written before actions took the seat first.

        Raises:
            InvalidActionError, IllegalActionError: see :meth:`verify`.
        """
        kind = type(action)
        if type(seat) is int and kind in _ACTION_TYPES:  # the common case, checked below
            if kind is Accuse:
                return self.accuse(seat)
            return self.wager(action, seat)  # type: ignore[arg-type]
        actor: object = seat
        if type(seat) is not int and (action is None or type(action) is int):
            actor, action = (self.turn if action is None else action), seat
        chosen = as_action(action)
        # The primitives check the seat (a seat that is no number is an InvalidActionError).
        if isinstance(chosen, Accuse):
            return self.accuse(actor)  # type: ignore[arg-type]
        return self.wager(chosen, actor)  # type: ignore[arg-type]
