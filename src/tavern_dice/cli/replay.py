"""``tavern replay GAME.json``: show a saved game (``tavern play --save``) event by event.

The log is checked by replaying it through its engine (:class:`~tavern_dice.record.
GameRecord`, which finds the game in :mod:`tavern_dice.games`), then shown with the same
narrators as ``tavern play``, step by step. By default every die is shown (the game is
over); ``--as SEAT`` shows it as that player saw it, with others' secret dice masked
(the record masks each step for that seat).
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.markup import escape

from tavern_dice.cli.app import app
from tavern_dice.cli.saved import GamePath, open_saved, parse_seat
from tavern_dice.cli.shells import shell_of, title_line
from tavern_dice.cli.terminal import QuitGame, Terminal
from tavern_dice.events import Event


@app.command("replay")
def replay(
    path: GamePath,
    step: Annotated[
        bool, typer.Option("--step", help="Wait for Enter after each event that shows "
                           "something; q (or quit) and Enter stops.")
    ] = False,
    as_seat: Annotated[
        str | None,
        typer.Option(
            "--as", metavar="SEAT",
            help="Show it as this player saw it (seat number from 0, or name): others' "
            "secret dice stay hidden.",
        ),
    ] = None,
) -> None:
    """Replay a saved Liar's Dice or Dice Blackjack game (--step: one event per Enter)."""
    terminal = Terminal()
    console = terminal.console
    _data, record = open_saved(path, "replay")
    game = record.final
    shell = shell_of(game)
    players = list(game.players)
    viewer = None if as_seat is None else parse_seat(as_seat, players)
    console.print(title_line(game))
    narrate: Any = shell.narrator(console, players, game.rules, viewer)
    console.print("Seats: " + ", ".join(f"{i} {escape(p)}" for i, p in enumerate(players)))
    if viewer is not None:
        console.print(f"Shown as {escape(players[viewer])} saw it.")
    if step:
        console.print("[bright_black]Press Enter for the next event; type q and Enter to stop."
                      "[/]")
    try:
        for one in record.steps(viewer, masked=viewer is not None):
            for event in (one.event, *one.derived):
                if narrate.show(event) and step:
                    _pause(terminal, event)
    except KeyboardInterrupt:
        console.print("\n[bold]Goodbye![/]")
        raise typer.Exit(130) from None
    except QuitGame:
        console.print("Stopped the replay.")
        return
    except EOFError:
        console.print()
    shell.closing(console, game)


STOP_WORDS = frozenset({"q", "quit", "exit", "stop"})
"""Typed at a ``--step`` pause, these stop the replay."""


def _pause(terminal: Terminal, event: Event) -> None:
    answer = terminal.ask("[bright_black]⏎ (q to stop)[/]")
    if answer.lower() in STOP_WORDS:
        raise QuitGame(answer)
