"""A host action whose database write fails changes nothing in memory either, so the
table never shows (or plays on) a state a restart would lose."""

from __future__ import annotations

from typing import Any

import pytest
from web_support import create_table, join, live_server


def failing(*_args: Any, **_kwargs: Any) -> None:
    raise OSError("disk full")


@pytest.mark.asyncio
async def test_web_failed_writes_leave_memory_as_stored(database_url: str,
                                                         monkeypatch: Any) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", options={"bot_delay_ms": 5000})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        bo = await join(server, tid, "Bo")
        host = await server.connect(tid, table["host_token"], "host")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        live = server.manager.tables[tid]
        store = live.store
        monkeypatch.setattr(store, "commit_steps", failing)
        monkeypatch.setattr(store, "update_table", failing)
        refused = [
            {"type": "pause"},
            {"type": "remove", "player_id": ann["player_id"]},
            {"type": "move", "player_id": bo["player_id"], "to": 0},
            {"type": "set_options", "options": {"grace_s": 5}},
        ]
        for frame in refused:
            reply = await host.request(frame)
            assert (reply["type"], reply["code"]) == ("error", "server"), (frame, reply)
        assert live.session.status == "playing"
        assert live.status == "playing"
        assert live.seat_list == [ann["player_id"], bo["player_id"]]
        assert live.options.grace_s == 30
        stored = store.table(tid)
        assert list(stored.seats) == live.seat_list
        assert stored.options["grace_s"] == 30
