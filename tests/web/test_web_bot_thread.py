"""A bot that thinks for a long time holds up only its own table: the server answers
everyone else meanwhile (``strong`` loads a round's table, seconds, the first time it plays
that round)."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
from web_support import create_table, live_server

from tavern_dice.web import autoplay


@pytest.mark.asyncio
async def test_web_a_slow_bot_does_not_stall_the_server(
        database_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    real = autoplay.next_bot_move
    thinking = threading.Event()
    began: list[float] = []

    def slow(*args: Any) -> Any:
        if not thinking.is_set():
            began.append(time.perf_counter())
            thinking.set()
            time.sleep(3.0)
        return real(*args)

    monkeypatch.setattr(autoplay, "next_bot_move", slow)
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", options={"bot_delay_ms": 0})
        tid = table["table_id"]
        host = await server.connect(tid, table["host_token"], "host")
        for kind in ("random", "random"):
            assert (await host.request({"type": "add_bot", "kind": kind}))["type"] == "ack"
        assert (await host.request({"type": "start"}))["type"] == "ack"
        async with server.client() as http:
            while not thinking.is_set():  # the bots' first decision is under way
                response = await http.get("/api/health")
            response = await http.get("/api/health")
            answered = time.perf_counter()
        assert response.status_code == 200
        # Answered while the bot still thought (it thinks 3 s): not after it.
        assert answered - began[0] < 2.0, answered - began[0]
        await host.close()
