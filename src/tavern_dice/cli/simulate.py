"""`tavern simulate`: many bot games on every core, with win rates and payouts.

``tavern simulate liars-dice --bots strong,probabilistic,probabilistic,probabilistic
--games 10000 --seed 1`` and ``tavern simulate blackjack --bots optimal,cautious
--rounds 100000``. The simulation itself is :mod:`tavern_dice.play.simulate`;
this module parses options, shows a progress bar (on standard error, so that
``--json`` output stays clean) and prints the results (see ``render_simulate``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Protocol, TypeVar

import typer
from rich.console import Console, RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from tavern_dice.blackjack.rules import TAVERN as BLACKJACK_TAVERN
from tavern_dice.bots.registry import BLACKJACK_BOTS, LIARS_DICE_BOTS
from tavern_dice.cli.app import command_group
from tavern_dice.cli.options import (
    ExactPayout,
    HouseExactBeatsPlayerExact,
    HouseNeedsUnder,
    MaxAddedBonus,
    blackjack_rules,
    parse_bots,
    with_liars_rules,
)
from tavern_dice.cli.outputs import check_plot
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.rules import LiarsDiceRules

simulate_app = command_group(
    "simulate",
    "Simulate many bot games on every core: win rates and payouts with 95 % intervals.",
)

MIN_INTERVAL_ROUNDS = 2
"""The fewest rounds a Blackjack simulation reports an interval for (two values)."""

Seed = Annotated[
    int,
    typer.Option("--seed", min=0, help="Seed of the whole simulation (0 or more): the same "
                 "seed, the same results (whatever --workers)."),
]
Workers = Annotated[
    int | None,
    typer.Option("--workers", "-j", min=1, help="Processes to use (default: every core)."),
]
Plot = Annotated[
    Path | None,
    typer.Option("--plot", dir_okay=False, metavar="RESULTS.png",
                 help="Also draw the results as a bar chart with their intervals here."),
]
JsonOut = Annotated[
    bool, typer.Option("--json", help="Print the results as JSON (machine-readable) only.")
]


def _progress(unit: str) -> Progress:
    return Progress(
        TextColumn(f"[bold]simulating[/] {unit}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )


class _Result(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


_R = TypeVar("_R", bound=_Result)


def _simulate(unit: str, total: int, run: Callable[[Callable[[int], None]], _R]) -> _R:
    """``run(progress)`` under a progress bar of ``total`` ``unit``; the simulation's
    refusal of the bots (too few, too many, a bad proficiency) is a usage error."""
    with _progress(unit) as bar:
        task = bar.add_task(unit, total=total)
        try:
            return run(lambda done: bar.advance(task, done))
        except TavernError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None


def _report(
    result: _R,
    table: Callable[[_R], RenderableType],
    draw: Callable[[_R, Path], Path],
    *,
    plot: Path | None,
    json_out: bool,
) -> None:
    """Print ``result`` as JSON or as its ``table``, and ``draw`` it to ``plot`` if given."""
    if json_out:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        Console().print(table(result))
    if plot is not None:
        draw(result, plot)
        if not json_out:
            Console().print(f"chart written to {plot}")


@simulate_app.command("liars-dice")
@with_liars_rules
def liars_dice(
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", metavar="KIND,KIND,...",
                     help="One bot per seat, by kind (repeats allowed): "
                     f"{', '.join(sorted(LIARS_DICE_BOTS))}."),
    ],
    games: Annotated[int, typer.Option("--games", "-g", min=1, help="Games to play.")] = 1000,
    seed: Seed = 1,
    workers: Workers = None,
    plot: Plot = None,
    json_out: JsonOut = False,
    *,
    rules: LiarsDiceRules,
) -> None:
    """Liar's Dice: each bot's win rate with a Wilson 95 % interval.

    Seats rotate game by game, so every bot plays every position equally often.

    \b
    Example:
      tavern simulate liars-dice --games 10000 --seed 1 \\
        --bots strong,probabilistic,probabilistic,probabilistic
    """
    from tavern_dice.cli import render_simulate as render
    from tavern_dice.play.simulate import simulate_liars_dice

    specs = parse_bots(bots, LIARS_DICE_BOTS) or []
    if plot is not None:
        check_plot(plot)
    kinds = [s.kind for s in specs]
    result = _simulate("games", games, lambda progress: simulate_liars_dice(
        kinds, games, seed, rules, workers, progress=progress,
    ))
    _report(result, render.liars_table, render.plot_liars, plot=plot, json_out=json_out)


@simulate_app.command("blackjack")
def blackjack(
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", metavar="KIND[:PB],...",
                     help="Bots, each at its own seat against the house, optionally with a "
                     f"proficiency bonus (optimal:4): {', '.join(sorted(BLACKJACK_BOTS))}."),
    ],
    rounds: Annotated[
        int, typer.Option("--rounds", "-r", min=1,
                          help="Rounds to play (at least 2: the interval needs two).")
    ] = 10000,
    seed: Seed = 1,
    workers: Workers = None,
    plot: Plot = None,
    json_out: JsonOut = False,
    house_needs_under: HouseNeedsUnder = None,
    house_exact_beats_player_exact: HouseExactBeatsPlayerExact = None,
    exact_payout: ExactPayout = None,
    max_added_bonus: MaxAddedBonus = None,
) -> None:
    """Dice Blackjack: each bot's mean payout per 1 gp bet with a 95 % interval.

    Every bot bets 1 gp a round at its own seat. Rounds are played in sessions of 100 at
    a fresh table where each seat starts with 100 gp, so nobody goes broke. The solver's
    exact expectation is shown for the bots it knows (optimal, cautious, bold).

    \b
    Example:
      tavern simulate blackjack --bots optimal,cautious --rounds 100000
    """
    from tavern_dice.cli import render_simulate as render
    from tavern_dice.play.simulate import BlackjackEntry, simulate_blackjack

    rules = blackjack_rules(
        BLACKJACK_TAVERN, house_needs_under=house_needs_under,
        house_exact_beats_player_exact=house_exact_beats_player_exact,
        min_bet=None, max_bet=None, exact_payout=exact_payout, max_added_bonus=max_added_bonus,
    )
    specs = parse_bots(bots, BLACKJACK_BOTS, allow_proficiency=True) or []
    if rounds < MIN_INTERVAL_ROUNDS:
        # --rounds takes 1 as tavern play does; a mean's interval needs a second round.
        raise typer.BadParameter(
            f"a 95 % interval of the mean payout needs at least {MIN_INTERVAL_ROUNDS} "
            f"rounds, not {rounds}", param_hint="--rounds")
    if plot is not None:
        check_plot(plot)
    entries = [BlackjackEntry(s.kind, s.proficiency) for s in specs]
    result = _simulate("rounds", rounds, lambda progress: simulate_blackjack(
        entries, rounds, seed, rules, workers, progress=progress,
    ))
    _report(result, render.blackjack_table, render.plot_blackjack, plot=plot, json_out=json_out)
