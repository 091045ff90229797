"""Names nobody can fake: a look-alike of a seated name (a Cyrillic "А" in "Аnn") is
taken, and the names the pages use for the viewer and the host ("You", "DM", "The DM",
"Host") are refused, look-alikes included, with the reserved names listed."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from web_support import LiveServer, create_table, join, live_server

from tavern_dice.web.names import same_name, skeleton


async def post(server: LiveServer, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    async with httpx.AsyncClient(base_url=server.http) as client:
        reply = await client.post(path, json=body)
    return reply.status_code, reply.json()


def test_names_compare_by_their_look() -> None:
    assert same_name("Ann", "\u0410nn")  # Cyrillic capital A
    assert same_name("Ann", "\uff21\uff4e\uff4e")  # fullwidth
    assert same_name("bo", "\u0432o") is False  # Cyrillic ve is not a b
    assert not same_name("Ann", "Anne")
    assert skeleton("  Ann   Lee ") == skeleton("ann lee")


@pytest.mark.asyncio
async def test_web_a_look_alike_of_a_seated_name_is_taken(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice")
        tid = table["table_id"]
        await join(server, tid, "Ann")
        status, reply = await post(server, f"/api/tables/{tid}/join", {"name": "\u0410nn"})
        assert status == 409, reply
        assert "already called" in reply["detail"]
        host = await server.connect(tid, table["host_token"], "host")
        refused = await host.request({"type": "add_bot", "kind": "random", "name": "\u0410NN"})
        assert refused["type"] == "error" and "already called" in refused["message"]
        await host.close()


@pytest.mark.asyncio
async def test_web_the_names_of_the_viewer_and_the_host_are_refused(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice")
        tid = table["table_id"]
        for name in ("DM", "dm", "The DM", "the  dm", "\u0422he DM", "Host", "You"):
            status, reply = await post(server, f"/api/tables/{tid}/join", {"name": name})
            assert status == 422, (name, reply)
            assert reply["field"] == "name"
            assert "choose another name (not 'You', 'DM', 'The DM'" in reply["detail"]
        await join(server, tid, "Dmitri")  # only the whole name is reserved
