"""Players' physical dice at a Liar's Dice table (``dice_mode: "manual"``), over the API:
each player types their own hand, sealed at once and opened at the reveal; bad hands are
refused naming what would fit; the answers at a reveal; a restart between two hands."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from web_support import Frame, LiveServer, WsClient, create_table, join, live_server

from tavern_dice.web.commitments import verify

OPTIONS = {"bot_delay_ms": 0, "grace_s": 600, "dice_mode": "manual"}
NAMES = ("Ann", "Bo", "Cid")


async def seat_people(server: LiveServer, *, bots: int = 1, options: dict[str, Any] | None = None
                      ) -> tuple[str, WsClient, list[WsClient], list[dict[str, Any]]]:
    """A manual-dice table, 2 dice each: Ann, Bo and Cid connected, ``bots`` bots, started.
    Returns ``(table_id, host, players in seat order, their join answers)``."""
    table = await create_table(server, "liars-dice", rules={"dice_per_player": 2},
                               options=options or OPTIONS)
    tid = table["table_id"]
    joined = [await join(server, tid, name) for name in NAMES]
    host = await server.connect(tid, table["host_token"], "host")
    for _ in range(bots):
        assert (await host.request({"type": "add_bot", "kind": "random"}))["type"] == "ack"
    players = [await server.connect(tid, j["seat_token"], name)
               for j, name in zip(joined, NAMES, strict=True)]
    assert (await host.request({"type": "start"}))["type"] == "ack"
    for client in players:
        await client.wait_for(lambda f: f["type"] == "state" and f["game"] is not None)
    return tid, host, players, joined


def game(client: WsClient) -> Frame:
    found: Frame = client.latest_state()["game"]
    return found


async def settle(*clients: WsClient) -> None:
    """Let the frames of the last change arrive."""
    await asyncio.sleep(0.15)
    for client in clients:
        assert not client.closed


def secret_faces_in(frame: Frame, seat: int) -> list[Any]:
    """Every place a ``state`` frame could carry ``seat``'s hand before the reveal."""
    g = frame.get("game") or {}
    found: list[Any] = []
    for event in g.get("events", []):
        if event["type"] == "dice_rolled" and event["secret"]:
            for s, faces in zip(event["seats"], event["dice"], strict=True):
                if s == seat and any(f is not None for f in faces):
                    found.append(faces)
    proofs = g.get("proofs") or {}
    found += [i["faces"] for i in proofs.get("items", []) if i["seat"] == str(seat)
              and proofs.get("round") == (g.get("commitments") or {}).get("round")]
    return found


