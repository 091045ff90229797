"""Benchmark against OpenSpiel (needs the ``bench`` extra: ``pip install open-spiel``).

Run: ``.venv/bin/python benchmarks/vs_openspiel.py [--check-every K] [--rounds N] [--repeat R]
[--steps S] [--skip-solve] [--profile] [--old REF]``. ``--old REF`` runs parts (ii) and (iii)
again in the same run on a ``git worktree`` of ``REF`` (old and new side by side).

(i)  Wall time to reach exploitability <= 1e-3 on OpenSpiel's ``liars_dice``
     (1 die each, 6 sides, face 6 wild, standard raise): our vectorised DCFR
     vs ``pyspiel.CFRPlusSolver`` (C++), both checking exploitability every K
     iterations (``pyspiel.exploitability`` for theirs); both game values are
     compared with the known -7/258.
(ii) The engines like for like: one uniformly random round, 2 players x 5 dice, OpenSpiel's
     rules (face 6 wild, standard raise, no spot-on), each engine through its Python
     object API: :class:`~tavern_dice.liars_dice.state.LiarsDiceGame` (``legal_actions``,
     ``apply``, its dice source at the chance nodes) and ``pyspiel`` states
     (``legal_actions``, ``chance_outcomes``, ``apply_action``). One ``random.Random``
     draws everything, the same way on both sides: a die is ``randrange(6)`` (pyspiel:
     the index of its chance outcome), a choice ``randrange(len(legal))``. Rounds per
     second of this process's CPU time (the machine is shared: CPU time is what another
     program's load disturbs least), best of ``--repeat`` runs, twice:
       - a fresh state per round on both sides (``LiarsDiceGame(...)``, whose set-up
         includes the roll-off for the first bidder (L2); ``game.new_initial_state()``);
       - set-up excluded on both sides: each round is a copy of one state made at the
         round's first chance node (``copy.deepcopy``; ``state.clone()``).
     The first bidder's loss rate and the mean number of wagers are printed for both as a
     cross-check that they play the same round: set-up excluded, the two engines draw the
     same numbers in the same order, so they roll the same ten dice and make the same
     wagers (equal figures; the tavern template's roll-off gave seat 1 the first wager, so
     the hands sit the other way round, which a random player does not see); fresh, the
     tavern roll-off draws first, so the rounds differ but not their odds. The
     tavern calls name their arguments (``legal_actions(seat=...)``,
     ``apply(seat=..., action=...)``). Last, on its own line, the NumPy *batch
     simulator* (:func:`~tavern_dice.strategy.liars_dice.solver.build.playouts.random_playouts`,
     all rounds in lockstep): a different kind of program, not an engine.
     ``--profile`` prints a cProfile of the tavern engine's rounds (set-up excluded).
(iii) Reinforcement-learning environments stepped one state at a time, uniformly random
     play on OpenSpiel's ``liars_dice`` (2 players, 1 die each, one round an episode):
     the PettingZoo AEC environment (:func:`tavern_dice.interop.pettingzoo.liars_dice.env`,
     with PettingZoo's usual wrappers; ``last()`` then ``step()``, the action drawn from
     the observation's action mask) against OpenSpiel's ``rl_environment.Environment``
     (``step([action])``, the action drawn from ``legal_actions``); agent steps per second
     of CPU time, episode resets included, best of ``--repeat`` alternating runs.

Prints its figures; it is not a test.
"""

from __future__ import annotations

import argparse
import copy
import cProfile
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python import rl_environment

from tavern_dice.dice import RollSpec
from tavern_dice.interop.pettingzoo.liars_dice import env as liars_env
from tavern_dice.liars_dice.events import Revealed
from tavern_dice.liars_dice.rules import OPENSPIEL
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.strategy.liars_dice.solver.build.playouts import random_playouts
from tavern_dice.strategy.liars_dice.solver.core.cfr import solve_round
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundSpec

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


RULES = OPENSPIEL.replace(dice_per_player=5)
"""OpenSpiel's ``liars_dice`` with ``numdice=5``: face 6 wild, standard raise, no spot-on."""


