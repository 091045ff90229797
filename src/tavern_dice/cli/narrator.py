"""What the terminal narrators share: the runner's observer protocol and seat names.

A narrator is called with each event of a game's log, as the game runs or in a
replay, and prints it. Each game's narrator (``render_liars``, ``render_blackjack``)
words the events in :meth:`Narrator.render`; this base prints what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, RenderableType
from rich.markup import escape

from tavern_dice.events import Event


class Narrator:
    """Prints a game's events as they happen (the runner's observer) or in a replay.

    Args:
        console: where to print.
        players: names by seat.
        viewer: the seat shown as "you" (``None``: nobody's).
    """

    def __init__(
        self, console: Console, players: Sequence[str], *, viewer: int | None = None
    ) -> None:
        self.console = console
        self.players = tuple(players)
        self.viewer = viewer

    def __call__(self, event: Event) -> None:
        self.show(event)

    def name(self, seat: int) -> str:
        """The seat's name, escaped for Rich markup."""
        return escape(self.players[seat])

    def seen(self, event: Event) -> Event:
        """``event`` as it may be shown; a game with secrets masks it here."""
        return event

    def show(self, event: Event) -> bool:
        """Print ``event`` as :meth:`seen` lets it be shown; return whether anything was
        printed."""
        out = self.render(self.seen(event))
        if out is None:
            return False
        self.console.print(out)
        return True

    def render(self, event: Event) -> RenderableType | None:
        """The renderable for one (already :meth:`seen`) event, or ``None`` to show nothing."""
        raise NotImplementedError
