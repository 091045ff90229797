"""Liar's Dice actions as numbers, the way OpenSpiel and Gymnasium want them.

One numbering serves a whole game, whatever the dice in play; a number stands for one of
the engine's actions (:mod:`tavern_dice.liars_dice.actions`) or for :data:`PASS`:

* ``0 .. max_dice * sides - 1``: face wagers, ``(quantity - 1) * sides + (face - 1)``
  ("at least 3 twos", L4), quantities up to every die the game starts with;
* then, if the ruleset has the sum endgame (L10), the sum wagers ``2 .. 2 * sides``;
* then :attr:`LiarsActions.accuse` (L7: "accuse the wager-maker of lying") and
  :attr:`LiarsActions.pass_` (let the accusation window go by, see
  :mod:`~tavern_dice.interop.liars_table`).

Numbers grow with the wager in the ``standard`` order, so a list of legal wagers in
the engine's order is sorted, as OpenSpiel requires.

>>> from tavern_dice.liars_dice import Accuse, Wager, SumWager
>>> acts = LiarsActions(sides=6, max_dice=10, sum_wagers=True)
>>> acts.encode(Wager(3, 2)), acts.decode(13), acts.label(acts.encode(SumWager(7)))
(13, Wager(quantity=3, face=2), 'sum 7')
>>> acts.accuse, acts.pass_, acts.num_actions, acts.label(acts.accuse)
(71, 72, 73, 'accuse')
>>> acts.decode(acts.accuse), acts.decode(acts.pass_), acts.encode(Accuse())
(Accuse(), Pass(), 71)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import ClassVar, Final

import numpy as np

from tavern_dice.errors import InvalidActionError
from tavern_dice.liars_dice.actions import ACCUSE, Accuse, LiarsDiceAction
from tavern_dice.liars_dice.wager import SumWager, Wager


@dataclass(frozen=True)
class Pass:
    """Let the accusation window go by without accusing. No engine action: the engine
    asks nobody to pass (L7's "if no one ... wants to call their bluff"); the frameworks'
    turn-based tables need a move for it."""

    kind: ClassVar[str] = "pass"

    def code(self) -> str:
        """Short form ``'pass'``."""
        return self.kind


PASS: Final[Pass] = Pass()

Move = LiarsDiceAction | Pass
"""What an action number stands for: an engine action, or :data:`PASS`."""


@dataclass(frozen=True, slots=True)
class LiarsActions:
    """The action numbering of one game.

    Attributes:
        sides: faces per die.
        max_dice: the most dice ever in play (all the dice the game starts with).
        sum_wagers: whether sum wagers exist (the ruleset's ``sum_endgame``).
    """

    sides: int
    max_dice: int
    sum_wagers: bool

    @property
    def num_face_wagers(self) -> int:
        """Face wagers: every quantity 1..max_dice of every face."""
        return self.max_dice * self.sides

    @property
    def num_sum_wagers(self) -> int:
        """Sum wagers 2..2*sides (two dice, L10), or none."""
        return 2 * self.sides - 1 if self.sum_wagers else 0

    @property
    def num_wagers(self) -> int:
        """All wagers; also the number of the accusation."""
        return self.num_face_wagers + self.num_sum_wagers

    @property
    def accuse(self) -> int:
        """Accuse the standing wager's maker (L7)."""
        return self.num_wagers

    @property
    def pass_(self) -> int:
        """Let the accusation window go by without accusing."""
        return self.num_wagers + 1

    @property
    def num_actions(self) -> int:
        """How many action numbers there are."""
        return self.num_wagers + 2

    def encode(self, move: Move) -> int:
        """The number of a wager, ``Accuse()`` or :data:`PASS`.

        Raises:
            InvalidActionError: a wager this game can never hold.
        """
        if isinstance(move, Accuse):
            return self.accuse
        if isinstance(move, Pass):
            return self.pass_
        if isinstance(move, Wager) and (
            1 <= move.quantity <= self.max_dice and 1 <= move.face <= self.sides
        ):
            return (move.quantity - 1) * self.sides + move.face - 1
        if isinstance(move, SumWager) and self.sum_wagers and 2 <= move.total <= 2 * self.sides:
            return self.num_face_wagers + move.total - 2
        raise InvalidActionError(
            f"{move!r} is no action of this game: wagers are 1-{self.max_dice} of a face "
            f"1-{self.sides}" + (f", or sums 2-{2 * self.sides}" if self.sum_wagers else "")
            + ", Accuse() or PASS"
        )

    def decode(self, action: int) -> Move:
        """What action number ``action`` stands for (a NumPy integer will do).

        Raises:
            InvalidActionError: a number outside ``0 .. num_actions - 1``.
        """
        # Frameworks hand over NumPy integers; True is an int to Python but no action.
        if not isinstance(action, numbers.Integral) or isinstance(action, bool | np.bool_) or (
            not 0 <= action < self.num_actions
        ):
            raise InvalidActionError(
                f"an action is a whole number 0-{self.num_actions - 1}, not {action!r}"
            )
        action = int(action)
        if action == self.accuse:
            return ACCUSE
        if action == self.pass_:
            return PASS
        if action < self.num_face_wagers:
            return Wager(action // self.sides + 1, action % self.sides + 1)
        return SumWager(action - self.num_face_wagers + 2)

    def label(self, action: int) -> str:
        """A short name: ``'3x2'``, ``'sum 7'``, ``'accuse'`` or ``'pass'``."""
        return self.decode(action).code()
