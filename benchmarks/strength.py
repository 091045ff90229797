"""How strong is ``strong``? Measured against the exploiter suite, not only weaker bots.

Prints, each win rate with its Wilson 95 % interval (seats rotated, seeded):

1. heads-up, 5 dice each, under the ``tavern`` rules (the seed: ``either`` raise, no
   repeated wager) and the ``standard`` raise: every exploiter of
   :mod:`tavern_dice.measure.exploit` against ``strong`` (the best one marked),
   and ``strong`` against ``trusting``, ``probabilistic`` and ``equilibrium``;
2. four players, ``tavern`` rules: ``strong`` against three ``trusting``, and every
   exploiter seated against three ``strong`` (par 25 %), the ``reader`` included (it
   holds a copy of ``strong`` for every seat; about 2 s a game on one core);
3. ``strong``'s decision time (every answer it gives, on turn and out of turn), median
   and 99th percentile, at 2, 4 and 10 players against ``probabilistic`` bots;
4. single heads-up rounds of ``--round-dice`` dice each (5: the 5 v 5 round), ``lbr``
   against ``strong`` under each of ``--rules``: the sampled LBR lower bound on
   ``strong``'s exploitability there (:mod:`tavern_dice.measure.round_gain`; a round scored
   +-1, like the tables' exact figures).

    .venv/bin/python benchmarks/strength.py [--games 2000] [--workers 2] [--only 1,2,3,4]
        [--dice 5] [--rules tavern,standard,wild-ones] [--rounds 2000 --round-dice 5]
        [--old REF]

With ``--old REF`` the same sections run first on the code and data of git commit ``REF``
(a temporary worktree, nothing installed), then on the working tree, in one run, on the
same seeds: the previous ``strong`` and the new one side by side.

With ``--games 2000`` (the issue's figure) sections 1-3 take about an hour on two cores,
except one line: ``lbr`` against ``strong`` under the ``tavern`` rules takes 30-60 s a
game (10 games in 298 s on one core, against 13 s under ``standard``), 8-17 hours on two
cores, because ``lbr`` asks ``strong`` for its answer to each raise it could make, and
under the seed's rules each answer in a round of 7-10 dice is a search. Section 4 takes
about 25 minutes more (``--rounds 2000``, one process); ``--games 200 --rounds 200`` gives
a rough picture in minutes, and ``--exploiters`` leaves ``lbr`` out.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tavern_dice.bots.base import LiarsDiceAction, LiarsDiceAgent
from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.measure.exploit import ExploitResult, best, exploit, suite
from tavern_dice.play.runner import play_liars_dice
from tavern_dice.play.simulate import BotWins, simulate_liars_dice

RULES: dict[str, LiarsDiceRules] = {
    "tavern": TAVERN,
    "standard": TAVERN.replace(raise_rule=RaiseRule.STANDARD),
    # Perudo's common house rules: ones wild, no spot-on (heads-up, spot-on never applies).
    "wild-ones": TAVERN.replace(wild_face=1, spot_on=False),
}


def line(label: str, wins: BotWins) -> str:
    return (f"  {label:<44} {wins.wins:>5}/{wins.games:<5} {100 * wins.win_rate:5.1f} % "
            f"[{100 * wins.low:4.1f}, {100 * wins.high:4.1f}]")


def exploiters(players: int, rules: LiarsDiceRules, games: int, seed: int,
               workers: int, names: list[str] | None = None) -> list[ExploitResult]:
    results = []
    for name in names or suite(players):
        start = time.perf_counter()
        result = exploit("strong", name, players, games, seed, rules, workers)
        results.append(result)
        print(line(f"{name} vs strong", result.wins) +
              f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    top = best(results)
    print(line(f"BEST: {top.exploiter}", top.wins) + f"  (par {100 / players:.0f} %)")
    return results


def heads_up(games: int, seed: int, workers: int, dice: int, rules_keys: list[str],
             names: list[str] | None = None,
             opponents: tuple[str, ...] = ("trusting", "probabilistic", "equilibrium")) -> None:
    for label in rules_keys:
        rules = RULES[label].replace(dice_per_player=dice)
        print(f"\n1. Heads-up, {dice} dice each, {label} rules, {games} games per line")
        if names != []:
            exploiters(2, rules, games, seed, workers, names)
        for opponent in opponents:
            start = time.perf_counter()
            sim = simulate_liars_dice(["strong", opponent], games, seed, rules, workers)
            print(line(f"strong vs {opponent}", sim.bots[0]) +
                  f"  ({time.perf_counter() - start:.0f} s)", flush=True)


def four_players(games: int, seed: int, workers: int, names: list[str] | None = None,
                 against_trusting: bool = True) -> None:
    print(f"\n2. Four players, tavern rules, {games} games per line (par 25 %)")
    if against_trusting:
        start = time.perf_counter()
        sim = simulate_liars_dice(["strong", "trusting", "trusting", "trusting"], games, seed,
                                  TAVERN, workers)
        print(line("strong vs 3 trusting", sim.bots[0]) +
              f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    if names != []:
        exploiters(4, TAVERN, games, seed, workers, names)


class Timed:
    """Wraps an agent and records how long each of its answers takes (seconds)."""

    def __init__(self, agent: LiarsDiceAgent) -> None:
        self.agent = agent
        self.name = agent.name
        self.times: list[float] = []

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        start = time.perf_counter()
        action = self.agent.choose_action(view)
        self.times.append(time.perf_counter() - start)
        return action

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        start = time.perf_counter()
        wants = self.agent.wants_to_accuse(view)
        self.times.append(time.perf_counter() - start)
        return wants


def percentile(values: list[float], q: float) -> float:
    """The ``q``-quantile (0..1) by the nearest-rank method."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q * len(ordered) + 0.5)))
    return ordered[rank - 1]


