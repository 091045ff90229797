"""Vectorised sweeps over a public tree: reach probabilities, values, best responses.

Everything is batched over hands: a player's strategy is an array of shape
``(n_slots[p], n_hands[p])`` whose column ``x`` is the behaviour of hand ``x``
(each node's slots sum to 1). Arrays of shape ``(n_nodes, n_hands[p])`` hold,
per public node and hand:

* ``reach_p``: the chance probability of hand ``x`` times player ``p``'s
  probability of playing to the node with it (summed over the paths into a
  node of an imperfect-recall DAG);
* ``values_i``: player ``i``'s counterfactual value: the expected payoff from
  the node on, weighted by the opponent's reach (so not normalised).

The terminal value of an accusation after wager ``b`` is a matrix product of
the opponent's reach with the payoff matrix ``(n_o, n_i)`` of ``b``
(:attr:`RoundGame.payoff0`), one product per (layer, actor) group.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame

FloatArray = npt.NDArray[np.float64]
Strategy = tuple[FloatArray, FloatArray]


class SlotOps:
    """Strategy and reach arithmetic shared by the exact tree and recall-k DAGs.

    Args:
        tree: the public tree or DAG.
        prior: each player's hand probabilities, shapes ``(n_hands[p],)``.
    """

    def __init__(
        self,
        tree: PublicTree,
        prior: tuple[FloatArray, FloatArray],
        dtype: type[np.floating[Any]] = np.float64,
    ) -> None:
        self.tree = tree
        self.dtype = dtype
        self.prior = (prior[0].astype(dtype), prior[1].astype(dtype))
        self.n_hands = (int(prior[0].shape[0]), int(prior[1].shape[0]))

    def uniform(self) -> Strategy:
        """The strategy that picks every legal action with equal probability."""
        out = []
        for p in (0, 1):
            seg = self.tree.slot_seg[p]
            counts = np.bincount(seg).astype(self.dtype)
            col = 1.0 / counts[seg]
            out.append(np.repeat(col[:, None], self.n_hands[p], axis=1).astype(self.dtype))
        return (out[0], out[1])

    def normalise(
        self, p: int, weights: FloatArray, fallback: FloatArray | None = None
    ) -> FloatArray:
        """Normalise non-negative slot ``weights`` of player ``p`` per node and hand.

        Where a node's weights sum to 0 the result is ``fallback`` (or uniform).
        """
        t = self.tree
        sums = np.add.reduceat(weights, t.seg_starts[p], axis=0)[t.slot_seg[p]]
        pos = sums > 0
        out = np.divide(weights, sums, out=np.zeros_like(weights), where=pos)
        if not pos.all():
            if fallback is None:
                counts = np.bincount(t.slot_seg[p]).astype(weights.dtype)
                fb = np.broadcast_to((1.0 / counts[t.slot_seg[p]])[:, None], weights.shape)
            else:
                fb = fallback
            out = np.where(pos, out, fb)
        return out

    def reach(self, p: int, sigma_p: FloatArray) -> FloatArray:
        """Shape ``(n_nodes, n_hands[p])``: chance x player ``p``'s reach of each node.

        In a recall-k DAG this sums over the histories that merge into a node.
        """
        t = self.tree
        r = np.empty((t.n_nodes, self.n_hands[p]), dtype=self.dtype)
        r[0] = self.prior[p]
        for g in t.groups:
            if g.layer < 0:
                continue
            c = r[g.in_parents]
            if 1 - g.actor == p:
                c *= sigma_p[g.in_slots]
            if g.in_starts is None:
                r[g.n_lo : g.n_hi] = c
            else:
                r[g.n_lo : g.n_hi] = np.add.reduceat(c, g.in_starts, axis=0)
        return r


class Sweeper(SlotOps):
    """Forward (reach) and backward (value) passes for one round on its exact tree."""

    def __init__(
        self, game: RoundGame, tree: PublicTree, dtype: type[np.floating[Any]] = np.float64
    ) -> None:
        if tree.n_bids != game.bids.n_bids:
            raise TavernError("tree and game have different numbers of wagers")
        if tree.recall is not None:
            raise TavernError(
                "Sweeper needs the exact tree: in a recall-k DAG a node's value depends on "
                "both hands jointly (see tavern_dice.strategy.liars_dice.solver.core.dag)"
            )
        super().__init__(tree, (game.hands[0].prob, game.hands[1].prob), dtype)
        self.game = game
        p0 = game.payoff0.astype(dtype)  # (bidder, bid, n0, n1)
        # mats[i][bidder, bid] has shape (n_o, n_i): reach_o @ mat = terminal value to i
        self.mats: tuple[FloatArray, FloatArray] = (
            np.ascontiguousarray(p0.transpose(0, 1, 3, 2)),
            np.ascontiguousarray(-p0),
        )

    def values(
        self,
        i: int,
        reach_o: FloatArray,
        sigma: Strategy,
        best: bool = False,
        slot_values: bool = False,
    ) -> tuple[FloatArray, FloatArray | None]:
        """Counterfactual values of player ``i`` against the opponent's ``reach_o``.

        Args:
            i: the player whose values are computed.
            reach_o: the opponent's reach, from :meth:`reach`.
            sigma: both strategies (``sigma[i]`` is ignored when ``best``).
            best: play a best response (max over actions per node and hand).
            slot_values: also return the value of each of ``i``'s slots.

        Returns:
            ``(values, slot_vals)``: shapes ``(n_nodes, n_hands[i])`` and
            ``(n_slots[i], n_hands[i])`` (or ``None``).
        """
        t = self.tree
        o = 1 - i
        v = np.empty((t.n_nodes, self.n_hands[i]), dtype=self.dtype)
        sv = np.empty((t.n_slots[i], self.n_hands[i]), dtype=self.dtype) if slot_values else None
        mat = self.mats[i]
        for g in reversed(t.groups):
            a = g.actor
            sl = slice(g.s_lo, g.s_hi)
            vals = v[t.slot_child[a][sl]]
            if g.has_liar:
                r = reach_o[g.n_lo : g.n_hi]
                if a == o:
                    r = r * sigma[o][g.s_lo + g.seg_starts]
                vals[g.seg_starts] = r @ mat[1 - a, g.layer]
            if a == i:
                if sv is not None:
                    sv[sl] = vals
                if best:
                    v[g.n_lo : g.n_hi] = np.maximum.reduceat(vals, g.seg_starts, axis=0)
                else:
                    vals *= sigma[i][sl]
                    v[g.n_lo : g.n_hi] = np.add.reduceat(vals, g.seg_starts, axis=0)
            else:
                v[g.n_lo : g.n_hi] = np.add.reduceat(vals, g.seg_starts, axis=0)
        return v, sv

    def expected_value(self, sigma: Strategy) -> float:
        """Player 0's expected payoff when both play ``sigma``."""
        v, _ = self.values(0, self.reach(1, sigma[1]), sigma)
        return float(self.prior[0] @ v[0])

    def best_response_value(self, i: int, sigma: Strategy) -> float:
        """Player ``i``'s payoff from an exact best response to ``sigma[1 - i]``."""
        o = 1 - i
        v, _ = self.values(i, self.reach(o, sigma[o]), sigma, best=True)
        return float(self.prior[i] @ v[0])

    def exploitability(self, sigma: Strategy) -> tuple[float, float]:
        """``(exploitability, value)``: NashConv / 2 and player 0's value under ``sigma``.

        NashConv = BR_0(sigma_1) + BR_1(sigma_0) (zero-sum), as OpenSpiel's
        ``exploitability`` reports it divided by the 2 players.
        """
        br0 = self.best_response_value(0, sigma)
        br1 = self.best_response_value(1, sigma)
        return (br0 + br1) / 2.0, self.expected_value(sigma)
