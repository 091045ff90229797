"""Rebuild the shipped heads-up tables (``python -m`` this module).

For each rules key (:data:`~.tables.TABLE_RULES`) and each round
``(first bidder's dice, second's)`` it ships (:data:`~.tables.SHIPPED_ROUNDS`; any round up
to 5 v 5 with ``--rounds``), runs the double oracle (:func:`~.oracle.solve`) to its target
or its time budget, stores the policy (``uint16``, or ``uint8`` for big rows), loads it
back as a bot would, and measures *that* policy exactly (full-recall best responses): the
figures in each round's file are those of the data shipped, quantisation included. Each
round is written to its own file as soon as it is solved, so a build cut short keeps what
it finished, and ``--missing`` goes on with the rest.

    python -m tavern_dice.strategy.liars_dice.solver.build.build_tables \
        [--rules tavern,tavern-standard] [--rounds 1x1,2x1,...] [--missing] [--workers 2]
        [--budget SECONDS] [--out DIR]

The rounds run in a process pool, biggest first. ``docs/strategy.md`` records how long
the shipped build takes on the project's 2-core machine.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import shutil
import tempfile
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

from tavern_dice.strategy.liars_dice.solver.core.oracle import solve
from tavern_dice.strategy.liars_dice.solver.core.oracle_game import OracleRound
from tavern_dice.strategy.liars_dice.solver.play.table_store import (
    read_round_info,
    round_file,
    round_files,
)
from tavern_dice.strategy.liars_dice.solver.play.tables import (
    MAX_DICE,
    PRUNED_BELOW,
    SHIPPED_ROUNDS,
    TABLE_RULES,
    RoundTable,
    TableError,
    data_path,
    forget_loaded,
    from_result,
    load_round,
    read_meta,
    save,
)


def target_for(dice: tuple[int, int]) -> float:
    """Exploitability to stop at: tight for the small rounds, where it is cheap; 0.01 with
    7 or 8 dice in play (the issue's target for the smaller rounds; the ``tavern-standard``
    tables of those rounds replace the blueprints since 2026-12-04, and their budget usually
    stops them first); 0.03 for the biggest (a full-recall best response then wins a round
    at most 51.5 % of the time, and the bots' exploiters far less)."""
    total = sum(dice)
    if total <= 2:
        return 1e-4
    if total <= 6:
        return 4e-3
    if total <= 8:
        return 0.01
    return 0.03


def budget_for(dice: tuple[int, int], budget: float) -> float:
    """Seconds allowed: ``budget`` for the biggest rounds, less for smaller ones."""
    return budget * (sum(dice) / (2 * MAX_DICE)) ** 2


def build_round(
    key: str, dice: tuple[int, int], budget: float, seed_from: Path | None = None,
    seed_key: str = "tavern-standard",
) -> tuple[RoundTable, float]:
    """Solve one round; return its table (not yet quantised) and the seconds it took.

    ``seed_from``: a folder holding the tables of ``seed_key`` whose histories start the
    restricted game: ``tavern-standard``'s for ``tavern`` (every ``standard`` raise is also
    an ``either`` raise, and the ``either`` equilibrium mostly raises that way), or the
    round's own earlier build, to go on from where it stopped.
    """
    start = time.perf_counter()
    game = OracleRound(TABLE_RULES[key], dice)
    iterations = 400 if sum(dice) <= 2 else 100 if sum(dice) <= 6 else 30
    start_from = None
    warm = None
    warm_iterations = 0
    seed = _seed_table(seed_from, dice, seed_key) if seed_from is not None else None
    if seed is not None:
        start_from = seed.restricted()
        if seed_key == key:
            # Going on from its own table: from its strategy too, or the solver starts
            # over on the stored histories (2026-12-02: 0.146 stored, 0.35 a round later).
            warm = (seed.strategy_at(0), seed.strategy_at(1))
            warm_iterations = iterations * int(seed.meta.get("double_oracle_rounds", 1))

    def progress(round_: int, histories: int, expl: float) -> None:
        print(f"  {key} {dice}: double-oracle round {round_}, {histories} histories, "
              f"exploitability {expl:.4f}, {time.perf_counter() - start:.0f} s", flush=True)

    result = solve(game, target=target_for(dice), cfr_iterations=iterations,
                   max_seconds=budget_for(dice, budget), start_from=start_from,
                   warm=warm, warm_iterations=warm_iterations, progress=progress)
    seconds = time.perf_counter() - start
    table = from_result(result, {"solve_seconds": round(seconds, 1),
                                 "double_oracle_rounds": len(result.trace)})
    return table, seconds


def _seed_table(folder: Path, dice: tuple[int, int], key: str) -> RoundTable | None:
    """The ``key`` table of round ``dice`` in ``folder`` (``None`` if it has none: the
    double oracle then starts from the opening wagers alone)."""
    try:
        return load_round(key, *dice, folder=folder)
    except (TableError, OSError):
        return None


def measure_saved(key: str, dice: tuple[int, int], path: Path) -> dict[str, Any]:
    """Exploitability of the round as saved in ``path`` (quantised, renormalised)."""
    forget_loaded()
    return load_round(key, *dice, folder=path.parent).measure()


def remeasure(key: str, path: Path) -> None:
    """Measure every round of the table folder ``path`` again and rewrite each round's
    figures (the stored policies are copied byte for byte: the figures stay those of the
    data)."""
    forget_loaded()
    for info in read_meta(path)["rounds"]:
        a, b = info["dice"]
        table = load_round(key, a, b, folder=path.parent)
        table.meta.update(table.measure())
        save({(a, b): table}, key, path)
        print(f"{key} {(a, b)}: exploitability {table.meta['exploitability']:.5f}, LBR "
              f"{table.meta['lbr_exploitability']:.5f}", flush=True)
    forget_loaded()


def merge_files(key: str, out: Path, sources: Collection[Path],
                rounds: Collection[tuple[int, int]] | None = None) -> None:
    """Copy the round files of ``key``'s tables in the ``sources`` folders into the table
    folder ``out`` (a round ``out`` has already is replaced), as they are: rounds built side
    by side in folders of their own join the shipped table so. With ``rounds``, only those
    rounds are taken from the sources (a resumed build's folder also holds a copy of every
    other round)."""
    paths = [data_path(key, folder) for folder in sources]
    for path in paths:
        if not round_files(path):
            raise TableError(f"{path} has no {key} table to merge")
    out.mkdir(parents=True, exist_ok=True)
    for path in paths:
        for dice, source in round_files(path):
            if rounds is not None and dice not in rounds:
                continue
            shutil.copyfile(source, round_file(out, *dice))
            print(f"{key} {dice}: merged from {path} (exploitability "
                  f"{read_round_info(source)['exploitability']:.5f})", flush=True)
    forget_loaded()


PRUNE_LEVELS = (1e-3, 3e-4, 1e-4, 3e-5, 1e-5)
"""Own-reach thresholds :func:`prune_file` tries, the biggest saving first."""

PRUNE_COST = 1e-4
"""The most exploitability pruning may add to a round (exact, as stored)..."""

PRUNE_SHARE = 0.01
"""... or this share of the round's exploitability, where that is more: a round still far
from an equilibrium (0.1 at the seed's 3 v 3) may lose 0.001 to pruning, a small part of
what it already concedes, while a solved one (under 0.01) keeps the 1e-4 limit."""


def prune_allowance(exploitability: float, cost: float = PRUNE_COST) -> float:
    """What pruning may add to a round whose exploitability before pruning is this."""
    return max(cost, PRUNE_SHARE * exploitability)


def prune_file(key: str, path: Path, levels: tuple[float, ...] = PRUNE_LEVELS,
               cost: float = PRUNE_COST,
               rounds: Collection[tuple[int, int]] | None = None) -> None:
    """Shrink the table at ``path``: for each round, the biggest of ``levels`` at which
    :meth:`~.tables.RoundTable.pruned` adds at most :func:`prune_allowance` (``cost``, or
    :data:`PRUNE_SHARE` of the round's exploitability) to its exact exploitability as
    stored (none if every level costs more), then its figures measured again.

    A round's metadata keeps ``exploitability_unpruned`` (the figure before any pruning,
    which later runs measure the cost from) and ``pruned_below`` (the level kept). With
    ``rounds``, only those are pruned again; the others stay as stored."""
    forget_loaded()
    meta = read_meta(path)
    pruned: dict[tuple[int, int], RoundTable] = {}
    for info in meta["rounds"]:
        dice = (int(info["dice"][0]), int(info["dice"][1]))
        table = load_round(key, *dice, folder=path.parent)
        if rounds is not None and dice not in rounds:
            pruned[dice] = table  # as stored
            continue
        base = float(info.get("exploitability_unpruned", info["exploitability"]))
        # Kept as it is stored (at an earlier run's level) unless a level passes now.
        chosen, passed = table.pruned(float(info.get("pruned_below", 0.0))), False
        with tempfile.TemporaryDirectory() as tmp:
            for level in levels:
                candidate = table.pruned(level)
                save({dice: candidate}, key, data_path(key, Path(tmp)))
                forget_loaded()
                found = load_round(key, *dice, folder=Path(tmp)).measure(lbr=False)
                print(f"{key} {dice}: pruned below {level:g}: exploitability "
                      f"{found['exploitability']:.5f} (unpruned {base:.5f})", flush=True)
                if found["exploitability"] <= base + prune_allowance(base, cost):
                    chosen, passed = candidate, True
                    chosen.meta["pruned_below"] = level
                    break
        chosen.meta["exploitability_unpruned"] = base
        pruned[dice] = chosen
        if not passed:
            print(f"{key} {dice}: every level costs more than "
                  f"{prune_allowance(base, cost):g}; not pruned", flush=True)
    save(pruned, key, path)
    remeasure(key, path)
    size = sum(file.stat().st_size for _, file in round_files(path))
    print(f"{key}: {path} is {size} bytes", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default=",".join(TABLE_RULES))
    parser.add_argument("--rounds", default="",
                        help="e.g. 1x1,2x1 (default: the rounds each key ships, "
                        "tables.SHIPPED_ROUNDS; any round up to 5 v 5 can be built)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--budget", type=float, default=3600.0,
                        help="seconds for the 5x5 round; smaller rounds get a share")
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--seed-from", type=Path, default=None,
                        help="folder with tavern-standard tables to grow tavern's from")
    parser.add_argument("--add", action="store_true",
                        help="keep the rounds already in --out that are not rebuilt")
    parser.add_argument("--missing", action="store_true",
                        help="build only the rounds without a file in --out (a build cut "
                        "short goes on where it stopped: each round is written as it ends)")
    parser.add_argument("--resume", action="store_true",
                        help="grow each round from its own table in --out (implies --add)")
    parser.add_argument("--remeasure", action="store_true",
                        help="only measure the tables already in --out again and rewrite "
                        "their figures")
    parser.add_argument("--merge", default="",
                        help="only copy the rounds of the tables in these folders "
                        "(comma-separated) into --out's, as they are (with --rounds, only those)")
    parser.add_argument("--prune", action="store_true",
                        help="only prune the tables already in --out (forget each hand's "
                        "play where its own play rarely brings it) and measure them again")
    args = parser.parse_args(argv)
    rounds: list[tuple[int, int]] | None = None  # each key's shipped rounds
    if args.rounds:
        rounds = []
        for text in args.rounds.split(","):
            a, _, b = text.partition("x")
            rounds.append((int(a), int(b)))
    if args.merge:
        for key in args.rules.split(","):
            merge_files(key, data_path(key, args.out),
                        [Path(folder) for folder in args.merge.split(",")],
                        rounds if args.rounds else None)
        return
    if args.prune:
        for key in args.rules.split(","):
            prune_file(key, data_path(key, args.out), rounds=rounds if args.rounds else None)
        return
    if args.remeasure:
        for key in args.rules.split(","):
            remeasure(key, data_path(key, args.out))
        return
    for key in args.rules.split(","):
        out = data_path(key, args.out)
        todo = sorted(rounds or SHIPPED_ROUNDS[key], key=lambda d: -sum(d))
        if args.missing:
            done = {dice for dice, _ in round_files(out)}
            todo = [d for d in todo if d not in done]
        if args.resume:
            build(key, todo, out, args.workers, args.budget, out.parent, keep=True,
                  seed_key=key)
        else:
            build(key, todo, out, args.workers, args.budget,
                  args.seed_from if key == "tavern" else None, keep=args.add)


