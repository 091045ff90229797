"""Benchmark against OpenSpiel (needs the ``bench`` extra: ``pip install open-spiel``).

Run: ``.venv/bin/python benchmarks/vs_openspiel.py [--check-every K] [--playouts N]``.

(i)  Wall time to reach exploitability <= 1e-3 on OpenSpiel's ``liars_dice``
     (1 die each, 6 sides, face 6 wild, standard raise): our vectorised DCFR
     vs ``pyspiel.CFRPlusSolver`` (C++), both checking exploitability every K
     iterations (``pyspiel.exploitability`` for theirs); both game values are
     compared with the known -7/258.
(ii) Single-round uniformly random playouts per second with 5 dice each:
     :func:`tavern_dice.strategy.liars_dice.solver.playouts.random_playouts` (NumPy, all rounds at
     once) vs a Python loop over ``pyspiel`` states (``numdice=5``); the two
     loser rates and mean numbers of wagers are printed as a cross-check.

Prints its figures; it is not a test.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

from tavern_dice.liars_dice.rules import OPENSPIEL
from tavern_dice.strategy.liars_dice.solver.cfr import solve_round
from tavern_dice.strategy.liars_dice.solver.playouts import random_playouts
from tavern_dice.strategy.liars_dice.solver.round_game import RoundSpec

TARGET = 1e-3
EXACT = -7 / 258


def ours_solve(check_every: int) -> tuple[float, int, float, float]:
    """(seconds, iterations, exploitability, first bidder's value)."""
    solve_round(RoundSpec.from_rules(OPENSPIEL, (1, 1)), target_exploitability=1e-1)  # warm-up
    start = time.perf_counter()
    res = solve_round(RoundSpec.from_rules(OPENSPIEL, (1, 1)), target_exploitability=TARGET,
                      check_every=check_every)
    return time.perf_counter() - start, res.iterations, res.exploitability, res.value


def openspiel_solve(
    check_every: int, max_iterations: int
) -> tuple[float, float, int, float, float]:
    """(seconds, seconds without checks, iterations, exploitability, first bidder's value)."""
    game = pyspiel.load_game("liars_dice")
    solver = pyspiel.CFRPlusSolver(game)
    start = time.perf_counter()
    checking = 0.0
    iterations = 0
    expl = float("inf")
    while iterations < max_iterations:
        for _ in range(check_every):
            solver.evaluate_and_update_policy()
        iterations += check_every
        t0 = time.perf_counter()
        expl = pyspiel.exploitability(game, solver.average_policy())
        checking += time.perf_counter() - t0
        if expl <= TARGET:
            break
    total = time.perf_counter() - start
    value = pyspiel.expected_returns(game.new_initial_state(), solver.average_policy(), -1, True)[0]
    return total, total - checking, iterations, expl, value


def openspiel_playouts(n: int, rng: np.random.Generator) -> tuple[float, float, float]:
    """(rounds per second, first bidder's loss rate, mean wagers)."""
    game = pyspiel.load_game("liars_dice", {"numdice": 5})
    liar = game.num_distinct_actions() - 1
    losses = wagers = 0
    start = time.perf_counter()
    for _ in range(n):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = state.legal_actions()
                action = legal[int(rng.integers(len(legal)))]
                wagers += action != liar
                state.apply_action(action)
        losses += state.returns()[0] < 0
    return n / (time.perf_counter() - start), losses / n, wagers / n


def main() -> None:
    """Run both benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--max-iterations", type=int, default=5000)
    parser.add_argument("--playouts", type=int, default=5000, help="OpenSpiel playouts")
    args = parser.parse_args()

    print("(i) time to exploitability <= 1e-3 on OpenSpiel liars_dice (1 die each)")
    o_sec, o_it, o_expl, o_val = ours_solve(args.check_every)
    print(f"  ours (DCFR, NumPy): {o_sec:.2f} s, {o_it} iterations, exploitability "
          f"{o_expl:.2e}, value {o_val:+.5f}")
    s_sec, s_sec_solve, s_it, s_expl, s_val = openspiel_solve(args.check_every, args.max_iterations)
    print(f"  pyspiel.CFRPlusSolver: {s_sec:.2f} s ({s_sec_solve:.2f} s without the "
          f"exploitability checks), {s_it} iterations, exploitability {s_expl:.2e}, "
          f"value {s_val:+.5f}")
    print(f"  exact value -7/258 = {EXACT:+.5f}; |ours - theirs| = {abs(o_val - s_val):.1e}")
    print(f"  speed-up: {s_sec / o_sec:.1f}x overall, {s_sec_solve / o_sec:.1f}x against "
          f"their solver time alone")

    print("(ii) random single-round playouts, 2 players x 5 dice (wild 6, standard raise)")
    rng = np.random.default_rng(0)
    random_playouts(10_000, rng=rng)  # warm-up
    n_ours = 1_000_000
    start = time.perf_counter()
    out = random_playouts(n_ours, dice=(5, 5), wild_face=6, rng=rng)
    ours_rate = n_ours / (time.perf_counter() - start)
    print(f"  ours: {ours_rate:,.0f} rounds/s (first bidder loses {(out.loser == 0).mean():.4f}, "
          f"{out.n_wagers.mean():.3f} wagers)")
    rate, loss, mean_w = openspiel_playouts(args.playouts, rng)
    print(f"  pyspiel: {rate:,.0f} rounds/s (first bidder loses {loss:.4f}, {mean_w:.3f} wagers)")
    print(f"  ratio ours / pyspiel: {ours_rate / rate:.1f}")


if __name__ == "__main__":
    main()