class SharedDice:
    """A dice source drawing each die as ``rng.randrange(sides)`` from the benchmark's one
    generator, the draw the pyspiel loop makes per chance node; a copied game shares it."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self, spec: RollSpec) -> tuple[int, ...]:
        draw = self.rng.randrange
        sides = spec.sides
        return tuple(draw(sides) + 1 for _ in range(spec.count))

    def __deepcopy__(self, memo: dict[int, object]) -> SharedDice:
        return self


Round = Callable[[random.Random], tuple[bool, int]]
"""Plays one round: ``(whether the first bidder lost, wagers made)``."""


def tavern_rounds(fresh: bool) -> Round:
    """One random round of :class:`LiarsDiceGame`."""
    template: LiarsDiceGame | None = None
    if not fresh:
        # A state at the round's first chance node: the roll-off is done, the round's
        # dice are not rolled yet.
        template = LiarsDiceGame(2, rules=RULES, dice=SharedDice(random.Random(0)),
                                 auto_roll=False)
        while template.round == 0:
            template.roll()

    def play(rng: random.Random) -> tuple[bool, int]:
        # Chance nodes resolved one by one, as pyspiel's are (auto_roll would also roll
        # the next round's dice after the reveal: work pyspiel's round does not do).
        if template is None:
            game = LiarsDiceGame(2, rules=RULES, dice=SharedDice(rng), auto_roll=False)
        else:
            game = copy.deepcopy(template)
            game.dice = SharedDice(rng)
        first: int | None = None
        wagers = 0
        while True:
            if game.chance_request() is not None:
                game.roll()
                continue
            seat = game.turn
            if first is None:
                first = seat
            legal = game.legal_actions(seat=seat)
            event = game.apply(seat=seat, action=legal[rng.randrange(len(legal))])
            if isinstance(event, Revealed):
                assert first is not None
                return event.dice_counts[first] < RULES.dice_per_player, wagers
            wagers += 1

    return play


def pyspiel_rounds(fresh: bool) -> Round:
    """One random round of pyspiel's ``liars_dice`` (``numdice=5``)."""
    game = pyspiel.load_game("liars_dice", {"numdice": 5})
    liar = game.num_distinct_actions() - 1
    template = game.new_initial_state()

    def play(rng: random.Random) -> tuple[bool, int]:
        state = game.new_initial_state() if fresh else template.clone()
        wagers = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                action = legal[rng.randrange(len(legal))]
                wagers += action != liar
                state.apply_action(action)
        return state.returns()[0] < 0, wagers

    return play


def run(play: Round, rounds: int, seed: int) -> tuple[float, float, float]:
    """(rounds per second, first bidder's loss rate, mean wagers) of one run."""
    rng = random.Random(seed)
    losses = wagers = 0
    start = time.process_time()
    for _ in range(rounds):
        lost, made = play(rng)
        losses += lost
        wagers += made
    return rounds / (time.process_time() - start), losses / rounds, wagers / rounds


def compare(fresh: bool, rounds: int, repeat: int) -> list[tuple[float, float, float]]:
    """Both engines' figures, the best rate of ``repeat`` runs each; the runs alternate
    between the engines, so that a busy machine slows both alike."""
    plays = (tavern_rounds(fresh), pyspiel_rounds(fresh))
    for play in plays:
        run(play, max(rounds // 10, 1), 99)  # warm-up
    best = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0)]
    for _ in range(repeat):
        for k, play in enumerate(plays):
            figures = run(play, rounds, 1)
            best[k] = max(best[k], figures)
    return best


def engines(rounds: int, repeat: int) -> None:
    """Part (ii): both engines, both ways, then the batch simulator."""
    print("(ii) one uniformly random round, 2 players x 5 dice, OpenSpiel's rules, "
          "Python object API, one random.Random")
    for fresh, label in ((True, "fresh state per round"),
                         (False, "set-up excluded (copy of a state at the first chance node)")):
        (ours, o_loss, o_w), (theirs, t_loss, t_w) = compare(fresh, rounds, repeat)
        print(f"  {label}:")
        print(f"    tavern LiarsDiceGame: {ours:,.0f} rounds/s (first bidder loses {o_loss:.4f}, "
              f"{o_w:.3f} wagers)")
        print(f"    pyspiel liars_dice:   {theirs:,.0f} rounds/s (first bidder loses "
              f"{t_loss:.4f}, {t_w:.3f} wagers)")
        print(f"    ratio tavern / pyspiel: {ours / theirs:.2f}")
    rng = np.random.default_rng(0)
    random_playouts(10_000, rng=rng)  # warm-up
    n_batch = 1_000_000
    times = []
    for _ in range(repeat):
        start = time.process_time()
        out = random_playouts(n_batch, dice=(5, 5), wild_face=6, rng=rng)
        times.append(time.process_time() - start)
    print(f"  batch simulator (NumPy, {n_batch:,} rounds in lockstep; not an engine): "
          f"{n_batch / min(times):,.0f} rounds/s (first bidder loses "
          f"{(out.loser == 0).mean():.4f}, {out.n_wagers.mean():.3f} wagers; median run "
          f"{statistics.median(times):.2f} s)")


def pettingzoo_steps(steps: int, seed: int) -> float:
    """Agent steps per CPU second of the PettingZoo AEC environment, random play."""
    rng = random.Random(seed)
    env = liars_env(players=2, rules=OPENSPIEL, single_round=True)
    env.reset(seed=seed)
    made = 0
    start = time.process_time()
    while made < steps:
        for _agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            made += 1
        env.reset()
    return made / (time.process_time() - start)


