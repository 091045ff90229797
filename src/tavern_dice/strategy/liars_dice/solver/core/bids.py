"""The wagers of one two-player round, numbered in raise order.

A round's wagers are numbered ``0 .. n_bids - 1`` so that, under the raise
rules the solver supports, a wager may follow another exactly when its number
is higher (rule L5: "The player that follows them ... must now raise the
wager"). The accusation ("liar", L7) is action number ``n_bids``.

* Count wagers (L4: "at least 3 twos"): quantity ``1 .. n_dice`` (quantity at
  most the dice in play), face ``1 .. sides``.

  - ``standard``: ordered by (quantity, face): a higher quantity of any face,
    or the same quantity of a higher face;
  - ``face-major``: ordered by (face, quantity): a higher face of any quantity,
    or the same face with a higher quantity.
  - ``either`` (the seed's L5: "a higher value dice ... a higher total of dice
    ... or combines the previous two") is *not* a total order: 3 twos < 2 fours
    < 3 twos... has cycles, so no finite bid tree exists and the solver rejects it.

* Sum wagers (L10: "wagers instead are based on the sum of the dice, where the
  sum must increase"): "the two dice sum to at least S", ``S = 2 .. 2 * sides``.

>>> space = BidSpace.counts(n_dice=2, sides=6)
>>> space.n_bids, space.wager(0), space.wager(7), space.index(Wager(2, 6))
(12, Wager(quantity=1, face=1), Wager(quantity=2, face=2), 11)
>>> BidSpace.counts(2, 6, RaiseRule.FACE_MAJOR).wager(1)
Wager(quantity=2, face=1)
>>> BidSpace.sums(6).wager(0), BidSpace.sums(6).n_bids
(SumWager(total=2), 11)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import IllegalActionError, RulesetError
from tavern_dice.liars_dice.actions import ACCUSE, LiarsDiceAction
from tavern_dice.liars_dice.rules import RaiseRule
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BidSpace:
    """The wagers of a round in raise order.

    Attributes:
        kind: ``'count'`` (quantity of a face) or ``'sum'`` (sum of two dice, L10).
        n_dice: dice in play (count wagers), 2 for sum wagers.
        sides: faces per die.
        raise_rule: the order (``standard`` or ``face-major``; ignored for sums).
        quantities: shape ``(n_bids,)``, the quantity of each count wager, or
            the total ``S`` of each sum wager.
        faces: shape ``(n_bids,)``, the face of each count wager (0 for sums).
    """

    kind: str
    n_dice: int
    sides: int
    raise_rule: RaiseRule
    quantities: IntArray = field(repr=False)
    faces: IntArray = field(repr=False)

    @classmethod
    def counts(
        cls, n_dice: int, sides: int, raise_rule: RaiseRule = RaiseRule.STANDARD
    ) -> BidSpace:
        """Count wagers ``(quantity, face)`` for ``n_dice`` dice in play, in raise order."""
        if raise_rule is RaiseRule.EITHER:
            raise RulesetError(
                "raise rule 'either' (higher quantity OR higher face) has cycles, so a round "
                "has no finite bid tree; solve with 'standard' or 'face-major'"
            )
        pairs = [(q, f) for q in range(1, n_dice + 1) for f in range(1, sides + 1)]
        if raise_rule is RaiseRule.FACE_MAJOR:
            pairs.sort(key=lambda qf: (qf[1], qf[0]))
        q = np.array([p[0] for p in pairs], dtype=np.int64)
        f = np.array([p[1] for p in pairs], dtype=np.int64)
        return cls("count", n_dice, sides, raise_rule, q, f)

    @classmethod
    def sums(cls, sides: int) -> BidSpace:
        """Sum wagers ``S = 2 .. 2 * sides`` of the one-die-each endgame (L10)."""
        totals = np.arange(2, 2 * sides + 1, dtype=np.int64)
        return cls("sum", 2, sides, RaiseRule.STANDARD, totals, np.zeros_like(totals))

    @property
    def n_bids(self) -> int:
        """Number of wagers; the accusation is action ``n_bids``."""
        return int(self.quantities.shape[0])

    @property
    def liar(self) -> int:
        """Action number of the accusation ("liar")."""
        return self.n_bids

    @cached_property
    def actions(self) -> tuple[LiarsDiceAction, ...]:
        """The engine's action of every action number: each wager, then ``Accuse()`` at
        :attr:`liar` (made once: a model of a bot names a node's actions at every answer
        it is asked for)."""
        return (*(self.wager(i) for i in range(self.n_bids)), ACCUSE)

    def wager(self, index: int) -> AnyWager:
        """The wager numbered ``index``."""
        if not 0 <= index < self.n_bids:
            raise IllegalActionError(f"wager number {index} is not in 0..{self.n_bids - 1}")
        if self.kind == "sum":
            return SumWager(int(self.quantities[index]))
        return Wager(int(self.quantities[index]), int(self.faces[index]))

    def index(self, wager: AnyWager | int) -> int:
        """The number of ``wager`` (a :class:`Wager`, :class:`SumWager` or a number)."""
        if isinstance(wager, int):
            if not 0 <= wager < self.n_bids:
                raise IllegalActionError(f"wager number {wager} is not in 0..{self.n_bids - 1}")
            return wager
        if self.kind == "sum":
            if not isinstance(wager, SumWager) or not 2 <= wager.total <= 2 * self.sides:
                raise IllegalActionError(
                    f"{wager!r} is not a wager here; wagers are sums 2..{2 * self.sides}"
                )
            return wager.total - 2
        if (
            not isinstance(wager, Wager)
            or not 1 <= wager.quantity <= self.n_dice
            or not 1 <= wager.face <= self.sides
        ):
            raise IllegalActionError(
                f"{wager!r} is not a wager here; quantity must be 1..{self.n_dice} "
                f"and face 1..{self.sides}"
            )
        q, f = wager.quantity - 1, wager.face - 1
        if self.raise_rule is RaiseRule.FACE_MAJOR:
            return f * self.n_dice + q
        return q * self.sides + f
