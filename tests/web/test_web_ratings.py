"""Rated tables (the option ``rated``): a finished Liar's Dice game's standings carry each
person's table rating and its change, worked out as the ratings module works them out on
its own; the ratings carry on from game to game and survive a restart; a table with the
option off, or a game with a bot that is not a rated level, shows no rating; and the
option is checked like every other."""

from __future__ import annotations

import asyncio
from pathlib import Path
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

from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.play.ratings import MU, SIGMA, Rating, level_rating, placing, rate_people
from tavern_dice.web.catalog import ActionError
from tavern_dice.web.options import changed_options, read_options

Frame = dict[str, Any]


async def play_game(server: LiveServer, host: WsClient, people: list[WsClient]
                    ) -> tuple[Frame, Frame]:
    """Start a game, play the people's seats to the end; the host's ``state`` frame at
    the end, and the game's export."""
    reply = await host.request({"type": "start"})
    assert reply["type"] == "ack", reply
    game_id = host.latest_state()["game"]["game_id"]

    def this_game(f: Frame) -> bool:
        return f["type"] == "state" and (f["game"] or {}).get("game_id") == game_id

    for person in people:
        await person.wait_for(this_game)
    await asyncio.wait_for(asyncio.gather(
        *(play_liars_dice_person(p, lambda: False) for p in people)), 60)
    over = await host.wait_for(lambda f: this_game(f) and f["game"]["status"] == "over")
    async with server.client() as http:
        game: Frame = (await http.get(f"/api/games/{game_id}")).json()
    return over, game


def expected(log: Frame, people: dict[int, Rating], bots: dict[int, str]) -> dict[int, Rating]:
    """The people's ratings after the game, by the ratings module alone."""
    order = placing(LiarsDiceGame.from_log(log).log)
    return rate_people(people, bots, order)


def check_standings(over: Frame, game: Frame, before: dict[int, Rating],
                    after: dict[int, Rating], bots: dict[int, str]) -> None:
    ratings = over["game"]["ratings"]
    assert ratings["rated"] is True and ratings["why"] is None
    order = placing(LiarsDiceGame.from_log(game["log"]).log)
    rows = ratings["standings"]
    assert [(r["seat"], r["place"]) for r in rows] == [(s, i + 1) for i, s in enumerate(order)]
    for row in rows:
        seat = row["seat"]
        if seat in after:
            assert (row["mu"], row["sigma"]) == (after[seat].mu, after[seat].sigma)
            assert row["rating"] == round(after[seat].mu)
            assert row["change"] == round(after[seat].mu) - round(before[seat].mu)
            assert row["rating_before"] == round(before[seat].mu)
        else:
            level = level_rating(bots[seat])
            assert level is not None
            assert (row["level"], row["rating"], row["change"]) == (
                bots[seat], round(level.mu), None)
    # A person who won gained; a person who went out first lost.
    if order[0] in after:
        assert after[order[0]].mu > before[order[0]].mu
    if order[-1] in after:
        assert after[order[-1]].mu < before[order[-1]].mu


