"""Physical dice in the browser, a phone that slept while the round was rolled: back, the
player's page says the server rolled for her (not "Your dice"), her seat and the log say
so for everyone, and the page has no accessibility violations."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from web_browser_support import axe_violations, browser_table, new_page, page_errors, require_axe

pytestmark = pytest.mark.browser


def test_a_covered_seat_is_marked_as_the_servers_roll(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        made = httpx.post(f"{server.url}/api/tables", json={
            "game": "liars-dice", "rules": {"dice_per_player": 2},
            "options": {"dice_mode": "manual", "grace_s": 0, "bot_delay_ms": 0}}, timeout=10)
        table_id, key = made.json()["table_id"], made.json()["host_token"]
        host = new_page(browser)
        host.goto(f"{server.url}/host/{table_id}#{key}")
        pages = {}
        for name in ("Ann", "Bob", "Cid"):
            page = new_page(browser, 390, 844)
            page.goto(f"{server.url}/t/{table_id}")
            page.fill("#join-name", name)
            page.click("#join-btn")
            page.locator("#my-name", has_text=name).wait_for()
            pages[name] = page
        host.locator("#seat-list li").nth(2).wait_for()
        host.click("#start-btn")
        pages["Cid"].locator("#dice-form").wait_for()
        # The DM rolls no cup: the headline is for the players, not "Roll your dice".
        host.locator(".centre-big", has_text="The players roll their dice in their cups").wait_for()
        assert pages["Cid"].inner_text(".centre-big") == "Roll your dice in your cup"
        pages["Cid"].goto("about:blank")  # the phone sleeps: covered at once (grace 0 s)
        for name, faces in (("Ann", (3, 4)), ("Bob", (6, 1))):
            page = pages[name]
            page.locator("#dice-form").wait_for()
            for k, face in enumerate(faces):
                page.fill(f"#dice-input-{k}", str(face))
            page.click("#dice-btn")
        ann = pages["Ann"]
        ann.locator(".seat[data-seat='2'] [data-rolled='server']").wait_for()
        ann.locator("#log", has_text="the server rolled for Cid, who was away").wait_for()

        cid = pages["Cid"]
        cid.goto(f"{server.url}/t/{table_id}")
        cid.locator("#server-rolled").wait_for()
        text = cid.inner_text("#server-rolled")
        assert "The server rolled for you while you were away" in text
        assert "Your dice" not in text
        cid.locator("#log", has_text="the server rolled for you while you were away").wait_for()
        assert axe_violations(cid, require_axe(), "physical dice, the server rolled for you") == []
        assert page_errors == []


def test_the_dm_rolls_for_a_player_who_never_types(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        made = httpx.post(f"{server.url}/api/tables", json={
            "game": "liars-dice", "rules": {"dice_per_player": 2},
            "options": {"dice_mode": "manual", "bot_delay_ms": 0}}, timeout=10)
        table_id, key = made.json()["table_id"], made.json()["host_token"]
        host = new_page(browser)
        host.goto(f"{server.url}/host/{table_id}#{key}")
        pages = {}
        for name in ("Ann", "Bob"):
            page = new_page(browser, 390, 844)
            page.goto(f"{server.url}/t/{table_id}")
            page.fill("#join-name", name)
            page.click("#join-btn")
            page.locator("#my-name", has_text=name).wait_for()
            pages[name] = page
        host.locator("#seat-list li").nth(1).wait_for()
        host.click("#start-btn")
        ann = pages["Ann"]
        ann.locator("#dice-form").wait_for()
        ann.fill("#dice-input-0", "3")
        ann.fill("#dice-input-1", "4")
        ann.click("#dice-btn")
        # Once Ann's hand is in, only Bob is still to type.
        host.wait_for_function(
            "() => document.querySelectorAll('#roll-for button').length === 1")
        button = host.locator("#roll-for button", has_text="Roll for Bob")
        button.wait_for()
        assert axe_violations(host, require_axe(), "DM console, hands being typed") == []
        button.click()
        bob = pages["Bob"]
        bob.locator("#server-rolled", has_text="The DM had the server roll for you").wait_for()
        ann.locator("#log", has_text="the DM had the server roll for Bob").wait_for()
        assert page_errors == []
