"""The ``tavern`` command-line application object; subcommand modules register on it."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="tavern",
    help="Liar's Dice and Dice Blackjack for the tavern table: play, replay, odds, solve, "
    "simulate, serve.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
