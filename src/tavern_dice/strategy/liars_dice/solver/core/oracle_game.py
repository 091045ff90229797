"""A two-player round as the double oracle sees it: hands, wagers, raises, reveals.

Unlike :class:`~.round_game.RoundGame`, which needs wagers that only go
up, this round follows the table's raise rule to the letter, the seed's ``either`` rule
included: with repeated wagers forbidden (L5b), a wager may follow a history when it
raises the last wager under the rule and was not made before in the round, so the round
is finite but its histories are not a chain of growing numbers.

A reveal compares a *feature* of the two hands with the wager's claim: for a count wager
on face ``f`` the dice counting toward ``f`` (L4, L6 wild face), for a sum wager the sum
of the dice (L10). Each player's hands carry their feature values, so the chance that a
wager holds against an opponent's range is a tail sum of a small histogram: ``O(hands)``
work per wager instead of a ``hands x hands`` matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import RulesetError
from tavern_dice.liars_dice.rules import LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager, is_raise
from tavern_dice.strategy.liars_dice.solver.core.chance import PrivateStates

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class OracleRound:
    """One two-player round of a ruleset.

    Attributes:
        rules: the table's ruleset (raise rule, wild face, sides, repeat_wagers).
        dice: ``(first bidder's dice, second bidder's dice)``.
        payoffs: ``(value to the first bidder if they lose a die, if the other does)``.
    """

    rules: LiarsDiceRules
    dice: tuple[int, int]
    payoffs: tuple[float, float] = (-1.0, 1.0)
    hands: tuple[PrivateStates, PrivateStates] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.dice) != 2 or min(self.dice) < 1:
            raise RulesetError(f"a two-player round needs >= 1 die each, not {self.dice}")
        if (
            self.rules.raise_rule is RaiseRule.EITHER and self.rules.repeat_wagers
            and not self.sum_wagers
        ):
            raise RulesetError(
                "with repeated wagers allowed the 'either' rule has rounds that never end "
                "(3 twos, 2 fours, 3 twos ...), so there is no finite game to solve; "
                "forbid repeats (repeat_wagers off, rule L5b)"
            )
        sides = self.rules.sides
        object.__setattr__(self, "hands", (
            PrivateStates.roll(self.dice[0], sides), PrivateStates.roll(self.dice[1], sides)
        ))

    @property
    def sum_wagers(self) -> bool:
        """L10: one die each with the sum endgame on."""
        return self.rules.sum_endgame and tuple(self.dice) == (1, 1)

    @cached_property
    def wagers(self) -> tuple[AnyWager, ...]:
        """Every wager of the round, numbered in increasing (quantity, face) order."""
        sides = self.rules.sides
        if self.sum_wagers:
            return tuple(SumWager(t) for t in range(2, 2 * sides + 1))
        n = sum(self.dice)
        return tuple(Wager(q, f) for q in range(1, n + 1) for f in range(1, sides + 1))

    @property
    def n_bids(self) -> int:
        """Number of wagers; the accusation is action number ``n_bids``."""
        return len(self.wagers)

    @property
    def liar(self) -> int:
        """Action number of the accusation."""
        return self.n_bids

    @cached_property
    def index(self) -> dict[AnyWager, int]:
        """Wager -> its number."""
        return {w: i for i, w in enumerate(self.wagers)}

    @cached_property
    def claim(self) -> IntArray:
        """Shape ``(n_bids,)``: the quantity (or sum) each wager claims."""
        return np.array(
            [w.total if isinstance(w, SumWager) else w.quantity for w in self.wagers],
            dtype=np.int64,
        )

    @cached_property
    def feature(self) -> IntArray:
        """Shape ``(n_bids,)``: the feature a wager is about (face - 1, or 0 for sums)."""
        return np.array(
            [0 if isinstance(w, SumWager) else w.face - 1 for w in self.wagers], dtype=np.int64
        )

    @cached_property
    def features(self) -> tuple[IntArray, IntArray]:
        """Per player, shape ``(hands, K)``: each hand's value of each feature (dice
        counting toward each face, wild included, or the hand's sum)."""
        out = []
        for hands in self.hands:
            if self.sum_wagers:
                out.append(hands.sums[:, None].astype(np.int64))
            else:
                out.append(hands.effective_counts(self.rules.wild_face).astype(np.int64))
        return out[0], out[1]

    @cached_property
    def _raise_table(self) -> tuple[tuple[int, ...], ...]:
        """``table[b + 1]``: the wagers that raise wager ``b`` under the raise rule (``b = -1``:
        the opening, any wager), before removing repeats."""
        rule = self.rules.raise_rule
        table: list[tuple[int, ...]] = [tuple(range(self.n_bids))]
        for old in self.wagers:
            table.append(tuple(
                i for i, new in enumerate(self.wagers) if is_raise(new, old, rule)
            ))
        return tuple(table)

    @property
    def repeats_possible(self) -> bool:
        """Whether a wager could come back (``either``, counts): L5b removes it then."""
        return self.rules.raise_rule is RaiseRule.EITHER and not self.sum_wagers

    def raises(self, history: Sequence[int]) -> tuple[int, ...]:
        """The wagers that may follow ``history`` (L5, L5b, L10)."""
        last = history[-1] if history else -1
        options = self._raise_table[last + 1]
        if self.repeats_possible and history:
            made = set(history)
            return tuple(b for b in options if b not in made)
        return options

    def outcome_payoffs(self, bidder: int) -> tuple[float, float]:
        """``(payoff to player 0 if the wager holds, if it is false)`` when ``bidder`` made it
        and the other player accused: a true wager costs the accuser a die, a false one the
        wager-maker (L8; two players: spot-on costs the accuser too)."""
        lose = self.payoffs
        return lose[1 - bidder], lose[bidder]

    @cached_property
    def _onehot(self) -> tuple[FloatArray, FloatArray]:
        """Per player, shape ``(hands, K * width)``: column ``k * width + v`` is 1 where
        the hand's feature ``k`` equals ``v`` (``width`` = largest value + 2)."""
        width = self._width
        out = []
        for values in self.features:
            n, k = values.shape
            onehot = np.zeros((n, k * width))
            cols = np.arange(k)[None, :] * width + values
            onehot[np.arange(n)[:, None], cols] = 1.0
            out.append(onehot)
        return out[0], out[1]

    @cached_property
    def _width(self) -> int:
        return int(max(int(f.max()) for f in self.features)) + 2

    def true_mass(
        self, player: int, bids: IntArray, reach: FloatArray
    ) -> tuple[FloatArray, FloatArray]:
        """How much of the opponent's ``reach`` (one row per bid) makes each wager of
        ``bids`` hold, per hand of ``player``: ``(true mass (bids x hands), total mass
        (bids x 1))``. The opponent's mass with a feature value at least ``v`` is a tail sum
        of the histogram of their reach over that feature."""
        other = 1 - player
        width = self._width
        m = bids.shape[0]
        if m == 1:
            return self._true_mass_one(player, int(bids[0]), reach[0])
        feature = self.feature[bids]
        onehot = self._onehot[other]
        if m <= 32:
            # Few rows (a best response's single questions): one product for all features.
            k = self.features[other].shape[1]
            hist = (reach @ onehot).reshape(m, k, width)
            rows = hist[np.arange(m), feature]  # (m, width)
        else:
            # Many rows (a CFR sweep): only each row's own feature's histogram.
            rows = np.empty((m, width), dtype=reach.dtype)
            for f in np.unique(feature).tolist():
                sel = np.flatnonzero(feature == f)
                rows[sel] = reach[sel] @ onehot[:, f * width:(f + 1) * width].astype(
                    reach.dtype, copy=False)
        cdf = np.cumsum(rows, axis=1)
        total = cdf[:, -1:]
        # tail[v] = mass with value >= v = total - cdf[v - 1]
        tail = total - np.concatenate((np.zeros((m, 1), dtype=cdf.dtype), cdf[:, :-1]), axis=1)
        need = self.claim[bids][:, None] - self.features[player][:, feature].T
        np.clip(need, 0, width - 1, out=need)
        return np.take_along_axis(tail, need, axis=1), total

    def _true_mass_one(
        self, player: int, bid: int, reach: FloatArray
    ) -> tuple[FloatArray, FloatArray]:
        """:meth:`true_mass` of one wager (a best response asks one at a time): the fewest
        NumPy calls."""
        f = int(self.feature[bid])
        hist: FloatArray = np.bincount(self.features[1 - player][:, f], weights=reach,
                                       minlength=self._width).astype(np.float64, copy=False)
        tail: FloatArray = np.cumsum(hist[::-1])[::-1]
        need = self._need[player][f][int(self.claim[bid])]
        return tail[need][None, :], tail[:1][None, :]

    @cached_property
    def _need(self) -> tuple[list[list[IntArray]], list[list[IntArray]]]:
        """``_need[player][feature][claim]``: per hand, the opponent's feature value that
        makes a wager of ``claim`` hold, clipped to the histogram's range."""
        top = int(self.claim.max()) + 1
        out = []
        for values in self.features:
            per_feature = []
            for f in range(values.shape[1]):
                per_feature.append([
                    np.clip(c - values[:, f], 0, self._width - 1) for c in range(top)
                ])
            out.append(per_feature)
        return out[0], out[1]

    def accuse_values(
        self, player: int, bids: IntArray, bidders: IntArray, reach: FloatArray
    ) -> FloatArray:
        """Value to ``player`` (per own hand) of accusations of ``bids`` (wager numbers),
        each made by ``bidders``, against the opponent's ``reach`` (one row per bid).

        Shape ``(len(bids), hands[player])``: counterfactual values, ``reach`` not
        normalised.
        """
        true_mass, total = self.true_mass(player, bids, reach)
        lose = self._lose
        if_true = lose[1 - bidders][:, None]
        if_false = lose[bidders][:, None]
        out: FloatArray = if_false * total + (if_true - if_false) * true_mass
        return out if player == 0 else -out

    @cached_property
    def _lose(self) -> FloatArray:
        return np.array(self.payoffs, dtype=np.float64)
