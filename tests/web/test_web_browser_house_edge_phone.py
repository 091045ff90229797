"""The house-edge panel on a phone (390 px): the create page stays within the viewport
with the results shown, each percentage on one line, no accessibility violations; while
the edges are worked out the panel says so; and a refused target keeps the result (whose
rules the form still plays) and says why in the panel, not in a pile of toasts."""

from __future__ import annotations

from pathlib import Path

import pytest
from web_browser_support import (
    axe_violations,
    browser_table,
    horizontal_overflow,
    new_page,
    page_errors,
    require_axe,
)

pytestmark = pytest.mark.browser

SEE_PROGRESS = """() => {
    window.sawProgress = "";
    new MutationObserver(() => {
        const line = document.getElementById("edge-progress");
        if (line) window.sawProgress = line.textContent;
    }).observe(document.body, {subtree: true, childList: true, characterData: true});
}"""
WRAPPED_CELLS = """() => [...document.querySelectorAll('#edge-table td')].filter((td) => {
    const range = document.createRange();
    range.selectNodeContents(td);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return lines.size > 1;
}).map((td) => td.textContent)"""


def test_the_house_edge_panel_fits_a_phone(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        page = new_page(browser, 390, 844)
        page.goto(server.url + "/")
        page.click("label.game-card:has-text('Dice Blackjack')")
        page.locator("#edge-panel").wait_for()
        page.fill("#edge-target", "2")
        # The progress line may come and go quickly on a warm server: record what it said.
        page.evaluate(SEE_PROGRESS)
        page.click("#edge-find")
        page.locator("#edge-summary").wait_for(timeout=60_000)
        assert "Working out the exact edge" in page.evaluate("() => window.sawProgress")
        assert page.locator("#edge-progress").count() == 0
        assert horizontal_overflow(page) == 0
        assert page.evaluate(WRAPPED_CELLS) == []
        assert axe_violations(page, require_axe(), "create page, house-edge results, phone") == []
        numerator = page.input_value("#rule-exact_numerator")

        for _ in range(3):
            page.fill("#edge-target", "500")
            page.click("#edge-find")
            page.locator("#edge-error").wait_for()
        assert "500" in page.inner_text("#edge-error")
        assert page.get_attribute("#edge-target", "aria-invalid") == "true"
        # The result stays: it is what the form's rules still play.
        assert page.locator("#edge-summary").count() == 1
        assert page.input_value("#rule-exact_numerator") == numerator
        assert page.locator("#toasts .toast").count() == 0
        assert page_errors == []
