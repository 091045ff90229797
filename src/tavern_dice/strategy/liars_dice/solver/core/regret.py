"""The regret-minimisation state both CFR solvers share: regrets, the current and the
average strategies, and the update rules of :data:`ALGORITHMS` (their sources and the
measurements behind the default are in :mod:`.cfr`).

Its own module so that the exact-tree solver (:mod:`.cfr`) and the DAG solver
(:mod:`.dag`) both build on it without importing each other.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.sweeps import SlotOps, Strategy

FloatArray = npt.NDArray[np.float64]
ALGORITHMS = ("pcfr+", "dcfr", "cfr+")


class RegretState:
    """Regrets, current and average strategies of both players, and the update rules.

    Args:
        ops: slot arithmetic of the tree (normalisation, uniform strategy).
        algorithm: one of :data:`ALGORITHMS`.
    """

    def __init__(self, ops: SlotOps, algorithm: str = "dcfr") -> None:
        if algorithm not in ALGORITHMS:
            raise TavernError(f"algorithm must be one of {ALGORITHMS}, not {algorithm!r}")
        self.algorithm = algorithm
        self.ops = ops
        self.sigma: list[FloatArray] = list(ops.uniform())
        self.regret = [np.zeros_like(s) for s in self.sigma]
        self.avg = [np.zeros_like(s) for s in self.sigma]
        self.iterations = 0

    def weight(self, t: int) -> float:
        """Weight of iteration ``t`` in the average strategy (t for CFR+, t**2 otherwise)."""
        return float(t) if self.algorithm == "cfr+" else float(t) ** 2

    def accumulate(self, p: int, reach_p: FloatArray, t: int) -> None:
        """Add player ``p``'s current strategy, weighted by its own reach, to the average."""
        w = reach_p.dtype.type(self.weight(t))
        self.avg[p] += w * reach_p[self.ops.tree.slot_node[p]] * self.sigma[p]

    def update(self, i: int, inst: FloatArray, t: int) -> None:
        """Apply instantaneous regrets ``inst`` (shape ``(n_slots[i], n_hands[i])``) of player i."""
        r = self.regret[i]
        r += inst
        if self.algorithm == "dcfr":
            ta = float(t) ** 1.5
            r *= np.where(r > 0, r.dtype.type(ta / (ta + 1.0)), r.dtype.type(0.5))
            target = np.maximum(r, 0.0)
        else:
            np.maximum(r, 0.0, out=r)
            target = np.maximum(r + inst, 0.0) if self.algorithm == "pcfr+" else r
        self.sigma[i] = self.ops.normalise(i, target)

    def average(self) -> Strategy:
        """The average strategy (current strategy where a node was never reached)."""
        ops = self.ops
        return (ops.normalise(0, self.avg[0], self.sigma[0]),
                ops.normalise(1, self.avg[1], self.sigma[1]))
