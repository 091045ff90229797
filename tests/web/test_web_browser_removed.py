"""A player the DM removes sees why and the join form again, not "You are seated"."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from web_browser_support import browser_table, new_page, page_errors

pytestmark = pytest.mark.browser


def test_a_removed_player_is_told_and_offered_the_join_form(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        made = httpx.post(f"{server.url}/api/tables", json={"game": "liars-dice"}, timeout=10)
        table_id, key = made.json()["table_id"], made.json()["host_token"]
        host = new_page(browser)
        host.goto(f"{server.url}/host/{table_id}#{key}")
        player = new_page(browser, 390, 844)
        player.goto(f"{server.url}/t/{table_id}")
        player.fill("#join-name", "Brenna")
        player.click("#join-btn")
        player.wait_for_selector("#my-name")
        host.click("[aria-label='remove Brenna']")
        player.wait_for_selector("#join-form")
        assert player.locator("#my-name").count() == 0
        assert "took you off this table's seat list" in player.inner_text("#toasts")
        stored = player.evaluate(
            "() => Object.keys(localStorage).filter((k) => k.includes('seat'))")
        assert stored == []
        assert page_errors == []
