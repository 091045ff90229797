"""Browser tests: 32-character names on a phone (390x844) and a desktop (1280x800) never
push a page sideways and are cut with an ellipsis; the name "You" and a taken name are
refused at sit-down; a reveal reads right for the caller, the called and everyone else;
the Blackjack settlement fits a phone; the house's sealed dice are shown before the roll;
manual Blackjack takes a target of 1 alone.

Drives Debian's Chromium through Playwright against the real app (Uvicorn, SQLite).
"""

from __future__ import annotations

import contextlib
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Error as PlaywrightError
from web_browser_support import (
    axe_violations,
    browser_table,
    horizontal_overflow,
    new_page,
    page_errors,
    require_axe,
    screenshot,
)

pytestmark = pytest.mark.browser

PHONE = (390, 844)
DESKTOP = (1280, 800)
LONG_NAMES = ("Ser Bartholomew Quillfeather III", "Wolfeschlegelsteinhausenbergerdo",
              "Brother Ignatius Mumblewort Pike")
WRONG_WORDING = ("You's", "but You", "— You", "; You", "at least a sum", "a lie.",
                 "at least at least")


def create_table(server: Any, game: str, **body: Any) -> tuple[str, str]:
    made = httpx.post(f"{server.url}/api/tables", json={"game": game, **body}, timeout=10)
    assert made.status_code == 201, made.text
    data = made.json()
    return data["table_id"], data["host_token"]


def open_page(browser: Any, size: tuple[int, int], url: str) -> Any:
    page = new_page(browser, *size)
    page.goto(url)
    return page


def sit_down(page: Any, name: str) -> str:
    """Try to sit down as ``name``; return the error shown, or "" once seated."""
    page.fill("#join-name", name)
    page.click("#join-btn")
    page.wait_for_selector(f"#join-error, #my-name[title='{name}']")
    if page.locator("#join-error").count():
        text: str = page.inner_text("#join-error")
        return text
    return ""


def data(page: Any, key: str) -> str:
    value: str = page.evaluate(f"() => document.getElementById('app').dataset.{key}")
    return value


def names_fit(page: Any, names: tuple[str, ...]) -> list[str]:
    """Every element that shows one of ``names`` in full text: its right edge inside the
    viewport; those cut short must be cut with an ellipsis. Returns the problems."""
    problems: list[str] = page.evaluate("""(names) => {
        const out = [];
        const width = document.documentElement.clientWidth;
        const shown = '.name, .seat-name, .reveal-name, .table-name';
        for (const el of document.querySelectorAll(shown)) {
            if (!names.some((n) => el.textContent.includes(n)) || !el.offsetParent) continue;
            const box = el.getBoundingClientRect();
            if (box.right > width + 1) out.push(`${el.className} runs to ${box.right}px`);
            const cut = el.scrollWidth > el.clientWidth + 1;
            if (cut && getComputedStyle(el).textOverflow !== 'ellipsis') {
                out.push(`${el.className} cut without an ellipsis`);
            }
        }
        return out;
    }""", list(names))
    return problems


