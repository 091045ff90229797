"""`tavern serve` starts the whole web table with one command and prints where to open it."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
from typer.testing import CliRunner

from tavern_dice.cli import app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_web_serve_help_lists_the_options() -> None:
    result = CliRunner().invoke(app, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--database-url"):
        assert option in result.output


def test_web_serve_runs_and_prints_the_address(tmp_path: Path) -> None:
    port = free_port()
    database = tmp_path / "tavern.sqlite3"
    command = [sys.executable, "-c", "from tavern_dice.cli import main; main()", "serve",
               "--port", str(port), "--database-url", f"sqlite:///{database}"]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    try:
        assert process.stdout is not None
        first = process.stdout.readline()
        assert first.strip() == f"Tavern Dice web table: open http://127.0.0.1:{port}/"
        health = None
        for _ in range(200):
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        assert health is not None and health.json() == {"ok": True}
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert page.status_code == 200 and "<html" in page.text
        created = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                             json={"game": "blackjack"}, timeout=5)
        assert created.status_code == 201
        assert database.exists()
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_web_serve_reports_a_port_in_use_without_printing_an_address() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--port", str(port),
                                          "--database-url", "sqlite://"])
    assert result.exit_code == 1
    assert "open http" not in result.output
    assert f"cannot listen on 127.0.0.1:{port}" in result.output


def test_web_serve_on_every_interface_prints_the_lan_addresses(monkeypatch: Any) -> None:
    import psutil
    import uvicorn

    def addr(family: int, address: str) -> SimpleNamespace:
        return SimpleNamespace(family=family, address=address)

    fake = {
        "lo": [addr(socket.AF_INET, "127.0.0.1"), addr(socket.AF_INET6, "::1")],
        "wlan0": [addr(socket.AF_INET, "192.168.1.23"), addr(socket.AF_INET6, "fe80::1%wlan0")],
        "eth0": [addr(socket.AF_INET, "10.0.0.5"), addr(socket.AF_PACKET, "00:11:22:33:44:55")],
    }
    monkeypatch.setattr(psutil, "net_if_addrs", lambda: fake)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    port = free_port()
    result = CliRunner().invoke(app, ["serve", "--host", "0.0.0.0", "--port", str(port),
                                      "--database-url", "sqlite://"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"Tavern Dice web table: open http://localhost:{port}/"
    assert lines[1:3] == [f"  from phones on your network: http://192.168.1.23:{port}/",
                          f"  from phones on your network: http://10.0.0.5:{port}/"]
    assert "127.0.0.1" not in result.output and "fe80" not in result.output


def test_web_serve_on_one_address_prints_only_it(monkeypatch: Any) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port()),
                                      "--database-url", "sqlite://"])
    assert result.exit_code == 0, result.output
    assert "phones" not in result.output


def test_web_serve_ws_compression_reaches_uvicorn_off_by_default(monkeypatch: Any) -> None:
    import gc

    import uvicorn

    from tavern_dice.web.workers import GC_THRESHOLDS

    configs: list[Any] = []
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: configs.append(
        (self.config, gc.get_threshold())))
    thresholds = gc.get_threshold()
    try:
        for extra in ([], ["--ws-compression"], ["--no-ws-compression"]):
            result = CliRunner().invoke(app, ["serve", "--port", str(free_port()),
                                              "--database-url", "sqlite://", *extra])
            assert result.exit_code == 0, result.output
    finally:
        gc.set_threshold(*thresholds)  # the server tunes its collector; this process not
    assert [c.ws_per_message_deflate for c, _ in configs] == [False, True, False]
    assert all(collector == GC_THRESHOLDS for _, collector in configs)
    assert "--ws-compression" in CliRunner().invoke(app, ["serve", "--help"]).output
