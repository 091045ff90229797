"""Showing Liar's Dice in a terminal: dice as die faces, the table, events as they happen.

Everything shown comes from the engine: the events of its log (masked for the
viewer), and the per-player :class:`~tavern_dice.liars_dice.view.LiarsDiceView`.
The one thing worked out here is which revealed dice to highlight; that is
checked against the engine's count in the reveal, and left plain if they differ.

>>> from rich.console import Console
>>> console = Console(width=60, color_system=None)
>>> console.print(dice_text((1, 3, 3, 6), 6))
⚀1 ⚂3 ⚂3 ⚅6
>>> lowest_raises([Wager(1, 5), Wager(1, 6), Wager(2, 5), Wager(4, 1), Wager(4, 2)])
[Wager(quantity=1, face=5), Wager(quantity=4, face=1)]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console, Group, RenderableType
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tavern_dice.cli.narrator import Narrator
from tavern_dice.events import DiceRolled, Event
from tavern_dice.liars_dice.adjudication import die_counts
from tavern_dice.liars_dice.events import (
    Accused,
    GameWon,
    PlayerOut,
    Revealed,
    RollOffResult,
    RoundStarted,
    WagerMade,
)
from tavern_dice.liars_dice.rules import PRESETS, TAVERN, LiarsDiceRules
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import FACE_NAMES, AnyWager, SumWager, Wager

DIE_FACES = "⚀⚁⚂⚃⚄⚅"
"""Unicode die faces for 1 to 6."""

HIDDEN_DIE = "▪"
"""How another player's unrevealed die is shown."""

MATCH_STYLE = "bold black on green"
"""Style of a revealed die that counts toward the wager."""


def die_text(face: int | None, sides: int) -> str:
    """One die: its face glyph and number (``'⚂3'``), the number alone for dice that are
    not d6, or :data:`HIDDEN_DIE` for a masked die."""
    if face is None:
        return HIDDEN_DIE
    if sides == 6 and 1 <= face <= 6:
        return f"{DIE_FACES[face - 1]}{face}"
    return str(face)


def dice_text(
    faces: Sequence[int | None], sides: int, highlight: Callable[[int], bool] | None = None
) -> Text:
    """Dice side by side, sorted low to high; ``highlight(face)`` marks dice that count."""
    shown = sorted(faces, key=lambda f: (f is None, f or 0))
    text = Text()
    for i, face in enumerate(shown):
        if i:
            text.append(" ")
        style = ""
        if highlight is not None and face is not None:
            style = MATCH_STYLE if highlight(face) else "dim"
        text.append(die_text(face, sides), style=style)
    return text


def hidden_dice(count: int) -> Text:
    """``count`` unrevealed dice."""
    return Text(" ".join(HIDDEN_DIE * count), style="bright_black")


def wager_text(wager: AnyWager) -> str:
    """A wager in words: ``'4 threes'``, ``'a sum of at least 7'``."""
    if isinstance(wager, SumWager):
        return f"a sum of at least {wager.total}"
    return str(wager)


def lowest_raises(legal: Sequence[AnyWager]) -> list[AnyWager]:
    """The smallest of the engine's legal wagers: those with no other legal wager at once
    no larger in quantity and no higher in face (for sum wagers, the lowest total).

    Under the seed's raise rule after 3 fours these are 1 five and 4 ones.
    """
    sums = [w for w in legal if isinstance(w, SumWager)]
    if sums:
        return [min(sums, key=lambda w: w.total)]
    counts = [w for w in legal if isinstance(w, Wager)]
    return [
        w for w in counts
        if not any(o != w and o.quantity <= w.quantity and o.face <= w.face for o in counts)
    ]


def _faces_phrase(faces: Sequence[int], sides: int, quantity: int) -> str:
    if list(faces) == list(range(1, sides + 1)):
        return "any face"
    # str(Wager) words the face for the quantity: "1 six", "2 sixes".
    names = [str(Wager(quantity, f)).split(" ", 1)[1] for f in faces]
    return ", ".join(names[:-1]) + (" or " if len(names) > 1 else "") + names[-1]


def legal_summary(legal: Sequence[AnyWager], sides: int) -> str:
    """The engine's legal wagers, grouped for reading: ``'1-3 fives or sixes; 4-20 of any
    face'``, or ``'a sum of 3 to 12'``."""
    sums = sorted(w.total for w in legal if isinstance(w, SumWager))
    if sums:
        return f"a sum of {sums[0]} to {sums[-1]}"
    by_quantity: dict[int, list[int]] = {}
    for w in legal:
        if isinstance(w, Wager):
            by_quantity.setdefault(w.quantity, []).append(w.face)
    groups: list[tuple[int, int, tuple[int, ...]]] = []
    for quantity in sorted(by_quantity):
        faces = tuple(sorted(by_quantity[quantity]))
        if groups and groups[-1][2] == faces and groups[-1][1] == quantity - 1:
            groups[-1] = (groups[-1][0], quantity, faces)
        else:
            groups.append((quantity, quantity, faces))
    parts = []
    for low, high, faces in groups:
        span = str(low) if low == high else f"{low}-{high}"
        phrase = _faces_phrase(faces, sides, high)
        parts.append(f"{span} of {phrase}" if phrase == "any face" else f"{span} {phrase}")
    return "; ".join(parts)


