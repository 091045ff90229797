"""Alembic migrations: a database made by ``tavern serve`` before migrations existed
(``data/tavern-v0.sql``: today's schema, a Liar's Dice game with stakes mid-way and a
finished Blackjack game) upgrades in place on start-up, ledger and logs intact, and its
running game plays on; and the newest revision is exactly the models' schema."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import MetaData, create_engine, insert, inspect, select, text
from web_support import live_server, play_liars_dice_person

from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.web import migrate
from tavern_dice.web.commitments import verify
from tavern_dice.web.store import Base, EventRow, GameRow, Store, normalize_url

DATA = Path(__file__).with_name("data")
LEGACY = json.loads((DATA / "tavern-v0.json").read_text())


def legacy_sqlite(path: Path) -> None:
    """The old database itself, from its dump."""
    with sqlite3.connect(path) as conn:
        conn.executescript((DATA / "tavern-v0.sql").read_text())


def legacy_copy(url: str, tmp_path: Path) -> None:
    """The old schema and rows on another database: its tables as the old code created
    them (reflected from the old SQLite file), and every row copied."""
    legacy_sqlite(tmp_path / "legacy.sqlite3")
    source = create_engine(f"sqlite:///{tmp_path / 'legacy.sqlite3'}")
    target = create_engine(normalize_url(url))
    old = MetaData()
    old.reflect(source)
    old.create_all(target)
    with source.connect() as read, target.begin() as write:
        for table in old.sorted_tables:
            rows = [dict(r._mapping) for r in read.execute(select(table))]
            if rows:
                write.execute(insert(table), rows)
        if target.dialect.name == "postgresql":
            # As if the rows had come from the sequence.
            write.execute(text("SELECT setval(pg_get_serial_sequence('ledger', 'id'), "
                               "(SELECT max(id) FROM ledger))"))
    source.dispose()
    target.dispose()


async def get(server: Any, path: str) -> Any:
    async with server.client() as http:
        response = await http.get(path)
        assert response.status_code == 200, response.text
        return response.json()


@pytest.mark.asyncio
async def test_web_a_database_of_the_old_schema_upgrades_in_place(database_url: str,
                                                                  tmp_path: Path) -> None:
    if database_url.startswith("sqlite"):
        legacy_sqlite(Path(database_url.removeprefix("sqlite:///")))
    else:
        legacy_copy(database_url, tmp_path)
    old = Store(database_url, upgrade=False)
    assert migrate.current(old.engine) is None  # made before migrations
    tid, gid = LEGACY["liars_table"], LEGACY["liars_game"]
    old_rows = [(r.id, r.player_id, r.amount_cp, r.reason) for r in old.ledger(tid)]
    # Only the old tables are read (Store.game would read later ones, such as dice_checks).
    with old.engine.connect() as conn:
        old_status = conn.execute(select(GameRow.status).where(GameRow.id == gid)).scalar_one()
        old_events = list(conn.execute(select(EventRow.data).where(EventRow.game_id == gid)
                                       .order_by(EventRow.seq)).scalars())
    old.close()
    assert old_status == "playing" and old_events

    async with live_server(database_url) as server:  # upgrades on start-up
        assert migrate.current(server.manager.store.engine) == migrate.head()
        ledger = await get(server, f"/api/tables/{tid}/ledger")
        assert [(r["id"], r["player_id"], r["amount_cp"], r["reason"])
                for r in ledger["rows"]] == old_rows
        summary = await get(server, f"/api/tables/{tid}")
        assert summary["status"] == "playing" and summary["game_id"] == gid
        # The running game goes on: Ann and Bo come back with their old tokens.
        clients = [await server.connect(tid, LEGACY["seat_tokens"][name], name)
                   for name in ("Ann", "Bo")]
        await asyncio.wait_for(asyncio.gather(
            *(play_liars_dice_person(c, lambda: False) for c in clients)), 60)
        export = await get(server, f"/api/games/{gid}")
        ledger = await get(server, f"/api/tables/{tid}/ledger")
        games = await get(server, f"/api/tables/{LEGACY['blackjack_table']}/games")
        for client in clients:
            await client.close()

    events = export["log"]["events"]
    assert events[: len(old_events)] == old_events
    game = LiarsDiceGame.from_log(export["log"])
    assert game.is_over
    for c in export["commitments"]:
        assert verify(c["digest"], gid, c["round"], int(c["seat"]), c["faces"], c["salt"])
    winner = export["seats"][game.winner]["player_id"]
    assert [(r["id"], r["player_id"], r["amount_cp"], r["reason"])
            for r in ledger["rows"]][: len(old_rows)] == old_rows
    assert [(r["player_id"], r["amount_cp"]) for r in ledger["rows"]
            if r["reason"] == "pot"] == [(winner, 300)]
    assert sum(b["balance_cp"] for b in ledger["balances"]) == 3 * 1000
    assert games["games"][0]["status"] == "ended"  # the old Blackjack game is there too


def test_web_the_newest_revision_is_the_models_schema(database_url: str) -> None:
    store = Store(database_url)
    try:
        with store.engine.connect() as conn:
            diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
            names = set(inspect(conn).get_table_names())
        assert diff == [], diff
        assert names == {*Base.metadata.tables, "alembic_version"}
        assert migrate.current(store.engine) == migrate.head()
        # Upgrading again changes nothing.
        migrate.upgrade(store.engine)
        assert migrate.current(store.engine) == migrate.head()
    finally:
        store.close()
