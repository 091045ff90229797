"""What ``strong`` costs a player and a host: decision CPU time, cold and warm, and memory.

Each case runs in a fresh process (so its first decision is a cold one: data loaded, caches
empty) that plays ``--rounds`` single rounds of ``strong`` against ``trusting`` (or
``--opponent``) and times every decision ``strong`` makes, on its turn and out of turn, in
CPU seconds (``time.process_time``). Printed per case: the cold decision (the first of the process),
the warm ones' median, 99th percentile and maximum, and the process's peak RSS. Heads-up
cases are single rounds dealt with the given dice (first bidder's first), under the seed's
rules (``tavern``), the ``standard`` raise and ones wild (``wild``, cases 12-13); the 4- and
10-player cases are whole games.
Case 11 plays ``--games`` whole heads-up games of 5 dice each in one process, through
every round size, for the peak RSS of a long-lived player. Case 14 plays ``--tables``
such games at once in one process, a move at each in turn, as a web server hosting that
many heads-up bot tables would (each table its own ``strong``, the caches shared).

The new code keeps built leaf values in a cache folder (``leaf_cache``): with ``--cache
cold`` (the default) each measured process starts from an empty one, as on a machine's first
game; with ``--cache warm`` each case first runs once unmeasured to fill it, as every later
game on that machine finds it (the old code, without the cache, runs the same either way).

With ``--old REF`` the same cases run first on the code and data of git commit ``REF``
(checked out into a temporary worktree; nothing of it is installed), side by side with the
working tree's, in the same run:

    .venv/bin/python benchmarks/strong_cost.py [--old REF] [--rounds 20] [--games 5] [--tables 20]
        [--cache cold|warm]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent

CASES: list[tuple[str, str, tuple[int, ...]]] = [
    ("tavern", "2p", (5, 5)), ("tavern", "2p", (5, 1)), ("tavern", "2p", (3, 3)),
    ("tavern", "2p", (4, 3)), ("tavern", "2p", (1, 1)),
    ("standard", "2p", (5, 5)), ("standard", "2p", (4, 4)), ("standard", "2p", (3, 3)),
    ("tavern", "4p", (5, 5, 5, 5)), ("tavern", "10p", (5,) * 10),
    ("wild", "2p", (5, 5)), ("wild", "2p", (3, 3)),
]
"""Rules: ``tavern`` (the seed's), ``standard`` (its ``standard`` raise), ``wild`` (ones wild,
no spot-on: Perudo's common house rules, searched on the ones-wild blueprint)."""


def worker(rules_name: str, kind: str, dice: tuple[int, ...], count: int,
           opponent: str = "trusting") -> dict[str, object]:
    """Run in the measured process: ``count`` rounds (or games) and their decision times."""
    import resource
    import time

    from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
    from tavern_dice.bots.registry import make_liars_dice_bot
    from tavern_dice.dice import SeededDice
    from tavern_dice.liars_dice.rules import TAVERN, RaiseRule
    from tavern_dice.liars_dice.state import LiarsDiceGame
    from tavern_dice.measure.round_gain import deal_round
    from tavern_dice.play.runner import liars_dice_step

    rules = {"tavern": TAVERN, "standard": TAVERN.replace(raise_rule=RaiseRule.STANDARD),
             "wild": TAVERN.replace(wild_face=1, spot_on=False)}[rules_name]
    times: list[float] = []

    class Timed(StrongLiarsDiceBot):
        def choose_action(self, view):  # type: ignore[no-untyped-def]
            start = time.process_time()
            try:
                return super().choose_action(view)
            finally:
                times.append(time.process_time() - start)

        def wants_to_accuse(self, view):  # type: ignore[no-untyped-def]
            start = time.process_time()
            try:
                return super().wants_to_accuse(view)
            finally:
                times.append(time.process_time() - start)

    def seated(k: int, players: int) -> list[Any]:
        agents: list[Any] = [make_liars_dice_bot(opponent, name=f"t{i}", seed=100 + k)
                             for i in range(players)]
        agents[k % players] = Timed("strong", seed=100 + k)
        return agents

    if kind == "tables":  # every game at once, a move at each in turn
        tables = [(LiarsDiceGame(2, rules=rules, dice=SeededDice(100 + k)), seated(k, 2))
                  for k in range(count)]
        while any(game.winner is None for game, _ in tables):
            for game, agents in tables:
                if game.winner is None:
                    liars_dice_step(game, agents)
    for k in range(0 if kind == "tables" else count):
        seed = 100 + k
        if kind == "2p":
            game = deal_round(rules.replace(dice_per_player=max(dice)), seed,
                              (dice[0], dice[1]))
        else:
            game = LiarsDiceGame(len(dice), rules=rules, dice=SeededDice(seed))
        agents = seated(k, len(dice))
        first = game.round
        while game.winner is None and (kind != "2p" or game.round == first):
            liars_dice_step(game, agents)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"times": times, "peak_mb": peak}


