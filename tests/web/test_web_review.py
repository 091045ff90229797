"""The web table's post-game review (``GET /api/tables/{id}/review``): each player gets
their own seat's review of a finished game and nothing else, the DM every seat; no token,
a stranger's token, a running game or a seat out of range are refused in words."""

from __future__ import annotations

import asyncio

import pytest
from web_support import create_table, join, live_server, play_liars_dice_person


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.mark.asyncio
async def test_players_review_their_own_seat_and_the_dm_every_seat(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", name="Review",
                                   rules={"dice_per_player": 2},
                                   options={"bot_delay_ms": 0, "grace_s": 600})
        tid, host_token = table["table_id"], table["host_token"]
        ann = await join(server, tid, "Ann")
        bo = await join(server, tid, "Bo")
        host = await server.connect(tid, host_token, "host")
        players = [await server.connect(tid, ann["seat_token"], "ann"),
                   await server.connect(tid, bo["seat_token"], "bo")]
        assert (await host.request({"type": "add_bot", "kind": "random"}))["type"] == "ack"
        assert (await host.request({"type": "start"}))["type"] == "ack"
        state = await host.wait_for(lambda f: f["type"] == "state" and f["game"] is not None)
        game_id = state["game"]["game_id"]
        url = f"/api/tables/{tid}/review"

        async with server.client() as http:
            # No game has finished yet; the running one has no review.
            response = await http.get(url, headers=bearer(host_token))
            assert response.status_code == 409
            assert "no game at this table has finished yet" in response.json()["detail"]
            response = await http.get(url, params={"game_id": game_id},
                                      headers=bearer(ann["seat_token"]))
            assert response.status_code == 409 and "still running" in response.json()["detail"]

        over = False
        await asyncio.wait_for(asyncio.gather(
            *(play_liars_dice_person(p, lambda: over) for p in players)), timeout=60)
        over = True
        for client in (*players, host):
            await client.close()

        async with server.client() as http:
            export = (await http.get(f"/api/games/{game_id}")).json()
            seat_of = {s["player_id"]: s["seat"] for s in export["seats"]}
            hands: dict[int, dict[int, list[int]]] = {}
            current = 0
            for event in export["log"]["events"]:
                if event["type"] == "round_started":
                    current = event["round"]
                elif event["type"] == "dice_rolled" and event["secret"]:
                    hands[current] = dict(zip(event["seats"], event["dice"], strict=True))

            # A review needs a token, and one of this table.
            response = await http.get(url)
            assert response.status_code == 401
            assert "Authorization: Bearer" in response.json()["detail"]
            response = await http.get(url, headers=bearer("not-a-token"))
            assert response.status_code == 403

            # A player: their own seat, their own dice at each decision.
            for person in (ann, bo):
                seat = seat_of[person["player_id"]]
                response = await http.get(url, headers=bearer(person["seat_token"]))
                assert response.status_code == 200, response.text
                review = response.json()
                assert review["role"] == "player" and review["game_id"] == game_id
                assert [s["seat"] for s in review["seats"]] == [seat]
                decisions = review["seats"][0]["decisions"]
                assert decisions
                for d in decisions:
                    assert d["known"]["own_dice"] == hands[d["round"]][seat]
                assert review["thresholds"]["unit"] == "dice"
                other = 1 - seat if seat < 2 else 0
                response = await http.get(url, params={"seat": other},
                                          headers=bearer(person["seat_token"]))
                assert response.status_code == 403
                assert f"own seat only (yours is seat {seat})" in response.json()["detail"]

            # The DM: every seat, or one.
            response = await http.get(url, headers=bearer(host_token))
            assert response.status_code == 200
            everyone = response.json()
            assert everyone["role"] == "host"
            assert [s["seat"] for s in everyone["seats"]] == [0, 1, 2]
            response = await http.get(url, params={"seat": 2, "game_id": game_id},
                                      headers=bearer(host_token))
            assert [s["seat"] for s in response.json()["seats"]] == [2]
            for bad, status in (("5", 422), ("x", 422)):
                response = await http.get(url, params={"seat": bad},
                                          headers=bearer(host_token))
                assert response.status_code == status
                assert response.json()["detail"].startswith("seat: ")
            response = await http.get(url, params={"game_id": "g_nope"},
                                      headers=bearer(host_token))
            assert response.status_code == 404
            response = await http.get("/api/tables/nope/review", headers=bearer(host_token))
            assert response.status_code == 404
            # The page that shows it.
            page = await http.get(f"/review/{tid}")
            assert page.status_code == 200 and "review-page.js" in page.text
