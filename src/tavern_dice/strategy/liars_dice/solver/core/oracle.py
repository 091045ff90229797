"""Double oracle on the perfect-recall wager tree of a two-player round.

A round's full tree of wager histories is far too big to solve outright beyond a few
dice (``2**60`` histories at 5 dice each), and a memory of the last ``k`` wagers makes it
small but forgets what an opponent said earlier, which a full-recall opponent exploits
(:mod:`.best_response` measures by how much). An equilibrium, though,
raises to few wagers: its support is small. The double oracle (McMahan, Gordon & Blum
2003; for extensive-form games Bosansky, Kiekintveld, Lisy & Pechoucek 2014) finds it by
growing a *restricted game*:

1. The restricted game is a set of histories, each with the actions allowed there. A
   history outside it is answered by the **default**: accuse the standing wager.
2. Solve the restricted game (vectorised discounted CFR over its histories, both
   players' hands batched; :class:`RestrictedSolver`).
3. Compute each player's exact best response in the **whole** round against the other's
   restricted strategy extended by the default (:func:`best_response`). Their gains
   certify the exploitability of that extended strategy: exact, not a bound.
4. Add every history the best responses play to, and repeat until they gain at most the
   target.

The result is a strategy of the real round (restricted equilibrium, default elsewhere)
with its exact exploitability, for any raise rule, the seed's ``either`` rule with
repeats forbidden (L5b) included.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tavern_dice.strategy.liars_dice.solver.core.oracle_game import OracleRound
from tavern_dice.strategy.liars_dice.solver.core.oracle_response import (
    BestResponse,
    StrategyAt,
    best_response,
    policy_value,
)
from tavern_dice.strategy.liars_dice.solver.core.restricted import (
    CompiledTree,
    FloatArray,
    History,
    Level,
    OracleError,
    RestrictedGame,
    RestrictedSolver,
)

# The loop is here; its parts live in :mod:`.restricted` and :mod:`.oracle_response`, and
# are named here too, where the tables, the tests and the docs have always found them.
__all__ = [
    "BestResponse", "CompiledTree", "Level", "OracleError", "OracleResult", "RestrictedGame",
    "RestrictedSolver", "StrategyAt", "best_response", "iterate_plays", "policy_value", "solve",
]


@dataclass
class OracleResult:
    """What :func:`solve` returns.

    Attributes:
        restricted: the restricted game of the best round (the least exploitable).
        tree: its arrays; strategy: the average strategies on it.
        exploitability: exact NashConv / 2 of the strategy extended by the default.
        value: player 0's payoff under it.
        trace: ``(iteration, histories, cfr iterations, exploitability, seconds)`` of
            every round, the ones after the best included.
    """

    restricted: RestrictedGame
    tree: CompiledTree
    strategy: list[FloatArray]
    exploitability: float
    value: float
    trace: list[tuple[int, int, int, float, float]]

    def strategy_at(self, player: int) -> StrategyAt:
        return _strategy_lookup(self.tree, self.strategy, player)


def _strategy_lookup(tree: CompiledTree, strategy: list[FloatArray], player: int) -> StrategyAt:
    def at(history: History) -> tuple[list[int], FloatArray] | None:
        node = tree.index.get(history)
        if node is None:
            return None
        lo, hi = int(tree.slot_start[node]), int(tree.slot_end[node])
        rows = tree.slot_pos[lo:hi]
        return tree.slot_action[lo:hi].tolist(), strategy[player][rows]
    return at


def solve(
    game: OracleRound,
    target: float = 1e-3,
    cfr_iterations: int = 200,
    max_rounds: int = 200,
    max_seconds: float | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    whole_limit: int = 20_000,
    start_from: RestrictedGame | None = None,
    warm: tuple[StrategyAt, StrategyAt] | None = None,
    warm_iterations: int = 0,
) -> OracleResult:
    """Grow the restricted game until the best responses gain at most ``target``, and
    return the least exploitable round seen (a later round can measure worse than an
    earlier one, since CFR's average on the grown game moves before it settles).

    Args:
        game: the round.
        target: stop once the exact exploitability (NashConv / 2) is at most this.
        cfr_iterations: CFR iterations on the restricted game per double-oracle round.
        max_rounds, max_seconds: budgets.
        progress: called as ``progress(round, histories, exploitability)``.
        whole_limit: a round with at most this many histories is solved whole.
        start_from: a restricted game to grow from (e.g. the solution of the same round
            under the ``standard`` raise, whose histories are all legal under ``either``).
        warm, warm_iterations: each player's strategy on ``start_from``'s histories, to
            go on from as if that many CFR iterations had found it
            (:meth:`~.restricted.RestrictedSolver.seed`; a build resumed from its own table).
    """
    start = time.perf_counter()
    restricted = RestrictedGame.whole(game, whole_limit) or RestrictedGame.opening(game)
    if start_from is not None:
        for history, actions in start_from.allowed.items():
            for action in actions:
                if history == () or action in game.raises(history) or action == game.liar:
                    restricted.add(history, action)
    solver: RestrictedSolver | None = None
    trace: list[tuple[int, int, int, float, float]] = []
    result: OracleResult | None = None
    for round_ in range(1, max_rounds + 1):
        tree = CompiledTree.build(restricted)
        fresh = RestrictedSolver(game, tree)
        if solver is not None:
            fresh.warm_start(solver)
        elif warm is not None:
            fresh.seed(warm, warm_iterations)
        solver = fresh
        solver.iterate(cfr_iterations)
        sigma = solver.average()
        responses = [
            best_response(game, _strategy_lookup(tree, sigma, 1 - p), p) for p in (0, 1)
        ]
        expl = (responses[0].value + responses[1].value) / 2.0
        value = solver.value(sigma)
        elapsed = time.perf_counter() - start
        if not math.isfinite(expl) and result is not None:
            break  # a solver that broke numerically: keep the best sound round
        trace.append((round_, tree.n_nodes, solver.iterations, expl, elapsed))
        if progress is not None:
            progress(round_, tree.n_nodes, expl)
        best = None if result is None else result.exploitability
        if best is None or not math.isfinite(best) or expl < best:
            # A snapshot: the rounds below grow ``restricted`` in place.
            result = OracleResult(restricted.copy(), tree, sigma, expl, value, trace)
        if expl <= target or (max_seconds is not None and elapsed >= max_seconds):
            break
        added = False
        for response in responses:
            for history, action in response.plays:
                added |= restricted.add(history, action)
        if not added:
            continue  # nothing new to add: more CFR iterations on the same game
    assert result is not None
    return result


def iterate_plays(responses: Iterable[BestResponse]) -> Iterable[tuple[History, int]]:
    for response in responses:
        yield from response.plays
