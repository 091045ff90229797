"""Browser tests: Dice Blackjack at the web table. A DM runs the house from the console,
typing in physical rolls, while two players bet, roll, stand and add their proficiency
bonus; and, with digital dice, a player's browser checks the house's sealed dice.

Drives Debian's Chromium through Playwright against the real app (Uvicorn, SQLite).
"""

from __future__ import annotations

import hashlib
import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from web_browser_support import browser_table, new_page, page_errors, screenshot

from tavern_dice.web.commitments import digest_of

pytestmark = pytest.mark.browser


def create_blackjack_table(host: Any, url: str, name: str, dice_mode: str) -> str:
    host.goto(url + "/")
    host.click("label.game-card:has-text('Dice Blackjack')")
    host.fill("#table-name", name)
    host.select_option("#opt-dice_mode", dice_mode)
    host.click("#create-btn")
    host.wait_for_selector("#dm-bar")
    table_id: str = host.url.rsplit("/", 1)[1]
    return table_id


def join(browser: Any, url: str, table_id: str, name: str, proficiency: str | None) -> Any:
    page = new_page(browser)
    page.goto(f"{url}/t/{table_id}")
    page.fill("#join-name", name)
    if proficiency is not None:
        page.select_option("#join-pb", proficiency)
    page.click("#join-btn")
    page.locator("#my-name", has_text=name).wait_for()
    return page


def dm_types_d12(host: Any, face: int) -> None:
    host.fill("#d12-input", str(face))
    host.click("#d12-btn")


def tag(name: str, you: str | None) -> str:
    """A name as a settlement row shows it to ``you``."""
    return f"{name} (you)" if name == you else name


def balances(url: str, table_id: str) -> dict[str, int]:
    with urllib.request.urlopen(f"{url}/api/tables/{table_id}/ledger", timeout=10) as response:
        ledger = json.load(response)
    return {row["name"]: row["balance_cp"] for row in ledger["balances"]}


