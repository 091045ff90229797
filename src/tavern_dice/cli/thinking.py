"""A bot seat that shows it is thinking: past :data:`SHOW_AFTER` seconds on one decision, a
Rich status line ("Bo is thinking...") until it answers, so a person never stares at a
still screen. Quick answers show nothing, so the table does not flicker."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from rich.console import Console
from rich.markup import escape

from tavern_dice.bots.base import LiarsDiceAction, LiarsDiceAgent
from tavern_dice.liars_dice.view import LiarsDiceView

SHOW_AFTER = 0.3
"""Seconds a decision may take before the status line appears."""

T = TypeVar("T")


class ThinkingSeat:
    """``agent``'s decisions, with a status line on ``console`` while a slow one runs; every
    other attribute is the agent's own."""

    def __init__(self, agent: LiarsDiceAgent, console: Console,
                 show_after: float = SHOW_AFTER) -> None:
        self.agent = agent
        self.name = str(getattr(agent, "name", "The bot"))
        self.console = console
        self.show_after = show_after
        self.shown = 0  # decisions that showed the status line (for tests)

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        return self._timed(lambda: self.agent.choose_action(view))

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        return self._timed(lambda: self.agent.wants_to_accuse(view))

    def __getattr__(self, attribute: str) -> Any:
        return getattr(self.agent, attribute)

    def _timed(self, decide: Callable[[], T]) -> T:
        status = self.console.status(f"{escape(self.name)} is thinking...", spinner="dots")
        lock = threading.Lock()
        state = {"done": False, "started": False}

        def show() -> None:
            with lock:
                if not state["done"]:
                    status.start()
                    state["started"] = True
                    self.shown += 1

        timer = threading.Timer(self.show_after, show)
        timer.daemon = True
        timer.start()
        try:
            return decide()
        finally:
            timer.cancel()
            with lock:
                state["done"] = True
                if state["started"]:
                    status.stop()