def rules_summary(rules: LiarsDiceRules) -> str:
    """The ruleset in a line: its preset's name, and any options that differ from it."""
    for name, preset in PRESETS.items():
        if rules == preset:
            return f"{name} rules"
    base_name, base = "tavern", TAVERN
    changed = [
        f"{key.replace('_', ' ')} {value}"
        for key, value in rules.to_dict().items()
        if base.to_dict()[key] != value
    ]
    return f"{base_name} rules with " + ", ".join(changed)


def _matches(wager: AnyWager, rules: LiarsDiceRules) -> Callable[[int], bool] | None:
    if isinstance(wager, SumWager):
        return None
    face = wager.face
    return lambda die: die_counts(die, face, rules)


class LiarsNarrator(Narrator):
    """Prints a game's events as they happen (the runner's observer) or in a replay.

    Args:
        console: where to print.
        players: names by seat.
        rules: the game's ruleset (for die sides and highlighting).
        viewer: the seat whose secret dice may be shown as "Your dice" (``None``: nobody's).
        reveal_all: show every player's secret dice (an all-bot game, or a finished game
            replayed); otherwise events are masked for ``viewer`` first.
    """

    def __init__(
        self, console: Console, players: Sequence[str], rules: LiarsDiceRules, *,
        viewer: int | None = None, reveal_all: bool = False,
    ) -> None:
        super().__init__(console, players, viewer=viewer)
        self.rules = rules
        self.reveal_all = reveal_all
        self._wager: WagerMade | None = None
        self._accuser: int | None = None
        self._width = max(len(p) for p in self.players)

    def seen(self, event: Event) -> Event:
        """``event`` as the viewer may see it: masked unless ``reveal_all``."""
        return event if self.reveal_all else event.masked_for(self.viewer)

    def render(self, event: Event) -> RenderableType | None:
        """The renderable for one (already masked) event, or ``None`` to show nothing."""
        if isinstance(event, DiceRolled):
            return self._rolled(event)
        if isinstance(event, RollOffResult):
            return self._roll_off(event)
        if isinstance(event, RoundStarted):
            return self._round(event)
        if isinstance(event, WagerMade):
            self._wager = event
            return Text.from_markup(
                f"  [bold]{self.name(event.seat)}[/] wagers [cyan]{wager_text(event.wager)}[/]."
            )
        if isinstance(event, Accused):
            self._accuser = event.accuser
            return Text.from_markup(
                f"  [bold]{self.name(event.accuser)}[/] accuses "
                f"[bold]{self.name(event.wager_maker)}[/] of lying!"
            )
        if isinstance(event, Revealed):
            return self._revealed(event)
        if isinstance(event, PlayerOut):
            return Text.from_markup(
                f"  [bold red]{self.name(event.seat)} has no dice left and is out.[/]"
            )
        if isinstance(event, GameWon):
            return Text.from_markup(f"\n[bold green]★ {self.name(event.seat)} wins the game![/]")
        return None

    def _row(self, seat: int, dice: Text) -> Text:
        label = self.players[seat].ljust(self._width)
        return Text.assemble("    ", (label, "bold"), "  ", dice)

    def _rolled(self, event: DiceRolled) -> RenderableType | None:
        sides = self.rules.sides
        if event.purpose == "roll-off":
            rows: list[RenderableType] = [Text("  Roll-off: everyone rolls their dice in public.")]
            for seat, faces in zip(event.seats, event.dice, strict=True):
                total = sum(f for f in faces if f is not None)
                rows.append(self._row(seat, dice_text(faces, sides) + Text(f"  = {total}")))
            return Group(*rows)
        if event.purpose != "round":
            return None
        shown = [
            (seat, faces) for seat, faces in zip(event.seats, event.dice, strict=True)
            if all(f is not None for f in faces)
        ]
        if not shown:
            return Text("  Everyone rolls in secret.", style="italic")
        if self.reveal_all:
            rows = [Text("  Everyone rolls in secret:", style="italic")]
            rows += [self._row(seat, dice_text(faces, sides)) for seat, faces in shown]
            return Group(*rows)
        mine = [faces for seat, faces in shown if seat == self.viewer]
        if not mine:
            return Text("  Everyone rolls in secret.", style="italic")
        return Text.assemble(
            "  Everyone rolls in secret. ", ("Your dice: ", "bold"), dice_text(mine[0], sides)
        )

    def _roll_off(self, event: RollOffResult) -> Text:
        if len(event.leaders) > 1:
            who = " and ".join(self.players[s] for s in event.leaders)
            return Text(f"  Tie at {max(event.sums)} between {who}: they roll off again.")
        leader = event.leaders[0]
        return Text.from_markup(
            f"  [bold]{self.name(leader)}[/] rolls highest ({max(event.sums)}) and goes first."
        )

    def _round(self, event: RoundStarted) -> RenderableType:
        self._wager = None
        self._accuser = None
        dice = sum(event.dice_counts)
        self.console.print()
        self.console.rule(
            f"[bold]Round {event.round}[/] · {dice} dice in play · "
            f"{self.name(event.starter)} starts",
            align="left",
        )
        counts = "  ".join(
            f"{self.players[s]} {c}" for s, c in enumerate(event.dice_counts) if c > 0
        )
        lines: list[RenderableType] = [Text(f"  Dice: {counts}", style="bright_black")]
        if event.sum_wagers:
            lines.append(Text.from_markup(
                "  [yellow]Two players, one die each: wagers are now on the sum of both dice.[/]"
            ))
        return Group(*lines)

    def _revealed(self, event: Revealed) -> RenderableType:
        sides = self.rules.sides
        made = self._wager
        wager = made.wager if made is not None else None
        highlight = _matches(wager, self.rules) if wager is not None else None
        if highlight is not None:
            lit = sum(1 for hand in event.hands for f in hand if highlight(f))
            if lit != event.count:
                highlight = None
        rows: list[RenderableType] = [Text("  All dice are revealed:")]
        shown = [(seat, dice_text(hand, sides, highlight)) for seat, hand in
                 enumerate(event.hands) if hand]
        width = max(text.cell_len for _, text in shown)
        for seat, text in shown:
            if highlight is not None:
                matching = sum(1 for f in event.hands[seat] if highlight(f))
                text.append(" " * (width - text.cell_len) + f"  → {matching}", style="bold")
            rows.append(self._row(seat, text))
        rows.append(Text.from_markup("  " + self._verdict(event, wager)))
        rows.append(Text.from_markup("  " + self._losses(event, made.seat if made else None)))
        return Group(*rows)

    def _verdict(self, event: Revealed, wager: AnyWager | None) -> str:
        if wager is None:
            return f"The count is {event.count}."
        claim = wager_text(wager)
        if isinstance(wager, SumWager):
            found = f"The dice sum to {event.count}"
        else:
            found = f"There {'is' if event.count == 1 else 'are'} "
            found += "exactly " if event.outcome == "spot-on" else ""
            found += "only " if event.outcome == "false" else ""
            found += str(Wager(event.count, wager.face))
            wild = self.rules.wild_face
            if wild is not None and wild != wager.face:
                found += f" (counting wild {FACE_NAMES.get(wild, f'{wild}s')})"
        if event.outcome == "false":
            return f"{found}: [bold red]{claim} was a lie.[/]"
        if event.outcome == "spot-on":
            return f"{found}: [bold magenta]{claim} is spot-on![/]"
        return f"{found}: [bold green]{claim} holds.[/]"

    def _losses(self, event: Revealed, maker: int | None) -> str:
        def left(seat: int) -> str:
            count = event.dice_counts[seat]
            return f"{count} left" if count else "out"

        if event.outcome == "spot-on" and maker is not None:
            who = ", ".join(f"[bold]{self.name(s)}[/] ({left(s)})" for s in event.losers)
            return f"Everyone but {self.name(maker)} loses a die: {who}."
        parts = []
        for seat in event.losers:
            role = ", the accuser," if event.outcome == "true" and seat == self._accuser else ""
            parts.append(f"[bold]{self.name(seat)}[/]{role} loses a die ({left(seat)}).")
        return " ".join(parts)


