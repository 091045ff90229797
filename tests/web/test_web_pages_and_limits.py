"""What the pages and the protocol doc promise, checked against the server: every page
has a meta description, and a frame too large for the server is answered as
``docs/web-protocol.md`` says (over 4 KiB: an error, the socket stays open; over 64 KiB:
the socket is closed with 1009, the message-too-big code)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import websockets
from web_support import create_table, join, live_server

from tavern_dice.web.pages import PAGES, render
from tavern_dice.web.protocol import MAX_FRAME_BYTES

DOC = Path(__file__).resolve().parents[2] / "docs" / "web-protocol.md"


@pytest.mark.parametrize("name", sorted(PAGES))
def test_every_page_has_a_meta_description(name: str) -> None:
    found = re.search(r'<meta name="description" content="([^"]+)">', render(name))
    assert found is not None and len(found.group(1)) >= 50, name


def test_the_protocol_doc_says_what_a_too_large_frame_gets() -> None:
    text = " ".join(DOC.read_text(encoding="utf-8").split())
    assert "over 64 KiB" in text and "1009" in text


@pytest.mark.asyncio
async def test_web_too_large_frames_are_answered_as_documented(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice")
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        url = f"ws://127.0.0.1:{server.port}/ws/{tid}"
        async with websockets.connect(url, max_size=None) as ws:
            await ws.send(json.dumps({"type": "hello", "token": ann["seat_token"]}))
            assert json.loads(await ws.recv())["type"] == "welcome"
            await ws.recv()  # the state
            await ws.send(json.dumps({"type": "ping", "pad": "x" * (MAX_FRAME_BYTES + 10)}))
            assert json.loads(await ws.recv())["code"] == "too-large"
            await ws.send(json.dumps({"type": "ping", "id": "still-open"}))
            assert json.loads(await ws.recv())["type"] == "pong"
            await ws.send("x" * (64 * 1024 + 1))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
