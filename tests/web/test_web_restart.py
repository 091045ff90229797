"""A server stopped mid-game and started again on the same database finishes the game
with no event and no gold lost (Liar's Dice with stakes; Dice Blackjack rounds)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from web_support import (
    LiveServer,
    WsClient,
    create_table,
    join,
    live_server,
    play_liars_dice_person,
)

from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.web.commitments import verify


async def ledger(server: LiveServer, table_id: str) -> dict[str, Any]:
    async with server.client() as http:
        data: dict[str, Any] = (await http.get(f"/api/tables/{table_id}/ledger")).json()
        return data


async def play_until(client: WsClient, done: Any) -> None:
    """Play Liar's Dice for ``client`` until ``done()``; return when it says so."""
    task = asyncio.get_running_loop().create_task(play_liars_dice_person(client, done))
    while not done() and not task.done():
        await asyncio.sleep(0.01)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


@pytest.mark.asyncio
async def test_web_liars_dice_survives_a_restart(database_url: str) -> None:
    url = database_url
    options = {"bot_delay_ms": 0, "grace_s": 600, "stake_cp": 100, "starting_gold_cp": 1000}
    async with live_server(url) as server:
        table = await create_table(server, "liars-dice", rules={"dice_per_player": 2},
                                   options=options)
        tid = table["table_id"]
        ann, bo = await join(server, tid, "Ann"), await join(server, tid, "Bo")
        host = await server.connect(tid, table["host_token"], "host")
        for kind in ("random", "probabilistic"):
            assert (await host.request({"type": "add_bot", "kind": kind}))["type"] == "ack"
        assert (await host.request({"type": "start"}))["type"] == "ack"
        game_id = host.latest_state()["game"]["game_id"]
        clients = [await server.connect(tid, ann["seat_token"], "ann"),
                   await server.connect(tid, bo["seat_token"], "bo")]

        def one_reveal() -> bool:
            stored = server.manager.store.game(game_id)
            return any(e["type"] == "revealed" for e in stored.log["events"])

        await asyncio.wait_for(asyncio.gather(*(play_until(c, one_reveal) for c in clients)), 30)
        # Let any bot move in flight land, then stop the server mid-game.
        await asyncio.sleep(0.05)
        before = server.manager.store.game(game_id)
        assert before.status == "playing"
        ledger_before = await ledger(server, tid)
        for client in [*clients, host]:
            await client.close()

    async with live_server(url) as server:
        async with server.client() as http:
            summary = (await http.get(f"/api/tables/{tid}")).json()
        assert summary["status"] == "playing" and summary["game_id"] == game_id
        clients = [await server.connect(tid, ann["seat_token"], "ann"),
                   await server.connect(tid, bo["seat_token"], "bo")]
        first = next(f for f in clients[0].frames if f["type"] == "state")["game"]
        assert first["events_from"] == 0
        # The reloaded game carries on from the stored log, plus any moves bots made since.
        assert len(first["events"]) >= len(before.log["events"])
        over = False
        await asyncio.wait_for(asyncio.gather(
            *(play_liars_dice_person(c, lambda: over) for c in clients)), 60)
        over = True
        async with server.client() as http:
            export = (await http.get(f"/api/games/{game_id}")).json()
        ledger_after = await ledger(server, tid)
        for client in clients:
            await client.close()

    events = export["log"]["events"]
    assert export["status"] == "over"
    assert events[: len(before.log["events"])] == before.log["events"]
    game = LiarsDiceGame.from_log(export["log"])
    assert game.is_over
    winner = export["seats"][game.winner]["player_id"]
    # Gold: every row from before the restart is still there, and the pot went to the winner.
    rows_before = {r["id"]: r for r in ledger_before["rows"]}
    rows_after = {r["id"]: r for r in ledger_after["rows"]}
    assert all(rows_after[i] == row for i, row in rows_before.items())
    pots = [r for r in ledger_after["rows"] if r["reason"] == "pot"]
    assert [(r["player_id"], r["amount_cp"]) for r in pots] == [(winner, 400)]
    balances = {b["player_id"]: b["balance_cp"] for b in ledger_after["balances"]}
    assert sum(balances.values()) == 4 * 1000
    assert balances[winner] == 1000 - 100 + 400
    # Commitments of every round verify against the dice in the log.
    for c in export["commitments"]:
        assert c["revealed"]
        assert verify(c["digest"], game_id, c["round"], int(c["seat"]), c["faces"], c["salt"])


