"""A bot that thinks for more than 0.3 s says so at the terminal; a quick one shows
nothing."""

from __future__ import annotations

import io
import time

from rich.console import Console

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction
from tavern_dice.cli.thinking import ThinkingSeat
from tavern_dice.liars_dice.view import LiarsDiceView


class Slow:
    name = "Bo"

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        time.sleep(self.seconds)
        return ACCUSE

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        time.sleep(self.seconds)
        return True


def seat(seconds: float) -> tuple[ThinkingSeat, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=80)
    return ThinkingSeat(Slow(seconds), console, show_after=0.1), out


def test_a_slow_decision_shows_the_status_line_until_it_answers() -> None:
    thinking, out = seat(0.4)
    view: LiarsDiceView = None  # type: ignore[assignment]  # the bot never reads it
    assert thinking.choose_action(view) == ACCUSE
    assert thinking.wants_to_accuse(view) is True
    assert thinking.shown == 2
    assert "Bo is thinking" in out.getvalue()


def test_a_quick_decision_shows_nothing() -> None:
    thinking, out = seat(0.0)
    view: LiarsDiceView = None  # type: ignore[assignment]
    assert thinking.choose_action(view) == ACCUSE
    time.sleep(0.2)  # past the delay: the cancelled timer must not show it late
    assert thinking.shown == 0 and "thinking" not in out.getvalue()
    assert thinking.name == "Bo" and thinking.seconds == 0.0  # the bot's own attributes
