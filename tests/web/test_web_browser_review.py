"""Browser test: after a web game of Liar's Dice (a person against a bot) the player opens
the review of their own seat from the game-over banner, and the DM the review of every
seat; the page states the thresholds and marks each decision.

Drives Debian's Chromium through Playwright against the real app (Uvicorn, SQLite).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from web_browser_support import (
    AXE_JS,
    axe_violations,
    browser_table,
    new_page,
    page_errors,
    screenshot,
)

pytestmark = pytest.mark.browser


def data(page: Any, key: str) -> str:
    value: str = page.evaluate(f"() => document.getElementById('app').dataset.{key}")
    return value


def test_a_player_and_the_dm_open_the_review_of_a_finished_game(tmp_path: Path) -> None:
    problems: list[str] = []
    with browser_table(tmp_path) as (server, browser):
        host = new_page(browser)
        host.goto(server.url + "/")
        host.fill("#table-name", "The Coach's Corner")
        host.fill("#rule-dice_per_player", "2")
        host.fill("#opt-bot_delay_ms", "0")
        host.click("#create-btn")
        host.wait_for_selector("#dm-bar")
        host.select_option("#bot-kind", "random")
        host.click("#add-bot-btn")
        host.locator("#seat-list li", has_text="Random Bot").wait_for()

        ann = new_page(browser)
        ann.goto(host.url.replace("/host/", "/t/"))
        ann.fill("#join-name", "Ann")
        ann.click("#join-btn")
        ann.locator("#my-name", has_text="Ann").wait_for()
        host.locator("#seat-list li").nth(1).wait_for()
        host.click("#start-btn")

        # Ann calls every standing wager and opens with the lowest: each round costs a die.
        for _ in range(12):
            ann.wait_for_function(
                "() => { const d = document.getElementById('app').dataset;"
                " return d.phase === 'over' || (d.phase === 'bidding' && d.turn === d.mySeat); }")
            if data(ann, "phase") == "over":
                break
            seen = data(ann, "events")
            ann.click("#liar-btn" if ann.locator("#liar-btn").count() else "#wager-btn")
            ann.wait_for_function("([n]) => document.getElementById('app').dataset.events !== n",
                                  arg=[seen])
        ann.locator("#game-over").wait_for()
        seat = data(ann, "mySeat")

        # The player's review: their own seat only.
        link = ann.locator("#review-link")
        assert link.inner_text() == "Review your game"
        ann.evaluate("() => window.scrollTo(0, 0)")
        screenshot(ann, "review-link.png", tmp_path)
        link.click()
        ann.wait_for_selector("#app[data-ready='1']")
        assert data(ann, "seats") == seat
        assert ann.locator(".review-seat").count() == 1
        thresholds = ann.inner_text("#review-thresholds")
        assert "inaccuracy ?! from 0.10, mistake ? from 0.30, blunder ?? from 0.60 dice" in \
            thresholds
        cards = ann.locator(".decision")
        assert cards.count() >= 1
        assert "You: " in cards.first.inner_text()
        # Her own dice are shown at each decision, drawn as dice.
        assert ann.locator(".decision .dice-row").count() == cards.count()
        if AXE_JS.exists():
            problems += axe_violations(ann, AXE_JS.read_text(encoding="utf-8"), "review page")
        screenshot(ann, "review-player.png", tmp_path)

        # The DM's review: every seat.
        host.locator("#review-link", has_text="Review every seat").click()
        host.wait_for_selector("#app[data-ready='1']")
        assert data(host, "seats") == "0,1"
        assert host.locator(".review-seat").count() == 2
        assert host.locator(".review-seat-nav a").count() == 2

        # Without a seat in this browser the page says why, and shows nothing.
        stranger = new_page(browser, 390, 844)
        stranger.goto(ann.url)
        stranger.locator("#review-error", has_text="no seat at this table").wait_for()
        assert stranger.locator(".review-seat").count() == 0
        assert problems == []
        assert page_errors == []
