"""Malformed, oversized, out-of-turn and other-seat frames are refused with an error and
change nothing; the connection stays usable; HTTP bodies are checked the same way."""

from __future__ import annotations

import json
from typing import Any

import pytest
from web_support import WsClient, create_table, join, live_server

from tavern_dice.web.protocol import MAX_FRAME_BYTES


def state_count(client: WsClient) -> int:
    return sum(1 for f in client.frames if f["type"] == "state")


async def raw_error(client: WsClient, data: str | bytes) -> dict[str, Any]:
    """Send raw data, then a ping; return the error that came before the pong."""
    start = len(client.frames)
    await client.send_raw(data)
    await client.request({"type": "ping"})
    errors = [f for f in client.frames[start:] if f["type"] == "error"]
    assert len(errors) == 1, client.frames[start:]
    return errors[0]


@pytest.mark.asyncio
async def test_web_bad_frames_are_refused_and_change_nothing(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", options={"bot_delay_ms": 0})
        tid = table["table_id"]
        ann, bo = await join(server, tid, "Ann"), await join(server, tid, "Bo")
        host = await server.connect(tid, table["host_token"], "host")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        clients = {ann["player_id"]: await server.connect(tid, ann["seat_token"], "ann"),
                   bo["player_id"]: await server.connect(tid, bo["seat_token"], "bo")}
        spectator = await server.connect(tid, None, "spectator")
        game = server.manager.tables[tid].session
        engine = game.engine
        actor = clients[game.seats[engine.turn]]
        other = next(c for pid, c in clients.items() if c is not actor)
        legal = actor.latest_state()["game"]["view"]["legal_wagers"]
        assert legal and other.latest_state()["game"]["view"]["legal_wagers"] == []
        before_log = engine.to_log()
        watchers = [actor, other, spectator, host]
        before_states = [state_count(c) for c in watchers]

        refused = [
            (other, {"type": "wager", "wager": legal[0]}, "not-your-turn"),
            (other, {"type": "accuse"}, "illegal"),  # no wager stands yet
            (actor, {"type": "accuse"}, "illegal"),
            (actor, {"type": "wager", "wager": "9x9"}, "illegal"),
            (actor, {"type": "wager", "wager": "banana"}, "illegal"),
            (actor, {"type": "wager", "wager": "sum 7"}, "illegal"),
            (actor, {"type": "wager", "wager": legal[0], "seat": 1}, "bad-message"),
            (other, {"type": "wager", "wager": legal[0], "as": ann["player_id"]}, "bad-message"),
            (actor, {"type": "wager", "wager": 32}, "bad-message"),
            (actor, {"type": "wager"}, "bad-message"),
            (actor, {"type": "bet", "amount_cp": 100}, "illegal"),
            (actor, {"type": "stand", "bonus": "1"}, "bad-message"),
            (actor, {"type": "start"}, "not-allowed"),
            (actor, {"type": "grant", "player_id": ann["player_id"], "amount_cp": 10**6},
             "not-allowed"),
            (spectator, {"type": "wager", "wager": legal[0]}, "not-allowed"),
            (spectator, {"type": "accuse"}, "not-allowed"),
            (host, {"type": "wager", "wager": legal[0]}, "not-allowed"),
            (host, {"type": "house_roll"}, "illegal"),
            (host, {"type": "start"}, "conflict"),
            (actor, {"type": "hello", "token": None}, "bad-message"),
            (actor, {"type": "explode"}, "bad-message"),
        ]
        for client, frame, code in refused:
            reply = await client.request(frame)
            assert (reply["type"], reply["code"]) == ("error", code), (frame, reply)
            assert reply["message"]

        padding = "x" * MAX_FRAME_BYTES
        raw = [
            ("not json", "bad-json"),
            ("[1, 2]", "bad-json"),
            ("[" * 5000 + "]" * 5000, "too-large"),
            ("[" * 2000 + "]" * 2000, "bad-json"),  # nesting deeper than the parser allows
            (json.dumps({"type": "wager", "wager": legal[0], "pad": padding}), "too-large"),
            (b'{"type": "accuse"}', "bad-json"),
        ]
        for data, code in raw:
            assert (await raw_error(actor, data))["code"] == code

        # A seat token works only at its own table.
        elsewhere = await create_table(server, "liars-dice")
        stranger = await join(server, elsewhere["table_id"], "Cy")
        import websockets
        async with websockets.connect(f"ws://127.0.0.1:{server.port}/ws/{tid}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": stranger["seat_token"]}))
            reply = json.loads(await ws.recv())
            assert (reply["type"], reply["code"]) == ("error", "bad-token")
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

        # Nothing changed: same log, and no connection was sent a new state.
        assert engine.to_log() == before_log
        assert engine is server.manager.tables[tid].session.engine
        assert [state_count(c) for c in watchers] == before_states
        # The connections still work: the player to act wagers.
        assert (await actor.request({"type": "wager", "wager": legal[0]}))["type"] == "ack"
        assert len(engine.log) == len(before_log["events"]) + 1
        assert other.latest_state()["game"]["view"]["wager"] == legal[0]
        for client in watchers:
            await client.close()