def phase(name: str) -> Any:
    """A frame predicate: a ``state`` whose game view is in phase ``name``."""
    return lambda f: (f["type"] == "state" and f["game"] is not None
                      and f["game"]["view"]["phase"] == name)


async def blackjack_turn(person: WsClient) -> None:
    """Stand (without bonus) as soon as it is the person's turn to roll or stand."""
    frame = await person.wait_for(
        lambda f: (f["type"] == "state" and f["game"] is not None
        and "stand" in f["game"]["view"]["legal_actions"])
        or (f["type"] == "state" and f["game"] is not None
        and f["game"]["view"]["phase"] == "round-over")
    )
    if "stand" in frame["game"]["view"]["legal_actions"]:
        assert (await person.request({"type": "stand", "bonus": 0}))["type"] == "ack"


@pytest.mark.asyncio
async def test_web_blackjack_survives_a_restart(database_url: str) -> None:
    url = database_url
    async with live_server(url) as server:
        table = await create_table(server, "blackjack",
                                   options={"bot_delay_ms": 0, "grace_s": 600})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann", proficiency=4)
        host = await server.connect(tid, table["host_token"], "host")
        assert (await host.request({"type": "add_bot", "kind": "cautious"}))["type"] == "ack"
        person = await server.connect(tid, ann["seat_token"], "ann")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        game_id = host.latest_state()["game"]["game_id"]
        assert (await person.request({"type": "bet", "amount_cp": 200}))["type"] == "ack"
        await host.wait_for(phase("target-roll"))
        assert (await host.request({"type": "house_roll"}))["type"] == "ack"
        await blackjack_turn(person)
        await host.wait_for(phase("round-over"))
        assert (await host.request({"type": "next_round"}))["type"] == "ack"
        assert (await person.request({"type": "bet", "amount_cp": 300}))["type"] == "ack"
        # Bets are closed and the house's round-2 dice are committed but not rolled yet.
        await host.wait_for(phase("target-roll"))
        commitment = host.latest_state()["game"]["commitments"]
        assert commitment["round"] == 2 and commitment["items"][0]["seat"] == "house"
        before = server.manager.store.game(game_id)
        ledger_before = await ledger(server, tid)
        for client in (person, host):
            await client.close()

    async with live_server(url) as server:
        host = await server.connect(tid, table["host_token"], "host")
        person = await server.connect(tid, ann["seat_token"], "ann")
        assert host.latest_state()["game"]["commitments"] == commitment
        assert (await host.request({"type": "house_roll"}))["type"] == "ack"
        await blackjack_turn(person)
        final = await host.wait_for(phase("round-over"))
        assert (await host.request({"type": "end"}))["type"] == "ack"
        async with server.client() as http:
            export = (await http.get(f"/api/games/{game_id}")).json()
        ledger_after = await ledger(server, tid)
        for client in (person, host):
            await client.close()

    events = export["log"]["events"]
    assert events[: len(before.log["events"])] == before.log["events"]
    game = BlackjackGame.from_log(export["log"])
    assert game.round == 2
    # The house's dice rolled after the restart are the ones committed before it.
    proof = final["game"]["proofs"]
    assert proof["round"] == 2
    item = proof["items"][0]
    assert item["digest"] == commitment["items"][0]["digest"]
    assert verify(item["digest"], game_id, 2, "house", item["faces"], item["salt"])
    assert item["faces"][0] == game.target
    # Gold: the old rows are kept, and each seat's ledger balance is the engine's balance.
    rows_after = {r["id"]: r for r in ledger_after["rows"]}
    assert all(rows_after[r["id"]] == r for r in ledger_before["rows"])
    balances = {b["player_id"]: b["balance_cp"] for b in ledger_after["balances"]}
    for seat, pid in enumerate(s["player_id"] for s in export["seats"]):
        assert balances[pid] == game.balances[seat]
    settled = [r for r in ledger_after["rows"] if r["reason"].startswith("settlement:")]
    assert {r["round"] for r in settled if r["player_id"] == ann["player_id"]} == {1, 2}