@pytest.mark.asyncio
async def test_web_physical_dice_round_flow(database_url: str) -> None:
    async with live_server(database_url) as server:
        _tid, host, players, _ = await seat_people(server)
        ann, bo, cid = players
        g = game(ann)
        assert g["view"]["phase"] == "round-roll" and g["view"]["round"] == 1
        # The roll-off is public and the server's; the secret hands wait for the people.
        assert any(e["type"] == "roll_off_result" for e in g["events"])
        pending = g["pending_roll"]
        assert pending == {"purpose": "round", "seat": None, "count": None, "sides": 6,
                           "round": 1, "entered": [], "waiting": [0, 1, 2]}
        assert g["commitments"] is None

        hands = {0: [3, 5], 1: [6, 6], 2: [1, 3]}
        assert (await ann.request({"type": "dice", "faces": hands[0]}))["type"] == "ack"
        state = await bo.wait_for(lambda f: f["type"] == "state"
                                  and (f["game"]["pending_roll"] or {}).get("entered") == [0])
        # Ann's hand is sealed at once: its digest reaches everyone, its faces nobody.
        sealed = {i["seat"]: i["digest"] for i in state["game"]["commitments"]["items"]}
        assert list(sealed) == ["0"]
        assert state["game"]["view"]["own_dice"] == []
        assert (await bo.request({"type": "dice", "faces": hands[1]}))["type"] == "ack"
        assert (await cid.request({"type": "dice", "faces": hands[2]}))["type"] == "ack"
        await settle(ann, bo, cid, host)
        g = game(ann)
        assert g["view"]["phase"] == "bidding" and g["pending_roll"] is None
        for seat, client in enumerate(players):
            assert game(client)["view"]["own_dice"] == hands[seat]
        commitments = {i["seat"]: i["digest"] for i in g["commitments"]["items"]}
        assert set(commitments) == {"0", "1", "2", "3"}  # the bot's sealed at the roll
        assert commitments["0"] == sealed["0"]

        # Play to the first reveal: each person raises by the lowest wager, or calls.
        game_id = g["game_id"]
        for _ in range(200):
            view = game(ann)["view"]
            if view["last_reveal"] is not None:
                break
            turn = view["turn"]
            if view["phase"] == "bidding" and turn is not None and turn < 3:
                client = players[turn]
                tv = game(client)["view"]
                frame = ({"type": "accuse"} if tv["may_accuse"]
                         else {"type": "wager", "wager": tv["legal_wagers"][0]})
                await client.request(frame)
            await asyncio.sleep(0.05)
        assert game(ann)["view"]["last_reveal"] is not None
        await settle(ann, bo, cid)
        g = game(ann)
        proofs = g["proofs"]
        assert proofs["round"] == 1
        for item in proofs["items"]:
            assert item["digest"] == commitments[item["seat"]]
            assert verify(commitments[item["seat"]], game_id, 1, item["seat"], item["faces"],
                          item["salt"])
            if int(item["seat"]) in hands:
                assert item["faces"] == hands[int(item["seat"])]
        # Before the reveal, no socket got another seat's typed faces.
        for seat, client in enumerate(players):
            before = [f for f in client.frames if f["type"] == "state"
                      and not (f["game"] or {}).get("proofs")]
            for other in hands:
                if other != seat:
                    assert not any(secret_faces_in(f, other) for f in before)

        # At the reveal each player says whether their cup shows those faces.
        assert g["dice_checks"] == {"round": 1, "items": []}
        assert (await ann.request({"type": "confirm_dice", "round": 1, "match": True}))[
            "type"] == "ack"
        again = await ann.request({"type": "confirm_dice", "round": 1, "match": False})
        assert again["type"] == "error" and again["code"] == "conflict"
        assert (await bo.request({"type": "confirm_dice", "round": 1, "match": False}))[
            "type"] == "ack"
        stale = await cid.request({"type": "confirm_dice", "round": 2, "match": True})
        assert stale["type"] == "error" and "round 1" in stale["message"]
        await settle(host)
        checks = game(host)["dice_checks"]
        assert checks == {"round": 1, "items": [{"seat": 0, "match": True},
                                                {"seat": 1, "match": False}]}
        assert [(c.round, c.seat, c.match)
                for c in server.manager.store.game(game_id).dice_checks] == [
            (1, 0, True), (1, 1, False)]
        # The next round waits for the hands of everyone still in.
        g = game(host)
        if g["status"] == "playing":
            assert g["pending_roll"]["round"] == 2
            assert g["pending_roll"]["entered"] == []


@pytest.mark.asyncio
async def test_web_physical_dice_bad_hands_change_nothing(database_url: str) -> None:
    async with live_server(database_url) as server:
        tid, host, players, _ = await seat_people(server)
        ann, bo, _cid = players
        await settle(ann)
        before = len(ann.frames)
        bad: list[tuple[Any, str]] = [
            ([3], "2 faces"),              # too few
            ([3, 5, 6], "2 faces"),        # too many
            ([3, 7], "1 to 6"),            # a face no d6 shows
            ([0, 5], "1 to 6"),
            ([2.5, 5], "1 to 6"),          # a float
            ([3.0, 5], "1 to 6"),          # a float that looks whole
            (["3", 5], "1 to 6"),          # a string face
            ([True, 5], "1 to 6"),         # a bool is no face
            ("3,5", "as a list"),          # a string for the hand
            (35, "as a list"),
            (None, "as a list"),
        ]
        for faces, hint in bad:
            reply = await ann.request({"type": "dice", "faces": faces})
            assert reply["type"] == "error" and reply["code"] == "illegal", (faces, reply)
            assert hint in reply["message"] and "whole number from 1 to 6" in reply["message"]
        missing = await ann.request({"type": "dice"})
        assert missing["type"] == "error" and missing["code"] == "bad-message"
        assert "faces" in missing["message"]
        # Nothing changed: no state frame, no commitment, nobody entered.
        assert [f for f in ann.frames[before:] if f["type"] == "state"] == []
        assert game(ann)["pending_roll"]["entered"] == []
        stored = server.manager.store.game(game(ann)["game_id"])
        assert stored.commitments == []

        # Only a seated player types, only their own hand, once.
        for client in (host, await server.connect(tid, None, "spectator")):
            reply = await client.request({"type": "dice", "faces": [1, 2]})
            assert reply["type"] == "error" and reply["code"] == "not-allowed"
        reply = await ann.request({"type": "dice", "faces": [1, 2], "seat": 1})
        assert reply["type"] == "error" and reply["code"] == "bad-message"
        assert (await ann.request({"type": "dice", "faces": [4, 4]}))["type"] == "ack"
        twice = await ann.request({"type": "dice", "faces": [1, 1]})
        assert twice["type"] == "error" and twice["code"] == "conflict"
        # No wager before every hand is in, no confirmation before a reveal.
        early = await bo.request({"type": "wager", "wager": "1x2"})
        assert early["type"] == "error"
        confirm = await bo.request({"type": "confirm_dice", "round": 1, "match": True})
        assert confirm["type"] == "error" and "no reveal yet" in confirm["message"]