def run_case(src: Path, rules: str, kind: str, dice: tuple[int, ...], count: int,
             cache: str = "cold", opponent: str = "trusting") -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        if cache == "warm":
            _run(src, rules, kind, dice, count, folder, opponent)
        return _run(src, rules, kind, dice, count, folder, opponent)


def _run(src: Path, rules: str, kind: str, dice: tuple[int, ...], count: int,
         cache_folder: str, opponent: str) -> dict[str, object]:
    env = {**os.environ, "PYTHONPATH": str(src), "TAVERN_DICE_CACHE_DIR": cache_folder}
    env.pop("TAVERN_TABLES", None)
    code = (f"import json, sys; sys.path.insert(0, {str(HERE / 'benchmarks')!r}); "
            f"from strong_cost import worker; "
            f"print(json.dumps(worker({rules!r}, {kind!r}, {dice!r}, {count}, {opponent!r})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True, cwd=src.parent)
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def summary(result: dict[str, object]) -> str:
    times = [float(t) for t in result["times"]]  # type: ignore[attr-defined]
    cold, warm = times[0], sorted(times[1:]) or [times[0]]
    p99 = warm[min(len(warm) - 1, int(0.99 * len(warm)))]
    return (f"cold {cold * 1000:8.0f} | warm p50 {statistics.median(warm) * 1000:7.1f} "
            f"p99 {p99 * 1000:7.0f} max {warm[-1] * 1000:7.0f} ms | n {len(times):4d} | "
            f"peak {float(result['peak_mb']):6.0f} MB")  # type: ignore[arg-type]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default=None, help="git commit to compare against")
    parser.add_argument("--rounds", type=int, default=20, help="single rounds per case")
    parser.add_argument("--games", type=int, default=5,
                        help="whole heads-up games in the last case")
    parser.add_argument("--tables", type=int, default=20,
                        help="heads-up games played at once in the tables case")
    parser.add_argument("--only", default="", help="cases by number, e.g. 1,2")
    parser.add_argument("--opponent", default="trusting",
                        help="the bot strong plays (a registry kind or level, e.g. bess)")
    parser.add_argument("--cache", choices=("cold", "warm"), default="cold",
                        help="the leaf-value cache: empty (cold) or filled by a first run")
    args = parser.parse_args()
    sources: list[tuple[str, Path]] = [("new", HERE / "src")]
    tmp = None
    if args.old:
        tmp = tempfile.TemporaryDirectory()
        tree = Path(tmp.name) / "old"
        subprocess.run(["git", "-C", str(HERE), "worktree", "add", "--detach", str(tree),
                        args.old], check=True, capture_output=True)
        sources.insert(0, (f"old {args.old}", tree / "src"))
    # The long-lived player stays case 11, as before the ones-wild cases came.
    cases = [*CASES[:10], ("tavern", "games", (5, 5)), *CASES[10:],
             ("tavern", "tables", (5, 5))]
    chosen = {int(n) for n in args.only.split(",") if n} or set(range(1, len(cases) + 1))
    try:
        for number, (rules, kind, dice) in enumerate(cases, 1):
            if number not in chosen:
                continue
            label = (f"{rules}, {args.games} games 5 v 5" if kind == "games"
                     else f"{rules}, {args.tables} heads-up tables at once" if kind == "tables"
                     else f"{rules}, {dice[0]} v {dice[1]}" if kind == "2p"
                     else f"{rules}, {len(dice)} players")
            count = {"games": args.games, "tables": args.tables, "2p": args.rounds}.get(
                kind, max(2, args.rounds // 10))
            print(f"{number}. {label}", flush=True)
            for name, src in sources:
                found = run_case(src, rules, kind, dice, count, args.cache, args.opponent)
                print(f"   {name:<14} {summary(found)}", flush=True)
    finally:
        if tmp is not None:
            subprocess.run(["git", "-C", str(HERE), "worktree", "remove", "--force",
                            str(Path(tmp.name) / "old")], capture_output=True)
            tmp.cleanup()


if __name__ == "__main__":
    main()