def openspiel_steps(steps: int, seed: int) -> float:
    """Agent steps per CPU second of OpenSpiel's ``rl_environment``, random play."""
    rng = random.Random(seed)
    env = rl_environment.Environment("liars_dice")
    env.seed(seed)
    time_step = env.reset()
    made = 0
    start = time.process_time()
    while made < steps:
        if time_step.last():
            time_step = env.reset()
            continue
        player = time_step.observations["current_player"]
        legal = time_step.observations["legal_actions"][player]
        time_step = env.step([legal[rng.randrange(len(legal))]])
        made += 1
    return made / (time.process_time() - start)


def environments(steps: int, repeat: int) -> None:
    """Part (iii): the RL environments, one agent step at a time."""
    print("(iii) RL environments, uniformly random play on liars_dice (2 players, 1 die "
          "each, one round an episode), agent steps per CPU second", flush=True)
    best = [0.0, 0.0]
    for _ in range(repeat):
        for k, measure in enumerate((pettingzoo_steps, openspiel_steps)):
            best[k] = max(best[k], measure(steps, 1))
    print(f"  PettingZoo AEC (tavern_dice.interop.pettingzoo.liars_dice.env): "
          f"{best[0]:,.0f} steps/s")
    print(f"  OpenSpiel rl_environment.Environment('liars_dice'):           "
          f"{best[1]:,.0f} steps/s")
    print(f"  ratio PettingZoo / rl_environment: {best[0] / best[1]:.2f}")


def main() -> None:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check-every", type=int, default=10)
    parser.add_argument("--max-iterations", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=20_000, help="rounds per engine and run")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (best kept)")
    parser.add_argument("--steps", type=int, default=20_000,
                        help="agent steps per RL environment and run (part iii)")
    parser.add_argument("--skip-solve", action="store_true", help="parts (ii) and (iii) only")
    parser.add_argument("--profile", action="store_true", help="profile the tavern rounds")
    parser.add_argument("--old", metavar="REF",
                        help="then parts (ii) and (iii) again on a git worktree of REF")
    args = parser.parse_args()

    if args.profile:
        profile(args.rounds)
        return
    if not args.skip_solve:
        solve(args.check_every, args.max_iterations)
    if args.old:
        print("new: this tree")
    engines(args.rounds, args.repeat)
    environments(args.steps, args.repeat)
    if args.old:
        run_old(args)


def run_old(args: argparse.Namespace) -> None:
    """Parts (ii) and (iii) once more, in a process that imports a worktree of
    ``args.old`` (its ``src`` first on ``PYTHONPATH``), this script unchanged."""
    root = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(root), "worktree", "add", "--detach", str(tree),
                        args.old], check=True, capture_output=True)
        try:
            commit = subprocess.run(["git", "-C", str(tree), "rev-parse", "--short", "HEAD"],
                                    check=True, capture_output=True, text=True).stdout.strip()
            print(f"old: {args.old} ({commit})", flush=True)
            env = {**os.environ, "PYTHONPATH": str(tree / "src")}
            subprocess.run([sys.executable, __file__, "--skip-solve", "--rounds",
                            str(args.rounds), "--repeat", str(args.repeat), "--steps",
                            str(args.steps)], check=True, env=env)
        finally:
            subprocess.run(["git", "-C", str(root), "worktree", "remove", "--force", str(tree)],
                           check=False, capture_output=True)


def profile(rounds: int) -> None:
    """A cProfile of the tavern engine's rounds, set-up excluded (the loop of part (ii))."""
    play = tavern_rounds(fresh=False)
    run(play, max(rounds // 10, 1), 99)  # warm-up
    profiler = cProfile.Profile()
    profiler.enable()
    run(play, rounds, 1)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(25)


def solve(check_every: int, max_iterations: int) -> None:
    """Part (i): time to exploitability 1e-3, both solvers."""
    print("(i) time to exploitability <= 1e-3 on OpenSpiel liars_dice (1 die each)")
    o_sec, o_it, o_expl, o_val = ours_solve(check_every)
    print(f"  ours (DCFR, NumPy): {o_sec:.2f} s, {o_it} iterations, exploitability "
          f"{o_expl:.2e}, value {o_val:+.5f}")
    s_sec, s_sec_solve, s_it, s_expl, s_val = openspiel_solve(check_every, max_iterations)
    print(f"  pyspiel.CFRPlusSolver: {s_sec:.2f} s ({s_sec_solve:.2f} s without the "
          f"exploitability checks), {s_it} iterations, exploitability {s_expl:.2e}, "
          f"value {s_val:+.5f}")
    print(f"  exact value -7/258 = {EXACT:+.5f}; |ours - theirs| = {abs(o_val - s_val):.1e}")
    print(f"  speed-up: {s_sec / o_sec:.1f}x overall, {s_sec_solve / o_sec:.1f}x against "
          f"their solver time alone")


if __name__ == "__main__":
    main()
