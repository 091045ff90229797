"""A person's seat at the terminal: agents that ask a person instead of deciding.

:class:`HumanLiarsDice` and :class:`HumanBlackjack` implement the agent protocols of
:mod:`tavern_dice.bots.base`, so the runner seats them like bots. They read typed
answers through a :class:`~tavern_dice.cli.terminal.Terminal` (whose line reader
tests replace), check every answer against the seat's own view (``view.verify``, which
gives the engine's own messages from what the view shows) and, on a bad one, print the
reason and ask again. They hold no referee's game and decide nothing themselves.

Typed forms: a wager as ``3x2``, ``3 twos`` or ``sum 7``; ``accuse``, ``liar`` or
``a`` to accuse; ``?`` for help; a bet as ``1 gp``, ``2 gp 5 sp`` or ``50`` (cp);
``r``/``roll`` and ``s``/``stand`` (``s 2`` stands adding 2 for proficiency).

With ``hints=True`` each seat also shows, before every choice, the odds and values of
:mod:`tavern_dice.cli.hints`, worked out from the person's own view only.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.markup import escape

from tavern_dice.blackjack.actions import Bet, Roll, SitOut, Stand
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.bots.base import ACCUSE, LiarsDiceAction
from tavern_dice.cli import hints, render_blackjack, render_liars
from tavern_dice.cli.terminal import Terminal
from tavern_dice.errors import TavernError
from tavern_dice.liars_dice.actions import ACCUSE_WORDS, Accuse
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import parse_wager
from tavern_dice.money import format_cp, gp, parse_cp

HELP_WORDS = frozenset({"?", "h", "help"})
YES_WORDS = frozenset({"y", "yes"})
NO_WORDS = frozenset({"n", "no", ""})
ROLL_WORDS = frozenset({"r", "roll", "hit", "again", "d12"})
STAND_WORDS = frozenset({"s", "stand", "stay", "hold"})
SIT_WORDS = frozenset({"sit", "sit out", "pass", "none", "skip"})


def _problem(terminal: Terminal, message: str) -> None:
    terminal.console.print(f"  [bold red]✗[/] {escape(message)}")


class HumanSeat:
    """What a person's seat is in either game: who sits there, the terminal they answer at,
    and whether they see hints.

    Args:
        name: the person's name.
        seat: their seat number.
        game: unused (answers are checked against the view passed with each question);
            kept so that callers that pass the game still work.
        terminal: where to show the table and read answers.
        hints: show hints before each choice (what they show depends on the game).
    """

    def __init__(
        self, name: str, seat: int, game: object, terminal: Terminal, *, hints: bool = False
    ) -> None:
        self.name = name
        self.seat = seat
        self._terminal = terminal
        self.hints = hints


class HumanLiarsDice(HumanSeat):
    """A person playing one Liar's Dice seat (a :class:`~tavern_dice.bots.base.LiarsDiceAgent`).

    Args (the others as for every person's seat, see :class:`HumanSeat`):
        labels: every seat's label for the table display (names with bot kinds).
        hints: before each choice, show the standing wager's odds, what accusing it
            costs whom, and the safest legal wagers (from this seat's view only).
    """

    def __init__(
        self, name: str, seat: int, game: object, terminal: Terminal,
        labels: Sequence[str], *, hints: bool = False,
    ) -> None:
        super().__init__(name, seat, game, terminal, hints=hints)
        self._labels = tuple(labels)

    def _hint(self, view: LiarsDiceView) -> None:
        if self.hints:
            lines = hints.liars_lines(hints.liars_hint(view), view.players)
            if lines:
                self._terminal.console.print(hints.hint_block(lines))

    def _maker(self, view: LiarsDiceView) -> str:
        return "the wager-maker" if view.wager_maker is None else view.players[view.wager_maker]

    def _help(self, view: LiarsDiceView) -> None:
        console = self._terminal.console
        if view.sum_wagers:
            console.print("  Wager on the sum of both dice: type [bold]sum 7[/] (or s7).")
        else:
            console.print(
                "  Wager as QUANTITYxFACE ([bold]3x2[/]) or in words ([bold]3 twos[/]): "
                "at least that many dice on the table show that face."
            )
        if view.legal_wagers:
            legal = render_liars.legal_summary(view.legal_wagers, view.rules.sides)
            console.print(f"  Legal wagers now: [cyan]{escape(legal)}[/].")
        if view.may_accuse:
            console.print(
                f"  Or type [bold]accuse[/] (or [bold]liar[/], [bold]a[/]) to call "
                f"{escape(self._maker(view))} a liar."
            )
        console.print("  Type [bold]quit[/] to leave the game.")

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        """Ask for a wager or an accusation until the engine accepts one."""
        self._terminal.hand_to(self.name)
        console = self._terminal.console
        console.print()
        console.print(render_liars.status(view, self._labels))
        self._hint(view)
        maker = escape(self._maker(view))
        if not view.legal_wagers:
            prompt = f"[bold]No raise is possible: you must accuse {maker}.[/] Type accuse:"
        elif view.wager is None:
            example = "sum 7" if view.sum_wagers else "2x3 or 2 threes"
            prompt = f"[bold]Your opening wager[/] (e.g. {example}; ? for help):"
        else:
            prompt = f"[bold]Your wager[/], or [bold]accuse[/] {maker} (? for help):"
        while True:
            answer = self._terminal.ask(prompt)
            word = answer.lower()
            if word in HELP_WORDS:
                self._help(view)
                continue
            if word in ACCUSE_WORDS:
                try:
                    view.verify(Accuse())
                except TavernError as error:
                    _problem(self._terminal, str(error))
                    continue
                return ACCUSE
            if not word:
                _problem(self._terminal, "type a wager such as 3x2, 'accuse', or ? for help")
                continue
            try:
                wager = parse_wager(answer)
                view.verify(wager)
            except TavernError as error:
                _problem(self._terminal, str(error))
                continue
            return wager

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        """After another player's wager: ask whether to accuse them now."""
        console = self._terminal.console
        if self._terminal.hand_to(self.name):
            console.print(render_liars.status(view, self._labels))
        self._hint(view)
        maker = escape(self._maker(view))
        dice = render_liars.dice_text(view.own_dice, view.rules.sides).markup
        prompt = (
            f"  [bold]Your dice:[/] {dice} ({view.dice_in_play} in play). "
            f"[bold]Accuse {maker} of lying?[/] \\[y/N]"
        )
        while True:
            word = self._terminal.ask(prompt).lower()
            if word in HELP_WORDS:
                console.print(render_liars.status(view, self._labels))
                console.print(
                    "  Answer [bold]y[/] to accuse now, [bold]n[/] (or Enter) to let it stand."
                )
                continue
            if word in NO_WORDS:
                return False
            if word in YES_WORDS or word in ACCUSE_WORDS:
                try:
                    view.verify(Accuse())
                except TavernError as error:
                    _problem(self._terminal, str(error))
                    return False
                return True
            _problem(self._terminal, f"answer y or n, not {word!r}")


class HumanBlackjack(HumanSeat):
    """A person playing one Dice Blackjack seat (a
    :class:`~tavern_dice.bots.base.BlackjackAgent`).

    Args (the others as for every person's seat, see :class:`HumanSeat`):
        hints: before betting, show the round's expected payout under best play; before
            each move, the bust chance and the expected payout of standing and of rolling.
    """

    _last_bet: int | None = None
    """The last bet made: the default of the next."""

    def choose_bet(self, view: BlackjackView) -> Bet | SitOut:
        """Ask for a bet in gold (or to sit out) until the engine accepts one."""
        assert view.bet_limits is not None
        low, high = view.bet_limits
        default = min(max(self._last_bet or gp(1), low), high)
        balance = view.balances[self.seat]
        if self.hints:
            self._terminal.console.print(
                hints.hint_block(hints.blackjack_bet_lines(hints.blackjack_bet_hint(view)))
            )
        prompt = (
            f"  [bold]{escape(self.name)}[/], you have [yellow]{format_cp(balance)}[/]. "
            f"[bold]Your bet[/] ({format_cp(low)} to {format_cp(high)}; "
            f"Enter for {format_cp(default)}, 'sit' to sit out):"
        )
        while True:
            answer = self._terminal.ask(prompt)
            word = answer.lower()
            if word in HELP_WORDS:
                self._terminal.console.print(
                    "  Type an amount such as [bold]1 gp[/], [bold]2 gp 5 sp[/] or [bold]50[/] "
                    "(copper pieces); 1 gp = 10 sp = 100 cp."
                )
                continue
            if word in SIT_WORDS:
                return SitOut()
            try:
                bet = Bet(default if not word else parse_cp(answer))
                view.verify(bet)
            except TavernError as error:
                _problem(self._terminal, str(error))
                continue
            self._last_bet = bet.amount
            return bet

    def choose_move(self, view: BlackjackView) -> Roll | Stand:
        """Ask whether to roll another d12 or stand (and with how much bonus)."""
        self._terminal.console.print(render_blackjack.status(view))
        if self.hints:
            self._terminal.console.print(
                hints.hint_block(hints.blackjack_move_lines(hints.blackjack_move_hint(view)))
            )
        prompt = "  [bold]r[/]oll another d12 or [bold]s[/]tand?"
        while True:
            words = self._terminal.ask(prompt).lower().split()
            word = words[0] if words else ""
            if word in HELP_WORDS:
                self._terminal.console.print(
                    "  [bold]r[/] rolls another d12 and adds it (over the target is a bust); "
                    "[bold]s[/] stands; [bold]s 2[/] stands adding 2 for proficiency."
                )
                continue
            try:
                if word in ROLL_WORDS and len(words) == 1:
                    view.verify(Roll())
                    return Roll()
                if word in STAND_WORDS and len(words) <= 2:
                    stand = Stand(int(words[1]) if len(words) == 2 else self._ask_bonus(view))
                    view.verify(stand)
                    return stand
            except ValueError as error:
                # TavernError is a ValueError; int() of a non-number is the other one.
                message = str(error) if isinstance(error, TavernError) else "a bonus is a number"
                _problem(self._terminal, message)
                continue
            _problem(self._terminal, "type r to roll another d12 or s to stand (? for help)")

    def _ask_bonus(self, view: BlackjackView) -> int:
        legal = view.legal_bonuses
        top = max(legal, default=0)
        if top == 0:
            return 0
        prompt = f"  Add how much of your proficiency bonus (0-{top})? \\[{top}]"
        while True:
            answer = self._terminal.ask(prompt)
            if not answer:
                return top
            if answer.isdigit() and view.can(Stand(int(answer))):
                return int(answer)
            try:
                view.verify(Stand(int(answer)))
            except ValueError as error:
                message = str(error) if isinstance(error, TavernError) else "type a number"
                _problem(self._terminal, message)


def ask_play_on(terminal: Terminal) -> bool:
    """Ask whether to play another round of Dice Blackjack (Enter means yes)."""
    while True:
        word = terminal.ask("[bold]Play another round?[/] \\[Y/n]").lower()
        if word in ("", "y", "yes"):
            return True
        if word in ("n", "no", "q", "quit"):
            return False
        _problem(terminal, f"answer y or n, not {word!r}")
