"""Dice anyone can verify: the canonical string, the digest, and the order in which a
game publishes commitments (before anyone wagers on the round) and proofs (at the reveal)."""

from __future__ import annotations

import asyncio
import hashlib

import pytest
from web_support import create_table, live_server

from tavern_dice.web.commitments import Commitment, canonical, digest_of, new_salt, verify

SALT = "00112233445566778899aabbccddeeff"


def test_web_commitment_digest_is_sha256_of_the_documented_string() -> None:
    text = "g_8fK2:3:1:3,1,6,6,2:00112233445566778899aabbccddeeff"
    assert canonical("g_8fK2", 3, 1, (3, 1, 6, 6, 2), SALT) == text
    expected = hashlib.sha256(text.encode()).hexdigest()
    assert digest_of("g_8fK2", 3, 1, [3, 1, 6, 6, 2], SALT) == expected
    assert verify(expected, "g_8fK2", 3, 1, [3, 1, 6, 6, 2], SALT)
    house = Commitment.make("g_x", 2, "house", (14, 9, 17), SALT)
    assert house.digest == hashlib.sha256(f"g_x:2:house:14,9,17:{SALT}".encode()).hexdigest()
    assert house.public() == {"seat": "house", "digest": house.digest}


def test_web_commitment_does_not_verify_anything_else() -> None:
    good = digest_of("g_1", 3, 1, (3, 1, 6), SALT)
    assert verify(good, "g_1", 3, 1, (3, 1, 6), SALT)
    wrong = [
        ("g_2", 3, 1, (3, 1, 6), SALT),  # another game
        ("g_1", 4, 1, (3, 1, 6), SALT),  # another round
        ("g_1", 3, 2, (3, 1, 6), SALT),  # another seat
        ("g_1", 3, 1, (3, 1, 5), SALT),  # another face
        ("g_1", 3, 1, (1, 3, 6), SALT),  # the same faces in another order
        ("g_1", 3, 1, (3, 1, 6), "f" + SALT[1:]),  # another salt
        ("g_1", 3, 1, (3, 1, 6), SALT.upper()),  # not the canonical salt form
        ("g_1", 3, 1, (3, 1, 6), SALT[:-2]),  # too short
    ]
    for args in wrong:
        assert not verify(good, *args), args
    salts = {new_salt() for _ in range(50)}
    assert len(salts) == 50 and all(len(s) == 32 and int(s, 16) >= 0 for s in salts)


@pytest.mark.asyncio
async def test_web_each_round_is_committed_before_its_first_wager(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", rules={"dice_per_player": 2},
                                   options={"bot_delay_ms": 0})
        tid = table["table_id"]
        host = await server.connect(tid, table["host_token"], "host")
        for kind in ("random", "probabilistic", "random"):
            assert (await host.request({"type": "add_bot", "kind": kind}))["type"] == "ack"
        spectator = await server.connect(tid, None, "spectator")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        final = await spectator.wait_for(lambda f: f["type"] == "state"
                                          and f["game"] is not None
                                          and f["game"]["status"] == "over", timeout=30)
        game_id = final["game"]["game_id"]
        await asyncio.sleep(0.05)
        committed: dict[int, dict[str, str]] = {}
        proven: set[int] = set()
        round_ = 0
        for frame in spectator.frames:
            game = frame.get("game") if frame["type"] == "state" else None
            if not game:
                continue
            for event in game["events"]:
                if event["type"] == "round_started":
                    round_ = event["round"]
                elif event["type"] == "wager_made":
                    # A wager on round r is only ever seen after round r's commitments.
                    assert round_ in committed, f"round {round_} wagered before its commitment"
            if game["commitments"]:
                items = {i["seat"]: i["digest"] for i in game["commitments"]["items"]}
                committed.setdefault(game["commitments"]["round"], items)
                assert committed[game["commitments"]["round"]] == items  # never changes
            if game["proofs"]:
                r = game["proofs"]["round"]
                for item in game["proofs"]["items"]:
                    assert item["digest"] == committed[r][item["seat"]]
                    assert verify(item["digest"], game_id, r, int(item["seat"]),
                                  item["faces"], item["salt"])
                proven.add(r)
        assert round_ >= 2 and set(committed) == proven == set(range(1, round_ + 1))
        async with server.client() as http:
            export = (await http.get(f"/api/games/{game_id}")).json()
        rounds: dict[int, list[list[int]]] = {}
        current = 0
        for event in export["log"]["events"]:
            if event["type"] == "round_started":
                current = event["round"]
            elif event["type"] == "revealed":
                rounds[current] = event["hands"]
        for c in export["commitments"]:
            assert c["faces"] == rounds[c["round"]][int(c["seat"])]
        await spectator.close()
        await host.close()
