"""Browser test: a bot that takes its time is shown thinking on its seat card, on a
desktop page and a phone page, and the mark goes when its move lands. The mark is
accessible (the card is aria-busy; axe-core finds no violation with it shown) and keeps
still for a reader who asked for less motion."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_browser_support import (
    axe_violations,
    browser_table,
    new_page,
    page_errors,
    require_axe,
    screenshot,
)
from websockets.sync.client import connect

from tavern_dice.bots.liars_random import RandomLiarsDiceBot
from tavern_dice.bots.registry import LIARS_DICE_BOTS

pytestmark = pytest.mark.browser

MARK = ".seat.seat-thinking[aria-busy='true'] .thinking-mark"


class HeldBot(RandomLiarsDiceBot):
    """A random bot whose first decision waits until the test lets it go (so that the
    page can be looked at while it thinks)."""

    release = threading.Event()

    def __init__(self, name: str = "held", seed: int | None = None) -> None:
        super().__init__(name, seed, out_of_turn_probability=0.0)
        self.first = True

    def choose_action(self, view: Any) -> Any:
        if self.first:
            self.first = False
            HeldBot.release.wait(60)
        return super().choose_action(view)


def test_a_thinking_bot_is_marked_on_its_seat(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    axe = require_axe()
    HeldBot.release.clear()
    monkeypatch.setitem(LIARS_DICE_BOTS, "held", HeldBot)
    with browser_table(tmp_path) as (server, browser):
        made = httpx.post(f"{server.url}/api/tables", json={
            "game": "liars-dice", "rules": {"dice_per_player": 2},
            "options": {"bot_delay_ms": 0}}).json()
        table_id = made["table_id"]
        desk = new_page(browser, 1280, 800)
        phone = new_page(browser, 390, 844)
        phone.emulate_media(reduced_motion="reduce")
        pages = (desk, phone)
        with connect(f"ws://127.0.0.1:{server.port}/ws/{table_id}") as host:
            host.send(json.dumps({"type": "hello", "token": made["host_token"]}))
            for n, kind in enumerate(("held", "random")):
                host.send(json.dumps({"type": "add_bot", "kind": kind, "id": f"b{n}"}))
            for page in pages:
                page.goto(f"{server.url}/t/{table_id}")
                page.locator(".lobby-seat").nth(1).wait_for()
            host.send(json.dumps({"type": "start", "id": "go"}))
            try:
                for page in pages:
                    page.locator(MARK).wait_for()
                    assert page.locator(MARK).count() == 1
                    card = page.locator(".seat.seat-thinking")
                    assert card.locator(".seat-name").inner_text() == "Held Bot"
                    assert page.locator(MARK).inner_text() == "thinking…"
                    assert page.locator(".seat[aria-busy]").count() == 1
                dots = "el => getComputedStyle(el).animationName"
                assert desk.locator(".thinking-dots span").first.evaluate(dots) \
                    == "thinking-pulse"
                assert phone.locator(".thinking-dots span").first.evaluate(dots) == "none"
                problems = axe_violations(desk, axe, "bot thinking (desktop)")
                problems += axe_violations(phone, axe, "bot thinking (phone)")
                assert not problems, "\n".join(problems)
                screenshot(desk, "liars-bot-thinking.png", tmp_path)
                screenshot(phone, "liars-bot-thinking-phone.png", tmp_path)
            finally:
                HeldBot.release.set()
            # The move lands: the mark goes with its state frame.
            for page in pages:
                page.locator(".thinking-mark").wait_for(state="detached")
                assert page.locator(".seat[aria-busy]").count() == 0
    assert not page_errors, page_errors
