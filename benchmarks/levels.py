"""The levels' ratings: a round-robin of simulated Liar's Dice games at 2, 4 and 6 players.

Prints, for each table size, every level's rating (OpenSkill Plackett-Luce on a chess-like
scale, :mod:`tavern_dice.play.ratings`) with its 95 % interval and the games it played,
whether each level is clearly above the one below it (higher, and the two intervals apart),
and the time the games took; then the ratings over all the games together, the ones shown
to players. ``--write`` stores them in ``src/tavern_dice/data/level_ratings.json``.

    .venv/bin/python benchmarks/levels.py [--games 2:2000,4:1200,6:960] [--workers 2]
        [--top-heads-up 600] [--seed 1] [--keep DIR] [--write]

``--keep DIR`` saves each table size's games there as it finishes (``games-N.json``) and
reuses them on the next run with the same seed and counts, so an interrupted run, or a
second look at the figures, does not play them again.

Cost: the five cheaper levels play a game in 0.01-0.1 s. The top level, ``vell`` (the
``strong`` bot), costs about 0.5-0.8 s a game at four and six players, and heads-up under the
seed's rules it searches each decision in a round of 7-10 dice (about 2.4 s of CPU a
game), so heads-up its games are capped by ``--top-heads-up`` (0: the top level is rated at
four and six players only). The defaults are the shipped run, which took 2,827 s on one
worker (the heads-up games 1,450 s of it).
"""

from __future__ import annotations

import argparse
import datetime
import json
import sys
import time
from pathlib import Path
from typing import Any

from tavern_dice.bots.levels import LIARS_LEVELS
from tavern_dice.play.ratings import RATINGS_FILE, LevelRating
from tavern_dice.play.round_robin import Played, fit, play_round_robin, separated

OUT = Path(__file__).resolve().parents[1] / "src" / "tavern_dice" / "data" / RATINGS_FILE
LADDER = [p.kind for p in LIARS_LEVELS]
TOP = LADDER[-1]


def parse_games(text: str) -> dict[int, int]:
    sizes: dict[int, int] = {}
    for item in text.split(","):
        players, _, games = item.partition(":")
        sizes[int(players)] = int(games)
    return sizes


def table(title: str, ratings: dict[str, LevelRating]) -> None:
    print(title)
    print(f"  {'level':<8} {'rating':>6}  {'95 % interval':<13} {'games':>6}")
    for kind in reversed(LADDER):
        if kind in ratings:
            r = ratings[kind]
            low, high = r.rating.interval
            print(f"  {kind:<8} {r.mu:6.0f}  {low:5.0f}-{high:<7.0f} {r.games:6d}")
    problems = separated(LADDER, ratings)
    print("  every level clearly above the one below it" if not problems
          else "  NOT SEPARATED: " + "; ".join(problems))


def rows(ratings: dict[str, LevelRating]) -> dict[str, Any]:
    return {k: {"mu": round(r.mu, 1), "sigma": round(r.rating.sigma, 1), "games": r.games}
            for k, r in ratings.items()}


def load(path: Path | None, key: dict[str, Any]) -> list[Played] | None:
    if path is None or not path.exists():
        return None
    data = json.loads(path.read_text("utf-8"))
    if data["key"] != key:
        return None
    return [Played(tuple(g[0]), tuple(g[1]), g[2]) for g in data["games"]]


def save(path: Path | None, key: dict[str, Any], played: list[Played]) -> None:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        games = [[g.table, g.order, g.cpu_s] for g in played]
        path.write_text(json.dumps({"key": key, "games": games}) + "\n", "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="2:2000,4:1200,6:960",
                        help="games at each table size, SIZE:GAMES,...")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top-heads-up", type=int, default=600,
                        help=f"heads-up games {TOP} plays at most (each ~2.5-3.5 s of CPU)")
    parser.add_argument("--keep", type=Path, help="save and reuse each size's games here")
    parser.add_argument("--write", action="store_true", help=f"write {OUT.name}")
    args = parser.parse_args()
    sizes = parse_games(args.games)
    every: list[Played] = []
    by_size: dict[str, Any] = {}
    started = time.perf_counter()
    first = 0
    for players, games in sorted(sizes.items()):
        limits = {TOP: args.top_heads_up} if players == 2 else None
        kinds = LADDER if players > 2 or args.top_heads_up else LADDER[:-1]
        wall = time.perf_counter()
        kept = None if args.keep is None else args.keep / f"games-{players}.json"
        key = {"seed": args.seed, "games": games, "kinds": kinds, "limits": limits}
        played = load(kept, key)
        if played is None:
            played = play_round_robin(kinds, players, games, args.seed, args.workers, limits,
                                      first_index=first)
            save(kept, key, played)
        first += games
        wall = time.perf_counter() - wall
        cpu = sum(g.cpu_s for g in played)
        ratings = fit(played, args.seed)
        table(f"\n{players} players: {len(played)} games, {wall:.0f} s wall, {cpu:.0f} s "
              f"of CPU in the games ({args.workers} workers)", ratings)
        every += played
        by_size[str(players)] = rows(ratings)
    overall = fit(every, args.seed)
    table(f"\nAll sizes together: {len(every)} games", overall)
    total = time.perf_counter() - started
    print(f"\nRound-robin: {total:.0f} s wall in all")
    if args.write:
        data = {
            "measured": datetime.date.today().isoformat(),
            "command": "python benchmarks/levels.py " + " ".join(sys.argv[1:]),
            "model": "openskill PlackettLuce mu 1500 sigma 350 beta 122.8, tau 0",
            "sizes": by_size,
            "all": rows(overall),
        }
        OUT.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
