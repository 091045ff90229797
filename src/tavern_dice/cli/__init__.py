"""Command-line shell: ``tavern play|replay|review|odds|solve|simulate|serve``.

The shell holds no rules: it parses options, seats people and bots, and shows
per-player views that the engines produce.
"""

from __future__ import annotations

from tavern_dice.cli import commands as _commands  # noqa: F401  (registers subcommands)
from tavern_dice.cli.app import app


def main() -> None:
    """Entry point of the ``tavern`` console script."""
    app()


__all__ = ["app", "main"]
