"""Dice Blackjack at the web table: the DM's console is the house (digital dice committed
before bets, or the DM's physical rolls typed in), players bet, roll and stand, and
every settlement lands in the gold ledger."""

from __future__ import annotations

import json
from typing import Any

import pytest
from web_support import WsClient, create_table, join, live_server

from tavern_dice.web.commitments import verify


def phase(name: str) -> Any:
    return lambda f: (f["type"] == "state" and f["game"] is not None
                      and f["game"]["view"]["phase"] == name)


async def ok(client: WsClient, frame: dict[str, Any]) -> dict[str, Any]:
    reply = await client.request(frame)
    assert reply["type"] == "ack", (frame, reply)
    return client.latest_state()


async def refused(client: WsClient, frame: dict[str, Any], code: str = "illegal") -> str:
    reply = await client.request(frame)
    assert (reply["type"], reply["code"]) == ("error", code), (frame, reply)
    message: str = reply["message"]
    return message


@pytest.mark.asyncio
async def test_web_blackjack_digital_round_commits_the_house_dice_before_bets(
        database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "blackjack", options={"bot_delay_ms": 0})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann", proficiency=4)
        host = await server.connect(tid, table["host_token"], "host")
        await ok(host, {"type": "add_bot", "kind": "bold"})
        person = await server.connect(tid, ann["seat_token"], "ann")
        state = await ok(host, {"type": "start"})
        game = state["game"]
        # Round 1 is open for bets, and the house's dice are already committed.
        assert game["view"]["phase"] == "betting"
        assert game["commitments"]["round"] == 1
        [house_commitment] = game["commitments"]["items"]
        assert set(house_commitment) == {"seat", "digest"}
        assert house_commitment["seat"] == "house"
        await refused(person, {"type": "house_roll"}, "not-allowed")
        await refused(person, {"type": "bet", "amount_cp": 5000})  # over the balance
        await ok(person, {"type": "bet", "amount_cp": 250})
        state = await host.wait_for(phase("target-roll"))
        assert state["game"]["pending_roll"] == {"purpose": "target", "seat": None,
                                                 "count": 1, "sides": 20}
        await refused(host, {"type": "house_roll", "target": 5, "house": [1, 2]})
        frames_before_roll = {c.name: len(c.frames) for c in (host, person)}
        state = await ok(host, {"type": "house_roll"})
        view, proofs = state["game"]["view"], state["game"]["proofs"]
        [proof] = proofs["items"]
        # Until the DM rolled, no frame to anyone held the house's salt (nor, so, its faces).
        for client in (host, person):
            earlier = json.dumps(client.frames[: frames_before_roll[client.name]])
            assert proof["salt"] not in earlier
        assert proofs["round"] == 1 and proof["digest"] == house_commitment["digest"]
        assert verify(proof["digest"], game["game_id"], 1, "house", proof["faces"],
                      proof["salt"])
        assert proof["faces"][0] == view["target"]
        if view["target"] != 1:
            assert proof["faces"][1:] == view["house_dice"]
        # The person plays their turn (if the round was not collected on a target of 1).
        while True:
            frame = await person.wait_for(
                lambda f: (f["type"] == "state" and f["game"]["view"]["phase"] == "round-over")
                or (f["type"] == "state" and "stand" in f["game"]["view"]["legal_actions"]))
            view = frame["game"]["view"]
            if view["phase"] == "round-over":
                break
            total = view["totals"]["0"]
            if total + 6 < view["target"]:
                await ok(person, {"type": "roll"})
            else:
                await ok(person, {"type": "stand", "bonus": max(view["legal_bonuses"])})
        state = await host.wait_for(phase("round-over"))
        settlements = state["game"]["view"]["settlements"]
        assert {s["seat"] for s in settlements} == {0, 1}
        balances = state["table"]["balances"]
        seats = state["game"]["seats"]
        for s in settlements:
            assert balances[seats[s["seat"]]["player_id"]] == s["balance"]
        async with server.client() as http:
            rows = (await http.get(f"/api/tables/{tid}/ledger")).json()["rows"]
        assert sorted((r["player_id"], r["amount_cp"], r["reason"]) for r in rows
                      if r["reason"].startswith("settlement")) == sorted(
            (seats[s["seat"]]["player_id"], s["delta"], f"settlement:{s['outcome']}")
            for s in settlements)
        # DM's gold can't change hands mid-session; the next round gets a new commitment.
        await refused(host, {"type": "grant", "player_id": ann["player_id"], "amount_cp": 5},
                      "conflict")
        state = await ok(host, {"type": "next_round"})
        assert state["game"]["commitments"]["round"] == 2
        assert state["game"]["commitments"]["items"][0]["digest"] != proof["digest"]
        await ok(host, {"type": "end"})
        state = await ok(host, {"type": "grant", "player_id": ann["player_id"],
                                "amount_cp": 500})
        assert state["table"]["balances"][ann["player_id"]] == balances[ann["player_id"]] + 500
        await person.close()
        await host.close()


@pytest.mark.asyncio
async def test_web_blackjack_manual_dice_typed_by_the_dm(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "blackjack",
                                   options={"dice_mode": "manual", "starting_gold_cp": 1000})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann", proficiency=4)
        host = await server.connect(tid, table["host_token"], "host")
        person = await server.connect(tid, ann["seat_token"], "ann")
        state = await ok(host, {"type": "start"})
        assert state["game"]["commitments"] is None  # physical dice: nothing to commit
        await ok(person, {"type": "bet", "amount_cp": 100})
        engine = server.manager.tables[tid].session.engine
        log_before = engine.to_log()
        await refused(host, {"type": "house_roll"})
        await refused(host, {"type": "house_roll", "target": 25, "house": [10, 17]})
        # A target that fits but house dice that don't: the whole roll is undone.
        await refused(host, {"type": "house_roll", "target": 15, "house": [10, 30]})
        engine = server.manager.tables[tid].session.engine
        assert engine.to_log() == log_before
        state = await ok(host, {"type": "house_roll", "target": 15, "house": [10, 17]})
        view = state["game"]["view"]
        assert (view["target"], view["house_dice"], view["house_roll"]) == (15, [10, 17], 10)
        assert state["game"]["pending_roll"] == {"purpose": "d12", "seat": 0, "count": 1,
                                                 "sides": 12}
        await refused(person, {"type": "roll"})  # the DM has not typed the first d12 yet
        await refused(person, {"type": "d12", "face": 9}, "not-allowed")
        await refused(host, {"type": "d12", "face": 13})
        await ok(host, {"type": "d12", "face": 9})
        await refused(person, {"type": "stand", "bonus": 3})  # ceil(4/2) = 2 at most
        state = await ok(person, {"type": "stand", "bonus": 2})
        [settled] = state["game"]["view"]["settlements"]
        assert (settled["final"], settled["outcome"], settled["delta"]) == (11, "win", 100)
        assert state["table"]["balances"][ann["player_id"]] == 1100
        await person.close()
        await host.close()
