"""The rated levels at the terminal: who sits down, what they say, and the person's rating.

``tavern play`` uses these: :func:`talking` prints each persona's table talk after the
event it is about (:mod:`tavern_dice.bots.table_talk`, public events only),
:func:`opponents_note` says which level sits at a default table and how to choose
another, and :func:`rate_game` updates each person's rating after a Liar's Dice game
against rated levels (:mod:`tavern_dice.cli.rating_store`) and shows it with the change.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape

from tavern_dice.bots.levels import LIARS_LEVELS, MIDDLE_LIARS_LEVEL, persona_of
from tavern_dice.bots.table_talk import TableTalk
from tavern_dice.cli.options import Seat
from tavern_dice.cli.rating_store import RatingStore, RatingStoreError
from tavern_dice.events import Event
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.play.ratings import is_rated_table, level_rating, placing, rate_people


def talking(console: Console, seats: Sequence[Seat],
            narrate: Callable[[Event], object]) -> Callable[[Event], None]:
    """``narrate``, then the table talk of the personas seated, line by line."""
    talk = TableTalk({i: s.bot.kind for i, s in enumerate(seats) if s.bot is not None},
                     [s.name for s in seats])

    def both(event: Event) -> None:
        narrate(event)
        for seat, line in talk.hear(event):
            console.print(f'    [italic]{escape(seats[seat].name)}: "{escape(line)}"[/]')

    return both


def level_line(kind: str) -> str:
    """``'Mags, the tally-keeper: level 4 of 6, rated 1790'`` (Rich markup)."""
    found = persona_of(kind)
    if found is None:
        return escape(kind)
    rated = level_rating(kind)
    rating = "" if rated is None else f", rated {rated.mu:.0f}"
    return (f"[bold]{escape(found.name)}[/], {escape(found.title)}: level {found.level} of "
            f"{len(LIARS_LEVELS)}{rating}")


def opponents_note(count: int) -> str:
    """What a default Liar's Dice table seats, and how to choose other opponents."""
    level = MIDDLE_LIARS_LEVEL
    weakest, strongest = LIARS_LEVELS[0].kind, LIARS_LEVELS[-1].kind
    return (f"Opponents: {count} × {level_line(level.kind)}. {escape(level.manner)}\n"
            f"Choose others with --bots (e.g. --bots {weakest},{level.kind},{strongest}); "
            "`tavern levels` lists every level, weakest first.")


def rate_game(console: Console, game: LiarsDiceGame, seats: Sequence[Seat]) -> None:
    """After a finished game at which every bot is a rated level and somebody played:
    update each person's rating in the store and show it with the change. Any other game
    is not rated, and says nothing. A store that cannot be used is reported, not fatal."""
    people = [i for i, s in enumerate(seats) if s.is_person]
    bots = {i: s.bot.kind for i, s in enumerate(seats) if s.bot is not None}
    if not people or not game.is_over or not is_rated_table(bots.values()):
        return
    try:
        store = RatingStore.open(
            warn=lambda text: console.print(f"[bold red]rating store:[/] {escape(text)}"))
        before = {i: store.current(seats[i].name) for i in people}
        order = placing(game.log)
        after = rate_people(before, bots, order)
        opponents = ", ".join(sorted(bots.values()))
        for seat in people:
            entry = store.record(seats[seat].name, "liars-dice", len(seats), opponents,
                                 order.index(seat) + 1, before[seat], after[seat])
            change = entry.change
            colour = "green" if change >= 0 else "red"
            console.print(
                f"Rating of [bold]{escape(seats[seat].name)}[/]: {entry.after.mu:.0f} "
                f"([{colour}]{change:+.0f}[/]) after finishing {_ordinal(entry.place)} of "
                f"{len(seats)}; `tavern rating` shows the history.")
    except RatingStoreError as error:
        console.print(f"[bold red]rating store:[/] {escape(str(error))}; this game was not "
                      "rated.")


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th") if n % 100 not in (11, 12, 13) else "th"
    return f"{n}{suffix}"


__all__ = ["level_line", "opponents_note", "rate_game", "talking"]
