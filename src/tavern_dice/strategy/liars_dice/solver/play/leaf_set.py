"""How the decision-time search reads a round's leaf values (:mod:`.leaves`): the
subgame's leaves grouped by node, one batch of matrix products each way an iteration."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavern_dice.strategy.liars_dice.solver.play.leaves import Factors

FloatArray = npt.NDArray[np.float64]


class LeafSet:
    """The subgame's leaves, node ``nodes[i]`` reached by the actor's root raise
    ``owner[i]`` and the other's answer ``column[i]``: each reads its node's factors, or,
    where the node is kept whole, its matrix.

    The whole matrices are read once each way an iteration, in one product for every
    root raise at once: a node's leaves differ only in the raise that reached it, so the
    actor's reach of all the raises goes through the nodes' matrices, laid side by side,
    together. That is more multiply-adds than the leaves alone need (at 5 v 5, 240 rows
    for some 140 leaves) in one large product instead of many small ones and the gathers
    around them: a 5 v 5 solve about 20 % quicker, the leaves' products alone about 30 %
    (``docs/experiments.md``)."""

    def __init__(self, values: Factors, nodes: npt.NDArray[np.int64],
                 owner: npt.NDArray[np.int64], column: npt.NDArray[np.int64], k: int) -> None:
        self.size = int(nodes.shape[0])
        self.owner, self.column, self.k = owner, column, k
        whole = values.slot[nodes] >= 0
        self.low = np.flatnonzero(~whole)
        self.high = np.flatnonzero(whole)
        # Continuations and leaves share one batch axis: one matrix product each way.
        n_c, _, n_a, rank = values.u.shape
        n_b = values.vt.shape[-1]
        self.shape = (n_c, n_a, n_b)
        self.u = values.u[:, nodes[self.low]].reshape(-1, n_a, rank)  # (c x leaves, n_a, r)
        self.vt = values.vt[:, nodes[self.low]].reshape(-1, rank, n_b)  # (c x leaves, r, n_b)
        self.low_onehot = _onehot(owner[self.low], k)
        unique, place = np.unique(values.slot[nodes[self.high]], return_inverse=True)
        self.place = place.reshape(-1)  # each whole leaf's node among ``dense``'s
        self.high_owner = owner[self.high]
        # One matrix (continuations, n_a, nodes x n_b), each node's values side by side:
        # a product with it reads every node once. As stored, the first bidder's hands
        # are the rows; the second bidder's values are minus their transpose, which the
        # stored layout gives as a view (its sign applied to the products).
        dense = np.ascontiguousarray(values.dense[:, unique])  # (c, nodes, rows, columns)
        n_g = dense.shape[1]
        self.sign = -1.0 if values.flip else 1.0
        self.joined = (np.swapaxes(dense.reshape(n_c, n_g * n_b, n_a), 1, 2) if values.flip
                       else np.ascontiguousarray(np.swapaxes(dense, 1, 2)).reshape(
                           n_c, n_a, n_g * n_b))
        self.nodes = n_g
        counts = np.bincount(self.place, minlength=unique.shape[0])
        self.work = n_c * n_a * n_b * (padded_rows(counts, n_a * n_b) + self.size)
        """The iteration budget's unit (:data:`.search.SOLVE_WORK`), in pairs of hands:
        the whole matrices' rows as the leaves were once read, in blocks of nodes padded
        to their widest (:func:`padded_rows`), and as much again per leaf. Kept as it was
        measured, so that a solve runs the iterations it always ran: at 5 v 5 an
        iteration took about 0.3 ns of CPU per unit then."""

    def forward(self, x: FloatArray) -> FloatArray:
        """``(continuations, leaves, n_b)``: per leaf and hand of the other's, the actor's
        score weighted by the actor's reach of the leaf's raise (``x``: ``(n_a, raises)``);
        the other's score is its negation."""
        n_c, n_a, n_b = self.shape
        out: FloatArray = np.empty((n_c, self.size, n_b))
        x32 = x.astype(np.float32)
        if self.low.shape[0]:
            z = x32.T[self.owner[self.low]][:, None, :]
            z = np.broadcast_to(z, (n_c, *z.shape)).reshape(-1, 1, n_a)
            out[:, self.low] = np.matmul(np.matmul(z, self.u), self.vt).reshape(n_c, -1, n_b)
        if self.high.shape[0]:
            got = np.matmul(np.ascontiguousarray(x32.T), self.joined).reshape(
                n_c, self.k, self.nodes, n_b)
            picked = got[:, self.high_owner, self.place]
            out[:, self.high] = picked if self.sign > 0 else np.negative(picked, out=picked)
        return out

    def backward(self, y: FloatArray, choice: FloatArray | None) -> FloatArray:
        """The actor's score per hand and root raise, given the other's reach of each
        answer ``y`` (``(raises, answers, n_b)``) and its chances of each continuation at
        each leaf ``choice`` (``(continuations, leaves, n_b)``; ``None``: one, for sure)."""
        n_c, n_a, n_b = self.shape
        out: FloatArray = np.zeros((n_a, self.k))
        if self.low.shape[0]:
            reach = self._reach(y, choice, self.low)
            back = np.matmul(self.vt, reach.reshape(-1, n_b, 1).astype(np.float32))
            per_leaf = np.matmul(self.u, back).reshape(n_c, -1, n_a).sum(axis=0)
            out += per_leaf.T @ self.low_onehot  # per_leaf: (leaves, n_a)
        if self.high.shape[0]:
            reach = self._reach(y, choice, self.high)
            # Per root raise, the other's reach of each node after it (zero where none).
            spread = np.zeros((reach.shape[0], self.k, self.nodes, n_b), dtype=np.float32)
            spread[:, self.high_owner, self.place] = reach
            per_raise = np.matmul(spread.reshape(-1, self.k, self.nodes * n_b),
                                  np.swapaxes(self.joined, 1, 2))  # (c, k, n_a)
            out += self.sign * per_raise.sum(axis=0, dtype=np.float64).T
        return out

    def _reach(self, y: FloatArray, choice: FloatArray | None,
               part: npt.NDArray[np.int64]) -> FloatArray:
        """``(continuations or 1, leaves, n_b)``: the other's reach of each leaf in ``part``
        under each continuation."""
        reach: FloatArray = y[self.owner[part], self.column[part]][None]
        return reach if choice is None else reach * choice[:, part]