@pytest.mark.asyncio
async def test_web_rated_table_rates_each_person_and_carries_on(database_url: str) -> None:
    options = {"bot_delay_ms": 0, "grace_s": 600}
    rules = {"dice_per_player": 1}
    bots = {2: "pip", 3: "tobb"}
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", rules=rules, options=options)
        tid = table["table_id"]
        ann, bo = await join(server, tid, "Ann"), await join(server, tid, "Bo")
        host = await server.connect(tid, table["host_token"], "host")
        for kind in bots.values():
            assert (await host.request({"type": "add_bot", "kind": kind}))["type"] == "ack"
        people = [await server.connect(tid, ann["seat_token"], "ann"),
                  await server.connect(tid, bo["seat_token"], "bo")]
        # Off: nothing about ratings anywhere.
        over, _ = await play_game(server, host, people)
        assert over["game"]["ratings"] is None and over["table"]["ratings"] is None
        assert (await host.request({"type": "set_options", "options": {"rated": True}})
                )["type"] == "ack"
        over, game = await play_game(server, host, people)
        start = {0: Rating(MU, SIGMA), 1: Rating(MU, SIGMA)}
        after = expected(game["log"], start, bots)
        check_standings(over, game, start, after, bots)
        # Every reader gets the same standings: they are public.
        for person in people:
            mine = person.latest_state()
            assert mine["game"]["ratings"] == over["game"]["ratings"]
        pids = [ann["player_id"], bo["player_id"]]
        summary = over["table"]["ratings"]
        assert {pid: (r["mu"], r["games"]) for pid, r in summary.items()} == {
            pids[0]: (after[0].mu, 1), pids[1]: (after[1].mu, 1)}
        for client in [*people, host]:
            await client.close()

    async with live_server(database_url) as server:
        async with server.client() as http:
            restarted = (await http.get(f"/api/tables/{tid}")).json()
        assert restarted["ratings"] == summary
        host = await server.connect(tid, table["host_token"], "host")
        people = [await server.connect(tid, ann["seat_token"], "ann"),
                  await server.connect(tid, bo["seat_token"], "bo")]
        # The next game starts from the stored ratings.
        over, game = await play_game(server, host, people)
        again = expected(game["log"], after, bots)
        check_standings(over, game, after, again, bots)
        assert {pid: r["games"] for pid, r in over["table"]["ratings"].items()} == {
            pids[0]: 2, pids[1]: 2}
        for client in [*people, host]:
            await client.close()


@pytest.mark.asyncio
async def test_web_a_game_with_an_unrated_bot_is_rated_for_nobody(tmp_path: Path) -> None:
    async with live_server(f"sqlite:///{tmp_path / 'tavern.sqlite3'}") as server:
        table = await create_table(server, "liars-dice", rules={"dice_per_player": 1},
                                   options={"bot_delay_ms": 0, "rated": True})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        host = await server.connect(tid, table["host_token"], "host")
        for kind in ("pip", "random"):
            assert (await host.request({"type": "add_bot", "kind": kind}))["type"] == "ack"
        people = [await server.connect(tid, ann["seat_token"], "ann")]
        over, _ = await play_game(server, host, people)
        ratings = over["game"]["ratings"]
        assert ratings["rated"] is False and ratings["standings"] is None
        assert "(random) has no rating" in ratings["why"]
        assert over["table"]["ratings"] == {}
        assert server.manager.store.ratings(tid) == []
        for client in [*people, host]:
            await client.close()


def test_web_rated_option_is_checked_like_the_others() -> None:
    with pytest.raises(ActionError) as error:
        read_options("liars-dice", {"rated": "yes"}, "options.")
    assert (error.value.code, error.value.field) == ("bad-message", "options.rated")
    with pytest.raises(ActionError) as error:
        read_options("blackjack", {"rated": True}, "options.")
    assert (error.value.code, error.value.field) == ("illegal", "options.rated")
    assert "only liars-dice games are rated" in error.value.message
    assert read_options("blackjack", {"rated": False}).rated is False
    current = read_options("liars-dice", {})
    assert changed_options("liars-dice", current, {"rated": True}, running=False).rated
    with pytest.raises(ActionError) as error:
        changed_options("liars-dice", current, {"rated": True}, running=True)
    assert error.value.code == "conflict" and "rated" in error.value.message


@pytest.mark.asyncio
async def test_web_a_bad_rated_option_changes_nothing(tmp_path: Path) -> None:
    async with live_server(f"sqlite:///{tmp_path / 'tavern.sqlite3'}") as server:
        async with server.client() as http:
            refused = await http.post("/api/tables", json={
                "game": "liars-dice", "options": {"rated": 1}})
            assert refused.status_code == 422, refused.text
            assert "options.rated" in refused.text
        table = await create_table(server, "blackjack")
        host = await server.connect(table["table_id"], table["host_token"], "host")
        for bad, code in (({"rated": "on"}, "bad-message"), ({"rated": True}, "illegal")):
            reply = await host.request({"type": "set_options", "options": bad})
            assert (reply["type"], reply["code"]) == ("error", code)
        assert host.latest_state()["table"]["options"]["rated"] is False
        await host.close()
