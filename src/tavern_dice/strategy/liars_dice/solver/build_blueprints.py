"""Rebuild the shipped heads-up blueprints (``python -m`` this module).

For each memory ``k`` in ``--recall`` and each round ``(first bidder's dice, second's)``
with 7-10 dice in play (:func:`~.blueprint.blueprint_rounds`), runs CFR on the
last-``k``-wagers DAG (:func:`~.blueprint.solve_blueprint`; ``--iterations``, by default
:func:`~.blueprint.default_iterations`) and writes the file that
:func:`~.blueprint.load_blueprint` reads.

    python -m tavern_dice.strategy.liars_dice.solver.build_blueprints [--recall 1,2]
        [--iterations N] [--workers 2] [--out DIR]

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
    RECALLS,
    blueprint_rounds,
    data_path,
    default_iterations,
    save,
    solve_blueprint,
)


def _solve(job: tuple[str, tuple[int, int], int, int]) -> tuple[tuple[int, int], Any]:
    key, dice, iterations, recall = job
    return dice, solve_blueprint(key, dice, iterations, recall)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--recall", default=",".join(str(k) for k in sorted(RECALLS)),
                        help="memories to build, e.g. 1,2")
    parser.add_argument("--iterations", type=int, default=None,
                        help="CFR iterations of every round (default: blueprint."
                        "default_iterations: 600 for recall 1; for recall 2 1,000 up to "
                        "8 dice in play, 300 at 9, 350 at 5 v 5)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None,
                        help="folder to write to (default: the package data)")
    args = parser.parse_args(argv)
    try:
        recalls = [int(k) for k in args.recall.split(",")]
    except ValueError:
        parser.error(f"--recall takes memories among {list(RECALLS)}, e.g. 1,2")
    if any(k not in RECALLS for k in recalls):
        parser.error(f"--recall takes memories among {list(RECALLS)}, not {args.recall}")
    if (args.iterations is not None and args.iterations < 1) or args.workers < 1:
        parser.error("--iterations and --workers must be at least 1")
    for key in BLUEPRINT_KEYS:
        for recall in recalls:
            start = time.perf_counter()
            jobs = [(key, dice, args.iterations or default_iterations(recall, dice), recall)
                    for dice in blueprint_rounds()]
            solved = {}
            with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
                for dice, result in pool.map(_solve, jobs):
                    solved[dice] = result
                    meta = result[1]
                    print(f"{key} {dice} recall {recall}: {meta['iterations']} iterations, "
                          f"{meta['solve_seconds']} s, lower bound "
                          f"{meta['recall_exploitability_lower_bound']:.4f}", flush=True)
            path = data_path(key, args.out, recall)
            save(solved, key, path, {"build_seconds": round(time.perf_counter() - start)})
            print(f"wrote {path} ({path.stat().st_size / 1e6:.2f} MB)", flush=True)


if __name__ == "__main__":
    main()
