"""Counterfactual regret minimisation over the public tree, vectorised over hands.

Three regret minimisers share one implementation (alternating updates: player
0 then player 1 each iteration; each half-iteration is one forward sweep of
the opponent's reach and one backward sweep of the traverser's values, see
:class:`~.sweeps.Sweeper`):

* ``'dcfr'`` (default) - discounted CFR (Brown & Sandholm, "Solving
  Imperfect-Information Games via Discounted Regret Minimization", AAAI 2019)
  with alpha=1.5, beta=0, gamma=2 (average weighted by ``t**2``).
* ``'pcfr+'`` - predictive CFR+ (Farina, Kroer & Sandholm, "Faster Game
  Solving via Predictive Blackwell Approachability: Connecting Regret Matching
  and Mirror Descent", AAAI 2021): regret-matching+ with the last
  instantaneous regret as prediction, ``sigma_{t+1} ~ [R_t + r_t]^+``,
  quadratic averaging.
* ``'cfr+'`` - CFR+ (Tammelin 2014; Tammelin, Burch, Johanson & Bowling,
  IJCAI 2015): regret-matching+ with linear averaging.

Why DCFR: iterations to reach an exploitability on the 1-die rounds
(alternating updates, checks every 10 iterations):

==========================  =========  =========  =========
round                        DCFR       PCFR+      CFR+
==========================  =========  =========  =========
OpenSpiel (wild 6), 1e-3     180        380        290
OpenSpiel (wild 6), 1e-4     870        2010       1120
no wild, 1e-6                360        450        2590
sum endgame, 1e-4            380        490        670
sum endgame, 1e-6            >6000      2270       >6000
==========================  =========  =========  =========

DCFR is fastest to the tolerances that matter for play (1e-3, 1e-4);
predictive CFR+ wins on the sum endgame to 1e-6, so :mod:`.match`
and the tests use ``'pcfr+'`` there.

The solver returns the *average* strategy, which converges to a Nash
equilibrium of the exact (perfect-recall) tree; on a ``recall=k`` DAG it
converges in practice but without that guarantee.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.dag import DagCFRSolver
from tavern_dice.strategy.liars_dice.solver.core.policy import RoundPolicy
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.core.regret import ALGORITHMS, RegretState
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame, RoundSpec
from tavern_dice.strategy.liars_dice.solver.core.sweeps import Strategy, Sweeper

__all__ = ["ALGORITHMS", "CFRSolver", "SolveResult", "solve_round"]

@dataclass
class SolveResult:
    """What :func:`solve_round` returns.

    Attributes:
        policy: the average strategy of both players.
        iterations: CFR iterations run.
        exploitability: NashConv / 2 of ``policy`` at the end (payoff units).
        value: player 0's (the first bidder's) expected payoff under ``policy``.
        seconds: wall time including the exploitability checks.
        trace: ``(iteration, seconds, exploitability)`` at every check.
    """

    policy: RoundPolicy
    iterations: int
    exploitability: float
    value: float
    seconds: float
    trace: list[tuple[int, float, float]] = field(default_factory=list)


class CFRSolver(RegretState):
    """Alternating-update CFR on the exact tree; see the module docstring."""

    def __init__(
        self,
        game: RoundGame,
        tree: PublicTree,
        algorithm: str = "dcfr",
        dtype: type[np.floating[Any]] = np.float64,
    ) -> None:
        self.sweeper = Sweeper(game, tree, dtype)
        super().__init__(self.sweeper, algorithm)

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` iterations (each updates player 0, then player 1)."""
        sw = self.sweeper
        tree = sw.tree
        for _ in range(n):
            self.iterations += 1
            t = self.iterations
            for i in (0, 1):
                o = 1 - i
                sigma: Strategy = (self.sigma[0], self.sigma[1])
                reach_o = sw.reach(o, sigma[o])
                self.accumulate(o, reach_o, t)
                v, sv = sw.values(i, reach_o, sigma, slot_values=True)
                assert sv is not None
                self.update(i, sv - v[tree.slot_node[i]], t)

    def measure(self) -> tuple[float, float]:
        """``(exploitability, value)`` of the average strategy (exact)."""
        return self.sweeper.exploitability(self.average())


def solve_round(
    spec: RoundSpec,
    *,
    recall: int | None = None,
    target_exploitability: float = 1e-4,
    max_iterations: int = 100_000,
    check_every: int = 10,
    algorithm: str = "dcfr",
    max_seconds: float | None = None,
    callback: Callable[[int, float], None] | None = None,
    game: RoundGame | None = None,
    tree: PublicTree | None = None,
) -> SolveResult:
    """Solve one round until ``target_exploitability`` or a budget runs out.

    Args:
        spec: the round (dice, sides, wild face, raise rule, sum wagers, payoffs).
        recall: ``None`` for the exact tree, ``k`` for the last-``k``-wagers DAG
            (see :mod:`.public_tree`).
        target_exploitability: stop once NashConv / 2 <= this (payoff units;
            with payoffs +-1, 1e-4 means no opponent gains more than 1e-4).
        max_iterations, max_seconds: budgets.
        check_every: iterations between exploitability checks (each costs
            about one iteration).
        algorithm: one of :data:`ALGORITHMS`.
        callback: called as ``callback(iteration, exploitability)`` at each check.
        game, tree: prebuilt objects for ``spec`` (optional).

    >>> from tavern_dice.liars_dice.rules import RaiseRule
    >>> res = solve_round(RoundSpec((1, 1), sides=6, wild_face=6, spot_on=False))
    >>> res.exploitability <= 1e-4, round(res.value * 258, 2)
    (True, -7.0)
    """
    if check_every < 1 or max_iterations < 0:
        # check_every=0 would measure forever without iterating.
        raise TavernError(
            f"check_every must be >= 1 and max_iterations >= 0, not {check_every} and "
            f"{max_iterations}"
        )
    start = time.perf_counter()
    game = game or RoundGame.build(spec)
    tree = tree or PublicTree.build(game.bids.n_bids, recall)
    solver: CFRSolver | DagCFRSolver
    if tree.recall is None:
        big = tree.n_nodes * max(game.n_states) > 2_000_000
        solver = CFRSolver(game, tree, algorithm, np.float32 if big else np.float64)
    else:
        solver = DagCFRSolver(game, tree, algorithm)
    trace: list[tuple[int, float, float]] = []
    expl, value = float("inf"), 0.0
    while True:
        step = min(check_every, max_iterations - solver.iterations)
        if step > 0:
            solver.iterate(step)
        expl, value = solver.measure()
        elapsed = time.perf_counter() - start
        trace.append((solver.iterations, elapsed, expl))
        if callback is not None:
            callback(solver.iterations, expl)
        if (expl <= target_exploitability or solver.iterations >= max_iterations
                or (max_seconds is not None and elapsed >= max_seconds)):
            break
    avg = solver.average()
    policy = RoundPolicy(spec, tree.recall, (avg[0], avg[1]))
    policy.attach(game, tree)
    return SolveResult(policy, solver.iterations, expl, value,
                       time.perf_counter() - start, trace)
