"""What a DM and an attacker tripped on at the web table (issue 8): options of the wrong
type, tables without limit, a lost DM console, names that clash with the page's words,
a late call of "Liar!", never-ending bot rounds, a flooding socket and the database's
permissions."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import stat
from pathlib import Path
from typing import Any

import pytest
from web_support import LiveServer, WsClient, create_table, join, live_server
from websockets.client import ClientProtocol
from websockets.protocol import State
from websockets.uri import parse_uri

from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import AnyWager
from tavern_dice.web.limits import TableLimits
from tavern_dice.web.store import Store, TableRow


async def state_where(client: WsClient, predicate: Any, timeout: float = 20) -> dict[str, Any]:
    """The latest ``state`` frame if it matches ``predicate``, else the next that does."""
    latest = client.latest_state()
    if predicate(latest):
        return latest
    return await client.wait_for(lambda f: f["type"] == "state" and predicate(f), timeout)


def my_turn(frame: dict[str, Any]) -> bool:
    game = frame["game"]
    return bool(game and game["view"]["turn"] == frame["you"]["seat"])


async def post(server: LiveServer, path: str, body: dict[str, Any]) -> tuple[int, Any]:
    async with server.client() as http:
        response = await http.post(path, json=body)
        return response.status_code, response.json()


@pytest.mark.asyncio
@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"game": "liars-dice", "rules": {"dice_per_player": 2.5}}, "rules.dice_per_player"),
        ({"game": "liars-dice", "rules": {"sides": 6.0}}, "rules.sides"),
        ({"game": "liars-dice", "rules": {"spot_on": 1}}, "rules.spot_on"),
        ({"game": "liars-dice", "rules": {"repeat_wagers": "yes"}}, "rules.repeat_wagers"),
        ({"game": "liars-dice", "rules": {"raise_rule": "sideways"}}, "rules.raise_rule"),
        ({"game": "blackjack", "rules": {"exact_numerator": 1.5}}, "rules.exact_numerator"),
        ({"game": "blackjack", "rules": {"min_bet_cp": "5"}}, "rules.min_bet_cp"),
        ({"game": "liars-dice", "options": {"grace_s": 2.5}}, "options.grace_s"),
        ({"game": "liars-dice", "options": {"bot_delay_ms": True}}, "options.bot_delay_ms"),
        ({"game": "blackjack", "options": {"auto_house": 1}}, "options.auto_house"),
        ({"game": "blackjack", "options": {"standin_bot": "telepath"}}, "options.standin_bot"),
    ],
)
async def test_web_options_of_the_wrong_type_get_a_422_naming_the_field(
        database_url: str, body: dict[str, Any], field: str) -> None:
    async with live_server(database_url) as server:
        status, reply = await post(server, "/api/tables", body)
        assert status == 422, reply
        assert reply["field"] == field
        assert reply["detail"].startswith(f"{field}: ")
        assert not server.manager.tables  # nothing was created


@pytest.mark.asyncio
async def test_web_repeat_wagers_is_a_table_rule(database_url: str) -> None:
    async with live_server(database_url) as server, server.client() as http:
        catalog = (await http.get("/api/catalog")).json()
        assert catalog["games"]["liars-dice"]["presets"]["tavern"]["repeat_wagers"] is False
        table = await create_table(server, "liars-dice", rules={"repeat_wagers": True})
        summary = (await http.get(f"/api/tables/{table['table_id']}")).json()
        assert summary["rules"]["repeat_wagers"] is True


class LowestQuantityBot:
    """A naive bot: never calls, always makes the legal wager of the lowest quantity (then
    face). Under the 'either' raise rule with repeats allowed, its wagers go round for
    ever: 1 two, 1 three, ... 1 six, 2 ones, 1 two, ..."""

    def __init__(self, name: str) -> None:
        self.name = name

    def choose_action(self, view: LiarsDiceView) -> AnyWager:
        return min(view.legal_wagers, key=lambda w: (getattr(w, "quantity", 0),
                                                      getattr(w, "face", 0)))

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        return False


@pytest.mark.asyncio
async def test_web_bots_stop_a_never_ending_round_and_tell_the_dm(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(
            server, "liars-dice", options={"bot_delay_ms": 0},
            rules={"repeat_wagers": True, "raise_rule": "either", "dice_per_player": 1,
                   "sum_endgame": False})
        tid = table["table_id"]
        host = await server.connect(tid, table["host_token"], "host")
        for _ in range(2):
            assert (await host.request({"type": "add_bot", "kind": "random"}))["type"] == "ack"
        live = server.manager.tables[tid]
        for pid in live.seat_list:
            live.agents[(pid, "random")] = LowestQuantityBot(live.occupants[pid].name)
        assert (await host.request({"type": "start"}))["type"] == "ack"
        paused = await host.wait_for(lambda f: f["type"] == "state" and f["game"] is not None
                                     and f["game"]["status"] == "paused", timeout=30)
        notice = paused["game"]["notice"]
        assert notice.startswith("The server paused the game: round 1 has gone on for")
        assert "repeat_wagers" in notice
        engine = live.session.engine
        assert not engine.is_over and len(engine.round_wagers) >= 120
        # The DM can end the stopped game; the table is free for the next one.
        assert (await host.request({"type": "end"}))["type"] == "ack"
        assert host.latest_state()["game"]["status"] == "ended"
        await host.close()


@pytest.mark.asyncio
async def test_web_tables_are_capped_per_client_and_in_all(database_url: str) -> None:
    limits = TableLimits(per_client=3, window_s=3600, max_open=4, idle_s=600, sweep_s=3600)
    async with live_server(database_url, limits=limits) as server:
        made = [await create_table(server, "liars-dice") for _ in range(3)]
        status, reply = await post(server, "/api/tables", {"game": "liars-dice"})
        assert status == 429
        assert "created 3 tables in the last 60 minutes" in reply["detail"]
        assert "try again in 60 minutes" in reply["detail"]
        # Another address may still create tables, up to the server's total.
        manager = server.manager
        await manager.create("blackjack", "", "tavern", {}, {}, client="10.0.0.9")
        assert len(manager.tables) == 4
        status, reply = await post(server, "/api/tables", {"game": "liars-dice"})
        assert status == 429  # the client's cap still holds
        try:
            await manager.create("blackjack", "", "tavern", {}, {}, client="10.0.0.10")
        except Exception as error:
            assert getattr(error, "code", None) == "too-many-tables"
            assert "the most it holds at once" in str(error)
        else:
            raise AssertionError("a fifth table was held in memory")
        # Once tables have idled, they leave memory to make room ...
        start = manager.clock()
        manager.clock = lambda: start + 601
        await manager.create("blackjack", "", "tavern", {}, {}, client="10.0.0.10")
        assert len(manager.tables) <= 4
        # ... and come back, as they were, when visited.
        first = made[0]["table_id"]
        async with server.client() as http:
            assert (await http.get(f"/api/tables/{first}")).status_code == 200
        assert first in manager.tables


@pytest.mark.asyncio
async def test_web_an_idle_table_leaves_memory_and_its_game_goes_on(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", rules={"dice_per_player": 2},
                                   options={"bot_delay_ms": 0})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        host = await server.connect(tid, table["host_token"], "host")
        assert (await host.request({"type": "add_bot", "kind": "random"}))["type"] == "ack"
        assert (await host.request({"type": "start"}))["type"] == "ack"
        await host.close()
        player = await server.connect(tid, ann["seat_token"], "ann")
        state = await state_where(player, my_turn)
        view = state["game"]["view"]
        # The bot may have opened with the highest wager there is: then Ann can only call.
        move = ({"type": "wager", "wager": view["legal_wagers"][0]} if view["legal_wagers"]
                else {"type": "accuse"})
        assert (await player.request(move))["type"] == "ack"
        # The bot answers (a raise or a call), or a new round starts after Ann's call;
        # either way the game waits for Ann again (a die lost of two ends no one's game).
        await player.wait_for(lambda f: f["type"] == "state"
                              and f["game"]["view"]["turn"] == f["you"]["seat"], timeout=20)
        log_before = server.manager.tables[tid].session.engine.to_log()
        await player.close()
        await asyncio.sleep(0.1)
        manager = server.manager
        start = manager.clock()
        manager.clock = lambda: start + manager.limits.idle_s + 1
        assert await manager.put_away_idle() == 1
        assert tid not in manager.tables
        back = await server.connect(tid, ann["seat_token"], "ann-again")
        game = back.latest_state()["game"]
        assert game["status"] == "playing"
        assert game["view"]["turn"] == back.latest_state()["you"]["seat"]
        assert len(game["events"]) == len(log_before["events"])
        assert manager.tables[tid].session.engine.to_log() == log_before
        await back.close()


@pytest.mark.asyncio
async def test_web_the_dm_link_moves_the_console_to_another_device(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice")
        tid, key = table["table_id"], table["host_token"]
        ann = await join(server, tid, "Ann")
        status, link = await post(server, f"/api/tables/{tid}/host-link", {"host_token": key})
        assert status == 200
        assert link["host_url"] == f"{server.http}/host/{tid}#{key}"
        assert "<svg" in link["qr_svg"] and key not in link["qr_svg"]
        for wrong in (ann["seat_token"], "not-a-key"):
            status, reply = await post(server, f"/api/tables/{tid}/host-link",
                                       {"host_token": wrong})
            assert status == 403, reply
        status, _ = await post(server, f"/api/tables/{tid}/host-link", {})
        assert status == 422
        # The key from the link opens the console on a second device.
        second = await server.connect(tid, link["host_url"].split("#", 1)[1], "tablet")
        assert second.latest_state()["you"]["role"] == "host"
        await second.close()


@pytest.mark.asyncio
async def test_web_the_name_you_and_taken_names_are_refused(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice")
        tid = table["table_id"]
        for name in ("You", " you ", "YOU"):
            status, reply = await post(server, f"/api/tables/{tid}/join", {"name": name})
            assert status == 422, reply
            assert reply["field"] == "name"
            assert "what the table calls each player on their own screen" in reply["detail"]
        await join(server, tid, "Ann")
        status, reply = await post(server, f"/api/tables/{tid}/join", {"name": "ANN"})
        assert status == 409
        assert reply["detail"] == "someone at this table is already called 'ANN'; " \
            "choose another name"
        host = await server.connect(tid, table["host_token"], "host")
        refused = await host.request({"type": "add_bot", "kind": "random", "name": "ann"})
        assert refused["type"] == "error" and "already called" in refused["message"]
        for _ in range(2):
            assert (await host.request({"type": "add_bot", "kind": "random"}))["type"] == "ack"
        names = [s["name"] for s in host.latest_state()["table"]["seats"]]
        assert names == ["Ann", "Random Bot", "Random Bot 2"]
        await host.close()


async def turn_of(clients: dict[int, WsClient], seat: int | None = None) -> int:
    """Wait until every client sees a turn in the bidding; return the seat to act."""
    states = [await state_where(c, lambda f: f["game"]
                                and f["game"]["view"]["phase"] == "bidding"
                                and (seat is None or f["game"]["view"]["turn"] == seat))
              for c in clients.values()]
    turn: int = states[0]["game"]["view"]["turn"]
    return turn


@pytest.mark.asyncio
async def test_web_a_late_liar_call_is_told_who_called_first(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", rules={"dice_per_player": 3},
                                   options={"bot_delay_ms": 0})
        tid = table["table_id"]
        joined = [await join(server, tid, name) for name in ("Ann", "Bo", "Cy")]
        host = await server.connect(tid, table["host_token"], "host")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        session = server.manager.tables[tid].session
        by_seat = {session.seats.index(j["player_id"]): await server.connect(
            tid, j["seat_token"], j["player_id"]) for j in joined}
        names = session.engine.players
        first = await turn_of(by_seat)
        view = by_seat[first].latest_state()["game"]["view"]
        code = view["legal_wagers"][0]
        assert (await by_seat[first].request({"type": "wager", "wager": code}))["type"] == "ack"
        others = [s for s in by_seat if s != first]
        call = {"type": "accuse", "round": 1, "wager": code}
        assert (await by_seat[others[0]].request(call))["type"] == "ack"
        late = await by_seat[others[1]].request(call)
        assert late["type"] == "error"
        assert late["message"].startswith(
            f"{names[others[0]]} called \"Liar!\" first, on {names[first]}'s wager of ")
        assert "the dice of round 1 are revealed" in late["message"]
        # A client that names no wager is told the same, not "no wager stands yet".
        bare = await by_seat[others[1]].request({"type": "accuse"})
        assert bare["type"] == "error" and "called \"Liar!\" first" in bare["message"]
        # A call meant for a wager that was raised meanwhile does not land on the raise.
        opener = await turn_of(by_seat, session.engine.turn)
        code = by_seat[opener].latest_state()["game"]["view"]["legal_wagers"][0]
        assert (await by_seat[opener].request({"type": "wager", "wager": code}))["type"] == "ack"
        raiser = await turn_of(by_seat, session.engine.turn)
        raise_code = by_seat[raiser].latest_state()["game"]["view"]["legal_wagers"][0]
        assert (await by_seat[raiser].request({"type": "wager", "wager": raise_code})
                )["type"] == "ack"
        third = next(s for s in by_seat if s not in (opener, raiser)
                     and session.engine.dice_counts[s])
        stale = await by_seat[third].request({"type": "accuse", "round": 2, "wager": code})
        assert stale["type"] == "error"
        assert stale["message"].startswith(f"the wager changed before your call: "
                                           f"{names[raiser]} now says at least ")
        assert session.engine.current_wager is not None  # nothing was called
        for client in [*by_seat.values(), host]:
            await client.close()


@pytest.mark.asyncio
async def test_web_a_flooding_socket_is_closed_with_1013(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice")
        tid = table["table_id"]
        # A client that sends without reading: a raw socket with a small receive buffer
        # (a WebSocket library would read in the background), speaking WebSocket through
        # the library's sans-I/O protocol, and read only at the end.
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", server.port))
        reader, writer = await asyncio.open_connection(sock=sock, limit=4096)
        protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{server.port}/ws/{tid}"),
                                  max_size=None)
        protocol.send_request(protocol.connect())
        writer.write(b"".join(protocol.data_to_send()))
        while protocol.handshake_exc is None and not protocol.events_received() \
                and protocol.state is State.CONNECTING:
            protocol.receive_data(await reader.read(4096))
        assert protocol.state is State.OPEN

        async def send(frame: dict[str, Any]) -> None:
            protocol.send_text(json.dumps(frame).encode())
            writer.write(b"".join(protocol.data_to_send()))
            await writer.drain()

        await send({"type": "hello", "token": table["host_token"]})
        await asyncio.sleep(0.2)
        live = server.manager.tables[tid]
        for n in range(6_000):
            await send({"type": "set_options", "options": {"grace_s": n % 99}})
            if n % 200 == 199:
                await asyncio.sleep(0.01)
                if n > 1000 and not live.listeners:
                    break
        # The server may still be working through the flood: each frame is a table change
        # that it stores, so on a loaded machine that can take well over 30 s.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 180.0
        while live.listeners and loop.time() < deadline:
            await asyncio.sleep(0.1)
        assert not live.listeners, "the flooding connection was never dropped"
        # Now read: what the server had queued, then its close frame.
        while protocol.close_rcvd is None:
            data = await asyncio.wait_for(reader.read(65536), 30)
            if not data:
                break
            protocol.receive_data(data)
            protocol.events_received()
        writer.close()
        assert protocol.close_rcvd is not None
        assert protocol.close_rcvd.code == 1013
        assert protocol.close_rcvd.reason == "too slow to read the table's frames"


def test_web_the_sqlite_file_is_readable_by_its_owner_only(tmp_path: Path) -> None:
    path = tmp_path / "private.sqlite3"
    store = Store(f"sqlite:///{path}")
    store.add_table(TableRow(id="t", game="liars-dice", name="n", rules={}, options={},
                             host_token_hash="h", seats=[], status="lobby", game_id=None,
                             created_ms=0))
    files = [p for p in tmp_path.iterdir() if p.name.startswith("private.sqlite3")]
    assert len(files) >= 2  # the database and its write-ahead log
    for file in files:
        assert stat.S_IMODE(os.stat(file).st_mode) == 0o600, file
    store.close()

