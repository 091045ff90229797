"""The DM link moves the console: the page that opens it trades the link's key for a new
one, and every console holding the old key is told and closed; the DM can replace the key
the same way. The old key then opens nothing (a console, a DM link, a new key)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
import websockets
from web_support import LiveServer, create_table, live_server

from tavern_dice.web.protocol import CLOSE_BAD_TOKEN


async def post(server: LiveServer, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    async with httpx.AsyncClient(base_url=server.http) as client:
        reply = await client.post(path, json=body)
    return reply.status_code, reply.json()


async def hello_reply(server: LiveServer, tid: str, token: str) -> dict[str, Any]:
    async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{tid}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        frame: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return frame


@pytest.mark.asyncio
async def test_web_a_new_dm_key_ends_the_old_one(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice")
        tid, old = table["table_id"], table["host_token"]
        console = await server.connect(tid, old, "old console")
        status, made = await post(server, f"/api/tables/{tid}/host-key", {"host_token": old})
        assert status == 200, made
        new = made["host_token"]
        assert new != old and made["host_url"].endswith(f"/host/{tid}#{new}")
        told = await console.wait_for(lambda f: f["type"] == "error")
        assert told["code"] == "bad-token" and "opened on another device" in told["message"]
        await asyncio.wait_for(console._reader, 10)
        assert console.ws.close_code == CLOSE_BAD_TOKEN
        refused = await hello_reply(server, tid, old)
        assert refused["type"] == "error" and refused["code"] == "bad-token"
        for path in ("host-key", "host-link"):
            status, reply = await post(server, f"/api/tables/{tid}/{path}", {"host_token": old})
            assert status == 403, (path, reply)
        moved = await server.connect(tid, new, "new console")
        assert moved.latest_state()["you"]["role"] == "host"
        status, link = await post(server, f"/api/tables/{tid}/host-link", {"host_token": new})
        assert status == 200 and link["host_url"].endswith(f"#{new}")
        await moved.close()
