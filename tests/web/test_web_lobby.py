"""The host's lobby: seats, bots, options, stakes and gold grants, with every gold
movement a ledger row."""

from __future__ import annotations

from typing import Any

import pytest
from web_support import WsClient, create_table, join, live_server


async def ok(client: WsClient, frame: dict[str, Any]) -> dict[str, Any]:
    reply = await client.request(frame)
    assert reply["type"] == "ack", (frame, reply)
    return client.latest_state()


async def code_of(client: WsClient, frame: dict[str, Any]) -> str:
    reply = await client.request(frame)
    assert reply["type"] == "error", (frame, reply)
    code: str = reply["code"]
    return code


@pytest.mark.asyncio
async def test_web_host_manages_seats_options_stakes_and_gold(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(
            server, "liars-dice", rules={"max_players": 3},
            options={"bot_delay_ms": 0, "stake_cp": 300, "starting_gold_cp": 200},
        )
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        host = await server.connect(tid, table["host_token"], "host")
        assert await code_of(host, {"type": "add_bot", "kind": "telepath"}) == "illegal"
        state = await ok(host, {"type": "add_bot", "kind": "random", "name": "Rolo"})
        rolo = state["table"]["seats"][1]
        assert (rolo["name"], rolo["kind"], rolo["bot_kind"], rolo["presence"]) == (
            "Rolo", "bot", "random", "bot")
        await ok(host, {"type": "add_bot", "kind": "probabilistic"})
        assert await code_of(host, {"type": "add_bot", "kind": "random"}) == "conflict"
        async with server.client() as http:
            full = await http.post(f"/api/tables/{tid}/join", json={"name": "Bo"})
            assert full.status_code == 409
        state = await ok(host, {"type": "move", "player_id": ann["player_id"], "to": 2})
        assert [s["player_id"] for s in state["table"]["seats"]][2] == ann["player_id"]
        assert await code_of(host, {"type": "move", "player_id": ann["player_id"],
                                    "to": 3}) == "illegal"
        state = await ok(host, {"type": "remove", "player_id": rolo["player_id"]})
        assert len(state["table"]["seats"]) == 2
        assert await code_of(host, {"type": "set_options",
                                    "options": {"grace_s": -1}}) == "bad-message"
        assert await code_of(host, {"type": "set_options",
                                    "options": {"standin_bot": "telepath"}}) == "illegal"
        state = await ok(host, {"type": "set_options", "options": {"grace_s": 5}})
        assert state["table"]["options"]["grace_s"] == 5
        # Everyone starts with 200 cp; the stake is 300: nobody can pay it yet.
        assert await code_of(host, {"type": "start"}) == "illegal"
        for pid in (s["player_id"] for s in state["table"]["seats"]):
            await ok(host, {"type": "grant", "player_id": pid, "amount_cp": 100})
        assert await code_of(host, {"type": "grant", "player_id": ann["player_id"],
                                    "amount_cp": -301}) == "illegal"
        state = await ok(host, {"type": "start"})
        seated = [s["player_id"] for s in state["game"]["seats"]]
        balances = state["table"]["balances"]
        assert [balances[pid] for pid in seated] == [0, 0]  # each paid the 300 cp stake
        assert balances[rolo["player_id"]] == 200  # the unseated bot pays nothing
        assert await code_of(host, {"type": "set_options",
                                    "options": {"dice_mode": "manual"}}) == "conflict"
        # Ending the game early gives the stakes back.
        state = await ok(host, {"type": "end"})
        assert state["game"]["status"] == "ended" and state["table"]["status"] == "lobby"
        async with server.client() as http:
            ledger = (await http.get(f"/api/tables/{tid}/ledger")).json()
        reasons = [(r["player_id"], r["reason"], r["amount_cp"]) for r in ledger["rows"]]
        for pid in (s["player_id"] for s in state["table"]["seats"]):
            assert [(r, a) for p, r, a in reasons if p == pid] == [
                ("starting-gold", 200), ("grant", 100), ("ante", -300), ("refund", 300)]
        balances = {b["player_id"]: b["balance_cp"] for b in ledger["balances"]}
        assert balances == state["table"]["balances"]
        assert set(balances.values()) == {300, 200}
        await host.close()
