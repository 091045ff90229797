"""Rebuild the shipped heads-up blueprints (``python -m`` this module).

For each round ``(first bidder's dice, second's)`` with 7-10 dice in play
(:func:`~.blueprint.blueprint_rounds`), runs ``--iterations`` of CFR on the last-wager DAG
(:func:`~.blueprint.solve_blueprint`) and writes the file that
:func:`~.blueprint.load_blueprint` reads.

    python -m tavern_dice.strategy.liars_dice.solver.build_blueprints [--iterations 600]
        [--workers 2] [--out DIR]

The rounds run in a process pool, biggest first. ``docs/strategy.md`` records how long
the shipped build took on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import time
from pathlib import Path
from typing import Any

from tavern_dice.strategy.liars_dice.solver.blueprint import (
    BLUEPRINT_KEYS,
    blueprint_rounds,
    data_path,
    save,
    solve_blueprint,
)

DEFAULT_ITERATIONS = 600


def _solve(job: tuple[str, tuple[int, int], int]) -> tuple[tuple[int, int], Any]:
    key, dice, iterations = job
    return dice, solve_blueprint(key, dice, iterations)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None,
                        help="folder to write to (default: the package data)")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.workers < 1:
        parser.error("--iterations and --workers must be at least 1")
    start = time.perf_counter()
    for key in BLUEPRINT_KEYS:
        jobs = [(key, dice, args.iterations) for dice in blueprint_rounds()]
        solved = {}
        with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
            for dice, result in pool.map(_solve, jobs):
                solved[dice] = result
                meta = result[1]
                print(f"{key} {dice}: {meta['iterations']} iterations, "
                      f"{meta['solve_seconds']} s, recall-1 lower bound "
                      f"{meta['recall1_exploitability_lower_bound']:.4f}", flush=True)
        path = data_path(key, args.out)
        save(solved, key, path,
             {"build_seconds": round(time.perf_counter() - start), "iterations": args.iterations})
        print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)", flush=True)


if __name__ == "__main__":
    main()
