"""Browser test: the DM creates a Dice Blackjack table through the house-edge panel: a
target of 2 % for a table whose players add +0 or +1, the candidates listed with their
exact edges, the closest one put into the rules, and the table created with them.

Drives Debian's Chromium through Playwright against the real app (Uvicorn, SQLite).
"""

from __future__ import annotations

import json
import urllib.request
from fractions import Fraction
from pathlib import Path

import pytest
from web_browser_support import browser_table, new_page, page_errors, screenshot

from tavern_dice.strategy.blackjack.dial import dial

pytestmark = pytest.mark.browser


def test_dm_creates_a_blackjack_table_from_the_house_edge_panel(tmp_path: Path) -> None:
    expected = dial(Fraction(2, 100), bonuses=(0, 1)).chosen
    with browser_table(tmp_path) as (server, browser):
        host = new_page(browser)
        host.goto(server.url + "/")
        host.click("label.game-card:has-text('Dice Blackjack')")
        panel = host.locator("#edge-panel")
        panel.wait_for()
        host.fill("#edge-target", "2")
        host.uncheck("#edge-bonus-2")
        host.uncheck("#edge-bonus-3")
        host.click("#edge-find")
        summary = host.locator("#edge-summary")
        summary.wait_for(timeout=60_000)  # a cold solve of every candidate takes seconds
        text = summary.inner_text()
        assert f"exact hit pays {expected.rules.payout_text()}" in text
        assert summary.get_attribute("data-exact") == str(expected.table_edge)
        # Every candidate is listed, the chosen one marked, its exact edge in the cell title.
        rows = host.locator("#edge-table tbody tr")
        assert rows.count() == 16 * 2  # payouts x ties x under, times caps none and +0
        chosen = host.locator("#edge-chosen")
        assert chosen.count() == 1
        assert chosen.locator("td").last.get_attribute("title") == str(expected.table_edge)
        # The chosen options are now the form's rules.
        rules = expected.rules
        assert host.input_value("#rule-exact_numerator") == str(rules.exact_numerator)
        assert host.input_value("#rule-exact_denominator") == str(rules.exact_denominator)
        cap = "" if rules.max_added_bonus is None else str(rules.max_added_bonus)
        assert host.input_value("#rule-max_added_bonus") == cap
        assert host.is_checked("#rule-house_needs_under") == rules.house_needs_under
        screenshot(host, "blackjack-house-edge.png", tmp_path)

        host.click("#create-btn")
        host.wait_for_selector("#dm-bar")
        table_id = host.url.rsplit("/", 1)[1]
        with urllib.request.urlopen(f"{server.url}/api/tables/{table_id}") as response:
            table = json.load(response)
        assert table["game"] == "blackjack"
        assert table["rules"] == rules.to_dict()
        assert page_errors == []
