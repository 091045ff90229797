"""Physical dice and a player who never types: with a turn timer, the hands still missing
when it runs out are rolled by the server; without one, the DM's "roll for this seat" does
it. Either way it is said publicly (``server_rolled``, with the reason), and the waiting
list and the DM's refusals name who is still to type."""

from __future__ import annotations

import asyncio

import pytest
from test_web_physical_dice import OPTIONS, game, seat_people, settle
from web_support import live_server


@pytest.mark.asyncio
async def test_web_a_hand_not_typed_in_time_is_rolled_by_the_server(database_url: str) -> None:
    async with live_server(database_url) as server:
        options = {**OPTIONS, "turn_timer_s": 1}
        _tid, _host, players, _ = await seat_people(server, bots=0, options=options)
        ann, bo, cid = players
        timer = game(ann)["timer"]
        assert timer is not None and timer["seats"] == [0, 1, 2]
        assert (await ann.request({"type": "dice", "faces": [2, 2]}))["type"] == "ack"
        assert (await bo.request({"type": "dice", "faces": [5, 1]}))["type"] == "ack"
        state = await ann.wait_for(lambda f: f["type"] == "state"
                                   and f["game"]["view"]["phase"] == "bidding", timeout=15)
        assert state["game"]["server_rolled"] == {"1": {"2": "time"}}
        await settle(cid)
        assert len(game(cid)["view"]["own_dice"]) == 2


@pytest.mark.asyncio
async def test_web_the_dm_rolls_for_a_seat_that_holds_the_table(database_url: str) -> None:
    async with live_server(database_url) as server:
        _tid, host, players, _ = await seat_people(server, bots=0)
        ann, bo, cid = players
        assert game(ann)["timer"] is None
        assert (await ann.request({"type": "dice", "faces": [2, 2]}))["type"] == "ack"
        typed = await host.request({"type": "roll_for", "seat": 0})
        assert typed["type"] == "error" and "waiting for seats 1 and 2" in typed["message"]
        refused = await bo.request({"type": "roll_for", "seat": 2})
        assert refused["type"] == "error" and refused["code"] == "not-allowed"
        assert (await host.request({"type": "roll_for", "seat": 2}))["type"] == "ack"
        await settle(ann, bo, cid)
        assert game(ann)["pending_roll"]["waiting"] == [1]
        assert game(ann)["view"]["phase"] == "round-roll"
        assert (await bo.request({"type": "dice", "faces": [5, 1]}))["type"] == "ack"
        state = await ann.wait_for(lambda f: f["type"] == "state"
                                   and f["game"]["view"]["phase"] == "bidding")
        assert state["game"]["server_rolled"] == {"1": {"2": "dm"}}
        await asyncio.sleep(0)
