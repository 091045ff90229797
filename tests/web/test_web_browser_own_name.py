"""On a phone the player's own seat card shows their whole name (others' may be cut with
an ellipsis, their whole name in the tooltip)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from web_browser_support import browser_table, horizontal_overflow, new_page, page_errors

pytestmark = pytest.mark.browser

NAME = "Brenna Stormwhisper of Hollow"


def test_the_own_name_is_whole_on_a_phone_seat_card(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        made = httpx.post(f"{server.url}/api/tables", json={
            "game": "liars-dice", "options": {"bot_delay_ms": 5000}}, timeout=10)
        table_id, key = made.json()["table_id"], made.json()["host_token"]
        host = new_page(browser)
        host.goto(f"{server.url}/host/{table_id}#{key}")
        page = new_page(browser, 390, 844)
        page.goto(f"{server.url}/t/{table_id}")
        page.fill("#join-name", NAME)
        page.click("#join-btn")
        page.locator("#my-name").wait_for()
        for _ in range(3):
            host.select_option("#bot-kind", "random")
            host.click("#add-bot-btn")
        host.locator("#seat-list li").nth(3).wait_for()
        host.click("#start-btn")
        own = page.locator(".felt .seat-me .seat-name")
        own.wait_for()
        assert own.evaluate("(el) => el.scrollWidth <= el.clientWidth + 1")
        assert NAME in own.inner_text()
        assert horizontal_overflow(page) == 0
        assert page_errors == []
