"""Rebuild the shipped heads-up blueprints (``python -m`` this module).

For each rules key in ``--rules`` (:data:`~.blueprint.BLUEPRINT_KEYS`), each memory ``k`` it
ships (:data:`~.blueprint.SHIPPED_RECALLS`, or ``--recall``) and each round ``(first
bidder's dice, second's)`` it covers (:func:`~.blueprint.blueprint_rounds`), runs CFR on the
last-``k``-wagers DAG (:func:`~.blueprint.solve_blueprint`; ``--iterations``, by default
:func:`~.blueprint.default_iterations`) and writes that round's file as soon as it is
solved; ``--missing`` solves only the rounds whose files are not there yet (to go on after
an interruption).

    python -m tavern_dice.strategy.liars_dice.solver.build.build_blueprints [--rules KEYS]
        [--recall 1,2] [--iterations N] [--workers 2] [--missing] [--out DIR]

The rounds run in a process pool, biggest first. ``docs/strategy.md`` records how long
the shipped build took on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import time
from pathlib import Path
from typing import Any

from tavern_dice.strategy.blas import one_blas_thread
from tavern_dice.strategy.liars_dice.solver.play.blueprint import (
    BLUEPRINT_KEYS,
    RECALLS,
    SHIPPED_RECALLS,
    blueprint_rounds,
    data_path,
    default_iterations,
    save_round,
    solve_blueprint,
)
from tavern_dice.strategy.liars_dice.solver.play.table_store import round_file


def _solve(job: tuple[str, tuple[int, int], int, int]) -> tuple[tuple[int, int], Any]:
    key, dice, iterations, recall = job
    # One process per core: BLAS threads of their own would only contend for the cores.
    with one_blas_thread():
        return dice, solve_blueprint(key, dice, iterations, recall)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=",".join(BLUEPRINT_KEYS),
                        help=f"rules keys, comma-separated (of {', '.join(BLUEPRINT_KEYS)})")
    parser.add_argument("--recall", default=None,
                        help="memories to build, e.g. 1,2 (default: those each key ships)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="CFR iterations of every round (default: blueprint."
                        "default_iterations: 600 for recall 1; for recall 2 1,000 up to "
                        "8 dice in play, 300 at 9, 350 at 5 v 5)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--missing", action="store_true",
                        help="solve only the rounds whose files are missing")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder to write to (default: the package data)")
    args = parser.parse_args(argv)
    keys = [k for k in args.rules.split(",") if k]
    if not keys or any(k not in BLUEPRINT_KEYS for k in keys):
        parser.error(f"--rules takes keys among {list(BLUEPRINT_KEYS)}, not {args.rules!r}")
    try:
        chosen = None if args.recall is None else [int(k) for k in args.recall.split(",")]
    except ValueError:
        parser.error(f"--recall takes memories among {list(RECALLS)}, e.g. 1,2")
    if chosen is not None and any(k not in RECALLS for k in chosen):
        parser.error(f"--recall takes memories among {list(RECALLS)}, not {args.recall}")
    if (args.iterations is not None and args.iterations < 1) or args.workers < 1:
        parser.error("--iterations and --workers must be at least 1")
    for key in keys:
        for recall in chosen or SHIPPED_RECALLS[key]:
            _build(key, recall, args)


def _build(key: str, recall: int, args: argparse.Namespace) -> None:
    """Solve and write every round of ``key``'s ``recall`` blueprints (or the missing ones)."""
    start = time.perf_counter()
    folder = data_path(key, args.out, recall)
    rounds = [d for d in blueprint_rounds(key)
              if not (args.missing and round_file(folder, *d).is_file())]
    jobs = [(key, dice, args.iterations or default_iterations(recall, dice), recall)
            for dice in rounds]
    with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
        for dice, (strategy, meta) in pool.map(_solve, jobs):
            path = save_round(key, folder, strategy, meta)
            print(f"{key} {dice} recall {recall}: {meta['iterations']} iterations, "
                  f"{meta['solve_seconds']} s, lower bound "
                  f"{meta['recall_exploitability_lower_bound']:.4f}; wrote {path.name} "
                  f"({path.stat().st_size / 1e3:.0f} kB)", flush=True)
    print(f"{key} recall {recall}: {len(jobs)} rounds in "
          f"{time.perf_counter() - start:.0f} s, in {folder}", flush=True)


if __name__ == "__main__":
    main()
