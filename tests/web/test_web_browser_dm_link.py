"""The DM link in the browser: hidden until asked for, its QR code only on a second
request and never beside the join QR; opening it on another device moves the console (the
old one says so), the link then opens nothing, and the DM can replace the key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from web_browser_support import browser_table, new_page, page_errors

pytestmark = pytest.mark.browser

JOIN_QR = "img[alt='QR code of the join link']"
DM_QR = "img[alt='QR code of the DM link']"


def role(page: Any) -> str:
    value: str = page.evaluate("() => document.getElementById('app').dataset.role")
    return value


def test_the_dm_link_moves_the_console(tmp_path: Path) -> None:
    with browser_table(tmp_path) as (server, browser):
        made = httpx.post(f"{server.url}/api/tables", json={"game": "liars-dice"}, timeout=10)
        table_id, key = made.json()["table_id"], made.json()["host_token"]
        host = new_page(browser)
        host.goto(f"{server.url}/host/{table_id}#{key}")
        host.wait_for_selector("#dm-bar")
        assert host.locator("#dm-url").count() == 0 and host.locator(DM_QR).count() == 0
        host.click("#dm-link-btn")
        dm_url = host.input_value("#dm-url")
        assert host.locator(DM_QR).count() == 0 and host.locator(JOIN_QR).count() == 1
        host.click("#dm-qr-btn")
        host.locator(DM_QR).wait_for()
        assert host.locator(JOIN_QR).count() == 0

        tablet = new_page(browser, 390, 844)
        tablet.goto(dm_url)
        tablet.wait_for_selector("#dm-bar")
        assert role(tablet) == "host"
        host.locator(".fatal", has_text="opened on another device").wait_for()
        again = new_page(browser, 390, 844)
        again.goto(dm_url)
        again.locator(".fatal", has_text="This DM link no longer opens the table").wait_for()
        assert "stored in this browser" not in again.inner_text(".fatal")
        # An error page is not "reconnecting": it shows no connection badge.
        assert again.locator(".conn").count() == 0 and host.locator(".conn").count() == 0

        # The tablet replaces its key: its own console goes on, its earlier link dies.
        tablet.click("#dm-link-btn")
        tablet_url = tablet.input_value("#dm-url")
        tablet.once("dialog", lambda dialog: dialog.accept())
        tablet.click("#new-key-btn")
        tablet.locator("#toasts", has_text="New DM key").wait_for()
        tablet.wait_for_function(f"() => document.getElementById('dm-url')"
                                 f" && document.getElementById('dm-url').value !== {tablet_url!r}")
        assert tablet.locator(".fatal").count() == 0 and role(tablet) == "host"
        third = new_page(browser, 390, 844)
        third.goto(tablet_url)
        third.locator(".fatal", has_text="no longer opens").wait_for()
        assert page_errors == []
