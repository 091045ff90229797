"""The terminal a person plays at: a Rich console for output and a line reader for input.

The reader is injectable so that tests can drive a person's seat with scripted
answers; by default it is the built-in :func:`input` (which raises
:class:`EOFError` at the end of input and :class:`KeyboardInterrupt` on Ctrl-C:
both are left to the command, which says goodbye and saves).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape

from tavern_dice.events import Event

QUIT_WORDS = frozenset({"quit", "exit"})
"""Typed at any prompt, these leave the game (saving it if ``--save`` was given)."""

class QuitGame(EOFError):
    """The person typed ``quit`` (or ``exit``): leave the game as at the end of input,
    but say goodbye as to someone who chose to go."""


ReadLine = Callable[[], str]
"""Reads one line typed by a person, without its newline."""


def make_console() -> Console:
    """The console every command prints to: no automatic highlighting of numbers
    (the colours mean something here), no emoji codes, soft wrapping off."""
    return Console(highlight=False, emoji=False)


class Terminal:
    """Output and input for the people at one terminal.

    Args:
        console: where to print (default :func:`make_console`).
        read_line: reads one typed line (default: :func:`input`).
        echo: print each answer after reading it, so that a transcript of a scripted
            session (tests) reads like the screen of a real one.
    """

    def __init__(
        self, console: Console | None = None, read_line: ReadLine | None = None,
        *, echo: bool = False,
    ) -> None:
        self.console = console if console is not None else make_console()
        self._read_line: ReadLine = read_line if read_line is not None else _input
        self._echo = echo
        self._holder: str | None = None
        self.people = 1
        """How many people share this terminal; above 1, secret information is only shown
        after :meth:`hand_to` has asked the others to look away."""

    def ask(self, prompt: str) -> str:
        """Print ``prompt`` (Rich markup) and return the stripped line typed.

        Raises:
            EOFError: at the end of input.
            QuitGame: the person typed ``quit`` or ``exit`` (an ``EOFError`` too: the
                command says goodbye and saves, as for Ctrl-D).
        """
        self.console.print(prompt, end=" ")
        line = self._read_line()
        if self._echo:
            self.console.print(line, markup=False)
        if line.strip().lower() in QUIT_WORDS:
            raise QuitGame(line)
        return line.strip()

    def hand_to(self, name: str) -> bool:
        """In hot seat (several people at one terminal), clear the screen and wait until
        only ``name`` is looking before their secret dice are shown. Return whether the
        screen was cleared; nothing happens when one person plays, or when ``name``
        already has the terminal."""
        if self.people <= 1 or self._holder == name:
            return False
        self.console.clear()
        who = escape(name)
        self.ask(f"[bold]Pass the terminal to {who}[/] — press Enter when only {who} can see.")
        self._holder = name
        return True


def _input() -> str:
    return input()


class LogFollower:
    """An observer that passes each event of ``log`` to ``narrate`` once, in order.

    ``play_blackjack_round`` reports the whole log from its start on every call, so
    events already shown come again; they are recognised by identity with the log's
    entries (events are frozen and two equal events may both be in a log) and skipped.
    """

    def __init__(self, log: Sequence[Event], narrate: Callable[[Event], object]) -> None:
        self._log = log
        self._narrate = narrate
        self._seen = 0

    def __call__(self, event: Event) -> None:
        if self._seen < len(self._log) and self._log[self._seen] is event:
            self._seen += 1
            self._narrate(event)

    def catch_up(self) -> None:
        """Narrate every event of the log not shown yet (before asking for typed dice, the
        engine may have logged a reveal that the runner has not reported yet)."""
        while self._seen < len(self._log):
            self._seen += 1
            self._narrate(self._log[self._seen - 1])
