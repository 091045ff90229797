"""One two-player Liar's Dice round as a finite zero-sum game.

Player 0 is the round's first bidder ("The first player can make any wager that
they wish", L4; the first bidder must bid), player 1 the other. Each secretly
holds a hand (:class:`~.chance.PrivateStates`). Players then
alternate: raise (L5) or accuse the last wager-maker (L7). At the reveal (L8):

* count < quantity: the wager was false, the wager-maker loses a die;
* count > quantity: the accuser loses a die;
* count == quantity (spot-on, option ``spot_on``): "everyone but the wager-maker
  loses a dice"; with two players that is the accuser. With ``spot_on=False``
  an exact count counts as true, so the accuser loses too. **The two settings
  give the same two-player round**; ``spot_on`` only matters with 3+ players.

Sum endgame (L10, option ``sum_endgame``): with one die each, wagers are "the
sum is at least S" and the same outcomes apply to the sum.

Terminal payoffs are ``payoffs = (u_first_loses, u_second_loses)`` to player 0
(player 1 gets the negative): ``(-1, +1)`` for the round alone, or the values of
the match states the round leads to (see :mod:`.match`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import RulesetError
from tavern_dice.liars_dice.rules import LiarsDiceRules, RaiseRule
from tavern_dice.strategy.liars_dice.solver.core.bids import BidSpace
from tavern_dice.strategy.liars_dice.solver.core.chance import PrivateStates

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class RoundSpec:
    """The rules of one two-player round.

    Attributes:
        dice: ``(first bidder's dice, second bidder's dice)``, each >= 1.
        sides: faces per die.
        raise_rule: ``standard`` or ``face-major`` (``either`` has no finite tree).
        wild_face: L6 wild face or ``None``.
        spot_on: L8 option (no effect with two players, kept for the record).
        sum_wagers: L10: wagers on the sum of the two dice (needs one die each).
        payoffs: ``(value to the first bidder if the first bidder loses a die,
            value to the first bidder if the second bidder loses a die)``.
    """

    dice: tuple[int, int]
    sides: int = 6
    raise_rule: RaiseRule = RaiseRule.STANDARD
    wild_face: int | None = None
    spot_on: bool = True
    sum_wagers: bool = False
    payoffs: tuple[float, float] = (-1.0, 1.0)

    def __post_init__(self) -> None:
        if len(self.dice) != 2 or min(self.dice) < 1:
            raise RulesetError(f"a two-player round needs >= 1 die each, not {self.dice}")
        if not 2 <= self.sides <= 20:
            raise RulesetError(f"sides must be 2-20, not {self.sides}")
        if self.raise_rule is RaiseRule.EITHER and not self.sum_wagers:
            raise RulesetError(
                "raise rule 'either' has cycles (3 twos < 2 fours < 3 twos), so the round has "
                "no finite game tree; use 'standard' or 'face-major'"
            )
        if self.wild_face is not None and not 1 <= self.wild_face <= self.sides:
            raise RulesetError(f"wild_face must be 1..{self.sides} or None")
        if self.sum_wagers and self.dice != (1, 1):
            raise RulesetError("sum wagers (L10) need exactly one die each")

    @classmethod
    def from_rules(
        cls,
        rules: LiarsDiceRules,
        dice: tuple[int, int],
        payoffs: tuple[float, float] = (-1.0, 1.0),
        raise_rule: RaiseRule | None = None,
    ) -> RoundSpec:
        """The round of ``rules`` with ``dice``; the sum endgame applies at (1, 1) when enabled.

        ``raise_rule`` overrides the ruleset's (the seed's ``either`` cannot be solved).
        """
        sums = rules.sum_endgame and tuple(dice) == (1, 1)
        rr = raise_rule or rules.raise_rule
        if sums and rr is RaiseRule.EITHER:
            rr = RaiseRule.STANDARD  # sums are totally ordered whatever the count rule
        return cls(
            dice=(int(dice[0]), int(dice[1])), sides=rules.sides, raise_rule=rr,
            wild_face=rules.wild_face, spot_on=rules.spot_on, sum_wagers=sums, payoffs=payoffs,
        )

    def key(self) -> str:
        """A short stable name, e.g. ``'d2-1_s6_standard_w6_spot_pay-1,1'``."""
        parts = [f"d{self.dice[0]}-{self.dice[1]}", f"s{self.sides}", self.raise_rule.value]
        if self.wild_face is not None:
            parts.append(f"w{self.wild_face}")
        parts.append("spot" if self.spot_on else "nospot")
        if self.sum_wagers:
            parts.append("sum")
        return "_".join(parts)

    def with_payoffs(self, payoffs: tuple[float, float]) -> RoundSpec:
        """The same round with other terminal payoffs."""
        return RoundSpec(self.dice, self.sides, self.raise_rule, self.wild_face, self.spot_on,
                         self.sum_wagers, payoffs)


@dataclass(frozen=True)
class RoundGame:
    """The chance, wagers and terminal payoffs of a :class:`RoundSpec`.

    Attributes:
        spec: the rules.
        bids: the wagers in raise order.
        hands: ``(player 0's hands, player 1's hands)``.
    """

    spec: RoundSpec
    bids: BidSpace = field(repr=False)
    hands: tuple[PrivateStates, PrivateStates] = field(repr=False)

    @classmethod
    def build(cls, spec: RoundSpec) -> RoundGame:
        """Enumerate wagers and hands of ``spec``."""
        if spec.sum_wagers:
            bids = BidSpace.sums(spec.sides)
        else:
            bids = BidSpace.counts(sum(spec.dice), spec.sides, spec.raise_rule)
        hands = (PrivateStates.roll(spec.dice[0], spec.sides),
                 PrivateStates.roll(spec.dice[1], spec.sides))
        return cls(spec, bids, hands)

    @property
    def n_states(self) -> tuple[int, int]:
        """Number of hands of each player."""
        return (self.hands[0].n_states, self.hands[1].n_states)

    @cached_property
    def truth(self) -> npt.NDArray[np.bool_]:
        """Shape ``(n_bids, n0, n1)``: whether wager ``b`` is true for hands ``(x, y)``.

        A count wager is true when at least ``quantity`` dice count toward its face
        (L4, with L6 wilds); a sum wager when the two dice sum to at least ``S`` (L10).
        Exact counts are true (two-player spot-on and no spot-on agree, see module doc).
        """
        h0, h1 = self.hands
        if self.bids.kind == "sum":
            total = h0.sums[:, None] + h1.sums[None, :]
            return total[None, :, :] >= self.bids.quantities[:, None, None]
        # int8 (a count is at most the dice in play): a 5 v 5 round's sums take 3.8 MB,
        # not 30.
        e0 = h0.effective_counts(self.spec.wild_face).astype(np.int8)
        e1 = h1.effective_counts(self.spec.wild_face).astype(np.int8)
        f = self.bids.faces - 1
        count = e0[:, f].T[:, :, None] + e1[:, f].T[:, None, :]
        return count >= self.bids.quantities[:, None, None]

    @cached_property
    def payoff0(self) -> FloatArray:
        """Shape ``(2, n_bids, n0, n1)``: payoff to player 0 when ``bidder`` made wager ``b``
        and the other player accused.

        A true wager costs the accuser a die, a false one the wager-maker (L8).
        """
        out: FloatArray = self.payoffs(np.float64).astype(np.float64, copy=False)
        return out

    def payoffs(self, dtype: type[np.floating[Any]]) -> npt.NDArray[np.floating[Any]]:
        """:attr:`payoff0` built in ``dtype`` and not kept (a float32 play-out reads half
        the bytes, and never holds the 60 MB float64 array of a 5 v 5 round)."""
        out = np.empty((2, *self.truth.shape), dtype=dtype)
        for bidder in (0, 1):
            out[bidder] = self.accused(bidder, dtype)
        return out

    def accused(self, bidder: int, dtype: type[np.floating[Any]],
                wager: int | slice = slice(None)) -> npt.NDArray[np.floating[Any]]:
        """``payoff0[bidder, wager]`` in ``dtype``: player 0's payoff when ``bidder`` made
        ``wager`` (every wager by default) and the other accused (L8: a true wager costs
        the accuser)."""
        lose0, lose1 = self.spec.payoffs
        true, false = (lose1, lose0) if bidder == 0 else (lose0, lose1)
        out: npt.NDArray[np.floating[Any]] = np.where(self.truth[wager], dtype(true),
                                                      dtype(false))
        return out
