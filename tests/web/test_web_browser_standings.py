"""Browser test: at a rated table (the option ``rated``, ticked on the create page) the
final standings of a Liar's Dice game show each person's table rating with its change,
"1532 (+32)", to the DM and to the player, with the figures the server stored."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_browser_support import browser_table, new_page, page_errors, screenshot

from tavern_dice.play.ratings import level_rating

pytestmark = pytest.mark.browser


def test_the_final_standings_show_the_players_rating(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        host = new_page(browser, 1280, 800)
        host.goto(server.url + "/")
        host.wait_for_selector("#create-form")
        host.fill("#rule-dice_per_player", "1")
        host.fill("#opt-bot_delay_ms", "0")
        # Ann never moves herself: the turn timer has a stand-in make each of her moves.
        host.fill("#opt-turn_timer_s", "1")
        host.check("#opt-rated")
        host.click("#create-btn")
        host.wait_for_selector("#dm-bar")
        table_id = host.url.rsplit("/", 1)[1]
        for kind, name in (("pip", "Pip"), ("tobb", "Tobb")):
            host.select_option("#bot-kind", kind)
            host.click("#add-bot-btn")
            host.locator("#seat-list li", has_text=name).wait_for()
        ann = new_page(browser, 1280, 800)
        ann.goto(f"{server.url}/t/{table_id}")
        ann.fill("#join-name", "Ann")
        ann.click("#join-btn")
        ann.locator("#my-name", has_text="Ann").wait_for()
        host.locator("#seat-list li").nth(2).wait_for()
        host.click("#start-btn")
        host.wait_for_selector("#standings .standings-list", timeout=120_000)
        ann.wait_for_selector("#my-rating")

        (entry,) = server.app.state.manager.store.ratings(table_id)
        change = round(entry.mu) - round(entry.mu_before)
        shown = f"{round(entry.mu)} ({'+' if change > 0 else '−' if change < 0 else '±'}" \
                f"{abs(change)})"
        levels = sorted(f"level {round(found.mu)}" for found in map(level_rating, ("pip", "tobb"))
                        if found is not None)
        for page in (host, ann):
            # Ann sat down after the two levels: seat 2, in the place the server stored.
            mine = page.locator("#standings li[data-seat='2'] .standings-rating")
            assert mine.text_content() == shown
            assert mine.get_attribute("data-change") == str(change)
            assert page.locator("#standings li[data-seat='2']").get_attribute(
                "data-place") == str(entry.place)
            places = page.eval_on_selector_all("#standings li",
                                               "els => els.map(e => e.dataset.place)")
            assert places == ["1", "2", "3"]
            shown_levels = page.eval_on_selector_all(
                "#standings .standings-rating:not([data-change])",
                "els => els.map(e => e.textContent)")
            assert sorted(shown_levels) == levels
        assert ann.locator("#my-rating").text_content() == f" Your rating: {shown}."
        screenshot(ann, "rated-standings.png", tmp_path)
        assert page_errors == []
