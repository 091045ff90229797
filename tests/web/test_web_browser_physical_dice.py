"""Browser test: three people at one real table play Liar's Dice with their own physical
dice. Each types the faces in their cup on their own browser; the reveal shows every
hand verified against the commitments published before it, each player confirms that
their cup shows what was revealed, and no socket ever received another seat's typed
faces before the reveal (every frame each socket received is checked).

Drives Debian's Chromium through Playwright against the real app (Uvicorn, SQLite).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from test_web_browser_liars import dataset, wait_data, wait_for_turn_or_end
from test_web_privacy import int_lists
from web_browser_support import browser_table, new_page, page_errors, screenshot

pytestmark = pytest.mark.browser

HANDS = {"Ann": [3, 5], "Bob": [6, 2], "Cid": [1, 4]}
"""What each player's cup shows in round 1 (no two alike, so a leak is recognised)."""


def record_frames(page: Any) -> list[dict[str, Any]]:
    """Every frame the page's WebSockets receive, parsed, in order."""
    frames: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", on_socket)
    return frames


def others_hands_in(frame: dict[str, Any], mine: list[int] | None) -> list[list[int]]:
    """Typed hands of other seats that appear anywhere in ``frame``."""
    others = [sorted(h) for h in HANDS.values() if h != mine]
    found = [values for _, values in int_lists(frame) if sorted(values) in others]
    game = frame.get("game") or {}
    for event in game.get("events", []):
        if event["type"] == "dice_rolled" and event["secret"]:
            found += [list(f) for f in event["dice"]
                      if None not in f and sorted(f) in others]
    own = (game.get("view") or {}).get("own_dice")
    if own not in (None, [], mine):
        found.append(own)
    return found


def test_three_players_type_their_own_physical_dice(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        host = new_page(browser)
        host.goto(server.url + "/")
        host.fill("#table-name", "The Green Dragon")
        host.fill("#rule-dice_per_player", "2")
        host.select_option("#opt-dice_mode", "manual")
        assert "each player rolls real dice in their cup" in host.inner_text("#opt-dice_mode")
        host.click("#create-btn")
        host.wait_for_selector("#dm-bar")
        table_id = host.url.rsplit("/", 1)[1]

        pages: dict[str, Any] = {}
        frames: dict[str, list[dict[str, Any]]] = {}
        for name in HANDS:
            page = new_page(browser)
            frames[name] = record_frames(page)
            page.goto(f"{server.url}/t/{table_id}")
            page.fill("#join-name", name)
            page.click("#join-btn")
            page.locator("#my-name", has_text=name).wait_for()
            pages[name] = page
        spectator = new_page(browser, 390, 844)
        frames["spectator"] = record_frames(spectator)
        spectator.goto(f"{server.url}/t/{table_id}")
        host.locator("#seat-list li").nth(2).wait_for()
        host.click("#start-btn")

        # Each player types the faces in their cup; the box refuses a face no d6 shows.
        first = pages["Ann"]
        first.locator("#dice-form").wait_for()
        assert "each player rolls real dice" in first.inner_text(".fairness")
        first.fill("#dice-input-0", "7")
        first.fill("#dice-input-1", "5")
        assert first.locator("#dice-btn").is_disabled()
        # The grey button says why: the box is marked invalid and a message names the rule.
        assert first.get_attribute("#dice-input-0", "aria-invalid") == "true"
        assert first.get_attribute("#dice-input-1", "aria-invalid") == "false"
        assert first.inner_text("#dice-error") == \
            "A d6 shows a whole number from 1 to 6: check die 1."
        first.fill("#dice-input-0", "0")
        assert "check die 1" in first.inner_text("#dice-error")
        for name, faces in HANDS.items():
            page = pages[name]
            page.locator("#dice-form").wait_for()
            for k, face in enumerate(faces):
                page.fill(f"#dice-input-{k}", str(face))
            page.click("#dice-btn")
            if name == "Ann":
                # The others see that Ann's hand is in and sealed, never what it is.
                page.locator("#dice-sealed").wait_for()
                # The list still names Ann until her sealed hand's frame arrives: wait
                # for that frame, not for the first list that names Bob.
                waiting = pages["Cid"].locator("#dice-waiting", has_text="Bob")
                expect(waiting).not_to_contain_text("Ann")
                assert "Bob" in waiting.inner_text()
                expect(spectator.locator(".commit-list li")).to_have_count(1)
        state = wait_for_turn_or_end(host)
        assert state["phase"] == "bidding"
        by_seat = {int(dataset(p)["mySeat"]): name for name, p in pages.items()}
        for name, page in pages.items():
            faces = page.eval_on_selector_all(".tray .die", "els => els.map(e => e.dataset.face)")
            assert faces == [str(f) for f in HANDS[name]]
        screenshot(pages["Bob"], "liars-physical-dice.png", tmp_path)

        # One wager, one call: the reveal shows the typed hands, verified.
        opener = pages[by_seat[int(state["turn"])]]
        opener.click("#wager-btn")
        wait_data(host, "wager", "1x1")
        caller = pages[by_seat[int(dataset(host)["turn"])]]
        caller.click("#liar-btn")
        for page in [*pages.values(), spectator]:
            badge = page.locator("#reveal[data-round='1'] .verify-badge[data-verify]")
            badge.wait_for()
            assert badge.get_attribute("data-verify") == "verified", badge.inner_text()
        for seat, name in by_seat.items():
            shown = spectator.eval_on_selector_all(
                f"#reveal .reveal-row[data-seat='{seat}'] .die",
                "els => els.map(e => Number(e.dataset.face))")
            assert shown == HANDS[name]

        # Each player confirms that their cup shows the faces revealed for them.
        for page in pages.values():
            page.click("#cup-yes")
        host.locator("#reveal [data-cup='match']").nth(2).wait_for()
        assert host.locator("#reveal [data-cup='differs']").count() == 0
        screenshot(spectator, "liars-physical-reveal.png", tmp_path)

        # No socket got another seat's typed faces before the reveal (the first frame
        # with round 1's proofs); the spectator got none of them.
        for who, received in frames.items():
            mine = HANDS.get(who)
            states = [f for f in received if f["type"] == "state"]
            assert states, who
            for frame in states:
                game = frame.get("game") or {}
                if game.get("proofs"):
                    break
                assert others_hands_in(frame, mine) == [], (who, frame)
            assert any((f.get("game") or {}).get("proofs") for f in states), who
        assert page_errors == []
