"""How the decision-time search reads a round's leaf values (:mod:`.leaves`): the
subgame's leaves grouped by node, one matrix product each way an iteration."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import numpy.typing as npt

from tavern_dice.strategy.liars_dice.solver.play.leaves import Factors

FloatArray = npt.NDArray[np.float64]


class LeafSet:
    """The subgame's leaves, node ``nodes[i]`` reached by the actor's root raise
    ``owner[i]`` and the other's answer ``column[i]``: each reads its node's factors, or,
    where the node is kept whole, its matrix, grouped by node so that each matrix is read
    once an iteration for all the leaves that reach it (padded to the largest group)."""

    def __init__(self, values: Factors, nodes: npt.NDArray[np.int64],
                 owner: npt.NDArray[np.int64], column: npt.NDArray[np.int64], k: int) -> None:
        self.size = int(nodes.shape[0])
        self.owner, self.column = owner, column
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
        unique, group = np.unique(values.slot[nodes[self.high]], return_inverse=True)
        group = group.reshape(-1)
        self.blocks = _blocks(values, unique, group, self.high)
        self.high_onehot = _onehot(owner[self.high], k)
        slots = sum(block.groups * block.width for block in self.blocks)
        self.work = n_c * n_a * n_b * (slots + self.size)
        """What one :meth:`forward` and one :meth:`backward` cost, in pairs of hands: the
        whole matrices' padded rows, and as much again per leaf for what each leaf costs
        whatever its form (its gathers and scatters, its factors). Timed at 5 v 5 an
        iteration took about 0.3 ns of CPU per unit on this project's machine (4 ms at 14
        million, 6 ms at 21 million), closer than the multiply-adds predict."""

    def _repeat(self, a: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """``a`` once per continuation along the batch axis (a view with one)."""
        return np.broadcast_to(a, (self.shape[0], *a.shape)).reshape(-1, *a.shape[1:])

    def forward(self, x: FloatArray) -> FloatArray:
        """``(continuations, leaves, n_b)``: per leaf and hand of the other's, the actor's
        score weighted by the actor's reach of the leaf's raise (``x``: ``(n_a, raises)``);
        the other's score is its negation."""
        n_c, n_a, n_b = self.shape
        out: FloatArray = np.zeros((n_c, self.size, n_b))
        if self.low.shape[0]:
            z = self._repeat(x.T[self.owner[self.low]][:, None, :].astype(np.float32))
            out[:, self.low] = np.matmul(np.matmul(z, self.u), self.vt).reshape(n_c, -1, n_b)
        for block in self.blocks:
            pad = np.zeros((block.groups, block.width, n_a), dtype=np.float32)
            pad[block.group, block.place] = x.T[self.owner[block.leaves]]
            got = np.matmul(self._repeat(pad), block.mats)
            out[:, block.leaves] = got.reshape(n_c, block.groups, block.width, n_b)[
                :, block.group, block.place]
        return out

    def backward(self, y: FloatArray, choice: FloatArray | None) -> FloatArray:
        """The actor's score per hand and root raise, given the other's reach of each
        answer ``y`` (``(raises, n_b, answers)``) and its chances of each continuation at
        each leaf ``choice`` (``(continuations, leaves, n_b)``; ``None``: one, for sure)."""
        n_c, n_a, n_b = self.shape
        out: FloatArray = np.zeros((n_a, self.low_onehot.shape[1]))
        if self.low.shape[0]:
            reach = self._reach(y, choice, self.low)
            back = np.matmul(self.vt, reach.reshape(-1, n_b, 1).astype(np.float32))
            per_leaf = np.matmul(self.u, back).reshape(n_c, -1, n_a).sum(axis=0)
            out += per_leaf.T @ self.low_onehot  # per_leaf: (leaves, n_a)
        if not self.blocks:
            return out
        per_high = np.empty((n_c, self.high.shape[0], n_a))
        for block in self.blocks:
            reach = self._reach(y, choice, block.leaves)
            pad = np.zeros((n_c, block.groups, n_b, block.width), dtype=np.float32)
            pad[:, block.group, :, block.place] = np.swapaxes(reach, 0, 1)
            per_group = np.matmul(block.mats, pad.reshape(-1, n_b, block.width)).reshape(
                n_c, block.groups, n_a, block.width)
            # (leaves, continuations, n_a) -> (continuations, leaves, n_a)
            per_high[:, block.rows] = np.swapaxes(per_group[:, block.group, :, block.place],
                                                  0, 1)
        out += per_high.sum(axis=0).T @ self.high_onehot
        return out

    def _reach(self, y: FloatArray, choice: FloatArray | None,
               part: npt.NDArray[np.int64]) -> FloatArray:
        """``(continuations or 1, leaves, n_b)``: the other's reach of each leaf in ``part``
        under each continuation."""
        reach: FloatArray = y[self.owner[part], :, self.column[part]][None]
        return reach if choice is None else reach * choice[:, part]


