"""The two-player tavern match by backward induction over (my dice, their dice, who starts).

Rules used (seed, two players): each round costs its loser one die (L8); a
player with no dice is out and the other wins (L9, L11); "In subsequent rounds,
the player to the left of the previous starting player go first", which with
two players means the starters alternate. So a match state is
``(a, b, s)``: player A holds ``a`` dice, B holds ``b``, and ``s = 0`` when A
bids first this round (``s = 1``: B does). ``W[a, b, s]`` is A's probability of
winning the match, with ``W[0, b, s] = 0`` and ``W[a, 0, s] = 1``.

Each round's terminal payoff is the value of the state it leads to: if the
first bidder F (A when ``s = 0``) loses a die, ``W[a - 1, b, 1 - s]``, else
``W[a, b - 1, 1 - s]`` (scaled to +-1 as ``2W - 1``). Those two numbers are an
increasing affine image of the round's own +-1 payoff (loser -1), and an
equilibrium of a zero-sum game is unchanged by ``u -> c + k u`` with ``k > 0``:
so every round ``(d_first, d_second)`` is solved **once** with +-1 payoffs,
value ``V``, and the first bidder loses a die with probability
``(1 - V) / 2`` whatever the match state around it (checked: the
state after losing a die is never better than after winning it).

Rounds: the sum endgame (L10) at ``(1, 1)`` is solved exactly; other rounds
with the exact tree or a last-``k``-wagers DAG as :class:`MatchPlan` says
(exact trees beyond ~3 dice in play do not fit, see
:mod:`.public_tree`).
"""

from __future__ import annotations

import concurrent.futures
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.strategy.liars_dice.solver.core.cfr import SolveResult, solve_round
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundSpec

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class MatchPlan:
    """How each round of the match is solved.

    Attributes:
        max_dice: dice per player at the start (seed: 5).
        exact_max_dice_in_play: rounds with at most this many dice in play use
            the exact perfect-recall tree (1 die each always does).
        recall2_max_dice_in_play: otherwise rounds with at most this many dice
            in play remember the last 2 wagers; bigger rounds the last wager.
        target_exploitability: per round (payoff units of +-1).
        max_iterations, max_seconds: per-round budgets (``exact_max_seconds`` for
            exact trees other than the small sum endgame).
    """

    max_dice: int = 5
    exact_max_dice_in_play: int = 3
    recall2_max_dice_in_play: int = 6
    target_exploitability: float = 1e-3
    max_iterations: int = 2000
    max_seconds: float = 40.0
    exact_max_seconds: float = 120.0

    def recall_for(self, dice: tuple[int, int]) -> int | None:
        """``None`` (exact) or the number of wagers remembered in round ``dice``."""
        n = sum(dice)
        if n <= self.exact_max_dice_in_play:
            return None
        return 2 if n <= self.recall2_max_dice_in_play else 1


@dataclass
class MatchSolution:
    """Solved rounds and the match win probabilities.

    Attributes:
        rules: the ruleset (raise rule replaced by the one solved).
        rounds: per ``(first bidder's dice, second's)``, the solve result.
        win: shape ``(max_dice + 1, max_dice + 1, 2)``: ``win[a, b, s]`` is the
            probability that the player with ``a`` dice wins against ``b``
            dice, ``s = 0`` if they bid first this round.
    """

    rules: LiarsDiceRules
    rounds: dict[tuple[int, int], SolveResult] = field(default_factory=dict)
    win: FloatArray = field(default_factory=lambda: np.zeros((0, 0, 2)))

    def round_values(self) -> dict[tuple[int, int], float]:
        """First bidder's +-1 value of each round."""
        return {d: r.value for d, r in self.rounds.items()}


def win_probabilities(values: dict[tuple[int, int], float], max_dice: int) -> FloatArray:
    """``W[a, b, s]`` from the rounds' first-bidder values (see module docstring).

    >>> w = win_probabilities({(1, 1): 0.0}, 1)
    >>> float(w[1, 1, 0]), float(w[1, 1, 1])
    (0.5, 0.5)
    """
    w = np.zeros((max_dice + 1, max_dice + 1, 2))
    w[1:, 0, :] = 1.0
    for total in range(2, 2 * max_dice + 1):
        for a in range(max(1, total - max_dice), min(max_dice, total - 1) + 1):
            b = total - a
            p_a_loses = (1.0 - values[(a, b)]) / 2.0  # A bids first
            if w[a, b - 1, 1] < w[a - 1, b, 1] - 1e-9:
                raise TavernError(f"losing a die helps at {(a, b)}: affine argument fails")
            w[a, b, 0] = p_a_loses * w[a - 1, b, 1] + (1.0 - p_a_loses) * w[a, b - 1, 1]
            p_b_loses = (1.0 - values[(b, a)]) / 2.0  # B bids first
            w[a, b, 1] = p_b_loses * w[a, b - 1, 0] + (1.0 - p_b_loses) * w[a - 1, b, 0]
    return w


def solve_match_round(
    rules: LiarsDiceRules, plan: MatchPlan, dice: tuple[int, int]
) -> SolveResult:
    """Solve the round ``dice`` of the match with +-1 payoffs as ``plan`` says."""
    spec = RoundSpec.from_rules(rules, dice)
    target = plan.target_exploitability
    if spec.sum_wagers:
        target = min(target, 1e-6)
    recall = plan.recall_for(dice)
    start = time.perf_counter()
    res = solve_round(
        spec, recall=recall, target_exploitability=target,
        max_iterations=max(plan.max_iterations, 20_000) if spec.sum_wagers
        else plan.max_iterations,
        max_seconds=plan.exact_max_seconds if recall is None else plan.max_seconds,
        check_every=10 if sum(dice) <= 2 else 25,
        algorithm="pcfr+" if spec.sum_wagers else "dcfr",
    )
    res.seconds = time.perf_counter() - start
    res.policy.attach_none()
    return res


def solve_match(
    rules: LiarsDiceRules = TAVERN,
    plan: MatchPlan | None = None,
    raise_rule: RaiseRule = RaiseRule.STANDARD,
    progress: Callable[[tuple[int, int], SolveResult], None] | None = None,
    workers: int = 1,
) -> MatchSolution:
    """Solve every round ``(d_first, d_second)`` up to ``plan.max_dice`` and the match.

    Args:
        rules: the ruleset (its ``raise_rule`` is replaced by ``raise_rule``,
            since the seed's ``either`` has no finite round tree).
        plan: per-round representation and budgets.
        raise_rule: ``standard`` or ``face-major``.
        progress: called after each round with its dice and result.
        workers: processes solving rounds in parallel (rounds are independent).
    """
    plan = plan or MatchPlan()
    rules = rules.replace(raise_rule=raise_rule)
    sol = MatchSolution(rules)
    order = sorted(
        ((a, b) for a in range(1, plan.max_dice + 1) for b in range(1, plan.max_dice + 1)),
        key=lambda d: (d[0] + d[1], d),
    )
    if workers <= 1:
        for dice in order:
            sol.rounds[dice] = solve_match_round(rules, plan, dice)
            if progress is not None:
                progress(dice, sol.rounds[dice])
    else:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(solve_match_round, rules, plan, d): d for d in reversed(order)}
            for fut in concurrent.futures.as_completed(futures):
                dice = futures[fut]
                sol.rounds[dice] = fut.result()
                if progress is not None:
                    progress(dice, sol.rounds[dice])
    sol.win = win_probabilities(sol.round_values(), plan.max_dice)
    return sol
