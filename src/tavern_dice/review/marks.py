"""How costly a decision was: the marks of a post-game review and their thresholds.

A decision's *cost* is how much less the chosen action is worth than the best action
by the game's evaluation (never negative). Like a chess engine's review, a cost from
a threshold up earns a mark:

==============  ======  =====================  =========================
mark            symbol  Liar's Dice (dice)      Dice Blackjack (per bet)
==============  ======  =====================  =========================
inaccuracy      ``?!``  from 0.10               from 0.02
mistake         ``?``   from 0.30               from 0.10
blunder         ``??``  from 0.60               from 0.25
==============  ======  =====================  =========================

Liar's Dice costs are in dice of the round's expected result (a die the seat loses is
-1, in heads-up play a die the opponent loses is +1): the ``strong`` bot mixes among
actions within 0.06 of its best, so a cost below 0.10 is play a strong player makes
too; 0.60 is more than half a die thrown away. Dice Blackjack costs are expected payout
per unit bet (per gp staked): 0.02 is twice the whole game's edge under the seed's rules
(0.94 %), 0.25 a quarter of the stake.

One Liar's Dice mark does not come from the thresholds: accusing a wager that the seat's
own dice already made true can only cost it a die, so it is a *known blunder* whenever
any other action was worth more (:mod:`tavern_dice.review.liars`).

>>> LIARS_THRESHOLDS.mark(0.05), LIARS_THRESHOLDS.mark(0.3), LIARS_THRESHOLDS.mark(1.2)
(None, 'mistake', 'blunder')
>>> LIARS_THRESHOLDS.describe()
'inaccuracy ?! from 0.10, mistake ? from 0.30, blunder ?? from 0.60 dice'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Mark = Literal["inaccuracy", "mistake", "blunder"]

SYMBOLS: dict[Mark, str] = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
"""The chess annotation of each mark."""

_EPSILON = 1e-9
"""Costs are floats from sums of probabilities: a cost a rounding error below a
threshold is at the threshold."""


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The smallest cost of each mark, in ``unit``.

    Attributes:
        unit: what a cost is measured in (``'dice'``, ``'per unit bet'``).
        inaccuracy, mistake, blunder: the smallest cost that earns each mark.
    """

    unit: str
    inaccuracy: float
    mistake: float
    blunder: float

    def mark(self, cost: float) -> Mark | None:
        """The mark a decision of this ``cost`` earns, or ``None`` (good enough)."""
        if cost >= self.blunder - _EPSILON:
            return "blunder"
        if cost >= self.mistake - _EPSILON:
            return "mistake"
        if cost >= self.inaccuracy - _EPSILON:
            return "inaccuracy"
        return None

    def describe(self) -> str:
        """The thresholds in words, as the review prints them."""
        return ", ".join(
            f"{mark} {SYMBOLS[mark]} from {getattr(self, mark):.2f}" for mark in SYMBOLS
        ) + f" {self.unit}"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {"unit": self.unit, "inaccuracy": self.inaccuracy, "mistake": self.mistake,
                "blunder": self.blunder}


LIARS_THRESHOLDS = Thresholds("dice", 0.10, 0.30, 0.60)
"""Liar's Dice: costs in dice of the round's expected result (see the module doc)."""

BLACKJACK_THRESHOLDS = Thresholds("per unit bet", 0.02, 0.10, 0.25)
"""Dice Blackjack: costs in expected payout per unit bet (see the module doc)."""