@pytest.mark.asyncio
async def test_web_physical_dice_refused_at_a_digital_table(database_url: str) -> None:
    async with live_server(database_url) as server:
        _, _, players, _ = await seat_people(server, options={"bot_delay_ms": 0,
                                                              "grace_s": 600})
        reply = await players[0].request({"type": "dice", "faces": [1, 2]})
        assert reply["type"] == "error" and reply["code"] == "illegal"
        assert "digital" in reply["message"] and "manual" in reply["message"]


@pytest.mark.asyncio
async def test_web_physical_dice_covered_player_rolled_by_the_server(database_url: str) -> None:
    async with live_server(database_url) as server:
        options = {**OPTIONS, "grace_s": 0}
        _tid, _host, players, _ = await seat_people(server, bots=0, options=options)
        ann, bo, cid = players
        await cid.close()  # away at once, covered after a grace of 0 s
        assert (await ann.request({"type": "dice", "faces": [2, 2]}))["type"] == "ack"
        assert (await bo.request({"type": "dice", "faces": [5, 1]}))["type"] == "ack"
        state = await ann.wait_for(lambda f: f["type"] == "state"
                                   and f["game"]["view"]["phase"] == "bidding")
        assert {i["seat"] for i in state["game"]["commitments"]["items"]} == {"0", "1", "2"}
        assert game(ann)["view"]["own_dice"] == [2, 2]


@pytest.mark.asyncio
async def test_web_physical_dice_survive_a_restart_between_two_hands(database_url: str) -> None:
    url = database_url
    async with live_server(url) as server:
        tid, host, players, joined = await seat_people(server)
        ann = players[0]
        assert (await ann.request({"type": "dice", "faces": [6, 1]}))["type"] == "ack"
        await settle(ann)
        digest = game(ann)["commitments"]["items"][0]["digest"]
        for client in (host, *players):
            await client.close()
    async with live_server(url) as server:
        ann, bo, cid = [await server.connect(tid, j["seat_token"], name)
                        for j, name in zip(joined, NAMES, strict=True)]
        g = game(ann)
        assert g["pending_roll"]["entered"] == [0] and g["pending_roll"]["waiting"] == [1, 2]
        assert g["commitments"]["items"] == [{"seat": "0", "digest": digest}]
        twice = await ann.request({"type": "dice", "faces": [2, 2]})
        assert twice["type"] == "error" and twice["code"] == "conflict"
        assert (await bo.request({"type": "dice", "faces": [3, 3]}))["type"] == "ack"
        assert (await cid.request({"type": "dice", "faces": [4, 4]}))["type"] == "ack"
        await ann.wait_for(lambda f: f["type"] == "state"
                           and f["game"]["view"]["own_dice"] == [6, 1])
        g = game(ann)
        assert g["view"]["phase"] == "bidding"
        assert {i["seat"]: i["digest"] for i in g["commitments"]["items"]}["0"] == digest
