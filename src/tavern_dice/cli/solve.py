"""``tavern solve``: compute equilibrium strategies.

``tavern solve liars-dice --dice-each 2,1 --target-exploitability 1e-4 --output p.npz
--plot convergence.png`` solves one two-player Liar's Dice round (player 0 =
first bidder) with :func:`tavern_dice.strategy.liars_dice.solver.solve_round`, showing the
exploitability in a progress bar, saves the policy (``.npz``, readable with
:meth:`tavern_dice.strategy.liars_dice.solver.RoundPolicy.load`) and plots exploitability against
iterations (log scale).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console, Group
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from tavern_dice.cli.app import command_group
from tavern_dice.cli.options import (
    parse_dice_pair,
    parse_raise_rule,
)
from tavern_dice.cli.outputs import check_plot, check_writable, save_figure
from tavern_dice.errors import TavernError

if TYPE_CHECKING:
    from tavern_dice.strategy.liars_dice.solver.core.cfr import SolveResult

# The solver (and NumPy) load when a command runs, not when `tavern --help` lists it; so the
# algorithm names are spelt here (tests/cli check them against the solver's ALGORITHMS).
ALGORITHM_NAMES = ("pcfr+", "dcfr", "cfr+")

solve_app = command_group(
    "solve", "Compute equilibrium strategies (CFR) for two-player Liar's Dice rounds."
)


def plot_convergence(result: SolveResult, path: Path, title: str) -> None:
    """Save exploitability vs iterations (log-log) as an image (Matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    its = [t[0] for t in result.trace]
    expl = [max(t[2], 1e-16) for t in result.trace]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(its, expl, marker=".")
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability (NashConv / 2)")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)


@solve_app.command("liars-dice")
def liars_dice(
    dice: Annotated[
        str, typer.Option(
            # Not --dice: in tavern play that is where the dice come from (auto/manual).
            "--dice-each", "--dice-per-player",
            help="Dice of the first and second bidder, e.g. 2,1 (one count: both).",
        )
    ] = "1,1",
    raise_rule: Annotated[
        str, typer.Option(
            "--raise-rule", "--raise",
            help="Raise rule: standard or face-major (the seed's 'either' has cycles, so no "
            "finite game tree).",
        )
    ] = "standard",
    wild_face: Annotated[
        int | None, typer.Option(min=0, help="Wild face (L6); default and 0: none.")
    ] = None,
    spot_on: Annotated[
        bool, typer.Option(help="Spot-on rule (L8; no effect with 2 players).")
    ] = True,
    sides: Annotated[int, typer.Option(help="Faces per die.")] = 6,
    sum_wagers: Annotated[
        bool, typer.Option(
            "--sum-endgame/--no-sum-endgame", "--sum",
            help="Sum wagers (L10 endgame; needs --dice-each 1,1).",
        )
    ] = False,
    recall: Annotated[
        int | None,
        typer.Option(help="Remember only the last K wagers (for rounds too big to solve exactly)."),
    ] = None,
    algorithm: Annotated[str, typer.Option(help=f"One of {', '.join(ALGORITHM_NAMES)}.")] = "dcfr",
    target_exploitability: Annotated[
        float, typer.Option(help="Stop at this exploitability.")
    ] = 1e-4,
    max_iterations: Annotated[int, typer.Option(min=1, help="Iteration budget.")] = 10_000,
    check_every: Annotated[
        int, typer.Option(min=1, help="Iterations between checks.")
    ] = 10,
    output: Annotated[Path | None, typer.Option(help="Save the policy (.npz).")] = None,
    plot: Annotated[
        Path | None, typer.Option(help="Save a convergence plot (e.g. convergence.png).")
    ] = None,
) -> None:
    """Solve one two-player round and report its value and exploitability."""
    from tavern_dice.strategy.liars_dice.solver.core.cfr import solve_round
    from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundSpec

    console = Console()
    rule = parse_raise_rule(raise_rule)
    counts = parse_dice_pair(dice, "--dice-each")
    try:
        spec = RoundSpec(dice=counts, sides=sides, raise_rule=rule, wild_face=wild_face or None,
                         spot_on=spot_on, sum_wagers=sum_wagers)
    except TavernError as exc:
        raise typer.BadParameter(str(exc)) from None
    # Checked before solving, so that a typo does not throw away a long solve.
    if output is not None:
        check_writable(output, "--output")
    if plot is not None:
        check_plot(plot)
    with Progress(
        TextColumn("[bold]{task.description}"), BarColumn(),
        TextColumn("{task.completed}/{task.total} it"),
        TextColumn("exploitability {task.fields[expl]}"), TimeElapsedColumn(),
        console=console, transient=False,
    ) as progress:
        task = progress.add_task(f"solving {spec.key()}", total=max_iterations, expl="-")

        def update(iteration: int, expl: float) -> None:
            progress.update(task, completed=iteration, expl=f"{expl:.2e}")

        try:
            result = solve_round(
                spec, recall=recall, target_exploitability=target_exploitability,
                max_iterations=max_iterations, check_every=check_every, algorithm=algorithm,
                callback=update,
            )
        except TavernError as exc:
            raise typer.BadParameter(str(exc)) from None
    kind = "exact" if recall is None else f"lower bound, last {recall} wager(s) remembered"
    console.print(
        f"{result.iterations} iterations in {result.seconds:.2f} s; exploitability "
        f"{result.exploitability:.3e} ({kind}); first bidder's value {result.value:+.6f}"
    )
    if output is not None:
        result.policy.save(output)
        console.print(f"policy saved to {output}")
    if plot is not None:
        plot_convergence(result, plot, f"{spec.key()} ({algorithm})")
        console.print(f"convergence plot saved to {plot}")


def _round_tables(rules: str, rows: Sequence[tuple[str, ...]]) -> Group:
    """The rounds' figures as two tables, what each policy gives up and how it was built:
    the nine columns in one table cut nearly every cell at 80 columns ("0.000…")."""
    from rich.table import Table

    strength = Table(title=f"Heads-up policies, {rules} rules (first bidder's dice first; "
                     "exploitability = NashConv / 2, a round scored +-1)")
    built = Table(title="How each policy was built and measured")
    picks = ((strength, (0, 1, 2, 3, 4, 8)), (built, (0, 5, 6, 7)))
    for table, columns in picks:
        for index in columns:
            name = _ROUND_COLUMNS[index]
            # Figures never wrap or shorten; the words around them may wrap instead.
            table.add_column(name, justify="left" if index in (0, 8) else "right",
                             no_wrap=index not in (1, 3, 7, 8), overflow="fold")
        for row in rows:
            table.add_row(*(row[index] for index in columns))
    return Group(strength, built)


_ROUND_COLUMNS = ("round", "histories", "exploitability", "LBR bound", "value", "solved in",
                  "measured in", "pruned", "status")


@solve_app.command("tables")
def tables(
    rules: Annotated[
        str, typer.Option("--rules", help="Which shipped table: tavern (the seed's rules) or "
                          "tavern-standard (the seed with the standard raise).")
    ] = "tavern",
) -> None:
    """The shipped heads-up policies: each round's exact exploitability and value.

    Each figure is measured on the policy as shipped (after storage) by exact best responses
    that remember every wager; a round above its target is marked approximate.
    """
    from tavern_dice.measure.round_bounds import load_bounds
    from tavern_dice.strategy.liars_dice.solver.play.tables import TABLE_RULES, metadata

    if rules not in TABLE_RULES:
        raise typer.BadParameter(f"known tables: {', '.join(TABLE_RULES)}", param_hint="--rules")
    try:
        meta = metadata(rules)
    except (OSError, KeyError) as error:
        raise typer.BadParameter(f"the {rules} table is not installed: {error}") from None
    # One row per round: round, histories, exploitability, LBR bound, value, solved in,
    # measured in, pruned, status; printed as two tables that each fit 80 columns.
    rows = [_tabled_row(info)
            for info in sorted(meta["rounds"], key=lambda r: (sum(r["dice"]), r["dice"]))]
    sampled: dict[str, dict[str, Any]] = load_bounds().get(rules, {})
    rows += _stand_in_rows(rules, sampled)
    # A round with a table of its own (any a build folder adds beyond the shipped ones) is
    # listed above, whatever blueprint also covers it.
    tabled = {tuple(info["dice"]) for info in meta["rounds"]}
    blueprints, key, missing = _blueprint_rounds(rules)
    blueprints = [info for info in blueprints if tuple(info["dice"]) not in tabled]
    from tavern_dice.strategy.liars_dice.solver.play.search import applies

    searched = applies(TABLE_RULES[rules])
    for info in blueprints:
        a, b = info["dice"]
        recall = info["recall"]
        bound, lbr, seconds = _sampled_row(sampled, (a, b),
                                           info["recall_exploitability_lower_bound"])
        rows.append((
            f"{a} v {b}", f"DAG, {recall} wager{'s' if recall > 1 else ''}", bound, lbr,
            f"{info['value']:+.4f}", f"{info.get('solve_seconds', 0):.0f} s", seconds, "-",
            "approximate (search on the blueprint)" if searched else "approximate (blueprint)",
        ))
    console = Console()
    console.print(_round_tables(rules, rows))
    _print_notes(console, rules, blueprints=bool(blueprints), searched=searched, key=key,
                 missing=missing, sampled=sampled)


def _tabled_row(info: dict[str, Any]) -> tuple[str, ...]:
    """The row of a round with a table of its own: its exact figures."""
    a, b = info["dice"]
    expl = info["exploitability"]
    # The 0.01, whatever the round's size (the standard 8-dice tables miss it).
    status = "equilibrium (exact figure)" if expl <= 0.01 else "approximate (exact figure)"
    lbr = info.get("lbr_exploitability")
    # What storing less cost: the level below which a hand's rare play was forgotten,
    # and the exploitability it added (measured, build_tables --prune).
    pruned = "-" if info.get("pruned_below") is None else (
        f"< {info['pruned_below']:.0e} ({expl - info['exploitability_unpruned']:+.5f})")
    return (
        f"{a} v {b}", f"{info['histories']:,}", f"{expl:.5f}",
        "-" if lbr is None else f"{lbr:.5f}", f"{info['value']:+.4f}",
        f"{info.get('solve_seconds', 0):.0f} s",
        f"{info.get('measure_seconds', 0) + info.get('lbr_seconds', 0):.0f} s", pruned,
        status,
    )


def _sampled_row(sampled: dict[str, dict[str, Any]], dice: Sequence[int],
                 exact_bound: float) -> tuple[str, str, str]:
    """A round without an exact figure: its exploitability bound (the higher of the
    ``exact_bound`` its build measured and the sampled LBR's 95 % low end), the sampled
    LBR bound with its interval, and the time sampling took; dashes where none."""
    from tavern_dice.measure.round_bounds import round_name

    found = sampled.get(round_name(dice))
    if found is None:
        return f">= {exact_bound:.4f}", "-", "-"
    low = found["low"]
    bound = f">= {low:.3f} s" if low > exact_bound else f">= {exact_bound:.4f}"
    return (bound, f"{found['gain']:.3f} [{low:.3f}, {found['high']:.3f}] s",
            f"{found['seconds']:.0f} s")


def _stand_in_rows(rules: str, sampled: dict[str, dict[str, Any]]) -> list[tuple[str, ...]]:
    """The rows of the rounds another rules' table stands in for (none for most rules)."""
    from tavern_dice.strategy.liars_dice.solver.play.tables import (
        TABLE_STAND_INS,
        metadata,
        stand_in_rounds,
    )

    stand_in = TABLE_STAND_INS.get(rules)
    if stand_in is None:
        return []
    try:
        stand_in_meta = metadata(stand_in)
    except OSError as error:
        # A build folder in $TAVERN_TABLES replaces the package data file by file, so a
        # folder holding only this rules' table misses the stand-in's.
        raise typer.BadParameter(
            f"the {stand_in} table, which stands in for the {rules} rounds without a "
            f"table of their own, is missing: {error}; copy it into the folder (or unset "
            "TAVERN_TABLES)"
        ) from None
    by_dice = {tuple(info["dice"]): info for info in stand_in_meta["rounds"]}
    rows: list[tuple[str, ...]] = []
    for a, b in stand_in_rounds(rules):
        info = by_dice[(a, b)]
        # The stand-in's best response in its own rules is a strategy here too (its
        # raises are legal here), so its exact figure bounds this round's from below.
        bound, lbr, seconds = _sampled_row(sampled, (a, b), info["exploitability"])
        rows.append((
            f"{a} v {b}", f"{stand_in} table", bound, lbr, "-",
            f"{info.get('solve_seconds', 0):.0f} s", seconds, "-",
            f"approximate (the {stand_in} table)",
        ))
    return rows


def _print_notes(console: Console, rules: str, *, blueprints: bool, searched: bool,
                 key: str | None, missing: Sequence[Path],
                 sampled: dict[str, dict[str, Any]]) -> None:
    """The words under the tables: how the rounds without a table are played and bounded,
    the blueprint files not found, and what the sampled figures are."""
    if blueprints and searched:
        console.print(
            "Rounds with 7-10 dice in play and no table: strong searches each decision two "
            f"wagers deep over both players' ranges, with the {key} last-wager blueprint's "
            "values at the leaves (a stand-in under these rules); the columns before the "
            "sampled bound are the blueprints' builds, bounded only with best responses "
            "that remember no more wagers."
        )
    elif blueprints:
        console.print(
            f"Rounds with 7-10 dice in play and no table: the {key} blueprints"
            + ("" if key == rules else " (a stand-in under these rules)")
            + ", remembering the last two wagers (the last one only, where no two-wager "
            "node remembers the history); their builds bound their exploitability only "
            "with best responses that remember no more wagers."
        )
    for path in missing:
        console.print(f"Not found: {path} (its blueprint rounds are left out above).")
    if sampled:
        counts = " or ".join(f"{n:,}" for n in sorted({r["rounds"] for r in sampled.values()}))
        summed = any(r.get("integrated") for r in sampled.values())
        how = (", each scored by its expected result given the wagers drawn, both hands "
               "summed out (the same mean, about a tenth of the variance)" if summed else "")
        console.print(
            "Figures marked s are sampled, not exact: the local best response's mean score "
            f"over {counts} single rounds against strong (both positions; 95 % "
            f"interval){how}, a lower bound on what the policy as played gives up; the "
            "exploitability column then gives the interval's low end where it is the higher "
            "bound (python -m tavern_dice.measure.round_bounds)."
        )


def _blueprint_rounds(rules: str) -> tuple[list[dict[str, Any]], str | None, list[Path]]:
    """The metadata of the blueprint rounds that play under ``rules`` (7-10 dice in play;
    of each round, the blueprint with the longest memory shipped), the rules key they
    were solved for, and the blueprint files not found (a partial ``$TAVERN_TABLES``)."""
    from tavern_dice.strategy.liars_dice.solver.play.blueprint import (
        SHIPPED_RECALLS,
        blueprint_key,
        data_path,
        read_meta,
    )
    from tavern_dice.strategy.liars_dice.solver.play.tables import TABLE_RULES

    key = blueprint_key(TABLE_RULES[rules])
    if key is None:
        return [], None, []
    rounds: dict[tuple[int, int], dict[str, Any]] = {}
    missing: list[Path] = []
    for recall in sorted(SHIPPED_RECALLS[key]):
        path = data_path(key, recall=recall)
        try:
            meta = read_meta(path)
        except OSError:
            missing.append(path)
            continue
        for info in meta["rounds"]:
            rounds[tuple(info["dice"])] = info  # a longer memory replaces a shorter one
    rows = sorted(rounds.values(), key=lambda r: (sum(r["dice"]), r["dice"]))
    return rows, key, missing
