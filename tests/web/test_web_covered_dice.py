"""Physical dice and a covered seat: the hand the server rolls for a player who was away
is marked as the server's for everyone (``server_rolled``), and that player is not asked
whether their cup shows it (their answer is refused, saying why)."""

from __future__ import annotations

import asyncio

import pytest
from test_web_physical_dice import OPTIONS, game, seat_people, settle
from web_support import WsClient, live_server


async def play_to_a_reveal(players: list[WsClient]) -> None:
    """Each player on turn raises by the lowest wager, or calls, until a reveal."""
    for _ in range(300):
        view = game(players[0])["view"]
        if view["last_reveal"] is not None:
            return
        turn = view["turn"]
        if view["phase"] == "bidding" and turn is not None:
            client = players[turn]
            tv = game(client)["view"]
            await client.request({"type": "accuse"} if tv["may_accuse"]
                                 else {"type": "wager", "wager": tv["legal_wagers"][0]})
        await asyncio.sleep(0.05)
    raise AssertionError("no reveal")


@pytest.mark.asyncio
async def test_web_a_covered_seats_hand_is_marked_the_servers(database_url: str) -> None:
    async with live_server(database_url) as server:
        options = {**OPTIONS, "grace_s": 0}
        tid, _host, players, joined = await seat_people(server, bots=0, options=options)
        ann, bo, cid = players
        await cid.close()  # away at once, covered after a grace of 0 s
        assert (await ann.request({"type": "dice", "faces": [2, 2]}))["type"] == "ack"
        assert (await bo.request({"type": "dice", "faces": [5, 1]}))["type"] == "ack"
        state = await ann.wait_for(lambda f: f["type"] == "state"
                                   and f["game"]["view"]["phase"] == "bidding")
        assert state["game"]["server_rolled"] == {"1": {"2": "away"}}
        # Back again: her page learns the hand it shows is the server's, not her cup's.
        cid = await server.connect(tid, joined[2]["seat_token"], "cid again")
        assert game(cid)["server_rolled"] == {"1": {"2": "away"}}
        assert len(game(cid)["view"]["own_dice"]) == 2
        players = [ann, bo, cid]
        await play_to_a_reveal(players)
        await settle(*players)
        refused = await cid.request({"type": "confirm_dice", "round": 1, "match": True})
        assert refused["type"] == "error", refused
        assert "the server rolled your dice in round 1" in refused["message"]
        assert (await ann.request({"type": "confirm_dice", "round": 1, "match": True}))[
            "type"] == "ack"
