"""Several server processes on one PostgreSQL database play the same tables: players on
different processes play one game, and when the process that owns the table is killed
mid-round the players reconnect to the other one and finish, with no event and no
copper piece lost and every commitment verified."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from typer.testing import CliRunner
from web_processes import ServeProcess, free_port, seen_log, serve_processes
from web_support import Endpoint, WsClient, create_table, join

from tavern_dice.cli import app
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.web.commitments import verify
from tavern_dice.web.store import Store


async def play_turns(client: WsClient, game_id: str, stop: Callable[[], bool]) -> str:
    """Play ``client``'s seat of ``game_id`` from its ``state`` frames (the lowest legal
    wager; "Liar!" every third turn): ``"over"`` when the game ends, ``"stopped"`` when
    ``stop()``, ``"closed"`` when the connection closes."""
    turns = 0
    # When each decision was answered: an answer lost in a busy moment (refused as stale,
    # say) is sent again after a few seconds without a new state, not waited on for ever.
    handled: dict[tuple[int, int], float] = {}
    loop = asyncio.get_running_loop()
    last_state = loop.time()
    reported = False
    while not stop():
        frame = client.latest_state()
        game = frame["game"]
        if game is not None and game["game_id"] == game_id:
            if game["status"] != "playing":
                return "over"
            view = game["view"]
            key = (game["events_from"] + len(game["events"]), view["round"])
            if view["turn"] == frame["you"]["seat"] and (
                    key not in handled or loop.time() - handled[key] > 5):
                handled[key] = loop.time()
                turns += 1
                if view["may_accuse"] and (turns % 3 == 0 or not view["legal_wagers"]):
                    await client.send({"type": "accuse", "id": f"t{turns}"})
                elif view["legal_wagers"]:
                    await client.send({"type": "wager", "wager": view["legal_wagers"][0],
                                       "id": f"t{turns}"})
        try:
            await client.wait_for(lambda f: f["type"] == "state", timeout=0.5)
            last_state = loop.time()
        except AssertionError:
            if client.closed:
                return "closed"
            if loop.time() - last_state > 15 and not reported:
                # This game normally takes seconds; in a full parallel suite it has rarely
                # stalled until the 120 s limit (cause not found yet): say where each
                # client stood, so that a failure shows whose frame went missing.
                reported = True
                print(f"no state for 15 s: {client.name} {stand(client)}", flush=True)
    return "stopped"


def stand(client: WsClient) -> str:
    """Where the game stands in ``client``'s latest ``state`` frame, in one line."""
    frame = client.latest_state()
    game = frame["game"] or {}
    view = game.get("view") or {}
    events = game.get("events_from", 0) + len(game.get("events", []))
    recent = [f["type"] for f in client.frames[-6:]]
    return (f"seat {frame['you'].get('seat')}, {game.get('status')}, round {view.get('round')}, "
            f"turn {view.get('turn')}, wager {view.get('wager')}, {events} events; last "
            f"frames {recent}")


async def get(server: Endpoint, path: str) -> Any:
    async with server.client() as http:
        response = await http.get(path)
        assert response.status_code == 200, response.text
        return response.json()


def check_commitments(export: dict[str, Any]) -> None:
    assert export["commitments"]
    for c in export["commitments"]:
        assert c["revealed"]
        assert verify(c["digest"], export["game_id"], c["round"], int(c["seat"]), c["faces"],
                      c["salt"])


async def wait_closed(client: WsClient, timeout: float = 30) -> None:
    for _ in range(int(timeout * 20)):
        if client.closed:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{client.name}: still connected")


async def reconnect(server: Endpoint, table_id: str, token: str, name: str,
                    timeout: float = 30) -> WsClient:
    """Connect as a browser does after a 1012: again, with back-off, until welcomed
    (until PostgreSQL has ended the dead process's session and freed its locks, the table
    may still look owned by it)."""
    deadline = asyncio.get_running_loop().time() + timeout
    delay = 0.1
    while True:
        try:
            return await server.connect(table_id, token, name)
        except (AssertionError, OSError, websockets.WebSocketException):
            if asyncio.get_running_loop().time() + delay > deadline:
                raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 2.0)


