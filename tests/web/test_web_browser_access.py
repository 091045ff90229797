"""Browser test: live play for a keyboard and a screen-reader player, and axe-core.

Keyboard focus stays where the next action is after Start, Wager and Liar! (never on
the page body, never on a Pause button that Start turned into); "your turn" and the
reveal are said once in a polite live region (the log is no live region, and is
scrollable by keyboard); the main page states have no critical or serious axe-core
violation. Also: the DM link shown on creation and on demand opens the console on
another device; the seat-a-bot list is the bot registry; no seat shows a hidden die
after the game; a turn with no raise left (the highest wager standing) is still said and
offers the call.
"""

from __future__ import annotations

import json
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

from tavern_dice.bots.registry import LIARS_DICE_BOTS

pytestmark = pytest.mark.browser


def data(page: Any, key: str) -> str:
    value: str = page.evaluate(f"() => document.getElementById('app').dataset.{key}")
    return value


def focused(page: Any) -> str:
    """The focused element as ``TAG#id``."""
    found: str = page.evaluate(
        "() => `${document.activeElement.tagName}#${document.activeElement.id}`")
    return found


def said(page: Any) -> str:
    text: str = page.evaluate(
        "() => (document.getElementById('announcer') || {}).textContent || ''")
    return text


def test_keyboard_and_screen_reader_play_and_axe(tmp_path: Path) -> None:
    axe = require_axe()
    problems: list[str] = []
    with browser_table(tmp_path) as (server, browser):
        # The create page: a heading, and the game radios show the keyboard's focus.
        host = new_page(browser, 1280, 800)
        host.goto(server.url + "/")
        host.wait_for_selector("#create-form")
        assert host.locator("h1").count() >= 1
        problems += axe_violations(host, axe, "create page")
        for _ in range(8):
            host.keyboard.press("Tab")
            if host.evaluate("() => document.activeElement.name === 'game'"):
                break
        ring = host.evaluate("() => getComputedStyle(document.activeElement"
                             ".closest('.game-card')).outlineStyle")
        assert ring not in ("", "none"), "the focused game choice shows no focus"
        host.fill("#table-name", "The Listening Post")
        host.fill("#rule-dice_per_player", "1")
        host.fill("#opt-bot_delay_ms", "0")
        host.click("#create-btn")
        host.wait_for_selector("#dm-bar")
        table_id = host.url.rsplit("/", 1)[1]
        assert host.locator("h1").text_content() == "The Listening Post — DM console"

        # The DM link is not shown until asked for (a player could scan its code).
        assert host.locator("#dm-url").count() == 0
        # The seat-a-bot list is the registry's.
        kinds = host.eval_on_selector_all("#bot-kind option", "els => els.map(e => e.value)")
        assert sorted(kinds) == sorted(LIARS_DICE_BOTS)
        host.select_option("#bot-kind", "random")
        host.click("#add-bot-btn")
        host.locator("#seat-list li", has_text="Random Bot").wait_for()
        assert host.locator("label[for='join-url']").count() == 1
        assert host.locator("label[for='bot-name']").count() == 1

        ann = new_page(browser, 1280, 800)
        ann.goto(f"{server.url}/t/{table_id}")
        ann.wait_for_selector("#join-form")
        assert ann.locator("h1").count() == 1
        problems += axe_violations(ann, axe, "join page")
        ann.fill("#join-name", "Ann")
        ann.click("#join-btn")
        ann.locator("#my-name", has_text="Ann").wait_for()
        host.locator("#seat-list li").nth(1).wait_for()
        host.click("summary:has-text('Give or take gold')")
        assert host.locator("label[for='grant-who']").count() == 1
        assert host.locator("label[for='grant-cp']").count() == 1
        problems += axe_violations(host, axe, "DM console, lobby")

        # Start by keyboard: focus goes to the game, not to the Pause button in its place.
        host.focus("#start-btn")
        host.keyboard.press("Enter")
        host.wait_for_selector("#pause-btn")
        host.wait_for_function("() => document.activeElement.id === 'game-heading'")
        assert focused(host) != "BUTTON#pause-btn"
        assert data(host, "gameStatus") == "playing"

        # The log is no live region, and a keyboard can scroll it.
        log = ann.locator("#log")
        assert log.get_attribute("aria-live") is None and log.get_attribute("tabindex") == "0"
        assert ann.locator("[aria-live]").evaluate_all(
            "els => els.map(e => e.id)") in (["announcer"], ["announcer", "toasts"],
                                             ["toasts", "announcer"], [])

        checked_turn = False
        for _ in range(6):
            ann.wait_for_function(
                "() => { const d = document.getElementById('app').dataset;"
                " return d.phase === 'over' || (d.phase === 'bidding' && d.turn === d.mySeat); }")
            if data(ann, "phase") == "over":
                break
            ann.wait_for_function("() => ((document.getElementById('announcer') || {})"
                                  ".textContent || '').startsWith('Your turn')")
            # A turn after the top sum has no picker (the next test covers that turn).
            if not checked_turn and ann.locator("#no-raise").count() == 0:
                problems += axe_violations(ann, axe, "Liar's Dice, my turn")
                # Two players with one die each: the endgame wagers on the sum.
                assert ann.locator(".picker-sum").count() == 1
                assert ann.get_attribute(".stepper [data-step='up']", "aria-label") == \
                    "higher total"
                checked_turn = True
            if ann.locator("#liar-btn").count():
                wager = data(ann, "wager")
                assert ann.inner_text(".accuse-row span").endswith(
                    f"a sum of at least {wager.split()[1]}.")
                ann.click("#liar-btn")
                ann.wait_for_function("() => document.activeElement.id === 'reveal-heading'")
            else:
                # Where the keyboard lands once the Wager button goes (the bot may answer
                # at once, so the page is watched rather than looked at afterwards).
                ann.focus("#wager-btn")
                ann.evaluate("() => { window.landed = []; document.addEventListener('focusin',"
                             " (e) => window.landed.push(e.target.id)); }")
                ann.keyboard.press("Enter")
                ann.wait_for_function("() => window.landed.length > 0")
                assert ann.evaluate("() => window.landed[0]") in (
                    "actions", "reveal-heading", "game-heading")
        ann.locator("#game-over").wait_for()
        ann.wait_for_function("() => ((document.getElementById('announcer') || {})"
                              ".textContent || '').includes('Dice revealed')")
        assert "Dice revealed" in said(ann)
        # After the game no seat hides a die: the winner's dice are never rolled again.
        for page in (ann, host):
            page.locator("#game-over").wait_for()
            assert page.locator(".felt .die-hidden").count() == 0
            assert "★ winner" in page.inner_text(".felt")
        problems += axe_violations(ann, axe, "Liar's Dice, game over with a reveal")
        problems += axe_violations(host, axe, "DM console, game over")
        screenshot(ann, "liars-game-over.png", tmp_path)

        # On demand: the console offers its DM link again, and the link opens it elsewhere.
        host.goto(f"{server.url}/host/{table_id}")
        host.wait_for_selector("#dm-link-btn")
        assert host.locator("#dm-url").count() == 0
        host.click("#dm-link-btn")
        dm_url = host.input_value("#dm-url")
        assert dm_url.startswith(f"{server.url}/host/{table_id}#") and len(dm_url) > 60
        tablet = new_page(browser, 390, 844)
        tablet.goto(dm_url)
        tablet.wait_for_selector("#dm-bar")
        assert data(tablet, "role") == "host"
        # Without the key, the console says how to get back in.
        stranger = new_page(browser, 390, 844)
        stranger.goto(f"{server.url}/host/{table_id}")
        stranger.locator(".fatal", has_text="DM link").wait_for()
        assert stranger.locator("h1").count() == 1
        problems += axe_violations(stranger, axe, "DM console without its key")
        assert problems == []
        assert page_errors == []


