"""Helpers for the browser tests: the real app on Uvicorn in a thread (its own event loop,
a temporary SQLite database), Debian's Chromium driven by Playwright, and screenshots.

Screenshots go to ``$TAVERN_ARTIFACTS`` (or the test's ``tmp_path``); with
``TAVERN_DOC_SCREENSHOTS=1`` they are also written to ``docs/screenshots/`` for the README.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from web_support import uvicorn_server

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
ROOT = Path(__file__).resolve().parents[2]
DOC_SCREENSHOTS = ROOT / "docs" / "screenshots"
AXE_JS = Path(os.environ.get("AXE_DIR", ROOT / ".venv" / "axe")) / "node_modules" / "axe-core" \
    / "axe.min.js"
"""axe-core, installed from the npm registry by ``scripts/ensure-axe`` (``make test``)."""
AXE_FAILS_ON = ("critical", "serious")
ACTION_TIMEOUT_MS = 30_000
"""How long Playwright waits for an element or a state before failing a step (generous:
on a 2-core machine under load, three Chromium pages and the server share the CPUs;
a step that succeeds waits no longer for it)."""


def require_chromium() -> None:
    """Skip when there is no Chromium here, unless under CI, where a missing browser fails."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing under CI: scripts/ensure-chromium should install it")
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium); CI installs it")


def require_axe() -> str:
    """The axe-core script, or a skip that says why it is missing."""
    if AXE_JS.exists():
        return AXE_JS.read_text(encoding="utf-8")
    pytest.skip(f"axe-core is not installed at {AXE_JS}: scripts/ensure-axe installs it from "
                "npm (is npm installed?)")


def axe_violations(page: Any, axe_source: str, state: str) -> list[str]:
    """Run axe-core on ``page`` as it stands; return the critical and serious violations
    in words (``state`` names the page state for the message). ``evaluate`` runs outside
    the page's Content-Security-Policy, so the script need not be served by the app."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(axe_source)
    found = page.evaluate("""async () => {
        const result = await axe.run(document, {resultTypes: ['violations']});
        return result.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map((n) => n.target.join(' '))}));
    }""")
    return [f"{state}: {v['impact']} {v['id']} ({v['help']}) at {v['nodes']}"
            for v in found if v["impact"] in AXE_FAILS_ON]


def horizontal_overflow(page: Any) -> int:
    """How many pixels the page is wider than its viewport (0: no sideways scroll)."""
    width: int = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    return width


class LiveServer:
    """The web table's app on 127.0.0.1 (port chosen by the OS) in a background thread."""

    def __init__(self, database_url: str) -> None:
        self.app, self.server = uvicorn_server(database_url)
        self.thread = threading.Thread(target=self.server.run, name="tavern-web", daemon=True)
        self.port = 0

    def start(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the web table did not start")
            time.sleep(0.02)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextmanager
def live_server(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(f"sqlite:///{tmp_path / 'tavern.sqlite3'}").start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def browser_table(tmp_path: Path) -> Iterator[tuple[LiveServer, Any]]:
    """What every browser test starts with: Chromium required (see
    :func:`require_chromium`), :data:`page_errors` cleared, the app served and a
    browser launched. Yields ``(server, browser)``."""
    require_chromium()
    page_errors.clear()
    with live_server(tmp_path) as server, chromium() as browser:
        yield server, browser


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium (Debian's) under Playwright's sync API."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                    headless=True)
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser: Any, width: int = 1280, height: int = 860) -> Any:
    """A page in a fresh browser context (its own localStorage: one person's browser)."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  device_scale_factor=1)
    context.set_default_timeout(ACTION_TIMEOUT_MS)
    page = context.new_page()
    page.on("pageerror", lambda error: page_errors.append(f"{page.url}: {error}"))
    return page


page_errors: list[str] = []
"""Uncaught JavaScript errors of every page, checked by the tests."""


def artifacts_dir(tmp_path: Path) -> Path:
    base = os.environ.get("TAVERN_ARTIFACTS")
    path = Path(base) if base else tmp_path / "artifacts"
    path.mkdir(parents=True, exist_ok=True)
    return path


def screenshot(page: Any, name: str, tmp_path: Path, *, doc: bool = False) -> Path:
    """Save ``name`` (e.g. ``liars-table.png``) as a test artefact; a ``doc`` screenshot is
    also written to ``docs/screenshots/`` when ``TAVERN_DOC_SCREENSHOTS=1``."""
    path = artifacts_dir(tmp_path) / name
    page.screenshot(path=str(path), full_page=True, animations="disabled")
    if doc and os.environ.get("TAVERN_DOC_SCREENSHOTS") == "1":
        DOC_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, DOC_SCREENSHOTS / name)
    return path
