"""``tavern review GAME.json``: the post-game coach for a saved game (``tavern play --save``).

The log is replayed through its engine (``from_log``, which checks every input); the
analysis is :mod:`tavern_dice.review` (the strategy modules value each action), and this
command only chooses the seats and shows the result: in words, as JSON (``--json``) or
as a chart (``--plot``).

Seats: ``--as SEAT`` (a number from 0 or a name, repeatable); by default the seats people
played (the log's ``"people"``), or seat 0 for a log that does not name them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from tavern_dice.cli import render_review
from tavern_dice.cli.app import app
from tavern_dice.cli.outputs import check_plot
from tavern_dice.cli.saved import GamePath, open_saved, parse_seat
from tavern_dice.cli.shells import shell_of, title_line
from tavern_dice.review import people_seats, review_game


@app.command("review")
def review(
    path: GamePath,
    as_seats: Annotated[
        list[str] | None,
        typer.Option(
            "--as", metavar="SEAT",
            help="Review this seat (number from 0, or name); repeat for more. Default: "
            "the seats people played, or seat 0.",
        ),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", metavar="CHART.png",
                     help="Also draw each seat's standing and the cost of each decision here."),
    ] = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the review as JSON instead of words.")
    ] = False,
) -> None:
    """Review a saved game: each decision's value against the best, marked like a chess
    engine's (?! inaccuracy, ? mistake, ?? blunder).

    Liar's Dice against the solved heads-up policy or the strong bot's lookahead (in dice);
    Dice Blackjack against the exact optimal play (per unit bet).
    """
    if plot is not None:
        check_plot(plot)
    data, record = open_saved(path, "review")
    game = record.final
    players = list(game.players)
    seats = ([parse_seat(text, players) for text in as_seats] if as_seats
             else people_seats(data, players))
    console = Console(highlight=False)
    if as_json:
        result = review_game(game, seats)
    else:
        with console.status("Reviewing every decision..."):
            result = review_game(game, seats)
    if plot is not None:
        render_review.plot_review(result, plot)
    if as_json:
        typer.echo(json.dumps(result.to_dict(), indent=1))
        return
    console.print(f"{title_line(game)} · review after {_rounds(game.round)}")
    sides, spot_on = shell_of(game).review_dice(game.rules)
    console.print("Seats: " + ", ".join(f"{i} {escape(p)}" for i, p in enumerate(players)))
    render_review.show_review(console, result, sides=sides, spot_on=spot_on)
    if plot is not None:
        console.print(f"chart written to {escape(str(plot))}")


def _rounds(count: int) -> str:
    return f"{count} round" + ("" if count == 1 else "s")