def test_a_turn_with_only_the_call_left_is_said_and_shown(tmp_path: Path) -> None:
    """One die each: Bob (a WebSocket client) wagers the highest sum there is, so Ann's turn
    has no raise left. It is still her turn: the announcer says so and names the call, the
    page shows the call and no wager picker (it used to say nothing and wait "for Ann")."""
    def hello(ws: Any, token: str) -> Any:
        ws.send(json.dumps({"type": "hello", "token": token}))
        return ws

    with browser_table(tmp_path) as (server, browser):
        made = httpx.post(f"{server.url}/api/tables", json={
            "game": "liars-dice", "rules": {"dice_per_player": 1}}).json()
        table_id = made["table_id"]
        ann = new_page(browser, 1280, 800)
        ann.goto(f"{server.url}/t/{table_id}")
        ann.fill("#join-name", "Ann")
        ann.click("#join-btn")
        ann.locator("#my-name", has_text="Ann").wait_for()
        bob_token = httpx.post(f"{server.url}/api/tables/{table_id}/join",
                               json={"name": "Bob"}).json()["seat_token"]
        socket = f"ws://127.0.0.1:{server.port}/ws/{table_id}"
        with connect(socket) as host_ws, connect(socket) as bob_ws:
            play_to_the_top(ann, hello(host_ws, made["host_token"]), hello(bob_ws, bob_token))
    assert not page_errors, page_errors


def play_to_the_top(ann: Any, host: Any, bob: Any) -> None:
    """The DM starts; Bob wagers the highest sum (after Ann's opening, if she opens);
    Ann's page is checked, and she calls."""

    def next_state(ws: Any) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if frame["type"] == "state" and frame.get("game"):
                return frame

    host.send(json.dumps({"type": "start", "id": "go"}))

    frame = next_state(bob)
    if frame["game"]["view"]["turn"] != frame["you"]["seat"]:
        # Ann opens (the lowest sum); then it is Bob's turn.
        ann.wait_for_selector("#wager-btn")
        ann.click("#wager-btn")
        while frame["game"]["view"]["turn"] != frame["you"]["seat"] \
                or not frame["game"]["view"]["wager"]:
            frame = next_state(bob)
    top = frame["game"]["view"]["legal_wagers"][-1]
    bob.send(json.dumps({"type": "wager", "wager": top, "id": "top"}))

    ann.wait_for_function("() => ((document.getElementById('announcer') || {})"
                          ".textContent || '').includes('cannot be raised')")
    assert said(ann).startswith("Your turn: Bob's wager of ")
    assert said(ann).endswith("cannot be raised; call Liar.")
    assert ann.locator("#no-raise").inner_text() == "No wager tops this one: call Liar."
    assert ann.locator("#wager-btn").count() == 0
    assert ann.locator("#liar-btn").count() == 1
    assert "Waiting for" not in ann.inner_text("#actions")
    ann.click("#liar-btn")
    ann.locator("#game-over").wait_for()