def _saved_rounds(key: str, path: Path) -> dict[tuple[int, int], RoundTable]:
    """The rounds already in ``path`` (as shipped: quantised, with their figures)."""
    if not round_files(path):
        return {}
    forget_loaded()
    return {(a, b): load_round(key, a, b, folder=path.parent)
            for a, b in (r["dice"] for r in read_meta(path)["rounds"])}


def build(key: str, rounds: list[tuple[int, int]], out: Path, workers: int, budget: float,
          seed_from: Path | None, keep: bool = False,
          seed_key: str = "tavern-standard") -> None:
    """Solve ``rounds`` and write ``out`` after each one finishes, so that a build cut
    short keeps every round it finished (with ``keep``, the rounds already in ``out`` stay
    unless rebuilt)."""
    start = time.perf_counter()
    tables = _saved_rounds(key, out) if keep else {}
    with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(build_round, key, d, budget, seed_from, seed_key): d for d in rounds}
        for future in concurrent.futures.as_completed(futures):
            dice = futures[future]
            table, seconds = future.result()
            print(f"{key} {dice}: {table.meta['histories']} histories, "
                  f"exploitability {table.meta['exploitability']:.5f} before storage, "
                  f"{seconds:.0f} s", flush=True)
            before = tables.get(dice)
            level = PRUNED_BELOW.get(key, {}).get(dice)
            if level is not None:
                # The shipped rounds' files stay small (tables.PRUNED_BELOW).
                table.meta["exploitability_unpruned"] = table.meta["exploitability"]
                table = table.pruned(level)
                table.meta["pruned_below"] = level
            tables[dice] = table
            with tempfile.TemporaryDirectory() as tmp:
                # Measured as stored (quantised); the draft needs only this round.
                draft = data_path(key, Path(tmp))
                save({dice: table}, key, draft)
                table.meta.update(measure_saved(key, dice, draft))
            print(f"{key} {dice}: shipped policy exploitability "
                  f"{table.meta['exploitability']:.5f} (exact), LBR "
                  f"{table.meta.get('lbr_exploitability', float('nan')):.5f}, value "
                  f"{table.meta['value']:+.5f}", flush=True)
            if before is not None and (before.meta["exploitability"]
                                       <= table.meta["exploitability"]):
                # A rebuild that ran out of time worse off than the table it grew from.
                tables[dice] = before
                print(f"{key} {dice}: kept the earlier table "
                      f"({before.meta['exploitability']:.5f})", flush=True)
            elif before is not None and seed_from is not None and seed_key == key:
                # Grown from its own earlier table: its time is the sum of both builds.
                table.meta["solve_seconds"] = round(
                    table.meta["solve_seconds"] + before.meta.get("solve_seconds", 0.0), 1)
                # Counted across builds: the next resume seeds that many iterations' worth.
                table.meta["double_oracle_rounds"] += before.meta.get("double_oracle_rounds", 0)
                table.meta["resumed"] = True
            # Only this round's file: the others are as they were.
            save({dice: tables[dice]}, key, out)
    forget_loaded()
    size = sum(file.stat().st_size for _, file in round_files(out))
    print(f"wrote {out} ({size} bytes) in {time.perf_counter() - start:.0f} s", flush=True)

if __name__ == "__main__":
    main()
