"""`tavern simulate`: many bot games on every core, with win rates and payouts.

``tavern simulate liars-dice --bots strong,probabilistic,probabilistic,probabilistic
--games 10000 --seed 1`` and ``tavern simulate blackjack --bots optimal,cautious
--rounds 100000``. The simulation itself is :mod:`tavern_dice.strategy.simulate`;
this module parses options, shows a progress bar (on standard error, so that
``--json`` output stays clean) and prints the results (see ``render_simulate``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
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
from tavern_dice.cli.app import app
from tavern_dice.cli.options import blackjack_rules, liars_rules, parse_bots
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.rules import PRESETS as LIARS_PRESETS
from tavern_dice.liars_dice.rules import RaiseRule

simulate_app = typer.Typer(
    help="Simulate many bot games on every core: win rates and payouts with 95 % intervals.",
    no_args_is_help=True,
)
app.add_typer(simulate_app, name="simulate")

Seed = Annotated[
    int,
    typer.Option("--seed", help="Seed of the whole simulation: the same seed, the same results "
                 "(whatever --workers)."),
]
Workers = Annotated[
    int | None,
    typer.Option("--workers", "-w", min=1, help="Processes to use (default: every core)."),
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


@simulate_app.command("liars-dice")
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
    preset: Annotated[
        str, typer.Option("--preset", help=f"Starting ruleset: {', '.join(LIARS_PRESETS)}.")
    ] = "tavern",
    raise_rule: Annotated[
        RaiseRule | None, typer.Option("--raise-rule", help="How a wager must raise the last (L5).")
    ] = None,
    wild_face: Annotated[
        int | None,
        typer.Option("--wild-face", min=0, help="A face that counts as any face (0: none)."),
    ] = None,
    spot_on: Annotated[
        bool | None,
        typer.Option("--spot-on/--no-spot-on", help="An exact wager costs everyone else a die."),
    ] = None,
    sum_endgame: Annotated[
        bool | None,
        typer.Option("--sum-endgame/--no-sum-endgame",
                     help="Two players with one die each wager on the sum."),
    ] = None,
    dice_per_player: Annotated[
        int | None,
        typer.Option("--dice-per-player", min=1, max=20, help="Starting dice (= lives)."),
    ] = None,
) -> None:
    """Liar's Dice: each bot's win rate with a Wilson 95 % interval.

    Seats rotate game by game, so every bot plays every position equally often.
    Example: tavern simulate liars-dice --bots strong,probabilistic,probabilistic,probabilistic
    --games 10000 --seed 1
    """
    from tavern_dice.cli import render_simulate as render
    from tavern_dice.strategy.simulate import simulate_liars_dice

    rules = liars_rules(
        preset, raise_rule=raise_rule, wild_face=wild_face, spot_on=spot_on,
        sum_endgame=sum_endgame, dice_per_player=dice_per_player,
    )
    specs = parse_bots(bots, LIARS_DICE_BOTS) or []
    kinds = [s.kind for s in specs]
    with _progress("games") as bar:
        task = bar.add_task("games", total=games)
        try:
            result = simulate_liars_dice(
                kinds, games, seed, rules, workers,
                progress=lambda done: bar.advance(task, done),
            )
        except TavernError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
    if json_out:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        console = Console()
        console.print(render.liars_table(result))
    if plot is not None:
        render.plot_liars(result, plot)
        if not json_out:
            Console().print(f"chart written to {plot}")


@simulate_app.command("blackjack")
def blackjack(
    bots: Annotated[
        str,
        typer.Option("--bots", "-b", metavar="KIND[:PB],...",
                     help="Bots, each at its own seat against the house, optionally with a "
                     f"proficiency bonus (optimal:4): {', '.join(sorted(BLACKJACK_BOTS))}."),
    ],
    rounds: Annotated[int, typer.Option("--rounds", "-r", min=2, help="Rounds to play.")] = 10000,
    seed: Seed = 1,
    workers: Workers = None,
    plot: Plot = None,
    json_out: JsonOut = False,
    house_needs_under: Annotated[
        bool | None,
        typer.Option("--house-needs-under/--house-may-equal",
                     help="B5: a house d20 must be strictly under the target to count."),
    ] = None,
    house_exact_beats_player_exact: Annotated[
        bool | None,
        typer.Option("--house-exact-beats-player-exact/--player-exact-wins",
                     help="B8: a house roll on the target beats a player's exact hit."),
    ] = None,
) -> None:
    """Dice Blackjack: each bot's mean payout per 1 gp bet with a 95 % interval.

    Every bot bets 1 gp a round at its own seat. Rounds are played in sessions of 100 at
    a fresh table where each seat starts with 100 gp, so nobody goes broke. The solver's
    exact expectation is shown for the bots it knows (optimal, cautious, bold).
    Example: tavern simulate blackjack --bots optimal,cautious --rounds 100000
    """
    from tavern_dice.cli import render_simulate as render
    from tavern_dice.strategy.simulate import BlackjackEntry, simulate_blackjack

    rules = blackjack_rules(
        BLACKJACK_TAVERN, house_needs_under=house_needs_under,
        house_exact_beats_player_exact=house_exact_beats_player_exact,
        min_bet=None, max_bet=None,
    )
    specs = parse_bots(bots, BLACKJACK_BOTS, allow_proficiency=True) or []
    entries = [BlackjackEntry(s.kind, s.proficiency) for s in specs]
    with _progress("rounds") as bar:
        task = bar.add_task("rounds", total=rounds)
        try:
            result = simulate_blackjack(
                entries, rounds, seed, rules, workers,
                progress=lambda done: bar.advance(task, done),
            )
        except TavernError as error:
            raise typer.BadParameter(str(error), param_hint="--bots") from None
    if json_out:
        typer.echo(json.dumps(result.to_dict(), indent=2))
    else:
        Console().print(render.blackjack_table(result))
    if plot is not None:
        render.plot_blackjack(result, plot)
        if not json_out:
            Console().print(f"chart written to {plot}")
