"""A screen reader hears an opponent's raise out of its listener's turn (anyone may call
"Liar!" then), and on its own turn hears the turn once, not the wager twice."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from web_browser_support import browser_table, new_page, page_errors

pytestmark = pytest.mark.browser

RECORD = """() => {
    window.said = [];
    const seen = () => {
        const region = document.getElementById("announcer");
        if (region && region.textContent && window.said.at(-1) !== region.textContent) {
            window.said.push(region.textContent);
        }
    };
    new MutationObserver(seen).observe(document.body,
        {subtree: true, childList: true, characterData: true});
}"""


def test_an_opponents_raise_is_said_aloud(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        made = httpx.post(f"{server.url}/api/tables", json={
            "game": "liars-dice", "rules": {"dice_per_player": 2},
            "options": {"bot_delay_ms": 300}}, timeout=10)
        table_id, key = made.json()["table_id"], made.json()["host_token"]
        host = new_page(browser)
        host.goto(f"{server.url}/host/{table_id}#{key}")
        ann = new_page(browser, 390, 844)
        ann.goto(f"{server.url}/t/{table_id}")
        ann.fill("#join-name", "Ann")
        ann.click("#join-btn")
        ann.locator("#my-name", has_text="Ann").wait_for()
        for _ in range(2):
            host.select_option("#bot-kind", "random")
            host.click("#add-bot-btn")
        host.locator("#seat-list li").nth(2).wait_for()
        ann.evaluate(RECORD)
        host.click("#start-btn")
        # Play on: Ann raises by the lowest wager on her turns, until a bot has wagered
        # at a moment that was not her turn.
        for _ in range(60):
            said = ann.evaluate("() => window.said")
            if any(" Bot" in text and " wagers " in text for text in said):
                break
            if ann.locator("#wager-btn").count() and ann.locator("#wager-btn").is_enabled():
                ann.click("#wager-btn")
            ann.wait_for_timeout(300)
        said = ann.evaluate("() => window.said")
        assert any(" Bot" in text and " wagers " in text for text in said), said
        assert not [t for t in said if "Your turn" in t and " wagers " in t], said
        assert page_errors == []
