"""Browser test: three people in three browsers play Liar's Dice to a winner at the web
table, a DM runs it from the console and a spectator watches on a phone-sized screen.

Drives Debian's Chromium through Playwright against the real app (Uvicorn, SQLite).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from web_browser_support import browser_table, new_page, page_errors, screenshot

pytestmark = pytest.mark.browser

NAMES = ("Ann", "Bob", "Cid")


def dataset(page: Any) -> dict[str, str]:
    """Where the game stands as the page shows it (the data-* attributes of #app)."""
    data: dict[str, str] = page.evaluate("() => ({...document.getElementById('app').dataset})")
    return data


def wait_data(page: Any, key: str, value: str) -> None:
    """Wait until the page's #app has data-<key> equal to ``value``."""
    page.wait_for_function("([k, v]) => document.getElementById('app').dataset[k] === v",
                           arg=[key, value])


def wait_for_turn_or_end(page: Any) -> dict[str, str]:
    page.wait_for_function(
        "() => { const d = document.getElementById('app').dataset;"
        " return d.phase === 'over' || (d.phase === 'bidding' && d.turn !== ''); }")
    return dataset(page)


def seat_dice(page: Any) -> list[int]:
    """Dice counts per seat, as shown round the table."""
    pairs = page.eval_on_selector_all(
        ".felt .seat", "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.dice)])")
    return [count for _, count in sorted(pairs)]


def own_faces(page: Any) -> list[str]:
    faces: list[str] = page.eval_on_selector_all(".tray .die",
                                                 "els => els.map(e => e.dataset.face)")
    return faces


def test_three_players_play_liars_dice_to_a_winner(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        # The DM creates a table: Liar's Dice, tavern preset, 2 dice per player.
        host = new_page(browser)
        host.goto(server.url + "/")
        host.fill("#table-name", "The Prancing Pony")
        host.fill("#rule-dice_per_player", "2")
        host.click("#create-btn")
        host.wait_for_selector("#dm-bar")
        # The DM key came in the address's fragment and is taken out of the address bar.
        assert re.fullmatch(rf"{re.escape(server.url)}/host/[A-Za-z0-9_-]+", host.url)
        table_id = host.url.rsplit("/", 1)[1]
        qr = host.locator(".join-card .qr").get_attribute("src")
        assert qr == f"/api/tables/{table_id}/qr.svg"
        assert host.input_value("#join-url") == f"{server.url}/t/{table_id}"

        # A bot can be seated and unseated in the lobby.
        host.click("#add-bot-btn")
        host.locator("#seat-list li", has_text="Probabilistic Bot").wait_for()
        host.click("[aria-label='remove Probabilistic Bot']")
        host.locator("#seat-list").wait_for(state="detached")

        players = []
        for name in NAMES:
            page = new_page(browser)
            page.goto(f"{server.url}/t/{table_id}")
            page.fill("#join-name", name)
            page.click("#join-btn")
            page.locator("#my-name", has_text=name).wait_for()
            players.append(page)
        spectator = new_page(browser, 390, 844)
        spectator.goto(f"{server.url}/t/{table_id}")
        spectator.locator("#join-form").wait_for()
        host.locator("#seat-list li").nth(2).wait_for()
        assert host.locator("#seat-list li").count() == 3

        host.click("#start-btn")
        by_seat: dict[int, Any] = {}
        for page in players:
            page.wait_for_function("() => document.getElementById('app').dataset.mySeat !== ''")
            by_seat[int(dataset(page)["mySeat"])] = page
        assert sorted(by_seat) == [0, 1, 2]
        name_of = {seat: NAMES[players.index(page)] for seat, page in by_seat.items()}
        everyone = [host, spectator, *players]

        # The spectator sees every seat's dice count and no face at all.
        spectator.locator(".felt .seat").nth(2).wait_for()
        assert spectator.locator(".tray").count() == 0
        hidden = spectator.eval_on_selector_all(".felt .die", "els => els.map(e => e.dataset.face)")
        assert hidden == [""] * 6

        rounds = 0
        reveal_shot = False
        while True:
            state = wait_for_turn_or_end(host)
            if state["phase"] == "over":
                break
            rounds += 1
            assert rounds <= 5, "each reveal costs a die: 3 players with 2 dice end within 5"
            assert state["round"] == str(rounds)
            opener = by_seat[int(state["turn"])]
            # The opener's picker offers the lowest legal wager first.
            sum_endgame = opener.locator(".picker-sum").count() == 1
            lowest = "sum 2" if sum_endgame else "1x1"
            wager = opener.locator("#wager-btn")
            assert wager.inner_text() == ("Wager sum ≥ 2" if sum_endgame else "Wager 1 one")
            wager.click()
            for page in everyone:
                wait_data(page, "wager", lowest)
            code = lowest
            follower = by_seat[int(dataset(host)["turn"])]

            if rounds == 1:
                # The next player raises with the picker; choices that are no raise are disabled.
                follower.locator("#wager-btn", has_text="Wager 1 two").wait_for()
                assert follower.locator(".face-btn[data-face='1']").is_disabled()
                assert follower.locator(".face-btn[data-face='2']").is_enabled()
                follower.locator(".stepper button[aria-label='more dice']").click()
                follower.click(".face-btn[data-face='6']")
                assert follower.inner_text("#wager-btn") == "Wager 2 sixes"
                screenshot(follower, "liars-table.png", tmp_path, doc=True)
                # The opener reloads mid-round and keeps the seat, the dice and the table.
                seat = dataset(opener)["mySeat"]
                faces = own_faces(opener)
                opener.reload()
                wait_data(opener, "wager", "1x1")
                assert dataset(opener)["mySeat"] == seat
                assert opener.inner_text("#my-name") == name_of[int(seat)]
                assert own_faces(opener) == faces
                follower.click("#wager-btn")
                code = "2x6"
                for page in everyone:
                    wait_data(page, "wager", code)
                follower = by_seat[int(dataset(host)["turn"])]
            elif rounds == 2:
                # A dropped player shows as away to everyone, and comes back to the same seat.
                seat = dataset(opener)["mySeat"]
                opener.goto("about:blank")
                host.locator(f".felt .seat[data-seat='{seat}'] [data-presence='away']").wait_for()
                opener.goto(f"{server.url}/t/{table_id}")
                host.locator(f".felt .seat[data-seat='{seat}'] [data-presence='online']").wait_for()
                wait_data(opener, "wager", code)
                assert dataset(opener)["mySeat"] == seat

            before = seat_dice(host)
            follower.click("#liar-btn")
            for page in [*players, spectator]:
                badge = page.locator(f"#reveal[data-round='{rounds}'] .verify-badge[data-verify]")
                badge.wait_for()
                assert badge.get_attribute("data-verify") == "verified", badge.inner_text()
                assert badge.inner_text() == "verified ✓"
            assert sum(seat_dice(host)) < sum(before)
            # The docs show the first reveal with dice that count (highlighted).
            if not reveal_shot and follower.locator("#reveal .die-match").count():
                screenshot(follower, "liars-reveal.png", tmp_path, doc=True)
                reveal_shot = True

        assert rounds >= 2
        winner = int(dataset(host)["winner"])
        for page in everyone:
            page.locator("#game-over").wait_for()
            assert dataset(page)["winner"] == str(winner)
        assert by_seat[winner].inner_text("#game-over").startswith("Game over — You win!")
        loser = by_seat[(winner + 1) % 3]
        assert f"{name_of[winner]} wins!" in loser.inner_text("#game-over")
        screenshot(spectator, "liars-phone.png", tmp_path, doc=True)
        if not reveal_shot:
            screenshot(by_seat[winner], "liars-reveal.png", tmp_path, doc=True)
        assert page_errors == []