@dataclass(frozen=True)
class _Block:
    """Whole-matrix leaves whose nodes have about as many leaves each: one padded batch.

    ``leaves``: their positions among all leaves; ``rows``: among the whole ones;
    ``group``/``place``: each one's node within the block and place within its node's
    leaves; ``mats``: ``(continuations x groups, n_a, n_b)``."""

    leaves: npt.NDArray[np.int64]
    rows: npt.NDArray[np.int64]
    group: npt.NDArray[np.int64]
    place: npt.NDArray[np.int64]
    groups: int
    width: int
    mats: npt.NDArray[np.float32]


BLOCK_COST = 2_000_000
"""What one more block costs, in multiply-adds (about 40 microseconds of NumPy calls a
solver iteration, against some 1.3 microseconds a padded 252 x 252 leaf product): blocks
pay where matrices are large (5 v 5: four blocks, a third fewer products than one) and
not where they are small (4 v 3: one or two)."""


def _blocks(values: Factors, unique: npt.NDArray[np.int64],
            group: npt.NDArray[np.int64], high: npt.NDArray[np.int64]) -> list[_Block]:
    """The whole-matrix leaves (``high``, their nodes' slots ``unique[group]``) in blocks
    of nodes with similar numbers of leaves, the nodes with the most first."""
    if not high.shape[0]:
        return []
    n_a, n_b = values.u.shape[2], values.vt.shape[3]
    counts = np.bincount(group, minlength=unique.shape[0])
    order = np.argsort(-counts, kind="stable")
    size = order.shape[0]
    # Cheapest cuts of the nodes (most leaves first) into blocks, each padded to its first
    # node's leaves: best[j] is the cost of the first j nodes, cut[j] where its last starts.
    per_block = BLOCK_COST / (n_a * n_b)
    best = [0.0] + [np.inf] * size
    cut = [0] * (size + 1)
    for j in range(1, size + 1):
        for i in range(j):
            cost = best[i] + per_block + (j - i) * float(counts[order[i]])
            if cost < best[j]:
                best[j], cut[j] = cost, i
    cuts = [size]
    while cuts[-1]:
        cuts.append(cut[cuts[-1]])
    cuts.reverse()
    out: list[_Block] = []
    for start, stop in pairwise(cuts):
        nodes = order[start:stop]
        local = np.full(unique.shape[0], -1, dtype=np.int64)
        local[nodes] = np.arange(nodes.shape[0])
        rows = np.flatnonzero(local[group] >= 0)
        mine = local[group[rows]]
        place = np.zeros(rows.shape[0], dtype=np.int64)
        seen: dict[int, int] = {}
        for i, g in enumerate(mine.tolist()):
            place[i] = seen.get(g, 0)
            seen[g] = place[i] + 1
        out.append(_Block(high[rows], rows, mine, place, int(nodes.shape[0]),
                          int(max(seen.values())),
                          values.whole(unique[nodes]).reshape(-1, n_a, n_b)))
    return out


def _onehot(owner: npt.NDArray[np.int64], k: int) -> FloatArray:
    """``(leaves, k)``: 1 at each leaf's root raise, to sum leaves' values per raise."""
    out: FloatArray = np.zeros((owner.shape[0], k))
    out[np.arange(owner.shape[0]), owner] = 1.0
    return out
