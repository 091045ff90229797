"""Away players, stand-in bots, the turn timer, and pausing."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from web_support import create_table, join, live_server


def presence_of(frame: dict[str, Any], player_id: str) -> str | None:
    seats = frame["table"]["seats"]
    return next((s["presence"] for s in seats if s["player_id"] == player_id), None)


@pytest.mark.asyncio
async def test_web_a_dropped_player_is_covered_by_a_bot_until_they_return(
        database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", rules={"dice_per_player": 2},
                                   options={"bot_delay_ms": 0, "grace_s": 0})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        host = await server.connect(tid, table["host_token"], "host")
        assert (await host.request({"type": "add_bot", "kind": "random"}))["type"] == "ack"
        player = await server.connect(tid, ann["seat_token"], "ann")
        assert presence_of(player.latest_state(), ann["player_id"]) == "online"
        assert (await host.request({"type": "start"}))["type"] == "ack"
        await player.close()
        # Away, then (grace 0) covered by a stand-in, which plays Ann's seat to the end.
        await host.wait_for(lambda f: f["type"] == "state"
                            and presence_of(f, ann["player_id"]) == "covered")
        final = await host.wait_for(lambda f: f["type"] == "state" and f["game"] is not None
                                    and f["game"]["status"] == "over", timeout=30)
        assert final["game"]["view"]["winner"] in (0, 1)
        store = server.manager.store
        events = store.game(final["game"]["game_id"]).log["events"]
        seat = next(s["seat"] for s in final["game"]["seats"]
                    if s["player_id"] == ann["player_id"])
        assert any(e["type"] in ("wager_made", "accused") and seat in (e.get("seat"),
                   e.get("accuser")) for e in events)
        # Ann comes back with her token: same seat, online again.
        player = await server.connect(tid, ann["seat_token"], "ann")
        back = player.latest_state()
        assert back["you"] == {"role": "player", "player_id": ann["player_id"], "seat": seat}
        assert presence_of(back, ann["player_id"]) == "online"
        await player.close()
        await host.close()


@pytest.mark.asyncio
async def test_web_turn_timer_and_pause(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice",
                                   options={"bot_delay_ms": 0, "turn_timer_s": 1})
        tid = table["table_id"]
        ann, bo = await join(server, tid, "Ann"), await join(server, tid, "Bo")
        host = await server.connect(tid, table["host_token"], "host")
        players = [await server.connect(tid, ann["seat_token"], "ann"),
                   await server.connect(tid, bo["seat_token"], "bo")]
        assert (await host.request({"type": "pause"}))["code"] == "no-game"
        assert (await host.request({"type": "start"}))["type"] == "ack"
        game = host.latest_state()["game"]
        turn = game["view"]["turn"]
        assert game["timer"]["seat"] == turn and game["timer"]["seconds"] == 1
        # Paused: no action is taken, and no timer runs.
        assert (await host.request({"type": "pause"}))["type"] == "ack"
        paused = host.latest_state()
        assert paused["table"]["status"] == "paused" and paused["game"]["timer"] is None
        acting = players[turn]  # seats follow join order
        legal = acting.latest_state()["game"]["view"]["legal_wagers"]
        reply = await acting.request({"type": "wager", "wager": legal[0]})
        assert reply["code"] == "paused"
        await asyncio.sleep(1.2)
        assert host.latest_state()["game"]["view"]["wager"] is None
        # Resumed: the person to act lets the timer run out; a stand-in moves for them.
        assert (await host.request({"type": "resume"}))["type"] == "ack"
        moved = await host.wait_for(lambda f: f["type"] == "state" and f["game"] is not None
                                    and f["game"]["status"] == "playing"
                                    and (f["game"]["view"]["wager_maker"] == turn
                                         or f["game"]["view"]["round"] > 1), timeout=5)
        assert moved["game"]["view"]["round"] > 1 or moved["game"]["view"]["wager"] is not None
        for client in [*players, host]:
            await client.close()
