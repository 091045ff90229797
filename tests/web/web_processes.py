"""Real ``tavern serve`` processes for the tests of several processes on one database:
started on free ports of 127.0.0.1, their logs in files, stopped (or killed) by the
test."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
from web_support import Endpoint, Frame, WsClient


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class ServeProcess(Endpoint):
    """One ``tavern serve`` in a child process (JSON logs at info in ``log_path``)."""

    def __init__(self, database_url: str, log_path: Path, *options: str) -> None:
        self.port = free_port()
        self.log_path = log_path
        self._log = log_path.open("w")
        command = [sys.executable, "-c", "from tavern_dice.cli import main; main()", "serve",
                   "--port", str(self.port), "--database-url", database_url,
                   "--log-level", "info", "--log-format", "json", *options]
        self.process = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT)

    async def started(self) -> ServeProcess:
        async with httpx.AsyncClient(timeout=2) as http:
            for _ in range(300):
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get(f"{self.http}/healthz")).status_code == 200:
                        return self
                if self.process.poll() is not None:
                    break
                await asyncio.sleep(0.1)
        raise AssertionError(f"tavern serve did not start: {self.log()[-3000:]}")

    async def health(self) -> dict[str, Any]:
        async with self.client() as http:
            data: dict[str, Any] = (await http.get("/healthz")).json()
            return data

    def log(self) -> str:
        self._log.flush()
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no goodbye to the database."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self._log.close()


@contextlib.asynccontextmanager
async def serve_processes(database_url: str, folder: Path, count: int
                          ) -> AsyncIterator[list[ServeProcess]]:
    """``count`` separate ``tavern serve`` processes on one database."""
    servers = [ServeProcess(database_url, folder / f"serve-{i}.log") for i in range(count)]
    try:
        for server in servers:
            await server.started()
        yield servers
    finally:
        for server in servers:
            server.stop()


def seen_log(client: WsClient, game_id: str) -> list[Frame]:
    """The game's event log as one connection received it (every ``state`` frame's new
    events, placed at their log indices)."""
    log: list[Frame] = []
    for frame in client.frames:
        game = frame.get("game") if frame["type"] == "state" else None
        if not game or game["game_id"] != game_id:
            continue
        start = game["events_from"]
        del log[start:]
        log.extend(game["events"])
    return log
