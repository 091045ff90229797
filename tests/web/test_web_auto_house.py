"""Dice Blackjack with ``auto_house``: the house's dice, sealed when the round opened, roll
themselves the moment bets close, through the same commitment as the DM's button."""

from __future__ import annotations

from typing import Any

import pytest
from web_support import create_table, join, live_server

from tavern_dice.web.commitments import verify


@pytest.mark.asyncio
async def test_web_blackjack_auto_house_rolls_the_sealed_dice_when_bets_close(
        database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "blackjack",
                                   options={"bot_delay_ms": 0, "auto_house": True})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        host = await server.connect(tid, table["host_token"], "host")
        person = await server.connect(tid, ann["seat_token"], "ann")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        [sealed] = host.latest_state()["game"]["commitments"]["items"]
        assert sealed["seat"] == "house"
        assert (await person.request({"type": "bet", "amount_cp": 200}))["type"] == "ack"

        def rolled(f: dict[str, Any]) -> bool:
            return f["type"] == "state" and f["game"] is not None and \
            f["game"]["view"]["phase"] in ("playing", "round-over")

        state = await host.wait_for(rolled)
        game = state["game"]
        view = game["view"]
        # Nobody pressed the house's button: the table rolled, and its faces are the sealed ones.
        [proof] = game["proofs"]["items"]
        assert proof["digest"] == sealed["digest"]
        assert verify(proof["digest"], game["game_id"], 1, "house", proof["faces"],
                      proof["salt"])
        assert proof["faces"][0] == view["target"]
        if view["target"] != 1:
            assert proof["faces"][1:] == view["house_dice"]
            # The player's first d12 rolled itself too (the engine's chance policy).
            assert view["phase"] == "round-over" or view["totals"]["0"] >= 1
        await person.close()
        await host.close()