def contrast(css_colour: str, background: tuple[int, int, int]) -> float:
    """WCAG contrast ratio of an ``rgb(r, g, b)`` colour on ``background``."""
    def luminance(rgb: tuple[int, ...]) -> float:
        parts = [c / 255 for c in rgb]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in parts]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    rgb = tuple(int(x) for x in css_colour[css_colour.index("(") + 1:-1].split(",")[:3])
    high, low = sorted((luminance(rgb), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def ellipsised(page: Any, selector: str) -> bool:
    cut: bool = page.eval_on_selector(
        selector, "el => el.scrollWidth > el.clientWidth && "
        "getComputedStyle(el).textOverflow === 'ellipsis'")
    return cut


def test_long_names_fit_and_the_reveal_reads_right(tmp_path: Path) -> None:
    assert all(len(n) == 32 for n in LONG_NAMES)
    with browser_table(tmp_path) as (server, browser):
        table_id, key = create_table(server, "liars-dice", name="The Longest Names in the Realm",
                                     rules={"dice_per_player": 2}, options={"bot_delay_ms": 0})
        host = open_page(browser, DESKTOP, f"{server.url}/host/{table_id}#{key}")
        host.wait_for_selector("#dm-bar")
        sizes = (PHONE, DESKTOP, PHONE)
        players: dict[str, Any] = {}
        for name, size in zip(LONG_NAMES, sizes, strict=True):
            page = open_page(browser, size, f"{server.url}/t/{table_id}")
            page.wait_for_selector("#join-form")
            if not players:
                for you in ("You", " you "):
                    error = sit_down(page, you)
                    assert "what the table calls each player on their own screen" in error
                    assert page.evaluate("() => document.activeElement.id") == "join-name"
            else:
                taken = LONG_NAMES[0].upper()
                assert sit_down(page, taken) == \
                    f"someone at this table is already called '{taken}'; choose another name"
            assert sit_down(page, name) == ""
            players[name] = page
        host.locator("#seat-list li").nth(2).wait_for()
        everyone = [host, *players.values()]
        for page in everyone:
            assert horizontal_overflow(page) == 0, page.url
            assert names_fit(page, LONG_NAMES) == []
        assert ellipsised(host, "#seat-list li .seat-name")

        host.click("#start-btn")
        by_seat: dict[int, tuple[str, Any]] = {}
        for name, page in players.items():
            page.wait_for_function("() => document.getElementById('app').dataset.turn !== ''")
            by_seat[int(data(page, "mySeat"))] = (name, page)
        turn = int(data(host, "turn"))
        maker_name, maker = by_seat[turn]
        # Names a screen reader reads: faces by their plural, steppers by what they do,
        # each opponent's hidden dice once, as a count.
        faces = maker.eval_on_selector_all(".face-btn", "els => els.map(e => e.ariaLabel)")
        assert faces == ["ones", "twos", "threes", "fours", "fives", "sixes"]
        steppers = maker.eval_on_selector_all(".stepper .btn-step",
                                              "els => els.map(e => e.ariaLabel)")
        assert steppers == ["fewer dice", "more dice"]
        rows = maker.eval_on_selector_all(
            ".felt .seat:not(.seat-me) .dice-row",
            "els => els.map(e => [e.getAttribute('role'), e.ariaLabel,"
            " [...e.children].every(d => d.getAttribute('aria-hidden') === 'true')])")
        assert rows == [["img", "2 hidden dice", True]] * 2
        maker.click("#wager-btn")
        for page in everyone:
            page.wait_for_function("() => document.getElementById('app').dataset.wager === '1x1'")
        assert host.inner_text("#wager-text") == f"at least 1 one — by {maker_name}"
        caller_seat = int(data(host, "turn"))
        caller_name, caller = by_seat[caller_seat]
        _, other = next(v for s, v in by_seat.items() if s not in (turn, caller_seat))
        assert other.inner_text(".accuse-row span") == f"{maker_name} says at least 1 one."
        caller.click("#liar-btn")
        for page in everyone:
            page.locator("#reveal[data-round='1']").wait_for()
        claim = "at least 1 one"
        assert caller.inner_text("#reveal-call") == \
            f"You called “Liar!” on {maker_name}'s wager: {claim}."
        assert maker.inner_text("#reveal-call") == \
            f"{caller_name} called “Liar!” on your wager: {claim}."
        assert other.inner_text("#reveal-call") == \
            f"{caller_name} called “Liar!” on {maker_name}'s wager: {claim}."
        verdicts = {page: page.inner_text(".reveal-verdict") for page in everyone}
        outcome = host.get_attribute(".reveal-verdict", "class")
        if "verdict-true" in outcome:
            assert verdicts[caller] == \
                "The wager was true — you lose a die for the false accusation."
            assert verdicts[maker] == \
                f"The wager was true — {caller_name} loses a die for the false accusation."
        elif "verdict-spot" in outcome:
            assert verdicts[maker] == "Spot-on! Everyone but you loses a die."
            assert verdicts[caller] == f"Spot-on! Everyone but {maker_name} loses a die."
        else:
            assert verdicts[maker] == "The wager was false — you lose a die."
        for page in everyone:
            text = page.inner_text("main")
            assert not [w for w in WRONG_WORDING if w in text], text
            assert horizontal_overflow(page) == 0, page.url
            assert names_fit(page, LONG_NAMES) == []
        phone = players[LONG_NAMES[0]]
        assert ellipsised(phone, ".reveal-row .reveal-name")
        # Others' names are cut with an ellipsis on a phone; one's own wraps, whole.
        assert ellipsised(phone, ".felt .seat:not(.seat-me) .seat-name")
        assert not ellipsised(phone, ".felt .seat-me .seat-name")
        screenshot(phone, "liars-long-names-phone.png", tmp_path)
        screenshot(players[LONG_NAMES[1]], "liars-long-names-desktop.png", tmp_path)
        assert page_errors == []


def test_blackjack_fits_a_phone_and_shows_the_sealed_house_dice(tmp_path: Path) -> None:
    axe = require_axe()
    with browser_table(tmp_path) as (server, browser):
        table_id, key = create_table(server, "blackjack", options={"bot_delay_ms": 0})
        host = open_page(browser, DESKTOP, f"{server.url}/host/{table_id}#{key}")
        host.wait_for_selector("#dm-bar")
        phone = open_page(browser, PHONE, f"{server.url}/t/{table_id}")
        assert sit_down(phone, LONG_NAMES[1]) == ""
        desk = open_page(browser, DESKTOP, f"{server.url}/t/{table_id}")
        assert sit_down(desk, LONG_NAMES[0]) == ""
        host.locator("#seat-list li").nth(1).wait_for()
        host.click("#start-btn")

        # Before anyone bets, every player sees the house's dice sealed (their digest).
        game_id = ""
        for page in (phone, desk):
            page.locator("#bet-btn").wait_for()
            game_id = data(page, "gameId")
        proofs = httpx.get(f"{server.url}/api/games/{game_id}/proofs", timeout=5).json()
        digest = next(c["digest"] for c in proofs["commitments"] if c["seat"] == "house")
        for page in (phone, desk):
            assert page.get_attribute("#house-digest", "title") == digest
            assert page.inner_text("#house-sealed").startswith("Sealed house dice: ")
        problems = axe_violations(phone, axe, "blackjack betting (phone)")
        problems += axe_violations(host, axe, "blackjack DM console, bets open")
        for page in (phone, desk):
            page.click("#bet-btn")
            page.wait_for_function("() => document.activeElement.id === 'actions'")
        host.click("#house-roll-btn")
        for page in (phone, desk):
            page.locator("#house-check .verify-badge[data-verify='verified']").wait_for()
        # Each player stands when their turn comes (in seat order; a bust needs no stand).
        deadline = time.monotonic() + 30
        while not all(page.locator("#settlement").count() for page in (phone, desk)):
            assert time.monotonic() < deadline, "the round did not settle"
            for page in (phone, desk):
                with contextlib.suppress(PlaywrightError):
                    if page.locator("#stand-btn").count():
                        page.locator("#stand-btn").click(timeout=2000)
            time.sleep(0.05)
        for page in (phone, desk, host):
            page.locator("#settlement").wait_for()
        for page in (phone, desk, host):
            assert horizontal_overflow(page) == 0, page.url
            assert names_fit(page, LONG_NAMES) == []
        edge = phone.evaluate("() => Math.max(...[...document.querySelectorAll("
                              "'#settlement .settle-balance')].map(e => "
                              "e.getBoundingClientRect().right))")
        assert edge <= PHONE[0]
        problems += axe_violations(phone, axe, "blackjack settlement (phone)")
        # axe cannot judge text on the felt's gradient; the spots once at about 3:1 are
        # checked here against the felt's lightest green.
        net = phone.evaluate("() => getComputedStyle(document.querySelector('.house-net')).color")
        assert contrast(net, (0x1F, 0x65, 0x40)) >= 4.5, net
        dim = phone.evaluate("() => [...document.querySelectorAll('.die-dim')].map("
                             "e => Number(getComputedStyle(e).opacity))")
        assert all(opacity >= 0.7 for opacity in dim), dim
        screenshot(phone, "blackjack-phone.png", tmp_path, doc=True)
        assert problems == []

        # Manual dice: a target of 1 goes in alone (the house's dice would not be used).
        manual_id, manual_key = create_table(server, "blackjack",
                                             options={"dice_mode": "manual", "bot_delay_ms": 0})
        dm = open_page(browser, DESKTOP, f"{server.url}/host/{manual_id}#{manual_key}")
        dm.wait_for_selector("#dm-bar")
        player = open_page(browser, PHONE, f"{server.url}/t/{manual_id}")
        assert sit_down(player, "Ann") == ""
        dm.locator("#seat-list li").first.wait_for()
        dm.click("#start-btn")
        player.click("#bet-btn")
        dm.fill("#target-input", "1")
        button = dm.locator("#house-roll-btn")
        assert button.is_enabled() and button.inner_text() == "Enter the target"
        button.click()
        player.locator("#settlement h2", has_text="Round 1 settled").wait_for()
        assert "loses (target 1: the house collects)" in player.inner_text("#settlement")
        assert page_errors == []