@pytest.mark.asyncio
async def test_web_http_bodies_are_checked(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "blackjack", rules={"min_bet_cp": 10})
        tid = table["table_id"]
        async with server.client() as http:
            big = {"name": "A" * 5000}
            assert (await http.post(f"/api/tables/{tid}/join", json=big)).status_code == 413
            bad = [
                ("/api/tables", {"game": "chess"}),
                ("/api/tables", {"game": "liars-dice", "rules": {"sides": 1}}),
                ("/api/tables", {"game": "liars-dice", "rules": {"jokers": True}}),
                ("/api/tables", {"game": "liars-dice", "options": {"grace_s": "30"}}),
                ("/api/tables", {"game": "liars-dice", "preset": "nonsense"}),
                (f"/api/tables/{tid}/join", {"name": "   "}),
                (f"/api/tables/{tid}/join", {"name": "Ann\x00"}),
                (f"/api/tables/{tid}/join", {"name": "Ann", "proficiency": 9}),
                (f"/api/tables/{tid}/join", {"name": "Ann", "seat": 0}),
            ]
            for path, body in bad:
                response = await http.post(path, json=body)
                assert response.status_code == 422, (body, response.text)
                assert response.json()["detail"]
            assert (await http.post(f"/api/tables/{tid}/join", content=b"{")).status_code == 422
            # Nested deeper than the JSON parser recurses: a 422, not a 500.
            deep = await http.post(f"/api/tables/{tid}/join", content=b"[" * 4000)
            assert deep.status_code == 422, deep.text
            assert (await http.get("/api/tables/nope")).status_code == 404
            assert (await http.get("/api/games/nope")).status_code == 404
            joined = (await http.post(f"/api/tables/{tid}/join",
                                      json={"name": " Ann ", "proficiency": 4})).json()
            summary = (await http.get(f"/api/tables/{tid}")).text
            # Tokens are never shown again (only their hashes are stored).
            assert joined["seat_token"] not in summary
            assert table["host_token"] not in summary
            assert json.loads(summary)["seats"][0]["name"] == "Ann"
            rules = json.loads(summary)["rules"]
            assert rules["min_bet_cp"] == 10
            qr = await http.get(f"/api/tables/{tid}/qr.svg")
            assert qr.headers["content-type"] == "image/svg+xml"
            assert qr.text.startswith("<svg") and "path" in qr.text
            page = await http.get(f"/t/{tid}")
            assert page.status_code == 200 and "<html" in page.text
            assert page.headers["x-content-type-options"] == "nosniff"
            catalog = (await http.get("/api/catalog")).json()["games"]
            assert {"probabilistic", "random"} <= set(catalog["liars-dice"]["bot_kinds"])
            assert catalog["blackjack"]["presets"]["tavern"]["target_sides"] == 20
