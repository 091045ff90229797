"""The ``tavern`` command-line application object; subcommand modules register on it."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version
from typing import Annotated

import typer

app = typer.Typer(
    name="tavern",
    help="Liar's Dice and Dice Blackjack for the tavern table: play, replay, review, odds, "
    "solve, simulate, serve.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Click's plain help, not Rich's panels: at 80 columns (or piped) the panels cut
    # option names ("--no-sum-endga…") and keep the docstrings' line breaks mid-paragraph;
    # Click re-wraps each paragraph to the width and never cuts a name.
    rich_markup_mode=None,
)


def command_group(name: str, help: str) -> typer.Typer:
    """A group of subcommands, ``tavern NAME ...``, registered on :data:`app`; with no
    subcommand it shows its help."""
    group = typer.Typer(help=help, no_args_is_help=True, rich_markup_mode=None)
    app.add_typer(group, name=name)
    return group


def _version() -> str:
    try:
        return version("tavern-dice")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"tavern-dice {_version()}")
        raise typer.Exit()


@app.callback()
def main(
    show_version: Annotated[
        bool,
        typer.Option("--version", callback=_show_version, is_eager=True,
                     help="Print the version of tavern-dice and exit."),
    ] = False,
) -> None:
    """Liar's Dice and Dice Blackjack for the tavern table: play, replay, review, odds,
    solve, simulate, serve."""
