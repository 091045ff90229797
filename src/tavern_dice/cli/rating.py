"""``tavern rating`` (a person's rating over their games) and ``tavern levels`` (the rated
opponents, with their measured ratings)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from tavern_dice.bots.levels import BLACKJACK_LEVELS, LIARS_LEVELS
from tavern_dice.cli.app import app
from tavern_dice.cli.rating_store import RatedGame, RatingStore, RatingStoreError
from tavern_dice.play.ratings import level_rating, shipped_table


@app.command("rating")
def rating(
    name: Annotated[str | None, typer.Option(
        "--name", help="Whose history (default: the person rated most recently).")] = None,
    plot: Annotated[bool, typer.Option(
        "--plot", help="Draw the rating over the games in the terminal.")] = False,
) -> None:
    """Your Liar's Dice rating, game by game: every game against rated levels (`tavern
    levels`) moves it, and it is kept in a small file in your data directory."""
    console = Console()
    try:
        store = RatingStore.open(warn=lambda text: console.print(
            f"[bold red]rating store:[/] {escape(text)}"))
        names = store.names()
        who = name if name is not None else (names[0] if names else None)
        games = [] if who is None else store.history(who)
    except RatingStoreError as error:
        console.print(f"[bold red]error:[/] {escape(str(error))}")
        raise typer.Exit(1) from None
    if not games:
        whose = "" if who is None else f" for {escape(who)}"
        console.print(f"No rated games{whose} yet: play Liar's Dice against rated levels, "
                      "e.g. `tavern play liars-dice` (`tavern levels` lists them).")
        return
    assert who is not None
    console.print(_history(who, games))
    last = games[-1].after
    low, high = last.interval
    console.print(f"Rating of [bold]{escape(who)}[/]: {last.mu:.0f} (95 %: {low:.0f}-{high:.0f}) "
                  f"after {len(games)} rated game{'s' if len(games) != 1 else ''}.")
    others = [n for n in names if n != who]
    if others:
        console.print("Also rated: " + ", ".join(escape(n) for n in others) + " (--name).")
    if plot:
        console.print(_plot(games), markup=False, highlight=False)


def _history(who: str, games: list[RatedGame]) -> Table:
    table = Table(title=f"{who}'s rated games")
    for column in ("#", "when", "players", "opponents", "place", "rating", "change"):
        table.add_column(column, justify="right" if column in ("#", "rating", "change") else
                         "left")
    for i, game in enumerate(games, 1):
        colour = "green" if game.change >= 0 else "red"
        table.add_row(str(i), game.played_at[:16].replace("T", " "), str(game.players),
                      game.opponents, f"{game.place} of {game.players}", f"{game.after.mu:.0f}",
                      f"[{colour}]{game.change:+.0f}[/]")
    return table


PLOT_ROWS = 10
"""Height of ``--plot``'s chart, in lines."""


def _plot(games: list[RatedGame], width: int = 60) -> str:
    """The rating before the first game and after each, as a text chart: one column a game
    (the last ``width`` games), a dot at each rating, the scale on the left."""
    points = ([games[0].before.mu] + [g.after.mu for g in games])[-width:]
    low, high = min(points), max(points)
    span = max(high - low, 1.0)
    rows = [[" "] * len(points) for _ in range(PLOT_ROWS)]
    for x, value in enumerate(points):
        rows[round((high - value) / span * (PLOT_ROWS - 1))][x] = "●"
    lines = []
    for i, row in enumerate(rows):
        label = f"{high - span * i / (PLOT_ROWS - 1):6.0f} │" if i in (0, PLOT_ROWS - 1) else \
            "       │"
        lines.append(label + "".join(row))
    first = len(games) + 1 - len(points)
    lines.append("       └" + "─" * len(points))
    lines.append(f"        game {first} to {len(games)} (the first dot: before game {first + 1})"
                 if first else "        before the first game, then after each")
    return "\n".join(lines)


@app.command("levels")
def levels_command() -> None:
    """The rated opponents, weakest first: who they are, how they play, and their rating
    (measured by `python benchmarks/levels.py`)."""
    console = Console()
    shipped = shipped_table()
    table = Table(title="Liar's Dice levels (--bots KIND)")
    for column in ("level", "kind", "who", "rating", "95 %", "how they play"):
        table.add_column(column, overflow="fold")
    for persona in LIARS_LEVELS:
        rated = level_rating(persona.kind)
        rating, interval = ("-", "-") if rated is None else (
            f"{rated.mu:.0f}", "{:.0f}-{:.0f}".format(*rated.rating.interval))
        table.add_row(str(persona.level), persona.kind, f"{persona.name}, {persona.title}",
                      rating, interval, persona.manner)
    console.print(table)
    console.print(f"Ratings measured {escape(str(shipped.get('measured', '?')))} with "
                  f"`{escape(str(shipped.get('command', 'benchmarks/levels.py')))}` "
                  "(docs/strategy.md says how).")
    house = Table(title="Dice Blackjack players (--bots KIND)")
    for column in ("kind", "who", "how they play"):
        house.add_column(column, overflow="fold")
    for persona in BLACKJACK_LEVELS:
        house.add_row(persona.kind, f"{persona.name}, {persona.title}", persona.manner)
    console.print(house)
