"""A player the DM removes from the seat list loses the seat: their open page is told why
and closed with the bad-token code (the page forgets the token and offers to join), and
the old seat token no longer opens a player's seat; a player removed from the next
game's list while playing the running one plays it out."""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from web_support import create_table, join, live_server

from tavern_dice.web.protocol import CLOSE_BAD_TOKEN


@pytest.mark.asyncio
async def test_web_a_removed_players_token_opens_no_seat(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice")
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        await join(server, tid, "Bo")
        page = await server.connect(tid, ann["seat_token"], "ann")
        host = await server.connect(tid, table["host_token"], "host")
        done = await host.request({"type": "remove", "player_id": ann["player_id"]})
        assert done["type"] == "ack", done
        told = await page.wait_for(lambda f: f["type"] == "error")
        assert told["code"] == "bad-token" and "join again" in told["message"]
        await asyncio.wait_for(page._reader, 10)
        assert page.ws.close_code == CLOSE_BAD_TOKEN
        # The old token: no welcome as a player, the same reason.
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{tid}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": ann["seat_token"]}))
            reply = await asyncio.wait_for(ws.recv(), 10)
            assert '"bad-token"' in str(reply) and "join again" in str(reply)
        seats = [s["name"] for s in host.latest_state()["table"]["seats"]]
        assert seats == ["Bo"]
        await host.close()
