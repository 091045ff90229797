"""What an operator gets: /healthz, Prometheus metrics, JSON logs, documented options; and
what a process does when it loses its PostgreSQL lock session (it lets its tables go,
writes nothing more for them, and takes them back when their players return)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
import typer
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text
from web_support import WsClient, create_table, join, live_server

from tavern_dice.cli import app
from tavern_dice.web import manager as manager_module
from tavern_dice.web.coordinator import PostgresCoordinator
from tavern_dice.web.dbthread import StoreThread
from tavern_dice.web.logs import configure
from tavern_dice.web.store import FenceError, Step, Store, TableRow, now_ms


def samples(metrics_text: str) -> dict[str, float]:
    """Every sample of a Prometheus text page: ``name{labels}`` -> value."""
    found: dict[str, float] = {}
    for family in text_string_to_metric_families(metrics_text):
        for s in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(s.labels.items()))
            found[f"{s.name}{{{labels}}}" if labels else s.name] = s.value
    return found


@pytest.mark.asyncio
async def test_web_healthz_and_metrics(database_url: str) -> None:
    async with live_server(database_url) as server:
        async with server.client() as http:
            health = await http.get("/healthz")
            assert health.status_code == 200
            assert health.json()["ok"] is True
            assert health.json()["database"] in ("sqlite", "postgresql")
        table = await create_table(server, "liars-dice", options={"bot_delay_ms": 0})
        tid = table["table_id"]
        ann, bo = await join(server, tid, "Ann"), await join(server, tid, "Bo")
        host = await server.connect(tid, table["host_token"], "host")
        players = [await server.connect(tid, x["seat_token"], n)
                   for n, x in (("ann", ann), ("bo", bo))]
        assert (await host.request({"type": "start"}))["type"] == "ack"
        assert (await host.request({"type": "start"}))["type"] == "error"  # already running
        assert (await host.request({"type": "pause"}))["type"] == "ack"  # a step written
        async with server.client() as http:
            page = await http.get("/metrics")
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/plain")
        got = samples(page.text)
        assert got["tavern_tables"] == 1
        assert got["tavern_games_running"] == 1  # paused games count
        assert got["tavern_connections"] == 3
        assert got["tavern_actions_total{result=ack}"] >= 1
        assert got["tavern_actions_total{result=error}"] >= 1
        assert got["tavern_action_seconds_count"] >= 2
        assert got['tavern_action_seconds_bucket{le=+Inf}'] >= 2
        assert got["tavern_db_commit_steps_count"] >= 1
        for client in [host, *players]:
            await client.close()


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


def test_web_logs_are_one_json_object_a_line(capsys: Any, restore_logging: None) -> None:
    configure("info", "json")
    logging.getLogger("tavern_dice.web").info("table %s: loaded", "t1",
                                              extra={"table": "t1", "node": "n1"})
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("tavern_dice.web").exception("it failed")
    lines = capsys.readouterr().err.strip().splitlines()
    first, second = (json.loads(line) for line in lines)
    assert first["message"] == "table t1: loaded" and first["level"] == "info"
    assert first["table"] == "t1" and first["node"] == "n1"
    assert first["logger"] == "tavern_dice.web" and first["time"].endswith("+00:00")
    assert second["level"] == "error" and "ValueError: boom" in second["exception"]


def test_web_serve_help_documents_every_option() -> None:
    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    options = [p for p in serve.params if p.param_type_name == "option" and p.name != "help"]
    assert {o.opts[0] for o in options} >= {
        "--host", "--port", "--database-url", "--workers", "--peer-host", "--log-level",
        "--log-format", "--tables-per-client", "--max-open-tables"}
    for option in options:
        assert option.help and len(option.help) > 20, option.opts


def terminate(url: str, pid: int) -> None:
    """End a PostgreSQL session from outside (as a crash of its network would), and wait
    until it is gone: ``pg_terminate_backend`` only signals the backend, which may still
    hold its locks for a moment on a busy machine."""
    store = Store(url, upgrade=False)
    try:
        with store.engine.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:p)"), {"p": pid})
            conn.commit()
            for _ in range(200):
                alive = conn.execute(
                    text("SELECT 1 FROM pg_stat_activity WHERE pid = :p"), {"p": pid}
                ).first()
                conn.commit()
                if alive is None:
                    return
                time.sleep(0.05)
            raise AssertionError(f"PostgreSQL session {pid} still alive after 10 s")
    finally:
        store.close()


@pytest.mark.asyncio
async def test_web_a_process_without_its_lock_session_writes_nothing(pg_url: str) -> None:
    store = Store(pg_url)
    db = StoreThread(store)
    coordinator = PostgresCoordinator(db, None)
    try:
        await coordinator.start()
        row = TableRow(id="t1", game="liars-dice", name="n", rules={}, options={},
                       host_token_hash="x", seats=[], status="lobby", game_id=None,
                       created_ms=now_ms())
        await db.call(store.add_table, row)
        assert await coordinator.acquire("t1")
        await db.commit_step("t1", Step(table_status="paused"))
        terminate(pg_url, coordinator._pid)
        with pytest.raises(FenceError):
            await db.commit_step("t1", Step(table_status="playing"))
        assert not await coordinator.healthy()
        assert (await db.call(store.table, "t1")).status == "paused"
        await coordinator.reconnect()
        assert await coordinator.healthy()
    finally:
        await coordinator.close()
        await db.close()


async def closed(client: WsClient, timeout: float = 30) -> int | None:
    for _ in range(int(timeout * 20)):
        if client.closed:
            code: int | None = client.ws.close_code
            return code
        await asyncio.sleep(0.05)
    raise AssertionError(f"{client.name}: still connected")


@pytest.mark.asyncio
async def test_web_a_lost_lock_session_lets_the_tables_go_until_players_return(
        pg_url: str) -> None:
    async with live_server(pg_url) as server:
        table = await create_table(server, "liars-dice", options={"bot_delay_ms": 0})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        await join(server, tid, "Bo")
        host = await server.connect(tid, table["host_token"], "host")
        assert (await host.request({"type": "start"}))["type"] == "ack"
        game_id = host.latest_state()["game"]["game_id"]
        node = server.manager.coordinator.node_id
        terminate(pg_url, server.manager.coordinator._pid)
        # The watch notices within a second or two: the table's sockets are told to
        # reconnect, the table leaves memory, and the process opens a new lock session
        # (as a new node, so that the tables it had count as orphans and are taken back).
        assert await closed(host) == 1012
        coordinator = server.manager.coordinator
        deadline = asyncio.get_running_loop().time() + 30  # generous: a busy machine
        while coordinator.node_id == node or not await coordinator.healthy():
            assert asyncio.get_running_loop().time() < deadline, "no new lock session"
            await asyncio.sleep(0.05)
        # The players come back: the process holds the table again, same game.
        host = await server.connect(tid, table["host_token"], "host")
        player = await server.connect(tid, ann["seat_token"], "ann")
        assert host.latest_state()["game"]["game_id"] == game_id
        assert (await host.request({"type": "pause"}))["type"] == "ack"
        async with server.client() as http:
            assert (await http.get("/healthz")).json()["ok"] is True
        for client in (host, player):
            await client.close()


@pytest.mark.asyncio
async def test_web_the_tables_of_a_dead_process_are_orphans(pg_url: str) -> None:
    # Two processes' worth: a store thread and a coordinator each.
    dbs = [StoreThread(Store(pg_url)), StoreThread(Store(pg_url))]
    alive = PostgresCoordinator(dbs[0], "http://127.0.0.1:1")
    dead = PostgresCoordinator(dbs[1], None)
    try:
        await alive.start()
        await dead.start()
        store = dbs[0].store
        for table_id, game_id in (("running", "g1"), ("lobby", None)):
            await dbs[0].call(store.add_table, TableRow(
                id=table_id, game="liars-dice", name="n", rules={}, options={},
                host_token_hash="x", seats=[], status="lobby", game_id=game_id,
                created_ms=now_ms()))
            assert await dead.acquire(table_id)
            assert not await alive.acquire(table_id)  # held
        assert await alive.orphans() == []  # their owner is alive
        assert await alive.owner("running") is None  # alive, but others cannot reach it
        await dead.close()  # its session ends: its locks go (once PostgreSQL notices)
        deadline = asyncio.get_running_loop().time() + 30  # generous: a busy machine
        while not (orphans := await alive.orphans()):
            assert asyncio.get_running_loop().time() < deadline, "locks still held"
            await asyncio.sleep(0.05)
        assert orphans == ["running"]  # the lobby table loads at its next visit
        held = await alive.acquire("running")
        assert held is not None and held.taken_from == dead.node_id  # a takeover
        lobby = await alive.acquire("lobby")  # its dead owner's row was cleared
        assert lobby is not None and lobby.taken_from is None
        assert await alive.orphans() == []
        others = PostgresCoordinator(dbs[1], None)
        await others.start()
        assert await others.owner("running") == "http://127.0.0.1:1"
        await others.close()
    finally:
        await alive.close()
        for db in dbs:
            await db.close()


async def running_table(server: Any) -> dict[str, Any]:
    """A Liar's Dice table of two people with a game running (nobody moves: the people
    are not connected), and their seat tokens."""
    table = await create_table(server, "liars-dice", options={"bot_delay_ms": 0})
    tid = table["table_id"]
    table["ann"] = (await join(server, tid, "Ann"))["seat_token"]
    await join(server, tid, "Bo")
    host = await server.connect(tid, table["host_token"], "host")
    assert (await host.request({"type": "start"}))["type"] == "ack"
    table["game_id"] = host.latest_state()["game"]["game_id"]
    await host.close()
    return table


@pytest.mark.asyncio
async def test_web_takeovers_count_a_players_reconnect_as_well_as_the_sweep(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # No sweeps for orphans on their own: the test runs each path when it means to.
    monkeypatch.setattr(manager_module, "WATCH_S", 3600.0)
    async with live_server(pg_url) as alive:
        async with live_server(pg_url) as dying:
            reconnected = await running_table(dying)
            swept = await running_table(dying)
        # `dying` stopped holding both tables; once its session is gone, they are orphans.
        coordinator = alive.manager.coordinator
        deadline = asyncio.get_running_loop().time() + 30  # generous: a busy machine
        while len(await coordinator.orphans()) < 2:
            assert asyncio.get_running_loop().time() < deadline, "locks still held"
            await asyncio.sleep(0.05)
        # Ann's browser comes back before the sweep: this process takes the table over.
        ann = await alive.connect(reconnected["table_id"], reconnected["ann"], "ann")
        assert ann.latest_state()["game"]["game_id"] == reconnected["game_id"]
        assert counted(alive)["tavern_table_takeovers_total"] == 1
        # A second browser on the same table takes nothing over.
        again = await alive.connect(reconnected["table_id"], reconnected["ann"], "ann2")
        assert counted(alive)["tavern_table_takeovers_total"] == 1
        # The sweep finds the other table (nobody came back to it) and counts it too.
        assert await alive.manager.watch_once() == 1
        assert alive.manager.loaded(swept["table_id"]) is not None
        assert counted(alive)["tavern_table_takeovers_total"] == 2
        assert await alive.manager.watch_once() == 0
        assert counted(alive)["tavern_table_takeovers_total"] == 2
        for client in (ann, again):
            await client.close()


def counted(server: Any) -> dict[str, float]:
    return samples(server.manager.metrics.render().decode())
