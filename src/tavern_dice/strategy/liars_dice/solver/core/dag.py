"""CFR on a last-``k``-wagers DAG (imperfect recall), for rounds too big to solve exactly.

In a ``recall=k`` DAG (:mod:`.public_tree`) many histories
merge into one node, so a node's counterfactual value cannot be carried as one
vector per hand the way :class:`~.sweeps.Sweeper` does on the
exact tree: reach probabilities differ per history. What *is* history-free is
the expected payoff from a node on given both hands, ``EU[n]`` of shape
``(n0, n1)`` (player 0's payoff). This module sweeps backward over ``EU``
(fixed-strategy iteration CFR, Neller & Hnath, "Approximating Optimal Dudo Play
with Fixed-Strategy Iteration Counterfactual Regret Minimization", 2011, with
every pair of hands enumerated instead of sampled). The counterfactual value of
slot ``s`` at node ``n`` for hand ``x`` of actor 0 is
``sum_y R_1[n, y] * EU[child(s)][x, y]`` with ``R_1`` the opponent's reach summed
over all histories into ``n``.

Cost per iteration ~ ``n_slots * n0 * n1`` (recall 1, 5 dice each:
``~3.7e3 * 252**2`` = 2.3e8 multiply-adds); memory ``n_nodes * n0 * n1`` floats.
Updates are simultaneous (both players per sweep); ``EU`` is float32 by default.

Quality: no convergence guarantee to an equilibrium of the real round. Two
measures are reported: :meth:`DagCFRSolver.measure` gives a *lower bound* on
exploitability (best responses restricted to the same ``k``-wagers memory,
chosen greedily per node), and
:func:`~.abstraction.lift` carries the policy onto the exact
tree for the exact figure when that tree fits.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.public_tree import Group, PublicTree
from tavern_dice.strategy.liars_dice.solver.core.regret import RegretState
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame
from tavern_dice.strategy.liars_dice.solver.core.sweeps import SlotOps, Strategy

FloatArray = npt.NDArray[np.float64]


class DagCFRSolver(RegretState):
    """Simultaneous-update CFR over ``EU`` matrices of a recall-k DAG."""

    def __init__(
        self,
        game: RoundGame,
        tree: PublicTree,
        algorithm: str = "dcfr",
        dtype: type[np.floating[Any]] = np.float32,
    ) -> None:
        if tree.n_bids != game.bids.n_bids:
            raise TavernError("tree and game have different numbers of wagers")
        self.game = game
        self.tree = tree
        ops = SlotOps(tree, (game.hands[0].prob, game.hands[1].prob))
        super().__init__(ops, algorithm)
        self.dtype = dtype

    @cached_property
    def payoff0(self) -> npt.NDArray[np.floating[Any]]:
        """The game's accusation payoffs, built in this solver's dtype."""
        return self.game.payoffs(self.dtype)

    def _accused(self, bidder: int, layer: int) -> npt.NDArray[np.floating[Any]]:
        """``payoff0[bidder, layer]``: from the whole array where it is built, else that
        wager's alone (a play-out reads each once: 2 x 15 MB never held at 5 v 5)."""
        if "payoff0" in self.__dict__:
            found: npt.NDArray[np.floating[Any]] = self.payoff0[bidder, layer]
            return found
        return self.game.accused(bidder, self.dtype, layer)

    def sweep(
        self, sigma: Strategy, reach: tuple[FloatArray, FloatArray], best: int | None = None
    ) -> tuple[FloatArray, tuple[FloatArray, FloatArray]]:
        """Backward sweep.

        Args:
            sigma: both strategies.
            reach: both players' reach (:meth:`SlotOps.reach`).
            best: a player who instead picks, per node and hand, the slot with
                the highest counterfactual value (a greedy recall-k best response).

        Returns:
            ``(EU, (q0, q1))``: ``EU`` of shape ``(n_nodes, n0, n1)`` (player 0's
            expected payoff from each node given both hands) and each player's
            counterfactual slot values, shapes ``(n_slots[p], n_hands[p])``.
        """
        if best is None:
            return self._fast_sweep(sigma, reach)
        t = self.tree
        n0, n1 = self.ops.n_hands
        eu = np.empty((t.n_nodes, n0, n1), dtype=self.dtype)
        q = (np.empty((t.n_slots[0], n0)), np.empty((t.n_slots[1], n1)))
        for g in reversed(t.groups):
            a = g.actor
            sl = slice(g.s_lo, g.s_hi)
            children = t.slot_child[a][sl]
            if g.n_hi - g.n_lo == 1:
                self._single(g, a, sl, children, eu, q, sigma, reach, best)
                continue
            v = eu[children]
            if g.has_liar:
                v[g.seg_starts] = self.payoff0[1 - a, g.layer]
            r_o = reach[1 - a][t.slot_node[a][sl]].astype(self.dtype)
            if a == 0:
                qs = np.matmul(v, r_o[:, :, None])[:, :, 0]
            else:
                qs = -np.matmul(r_o[:, None, :], v)[:, 0, :]
            q[a][sl] = qs
            if best == a:
                w = self._greedy(qs, g.seg_starts, t.slot_seg[a][sl] - t.slot_seg[a][g.s_lo])
            else:
                w = sigma[a][sl]
            v *= (w[:, :, None] if a == 0 else w[:, None, :]).astype(self.dtype)
            eu[g.n_lo : g.n_hi] = np.add.reduceat(v, g.seg_starts, axis=0)
        return eu, q

    def _fast_sweep(
        self, sigma: Strategy, reach: tuple[FloatArray, FloatArray]
    ) -> tuple[FloatArray, tuple[FloatArray, FloatArray]]:
        """:meth:`sweep` without a best response: ``EU`` first, then slot values by
        one matrix product per child node (each ``EU`` matrix is read once more)."""
        t = self.tree
        n0, n1 = self.ops.n_hands
        eu = self.values(sigma)
        q = (np.empty((t.n_slots[0], n0)), np.empty((t.n_slots[1], n1)))
        rd = (reach[0].astype(self.dtype), reach[1].astype(self.dtype))
        for g in t.groups:
            a = g.actor
            if g.has_liar:  # the accusation slots of these nodes
                u = self.payoff0[1 - a, g.layer]
                liar = g.s_lo + g.seg_starts
                r_o = rd[1 - a][g.n_lo : g.n_hi]
                q[a][liar] = (u @ r_o.T).T if a == 0 else -(r_o @ u)
            if g.layer < 0:
                continue
            o = 1 - g.actor  # the bids into these nodes are o's slots
            starts = (g.in_starts if g.in_starts is not None
                      else np.arange(g.n_hi - g.n_lo, dtype=np.int64))
            ends = np.append(starts[1:], g.in_slots.shape[0])
            for j, node in enumerate(range(g.n_lo, g.n_hi)):
                slots = g.in_slots[starts[j] : ends[j]]
                r_p = rd[1 - o][g.in_parents[starts[j] : ends[j]]]
                q[o][slots] = (eu[node] @ r_p.T).T if o == 0 else -(r_p @ eu[node])
        return eu, q

    def values(self, sigma: Strategy) -> FloatArray:
        """``EU``, ``(n_nodes, n0, n1)``: player 0's expected payoff from each node given
        both hands, both players on ``sigma`` (the first half of a sweep, all that a
        play-out needs)."""
        t = self.tree
        n0, n1 = self.ops.n_hands
        eu = np.empty((t.n_nodes, n0, n1), dtype=self.dtype)
        for g in reversed(t.groups):
            a = g.actor
            sl = slice(g.s_lo, g.s_hi)
            children = t.slot_child[a][sl]
            w = sigma[a][sl].astype(self.dtype)
            if g.n_hi - g.n_lo == 1:
                eu[g.n_lo] = self._weighted_sum(g, a, children, w, eu)
                continue
            v = eu[children]
            if g.has_liar:
                v[g.seg_starts] = self._accused(1 - a, g.layer)
            v *= w[:, :, None] if a == 0 else w[:, None, :]
            eu[g.n_lo : g.n_hi] = np.add.reduceat(v, g.seg_starts, axis=0)
        return eu

    def _weighted_sum(
        self, g: Group, a: int, children: npt.NDArray[np.int64], w: FloatArray, eu: FloatArray
    ) -> FloatArray:
        """``EU`` of a one-node group: the actor's mix of its children and the accusation."""
        lo = 1 if g.has_liar else 0
        v = _child_values(eu, children[lo:])
        if a == 0:
            # Unoptimised einsum: one pass over the children. Its optimised path copies
            # them into a batched product, 1.6 times slower for the first bidder and 16
            # times for the second (0.36 / 0.45 ms against 0.59 / 7.3 ms for 30 children
            # at 5 v 5).
            acc: FloatArray = np.einsum("sx,sxy->xy", w[lo:], v)
            if lo:
                acc += w[0][:, None] * self._accused(1 - a, g.layer)
        else:
            acc = np.einsum("sy,sxy->xy", w[lo:], v)
            if lo:
                acc += w[0][None, :] * self._accused(1 - a, g.layer)
        return acc

    @staticmethod
    def _greedy(
        qs: FloatArray, starts: npt.NDArray[np.int64], seg: npt.NDArray[np.int64]
    ) -> FloatArray:
        """One-hot weights of the first slot with the highest value per node and hand."""
        top = np.maximum.reduceat(qs, starts, axis=0)
        hit = qs >= top[seg]
        first = np.cumsum(hit, axis=0)
        before = np.concatenate([np.zeros((1, hit.shape[1]), dtype=np.int64), first[:-1]])
        out: FloatArray = (hit & (first - before[starts][seg] == 1)).astype(np.float64)
        return out

    def _single(
        self,
        g: Group,
        a: int,
        sl: slice,
        children: npt.NDArray[np.int64],
        eu: FloatArray,
        q: tuple[FloatArray, FloatArray],
        sigma: Strategy,
        reach: tuple[FloatArray, FloatArray],
        best: int | None,
    ) -> None:
        """A group of one node: children read as a strided view when evenly spaced."""
        lo = 1 if g.has_liar else 0
        v = _child_values(eu, children[lo:])
        r_o = reach[1 - a][g.n_lo].astype(self.dtype)
        n_own = self.ops.n_hands[a]
        qs = np.empty((g.s_hi - g.s_lo, n_own))
        if a == 0:
            qs[lo:] = v @ r_o
            if lo:
                qs[0] = self.payoff0[1 - a, g.layer] @ r_o
        else:
            qs[lo:] = -(r_o @ v)
            if lo:
                qs[0] = -(r_o @ self.payoff0[1 - a, g.layer])
        q[a][sl] = qs
        if best == a:
            w = self._greedy(qs, np.zeros(1, dtype=np.int64), np.zeros(qs.shape[0], dtype=np.int64))
        else:
            w = sigma[a][sl]
        eu[g.n_lo] = self._weighted_sum(g, a, children, w.astype(self.dtype), eu)

    def _reaches(self, sigma: Strategy) -> tuple[FloatArray, FloatArray]:
        return (self.ops.reach(0, sigma[0]), self.ops.reach(1, sigma[1]))

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` simultaneous-update iterations."""
        t = self.tree
        for _ in range(n):
            self.iterations += 1
            it = self.iterations
            sigma: Strategy = (self.sigma[0], self.sigma[1])
            reach = self._reaches(sigma)
            for p in (0, 1):
                self.accumulate(p, reach[p], it)
            _, q = self.sweep(sigma, reach)
            for p in (0, 1):
                v = np.add.reduceat(q[p] * sigma[p], t.seg_starts[p], axis=0)
                self.update(p, q[p] - v[t.slot_seg[p]], it)

    def value(self, sigma: Strategy) -> float:
        """Player 0's expected payoff under ``sigma`` (exact: values are history-free)."""
        eu, _ = self.sweep(sigma, self._reaches(sigma))
        return float(self.ops.prior[0] @ eu[0] @ self.ops.prior[1])

    def measure(self) -> tuple[float, float]:
        """``(exploitability lower bound, value)`` of the average strategy.

        The bound uses greedy best responses that remember the same last ``k``
        wagers; a full-memory opponent may gain more (see
        :func:`~.abstraction.lift`).
        """
        sigma = self.average()
        reach = self._reaches(sigma)
        p0, p1 = self.ops.prior
        br0 = float(p0 @ self.sweep(sigma, reach, best=0)[0][0] @ p1)
        br1 = -float(p0 @ self.sweep(sigma, reach, best=1)[0][0] @ p1)
        value = float(p0 @ self.sweep(sigma, reach)[0][0] @ p1)
        return max(0.0, (br0 + br1) / 2.0), value


def _child_values(eu: FloatArray, kids: npt.NDArray[np.int64]) -> FloatArray:
    """``eu[kids]``, as a strided view (no copy) where the children are evenly spaced."""
    if kids.shape[0] > 1 and kids[1] > kids[0] and np.all(np.diff(kids) == kids[1] - kids[0]):
        view: FloatArray = eu[kids[0] : kids[-1] + 1 : kids[1] - kids[0]]
        return view
    copied: FloatArray = eu[kids]
    return copied
