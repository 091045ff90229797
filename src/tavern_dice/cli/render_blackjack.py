"""Showing Dice Blackjack in a terminal: target, house roll, each bet's fate, balances.

Events come from the engine's log; the narrator keeps only what it needs to word
them (the last d12 rolled, each player's running total, the round's settlements).
Amounts are integer cp shown with :func:`tavern_dice.money.format_cp`.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from tavern_dice.blackjack.events import (
    BetPlaced,
    HouseRolled,
    RoundClosed,
    RoundOpened,
    SatOut,
    Settled,
    Stood,
    TargetSet,
    TotalChanged,
)
from tavern_dice.blackjack.rules import TAVERN, BlackjackRules
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.cli.narrator import Narrator
from tavern_dice.events import DiceRolled, Event
from tavern_dice.money import format_cp

OUTCOMES = {
    "collected": ("target 1: the house collects", "red"),
    "bust": ("bust", "red"),
    "exact": ("on the target: 1.5×", "bold green"),
    "house-bust": ("the house busts", "green"),
    "win": ("closer than the house", "green"),
    "lose": ("not closer than the house", "red"),
}
"""How each settlement outcome of the engine is worded, and its colour."""


def signed_cp(cp: int) -> str:
    """A gain or loss in cp, signed: ``'+1 gp 5 sp'``, ``'-5 cp'``, ``'0 cp'``.

    >>> signed_cp(150), signed_cp(-5), signed_cp(0)
    ('+1 gp 5 sp', '-5 cp', '0 cp')
    """
    return f"+{format_cp(cp)}" if cp > 0 else format_cp(cp)


def rules_summary(rules: BlackjackRules) -> str:
    """The ruleset in a line: ``'tavern rules'`` or the options that differ from them."""
    base = TAVERN.to_dict()
    changed = []
    for key, value in rules.to_dict().items():
        if base[key] == value:
            continue
        shown = format_cp(value) if key.endswith("_cp") and isinstance(value, int) else value
        changed.append(f"{key.replace('_', ' ')} {shown}")
    return "tavern rules" + (" with " + ", ".join(changed) if changed else "")


class BlackjackNarrator(Narrator):
    """Prints a session's events as they happen (the runner's observer) or in a replay.

    Args:
        console: where to print.
        players: names by seat.
        viewer: the seat shown as "you" in a replay (nothing in this game is secret).
    """

    def __init__(
        self, console: Console, players: Sequence[str], *, viewer: int | None = None
    ) -> None:
        super().__init__(console, players, viewer=viewer)
        self._d12: int | None = None
        self._totals: dict[int, int] = {}
        self._settled: list[Settled] = []
        self._target: int | None = None

    def render(self, event: Event) -> RenderableType | None:
        """The renderable for one event, or ``None`` to show nothing."""
        if isinstance(event, RoundOpened):
            return self._opened(event)
        if isinstance(event, BetPlaced):
            return Text.from_markup(
                f"  [bold]{self.name(event.seat)}[/] bets [yellow]{format_cp(event.amount)}[/]."
            )
        if isinstance(event, SatOut):
            return Text.from_markup(f"  {self.name(event.seat)} sits this round out.")
        if isinstance(event, DiceRolled):
            if event.purpose == "d12":
                self._d12 = event.dice[0][0]
            return None
        if isinstance(event, TargetSet):
            self._target = event.target
            line = f"  The house rolls the large d20: target number [bold yellow]{event.target}[/]."
            if event.target == 1:
                line += " [bold red]A 1: the house collects every bet![/]"
            return Text.from_markup(line)
        if isinstance(event, HouseRolled):
            dice = " and ".join(str(d) for d in event.dice)
            if event.house_roll is None:
                return Text.from_markup(
                    f"  The house rolls {dice}: none within the target, "
                    "[bold green]the house busts[/]."
                )
            return Text.from_markup(
                f"  The house rolls {dice}: house roll [bold yellow]{event.house_roll}[/]."
            )
        if isinstance(event, TotalChanged):
            return self._total(event)
        if isinstance(event, Stood):
            total = self._totals.get(event.seat, 0)
            extra = f" + {event.bonus} proficiency = {total + event.bonus}" if event.bonus else ""
            return Text.from_markup(
                f"  [bold]{self.name(event.seat)}[/] stands on {total}{extra}."
            )
        if isinstance(event, Settled):
            self._settled.append(event)
            return None
        if isinstance(event, RoundClosed):
            return self._closed(event)
        return None

    def _opened(self, event: RoundOpened) -> RenderableType:
        self._settled = []
        self._totals = {}
        self._target = None
        self.console.print()
        self.console.rule(f"[bold]Round {event.round}[/]", align="left")
        gold = "   ".join(
            f"{self.players[s]} {format_cp(b)}" for s, b in enumerate(event.balances)
        )
        return Text(f"  Gold: {gold}", style="bright_black")

    def _total(self, event: TotalChanged) -> Text:
        self._totals[event.seat] = event.total
        face = self._d12
        rolled = f"rolls a d12: {face}" if face is not None else "rolls"
        line = f"  [bold]{self.name(event.seat)}[/] {rolled} → total [bold]{event.total}[/]"
        if event.bust:
            target = f" (over {self._target})" if self._target is not None else ""
            line += f" [bold red]bust{target}![/]"
        return Text.from_markup(line)

    def _closed(self, event: RoundClosed) -> RenderableType:
        if not self._settled:
            return Text("  Nobody bet this round.")
        table = settlement_table(self._settled, self.players)
        return Group(
            Padding(table, (0, 0, 0, 2), expand=False),
            Text(f"  House net this session: {signed_cp(event.house_net)}", style="bright_black"),
        )


def settlement_table(settled: Sequence[Settled], players: Sequence[str]) -> Table:
    """One row per settled bet: bet, final total, outcome, gain or loss, balance."""
    table = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False)
    table.add_column("Player", style="bold")
    table.add_column("Bet", justify="right")
    table.add_column("Final", justify="right")
    table.add_column("Outcome")
    table.add_column("Won/lost", justify="right")
    table.add_column("Balance", justify="right")
    for s in settled:
        words, style = OUTCOMES.get(s.outcome, (s.outcome, ""))
        final = "bust" if s.outcome == "bust" else "-" if s.final is None else str(s.final)
        table.add_row(
            Text(players[s.seat]), format_cp(s.bet), final, Text(words, style=style),
            Text(signed_cp(s.delta), style="green" if s.delta > 0 else "red"),
            format_cp(s.balance),
        )
    return table


def balances_line(players: Sequence[str], start: Sequence[int], now: Sequence[int]) -> str:
    """``'Balances: Ann 11 gp (+1 gp), Bo 9 gp (-1 gp)'``."""
    parts = [
        f"{name} {format_cp(b)} ({signed_cp(b - s)})"
        for name, s, b in zip(players, start, now, strict=True)
    ]
    return "Balances: " + ", ".join(parts)


def status(view: BlackjackView) -> Text:
    """The acting player's situation: target, house roll, own total and bonus room."""
    assert view.seat is not None
    total = view.totals.get(view.seat, 0)
    house = "busts" if view.house_bust else str(view.house_roll)
    line = Text.from_markup(
        f"  Target [bold yellow]{view.target}[/] · house roll [bold yellow]{house}[/] · "
        f"your total [bold]{total}[/]"
    )
    top = max(view.legal_bonuses, default=0)
    if top:
        line.append(f" (on standing you may add up to +{top} proficiency)")
    return line
