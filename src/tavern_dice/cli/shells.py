"""What the terminal shows of each game, by the game's name in :mod:`tavern_dice.games`,
so that commands reading any game's log (``tavern replay``, ``tavern review``) dispatch
instead of branching on the engine's type."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import Console

from tavern_dice.cli import render_blackjack, render_liars
from tavern_dice.cli.narrator import Narrator
from tavern_dice.games import BLACKJACK, LIARS_DICE, Engine, definition_of


@dataclass(frozen=True, slots=True)
class Shell:
    """One game's terminal presentation.

    Attributes:
        rules_summary: the ruleset in a few words (``tavern rules with ...``).
        narrator: ``narrator(console, players, rules, viewer)`` prints a replay's events,
            every die shown when ``viewer`` is ``None`` (the game is over).
        closing: prints what a replay ends with (balances, or an unfinished game).
        review_dice: the die sides and whether spot-on counts, for ``tavern review``.
    """

    rules_summary: Callable[[Any], str]
    narrator: Callable[[Console, Sequence[str], Any, int | None], Narrator]
    closing: Callable[[Console, Any], None]
    review_dice: Callable[[Any], tuple[int, bool]]


def _liars_closing(console: Console, game: Any) -> None:
    if game.winner is None:
        console.print("The game was left unfinished.")


def _blackjack_closing(console: Console, game: Any) -> None:
    console.print()
    console.print(render_blackjack.balances_line(
        game.players, game.starting_balances, game.balances
    ), markup=False)


SHELLS: dict[str, Shell] = {
    LIARS_DICE.name: Shell(
        rules_summary=render_liars.rules_summary,
        narrator=lambda console, players, rules, viewer: render_liars.LiarsNarrator(
            console, players, rules, viewer=viewer, reveal_all=viewer is None
        ),
        closing=_liars_closing,
        review_dice=lambda rules: (rules.sides, rules.spot_on),
    ),
    BLACKJACK.name: Shell(
        rules_summary=render_blackjack.rules_summary,
        narrator=lambda console, players, rules, viewer: render_blackjack.BlackjackNarrator(
            console, players, viewer=viewer
        ),
        closing=_blackjack_closing,
        # Dice Blackjack's review shows no Liar's Dice faces; d6 and no spot-on stand in.
        review_dice=lambda rules: (6, False),
    ),
}


def shell_of(engine: Engine) -> Shell:
    """The terminal presentation of ``engine``'s game."""
    return SHELLS[definition_of(engine).name]


def title_line(engine: Engine) -> str:
    """``Liar's Dice · tavern rules ...``: the game and its rules, as Rich markup."""
    summary = shell_of(engine).rules_summary(engine.rules)
    return f"[bold]{definition_of(engine).title}[/] · {summary}"
