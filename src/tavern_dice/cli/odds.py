"""`tavern odds`: exact odds and strategy for the tavern games.

Each game is one command on :data:`odds_app`; its rendering lives in a helper
module (``odds_blackjack``) so that this file stays a list of commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from tavern_dice.blackjack.rules import TAVERN as BLACKJACK_TAVERN
from tavern_dice.cli.app import app

odds_app = typer.Typer(
    help="Exact odds and best play: house edges, strategy charts.",
    no_args_is_help=True,
)
app.add_typer(odds_app, name="odds")


@odds_app.command("blackjack")
def blackjack(
    proficiency: Annotated[
        int | None,
        typer.Option(
            "--proficiency",
            "-p",
            min=2,
            max=BLACKJACK_TAVERN.max_proficiency_bonus,
            help="Proficiency bonus for the strategy chart (default: not proficient).",
        ),
    ] = None,
    house_needs_under: Annotated[
        bool,
        typer.Option(
            "--house-needs-under",
            help="B5: a house d20 must be strictly under the target to count.",
        ),
    ] = BLACKJACK_TAVERN.house_needs_under,
    house_exact_beats_player_exact: Annotated[
        bool,
        typer.Option(
            "--house-exact-beats-player-exact",
            help="B8: a house roll on the target beats a player's exact hit.",
        ),
    ] = BLACKJACK_TAVERN.house_exact_beats_player_exact,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Also draw the strategy chart as a heat map PNG here."),
    ] = None,
) -> None:
    """Dice Blackjack: house edge by proficiency and play, and the best-play chart."""
    from tavern_dice.cli import odds_blackjack as render

    rules = BLACKJACK_TAVERN.replace(
        house_needs_under=house_needs_under,
        house_exact_beats_player_exact=house_exact_beats_player_exact,
    )
    console = Console()
    console.print(render.edge_table(rules))
    console.print(render.exact_edge_table(rules))
    console.print(render.chart_table(rules, proficiency))
    if plot is not None:
        render.plot_chart(rules, proficiency, plot)
        console.print(f"chart written to {plot}")