def decision_times(games: int, seed: int) -> None:
    print(f"\n3. strong's decision time (ms), {games} games per table size")
    for players in (2, 4, 10):
        timed = Timed(StrongLiarsDiceBot("strong", seed=seed))
        for g in range(games):
            agents: list[LiarsDiceAgent] = [
                make_liars_dice_bot("probabilistic", name=f"p{i}") for i in range(players)
            ]
            agents[g % players] = timed
            play_liars_dice(LiarsDiceGame(players, dice=SeededDice(seed + g)), agents)
        ms = [t * 1000 for t in timed.times]
        print(f"  {players:>2} players: n={len(ms):>6}  p50 {statistics.median(ms):6.2f}  "
              f"p99 {percentile(ms, 0.99):6.2f}  max {max(ms):7.2f}", flush=True)


def single_rounds(rounds: int, seed: int, dice: int, rules_keys: list[str]) -> None:
    from tavern_dice.measure.round_gain import round_gain

    for label in rules_keys:
        print(f"\n4. Single heads-up rounds, {dice} v {dice}, {label} rules, {rounds} rounds")
        start = time.perf_counter()
        result = round_gain("strong", "lbr", dice, rounds, seed, RULES[label])
        low, high = result.interval
        print(f"  lbr vs strong: won {result.wins}/{result.rounds} (bidding first "
              f"{result.first.wins}/{result.first.rounds}, second {result.second.wins}/"
              f"{result.second.rounds}); LBR gain {result.gain:+.3f} [{low:+.3f}, {high:+.3f}]"
              f" a round, a sampled lower bound on exploitability  "
              f"({time.perf_counter() - start:.0f} s)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--timing-games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default="1,2,3,4", help="sections to run")
    parser.add_argument("--dice", type=int, default=5,
                        help="dice each in section 1 (3: every round has a shipped table)")
    parser.add_argument("--rules", default="tavern,standard", help="section 1's rules")
    parser.add_argument("--exploiters", default="",
                        help="only these exploiters, e.g. lbr,bluffer (default: the suite; "
                             "'none': no exploiter)")
    parser.add_argument("--opponents", default="trusting,probabilistic,equilibrium",
                        help="section 1's bots for strong to play ('none': no bot, nor "
                             "section 2's trusting line)")
    parser.add_argument("--rounds", type=int, default=2000, help="section 4's rounds")
    parser.add_argument("--round-dice", type=int, default=5, help="section 4's dice each")
    parser.add_argument("--old", default=None, help="git commit to compare against")
    args = parser.parse_args()
    if args.old:
        run_old(args.old)
        print("\n=== new: the working tree ===", flush=True)
    sections = set(args.only.split(","))
    names = ([] if args.exploiters == "none"
             else args.exploiters.split(",") if args.exploiters else None)
    if "1" in sections:
        opponents = () if args.opponents == "none" else tuple(args.opponents.split(","))
        heads_up(args.games, args.seed, args.workers, args.dice, args.rules.split(","), names,
                 opponents)
    if "2" in sections:
        four_players(args.games, args.seed, args.workers, names, args.opponents != "none")
    if "3" in sections:
        decision_times(args.timing_games, args.seed)
    if "4" in sections:
        single_rounds(args.rounds, args.seed, args.round_dice, args.rules.split(","))


def run_old(ref: str) -> None:
    """Run this script, without ``--old``, on commit ``ref``'s code and data."""
    here = Path(__file__).resolve().parent.parent
    argv = sys.argv[1:]
    at = argv.index("--old") if "--old" in argv else -1
    rest = argv[:at] + argv[at + 2:] if at >= 0 else [a for a in argv
                                                      if not a.startswith("--old=")]
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(here), "worktree", "add", "--detach", str(tree), ref],
                       check=True, capture_output=True)
        try:
            print(f"=== old: {ref} ===", flush=True)
            env = {**os.environ, "PYTHONPATH": str(tree / "src")}
            env.pop("TAVERN_TABLES", None)
            subprocess.run([sys.executable, str(Path(__file__).resolve()), *rest], env=env,
                           cwd=tree, check=True)
        finally:
            subprocess.run(["git", "-C", str(here), "worktree", "remove", "--force",
                            str(tree)], check=False, capture_output=True)


if __name__ == "__main__":
    main()
