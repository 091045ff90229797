"""A refused late "Liar!" speaks to its sender: a second tap of the caller's own call is
"you already called", and the wager-maker reads "your wager", not their own names."""

from __future__ import annotations

import pytest
from test_web_hardening import turn_of
from web_support import create_table, join, live_server


@pytest.mark.asyncio
async def test_web_a_refused_call_names_its_sender_as_you(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", rules={"dice_per_player": 3},
                                   options={"bot_delay_ms": 0})
        tid = table["table_id"]
        joined = [await join(server, tid, name) for name in ("Ann", "Bo", "Cy")]
        host = await server.connect(tid, table["host_token"], "host")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        session = server.manager.tables[tid].session
        by_seat = {session.seats.index(j["player_id"]): await server.connect(
            tid, j["seat_token"], j["player_id"]) for j in joined}
        names = session.engine.players
        first = await turn_of(by_seat)
        code = by_seat[first].latest_state()["game"]["view"]["legal_wagers"][0]
        assert (await by_seat[first].request({"type": "wager", "wager": code}))["type"] == "ack"
        caller = next(s for s in by_seat if s != first)
        call = {"type": "accuse", "round": 1, "wager": code}
        assert (await by_seat[caller].request(call))["type"] == "ack"
        again = await by_seat[caller].request(call)
        assert again["type"] == "error"
        assert again["message"].startswith(
            f"you already called \"Liar!\" on {names[first]}'s wager of ")
        assert names[caller] not in again["message"]
        mine = await by_seat[first].request(call)
        assert mine["type"] == "error"
        assert mine["message"].startswith(f"{names[caller]} called \"Liar!\" first, on your "
                                          "wager of ")