def status(view: LiarsDiceView, labels: Sequence[str]) -> RenderableType:
    """The table as the viewer sees it before deciding: every player's dice count, the
    viewer's own dice, whose turn it is, and the standing wager with the lowest raises."""
    sides = view.rules.sides
    table = Table.grid(padding=(0, 2))
    table.add_column(width=1)
    table.add_column(style="bold")
    table.add_column()
    table.add_column(justify="right")
    for seat, label in enumerate(labels):
        count = view.dice_counts[seat]
        marker = "►" if seat == view.turn else ""
        if count == 0:
            table.add_row(marker, Text(label, style="strike bright_black"), "", "out")
            continue
        if seat == view.seat:
            dice = dice_text(view.own_dice, sides)
            name = Text(f"{label} (you)")
        else:
            dice, name = hidden_dice(count), Text(label)
        table.add_row(marker, name, dice, f"{count} {'die' if count == 1 else 'dice'}")
    lines: list[RenderableType] = [
        Text(f"Round {view.round} · {view.dice_in_play} dice in play", style="bold"),
        table,
    ]
    if view.sum_wagers:
        lines.append(Text("Two players, one die each: wager on the sum of both dice (sum 7).",
                          style="yellow"))
    if view.wager is None or view.wager_maker is None:
        lines.append(Text("No wager yet: any wager opens the round."))
    else:
        line = Text.from_markup(
            f"Standing wager: [bold cyan]{wager_text(view.wager)}[/] "
            f"by {escape(view.players[view.wager_maker])}."
        )
        if view.legal_wagers:
            lowest = " or ".join(wager_text(w) for w in lowest_raises(view.legal_wagers))
            line.append_text(Text.from_markup(f" To beat it: [cyan]{lowest}[/]."))
        lines.append(line)
    return Group(*lines)