@pytest.mark.asyncio
async def test_web_two_processes_play_one_game_and_survive_a_sigkill(pg_url: str,
                                                                      tmp_path: Path) -> None:
    options = {"bot_delay_ms": 0, "grace_s": 600, "stake_cp": 100, "starting_gold_cp": 1000}
    async with serve_processes(pg_url, tmp_path, 2) as (a, b):
        table = await create_table(a, "liars-dice", rules={"dice_per_player": 2},
                                   options=options)
        tid = table["table_id"]
        # Ann on the process that owns the table; Bo and Cy on the other one (their
        # joins and sockets are forwarded to the owner).
        where: dict[str, Endpoint] = {"Ann": a, "Bo": b, "Cy": b}
        tokens = {name: (await join(server, tid, name))["seat_token"]
                  for name, server in where.items()}
        clients = {name: await where[name].connect(tid, tokens[name], name) for name in where}
        host = await b.connect(tid, table["host_token"], "host")
        assert (await a.health())["tables"] == 1 and (await b.health())["tables"] == 0
        summary = await get(b, f"/api/tables/{tid}")
        assert {s["name"]: s["presence"] for s in summary["seats"]} == {
            "Ann": "online", "Bo": "online", "Cy": "online"}

        # A whole game across both processes.
        assert (await host.request({"type": "start"}))["type"] == "ack"
        first = host.latest_state()["game"]["game_id"]
        results = await asyncio.wait_for(asyncio.gather(
            *(play_turns(c, first, lambda: False) for c in clients.values())), 120)
        assert results == ["over"] * 3
        first_export = await get(b, f"/api/games/{first}")
        assert LiarsDiceGame.from_log(first_export["log"]).is_over
        check_commitments(first_export)

        # The next game, played until a wager stands in its second round.
        await host.wait_for(lambda f: f["type"] == "state" and f["game"]["game_id"] == first
                            and f["game"]["status"] == "over")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        second = host.latest_state()["game"]["game_id"]

        # The stop latches: once one player has stopped, an answer already sent by another
        # may move the game past the wager (a round resolved, no wager standing); stop()
        # turning false again would leave the players still playing waiting on one who
        # has stopped (CI, 2026-12-02: "no state for 15 s", a turn nobody would take).
        reached = False

        def mid_round() -> bool:
            nonlocal reached
            game = host.latest_state()["game"]
            reached = reached or bool(game["game_id"] == second and game["view"]["round"] >= 2
                                      and game["view"]["wager"] is not None)
            return reached

        results = await asyncio.wait_for(asyncio.gather(
            *(play_turns(c, second, mid_round) for c in clients.values())), 120)
        assert results == ["stopped"] * 3, results
        await asyncio.sleep(0.2)  # let the last action's frames arrive
        store = Store(pg_url, upgrade=False)
        try:
            stored_before = store.game(second)
        finally:
            store.close()
        assert stored_before is not None and stored_before.status == "playing"
        seen_before = {name: seen_log(c, second) for name, c in clients.items()}
        ledger_before = await get(b, f"/api/tables/{tid}/ledger")

        a.kill()  # SIGKILL the owner, mid-round
        for name in ("Bo", "Cy"):
            await wait_closed(clients[name])
            # The forwarding process tells its browsers to reconnect.
            assert clients[name].ws.close_code == 1012
        await wait_closed(clients["Ann"])
        await wait_closed(host)

        # Everyone reconnects to the process still alive, which takes the table over.
        clients = {name: await reconnect(b, tid, tokens[name], name) for name in where}
        host = await reconnect(b, tid, table["host_token"], "host")
        assert (await b.health())["tables"] == 1
        resumed = host.latest_state()["game"]
        assert resumed["game_id"] == second and resumed["events_from"] == 0
        results = await asyncio.wait_for(asyncio.gather(
            *(play_turns(c, second, lambda: False) for c in clients.values())), 120)
        assert results == ["over"] * 3
        second_export = await get(b, f"/api/games/{second}")
        ledger_after = await get(b, f"/api/tables/{tid}/ledger")
        for client in [*clients.values(), host]:
            await client.close()

    # No event lost: what was stored, and what every player had seen, before the kill.
    events = second_export["log"]["events"]
    assert events[: len(stored_before.log["events"])] == stored_before.log["events"]
    game = LiarsDiceGame.from_log(second_export["log"])
    assert game.is_over and second_export["status"] == "over"
    seats = {s["name"]: s["seat"] for s in second_export["seats"]}
    for name, seen in seen_before.items():
        # Each player saw the log masked for their seat (others' dice hidden).
        masked = [e.masked_for(seats[name]).to_dict() for e in game.log]
        assert seen and masked[: len(seen)] == seen, name
    check_commitments(second_export)
    # No copper piece lost: every earlier row kept, each pot (3 x 100 cp) to its winner.
    after = {r["id"]: r for r in ledger_after["rows"]}
    assert all(after[r["id"]] == r for r in ledger_before["rows"])
    winners = [export["seats"][LiarsDiceGame.from_log(export["log"]).winner]["player_id"]
               for export in (first_export, second_export)]
    pots = [(r["player_id"], r["amount_cp"]) for r in ledger_after["rows"]
            if r["reason"] == "pot"]
    assert pots == [(w, 300) for w in winners]
    balances = {x["player_id"]: x["balance_cp"] for x in ledger_after["balances"]}
    assert sum(balances.values()) == 3 * 1000
    for pid, balance in balances.items():
        assert balance == 1000 - 200 + 300 * winners.count(pid)


@pytest.mark.asyncio
async def test_web_serve_workers_share_one_port(pg_url: str, tmp_path: Path) -> None:
    server = ServeProcess(pg_url, tmp_path / "workers.log", "--workers", "2")
    try:
        await server.started()
        nodes = set()
        for _ in range(40):  # each new connection goes to either worker
            async with httpx.AsyncClient(timeout=5) as http:
                nodes.add((await http.get(f"{server.http}/healthz")).json()["node"])
            if len(nodes) == 2:
                break
        assert len(nodes) == 2
        table = await create_table(server, "blackjack")
        for _ in range(6):  # whichever worker answers, it is the same table
            async with httpx.AsyncClient(timeout=5) as http:
                got = await http.get(f"{server.http}/api/tables/{table['table_id']}")
                assert got.status_code == 200 and got.json()["game"] == "blackjack"
    finally:
        server.stop()
    assert server.process.returncode == 0, server.log()[-2000:]


def test_web_serve_refuses_workers_on_sqlite(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["serve", "--workers", "2", "--port", str(free_port()),
                                      "--database-url", f"sqlite:///{tmp_path / 'x.db'}"])
    assert result.exit_code == 2
    assert "--workers 2 needs PostgreSQL" in result.output


def test_web_a_second_process_on_one_sqlite_file_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'tavern.sqlite3'}"

    async def main() -> str:
        first = await ServeProcess(url, tmp_path / "first.log").started()
        second = ServeProcess(url, tmp_path / "second.log")
        try:
            with contextlib.suppress(AssertionError):
                await second.started()
            second.process.wait(30)
            return second.log()
        finally:
            second.stop()
            first.stop()

    log = asyncio.run(main())
    assert "another tavern serve is already using" in log