BLOCK_COST = 2_000_000
"""What one more block cost, in multiply-adds, when the whole matrices were read in padded
blocks: :func:`padded_rows` keeps the iteration budget's unit as it was measured."""


def padded_rows(counts: npt.NDArray[np.int64], pairs: int) -> int:
    """The rows of the whole matrices, nodes with ``counts`` leaves each, cut into the
    cheapest blocks of nodes (most leaves first) each padded to its first node's leaves,
    a block costing :data:`BLOCK_COST` over ``pairs`` (a matrix's entries) rows more."""
    size = counts.shape[0]
    if not size:
        return 0
    order = np.sort(counts)[::-1].tolist()
    per_block = BLOCK_COST / pairs
    # best[j]: the cheapest cut of the first j nodes; rows[j]: its padded rows.
    best = [0.0] + [np.inf] * size
    rows = [0] * (size + 1)
    for j in range(1, size + 1):
        for i in range(j):
            cost = best[i] + per_block + (j - i) * float(order[i])
            if cost < best[j]:
                best[j], rows[j] = cost, rows[i] + (j - i) * order[i]
    return rows[size]


def _onehot(owner: npt.NDArray[np.int64], k: int) -> FloatArray:
    """``(leaves, k)``: 1 at each leaf's root raise, to sum leaves' values per raise."""
    out: FloatArray = np.zeros((owner.shape[0], k))
    out[np.arange(owner.shape[0]), owner] = 1.0
    return out
