"""Sampled LBR bounds on ``strong``'s heads-up rounds that no exact figure covers.

Every round with a table of its own has its exploitability measured exactly
(``tavern solve tables``). The rest are played by an approximation: the blueprints (7-10
dice in play, :mod:`tavern_dice.strategy.liars_dice.solver.play.blueprint`) and, under the
seed's rules, the ``tavern-standard`` table standing in for any round the ``tavern`` table
lacks (:data:`~tavern_dice.strategy.liars_dice.solver.play.tables.TABLE_STAND_INS`; none of the
shipped rounds since 1 v 5 and 5 v 1 got tables of their own).
The figures their builds report are bounds in an abstraction (best responses that
remember no more wagers, or the stand-in's own rules), which can be far below what a
player of the real round finds. This module measures the real thing from outside: the
local best response (``lbr``) plays ``count`` single rounds against ``strong`` in each
such round (:func:`~tavern_dice.measure.round_gain.round_gain`, both positions), and its mean
gain is a sampled lower bound on ``strong``'s exploitability there, with a 95 % interval.

The figures ship as ``tavern_dice/data/liars_dice_round_bounds.json`` (``tavern solve
tables`` prints them); rebuild with::

    python -m tavern_dice.measure.round_bounds --rules tavern,tavern-standard --rounds 500

(about 17 minutes on the project's 2-core machine, two workers, the default;
``--only 5x5,1x5`` measures some rounds again and keeps the others' figures). Where
``strong`` searches (the seed's 7-10-dice rounds,
:mod:`tavern_dice.strategy.liars_dice.solver.play.search`) each of ``lbr``'s decisions asks
its copy for dozens of searches: the shipped figures there are 40-100 rounds each, scored
with both hands summed out
(:func:`~tavern_dice.measure.round_gain_integrated.integrated_round_gain`,
the default; ``--played`` plays them out), which makes 100 rounds worth 500-960 played
ones (``--rules tavern --rounds 100 --workers 1 --only 3x5``: 905 s; 5 v 5 about 29 s a
round, 4 v 5 and 5 v 4 13-16 s, shared with other work). ``--seed 51 --rounds 50`` measures
rounds 51-100 of a seed-1 run.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any

from tavern_dice.measure.round_gain import round_gain
from tavern_dice.measure.round_gain_integrated import integrated_round_gain
from tavern_dice.strategy.liars_dice.solver.play.blueprint import blueprint_key, blueprint_rounds
from tavern_dice.strategy.liars_dice.solver.play.tables import (
    TABLE_RULES,
    stand_in_rounds,
    table_rounds,
)

BOUNDS_FILE = "liars_dice_round_bounds.json"
TARGET = "strong"
EXPLOITER = "lbr"


def uncovered_rounds(key: str) -> list[tuple[int, int]]:
    """The rounds of ``key``'s rules (``(first bidder's dice, second's)``) that ``strong``
    plays heads-up without an exact figure of its own: the blueprint rounds the key's own
    table lacks (since 2026-12-04 the ``tavern-standard`` table has the 7- and 8-dice
    rounds), and the rounds up to 6 dice in play that the key's own table lacks (a
    stand-in plays them)."""
    own = table_rounds(key)
    rounds = blueprint_rounds() if blueprint_key(TABLE_RULES[key]) is not None else []
    rounds = [d for d in rounds if d not in own]
    return sorted(rounds + stand_in_rounds(key), key=lambda d: (-(d[0] + d[1]), d))


def _measure(job: tuple[str, tuple[int, int], int, int, bool]) -> dict[str, Any]:
    """One round's figure (a worker's job): ``lbr``'s single rounds against ``strong``,
    played out (``played``) or with the hands summed out (the default)."""
    key, dice, count, seed, played = job
    start = time.perf_counter()
    measured = round_gain if played else integrated_round_gain
    result = measured(TARGET, EXPLOITER, dice, count, seed, TABLE_RULES[key])
    return {"rules": key, **result.to_dict(), "seed": seed,
            "seconds": round(time.perf_counter() - start, 1)}


def measure(
    jobs: Sequence[tuple[str, tuple[int, int]]], count: int, seed: int = 1, workers: int = 1,
    played: bool = False,
) -> list[dict[str, Any]]:
    """Each ``(rules key, round)``'s figure, in the order they finish (biggest rounds are
    best given first, so that the workers finish together): by default
    :func:`~tavern_dice.measure.round_gain_integrated.integrated_round_gain` (the same
    expected figure as rounds played out, about a tenth of the variance a round), with
    ``played`` :func:`~tavern_dice.measure.round_gain.round_gain`."""
    work = [(key, dice, count, seed, played) for key, dice in jobs]
    if workers <= 1:
        return [_measure(job) for job in work]
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(_measure, work))


def round_name(dice: Sequence[int]) -> str:
    """``"5 v 4"``: how a round is named in the data file and the tables."""
    return f"{dice[0]} v {dice[1]}"


def load_bounds(path: Path | None = None) -> dict[str, dict[str, dict[str, Any]]]:
    """The shipped figures: rules key -> round name (:func:`round_name`) -> the record
    :func:`measure` made (``gain``, its interval ``low`` .. ``high``, ``rounds``, ``seconds``
    ...); empty where the file is missing."""
    try:
        if path is None:
            text = resources.files("tavern_dice.data").joinpath(BOUNDS_FILE).read_text()
        else:
            text = path.read_text()
    except OSError:  # not shipped (or not built yet)
        return {}
    data: dict[str, dict[str, dict[str, Any]]] = json.loads(text)["bounds"]
    return data


def _parse_rounds(text: str) -> set[tuple[int, int]]:
    out: set[tuple[int, int]] = set()
    for part in text.split(","):
        a, _, b = part.strip().partition("x")
        out.add((int(a), int(b)))
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Measure the rounds and write (merge into) the data file."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="tavern,tavern-standard",
                        help=f"rules keys, comma-separated (of {', '.join(TABLE_RULES)})")
    parser.add_argument("--rounds", type=int, default=500, help="single rounds per figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--only", default=None, help="rounds to measure, e.g. 5x5,1x5")
    parser.add_argument("--played", action="store_true",
                        help="score rounds played out +-1 instead of summing the hands out "
                             "(the same expected figure, about ten times the variance)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the file to write (default: the package's data file)")
    args = parser.parse_args(argv)
    out = args.out or Path(str(resources.files("tavern_dice.data").joinpath(BOUNDS_FILE)))
    only = _parse_rounds(args.only) if args.only else None
    jobs = [(key, dice) for key in args.rules.split(",") for dice in uncovered_rounds(key)
            if only is None or dice in only]
    jobs.sort(key=lambda job: -sum(job[1]))
    bounds = load_bounds(out) if out.exists() else {}
    for record in measure(jobs, args.rounds, args.seed, args.workers, args.played):
        bounds.setdefault(record["rules"], {})[round_name(record["dice"])] = record
        print(f"{record['rules']} {round_name(record['dice'])}: {record['gain']:+.3f} "
              f"[{record['low']:+.3f}, {record['high']:+.3f}] ({record['seconds']:.0f} s)")
    out.write_text(json.dumps({
        "about": "Sampled lower bounds on strong's exploitability (NashConv / 2, a round "
                 "scored +-1) in the heads-up rounds no exact figure covers: lbr's mean "
                 "gain over single rounds, both positions; python -m "
                 "tavern_dice.measure.round_bounds",
        "bounds": {key: dict(sorted(rounds.items())) for key, rounds in sorted(bounds.items())},
    }, indent=1) + "\n")


if __name__ == "__main__":
    main()
