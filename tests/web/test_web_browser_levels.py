"""Browser test (issue 51): the DM's seat-a-bot list offers the rated levels by name and
rating, weakest first, then the other bots; a level sits down under its persona's name."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_browser_support import browser_table, new_page, page_errors

from tavern_dice.bots.levels import LIARS_LEVELS
from tavern_dice.bots.registry import LIARS_DICE_BOTS
from tavern_dice.play.ratings import level_rating

pytestmark = pytest.mark.browser


def test_the_seat_a_bot_list_offers_the_levels_by_name_and_rating(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        host = new_page(browser, 1280, 800)
        host.goto(server.url + "/")
        host.wait_for_selector("#create-form")
        host.fill("#table-name", "The Rated Room")
        host.click("#create-btn")
        host.wait_for_selector("#dm-bar")
        rated = host.eval_on_selector_all(
            "#bot-kind optgroup[label^='Rated'] option",
            "els => els.map(e => [e.value, e.textContent])")
        expected = []
        for persona in LIARS_LEVELS:
            found = level_rating(persona.kind)
            assert found is not None
            expected.append([persona.kind, f"{persona.name}, {persona.title} · level "
                             f"{persona.level} · rated {round(found.mu)}"])
        assert rated == expected
        # Then every other bot of the registry, by its kind.
        others = host.eval_on_selector_all("#bot-kind optgroup[label='Other bots'] option",
                                           "els => els.map(e => e.value)")
        assert sorted(others + [k for k, _ in rated]) == sorted(LIARS_DICE_BOTS)
        host.select_option("#bot-kind", "vell")
        host.click("#add-bot-btn")
        host.locator("#seat-list li", has_text="Vell").wait_for()
        host.select_option("#bot-kind", "vell")
        host.click("#add-bot-btn")
        host.locator("#seat-list li", has_text="Vell 2").wait_for()
        assert page_errors == []
