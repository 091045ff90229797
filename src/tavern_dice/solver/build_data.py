"""Regenerate the shipped match policies: ``python -m tavern_dice.solver.build_data``.

Solves every round of the two-player tavern match (:func:`solve_match` with
the default :class:`MatchPlan`) and writes
``src/tavern_dice/data/liars_dice_tavern-standard.npz``. Takes several minutes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.solver.cfr import SolveResult
from tavern_dice.solver.match import MatchPlan, solve_match
from tavern_dice.solver.store import save_match


def main(argv: list[str] | None = None) -> None:
    """Solve and save; arguments: ``[OUTPUT] [WORKERS]``."""
    args = sys.argv[1:] if argv is None else argv
    workers = int(args[1]) if len(args) > 1 else 2
    out = Path(args[0]) if args else Path(__file__).parent.parent / "data" / (
        "liars_dice_tavern-standard.npz")
    plan = MatchPlan(max_seconds=60.0)
    start = time.perf_counter()

    def report(dice: tuple[int, int], res: SolveResult) -> None:
        print(f"round {dice}: recall={res.policy.recall} iterations={res.iterations} "
              f"seconds={res.seconds:.1f} exploitability={res.exploitability:.2e} "
              f"value={res.value:+.5f}", flush=True)

    sol = solve_match(TAVERN, plan, progress=report, workers=workers)
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(out.name + ".tmp.npz")
    save_match(sol, tmp, {"plan": plan.__dict__, "seconds": time.perf_counter() - start})
    tmp.replace(out)
    print(f"first bidder wins (5, 5) with probability {sol.win[5, 5, 0]:.4f}; "
          f"total {time.perf_counter() - start:.0f} s; wrote {out} ({out.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