def test_dm_and_two_players_play_blackjack_with_typed_dice(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        host = new_page(browser, 1280, 900)
        table_id = create_blackjack_table(host, server.url, "The Gilded Flagon", "manual")
        ann = join(browser, server.url, table_id, "Ann", "4")
        bob = join(browser, server.url, table_id, "Bob", None)
        host.locator("#seat-list li").nth(1).wait_for()
        host.click("#start-btn")
        everyone = [host, ann, bob]

        # Round 1: bets from each player's gold (10 gp to start).
        ann.fill("#bet-amount", "200")
        assert ann.inner_text(".bet-shown") == "= 2 gp"
        ann.click("#bet-btn")
        bob.click(".btn-chip:has-text('1 gp')")
        bob.click("#bet-btn")

        # The DM rolls the real dice and types them in: target 15, house 9 and 17.
        host.fill("#target-input", "15")
        host.fill("#house-input-0", "9")
        host.fill("#house-input-1", "17")
        host.click("#house-roll-btn")
        for page in everyone:
            page.locator("#house-roll", has_text="9").wait_for()

        # Ann: d12s of 7 and 6 make 13; she stands and adds +2 (half her +4, rounded up).
        dm_types_d12(host, 7)
        ann.locator("#roll-btn").click()
        dm_types_d12(host, 6)
        stand = ann.locator("#stand-btn")
        stand.wait_for()
        assert stand.inner_text() == "Stand at 15 (13 + 2)"
        screenshot(ann, "blackjack-player.png", tmp_path)
        bonuses = ann.eval_on_selector_all("#bonus option", "els => els.map(e => e.value)")
        assert bonuses == ["0", "1", "2"]
        stand.click()
        # Bob: a 12 beats the house's 9; he is not proficient, so no bonus to choose.
        host.fill("#d12-input", "12")
        screenshot(host, "blackjack-dm-console.png", tmp_path, doc=True)
        host.click("#d12-btn")
        bob.locator("#stand-btn", has_text="Stand at 12").wait_for()
        assert bob.locator("#bonus").count() == 0
        bob.click("#stand-btn")

        # Settlement: Ann hit the target exactly (1.5x), Bob won his bet; every balance shown.
        for page, you in ((host, None), (ann, "Ann"), (bob, "Bob")):
            page.locator("#settlement").wait_for()
            rows = page.eval_on_selector_all(
                "#settlement tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))")
            assert rows == [
                [tag("Ann", you), "2 gp", "15", "hits the target exactly", "+3 gp", "13 gp"],
                [tag("Bob", you), "1 gp", "12", "wins", "+1 gp", "11 gp"],
            ]
        assert ann.locator(".seat[data-seat='0'] .balance").inner_text() == "13 gp"
        screenshot(host, "blackjack-settlement.png", tmp_path)

        # The DM pauses: nobody can act until the game resumes.
        host.click("#pause-btn")
        ann.locator(".banner-paused").wait_for()
        assert host.locator("#next-round-btn").is_disabled()
        host.click("#resume-btn")
        ann.locator(".banner-paused").wait_for(state="detached")

        # Round 2: Ann bets, Bob sits out; the DM's target die shows a 1: bets collected.
        host.click("#next-round-btn")
        ann.locator("#bet-btn").wait_for()
        ann.fill("#bet-amount", "100")
        ann.click("#bet-btn")
        bob.click("#sit-out-btn")
        host.fill("#target-input", "1")
        host.fill("#house-input-0", "4")
        host.fill("#house-input-1", "11")
        host.click("#house-roll-btn")
        for page in everyone:
            page.locator("#settlement h2", has_text="Round 2 settled").wait_for()
        row = ann.eval_on_selector_all(
            "#settlement tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.innerText))")
        assert row == [
            ["Ann (you)", "1 gp", "—", "loses (target 1: the house collects)", "−1 gp", "12 gp"]]
        assert balances(server.url, table_id) == {"Ann": 1200, "Bob": 1100}
        assert page_errors == []


def test_player_browser_verifies_the_house_dice_sealed_before_the_bets(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        host = new_page(browser)
        table_id = create_blackjack_table(host, server.url, "The Sealed Die", "digital")
        cas = join(browser, server.url, table_id, "Cas", None)
        host.click("#start-btn")
        cas.locator("#bet-btn").wait_for()
        cas.click("#bet-btn")
        host.click("#house-roll-btn")
        badge = cas.locator("#house-check .verify-badge[data-verify]")
        badge.wait_for()
        assert badge.get_attribute("data-verify") == "verified"
        assert badge.inner_text() == "verified ✓"
        # The player's d12s roll on the server at once; stand if still in the round.
        if cas.locator("#stand-btn").count():
            cas.click("#stand-btn")
        cas.locator("#settlement").wait_for()

        # The page's own checker: the digest of the documented canonical string, the same
        # with Web Crypto and with the built-in SHA-256 (for pages over plain http); a
        # changed face or a digest never seen before the reveal does not verify.
        salt = "00112233445566778899aabbccddeeff"
        found = cas.evaluate(CHECKER_JS, salt)
        assert found["digest"] == digest_of("g_8fK2", 3, 1, (3, 1, 6, 6, 2), salt)
        assert found["builtin"] == found["digest"]
        assert found["long"] == hashlib.sha256(("é✓" * 40).encode()).hexdigest()
        assert (found["held"], found["changed"], found["unseen"]) == (
            "verified", "mismatch", "unverifiable")
        assert page_errors == []


CHECKER_JS = """async (salt) => {
  const v = await import('/static/js/verify.js');
  const s = await import('/static/js/sha256.js');
  const text = v.canonical('g_8fK2', 3, 1, [3, 1, 6, 6, 2], salt);
  const digest = await v.sha256Hex(text);
  const book = new v.CommitmentBook('checker-test');
  book.record('g_8fK2', {round: 3, items: [{seat: '1', digest}]});
  const proof = (faces, round) => ({round, items: [{seat: '1', faces, salt}]});
  const held = await book.run('g_8fK2', proof([3, 1, 6, 6, 2], 3), {'1': [3, 1, 6, 6, 2]});
  const changed = await book.run('g_8fK2', proof([3, 1, 6, 6, 3], 3), null);
  const unseen = await book.run('g_8fK2', proof([3, 1, 6, 6, 2], 4), null);
  return {digest, builtin: s.sha256HexSync(text), long: s.sha256HexSync('é✓'.repeat(40)),
          held: held.status, changed: changed.status, unseen: unseen.status};
}"""
