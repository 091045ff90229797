"""Persistence of the web table: SQLAlchemy 2 models, the gold ledger and the event logs.

One SQLite file by default (``sqlite:///./tavern.sqlite3``), or PostgreSQL
(``postgresql://...``, driven by psycopg); the same code runs on both. Everything a
restart needs is here:

* ``tables`` / ``players`` - the tables, their seat lists and options, and every
  person or bot seated at a table (a person's seat token is stored only as its SHA-256);
* ``games`` and ``events`` - each game's header (the engine's ``to_log()`` without
  events) and its events, appended as they happen, so ``from_log`` rebuilds it;
* ``commitments`` - the salted SHA-256 commitments to secret rolls, with the faces
  and salts kept server-side until the reveal;
* ``dice_checks`` - at a table with physical dice, each player's answer at a reveal:
  does their cup show the faces they typed in;
* ``ledger`` - every gold movement (cp) of a player at a table; a balance is the sum;
* ``ratings`` - at a table with the option ``rated``, each person's rating before and
  after each rated Liar's Dice game; a person's table rating is their latest row;
* ``table_owners`` - which server process holds each table's engine (PostgreSQL with
  several processes, :mod:`.coordinator`).

Each game step is written in one transaction (:meth:`Store.commit_steps` writes the
steps of several tables in one), so a crash never stores an event without its ledger
rows or the other way round. The schema is made and upgraded by Alembic
(:mod:`.migrate`); its models, and the records a step writes, are in :mod:`.rows`.
:class:`Store` is synchronous: the server calls it from one thread of its own
(:mod:`.dbthread`), never from the event loop.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, cast

from sqlalchemy import (
    Table,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from tavern_dice.web.commitments import Commitment
from tavern_dice.web.rows import (
    Base,
    CommitmentRow,
    DiceCheck,
    DiceCheckRow,
    EventRow,
    GameRow,
    LedgerEntry,
    LedgerRow,
    LoadedTable,
    PlayerRow,
    RatingEntry,
    RatingRow,
    Step,
    StoredGame,
    TableOwnerRow,
    TableRow,
)

__all__ = [
    "DEFAULT_DATABASE_URL", "Base", "CommitmentRow", "DatabaseError", "DiceCheck",
    "DiceCheckRow", "EventRow", "Fence", "FenceError", "GameRow", "LedgerEntry", "LedgerRow",
    "LoadedTable", "PlayerRow", "RatingEntry", "RatingRow", "Step", "Store", "StoredGame",
    "TableOwnerRow", "TableRow",
    "is_postgres", "normalize_url", "now_ms", "token_hash",
]

DEFAULT_DATABASE_URL = "sqlite:///./tavern.sqlite3"


class DatabaseError(Exception):
    """The database cannot be used as given (a missing driver, a URL it cannot open);
    the message says what to do."""


class FenceError(Exception):
    """This process no longer owns the tables it was writing for (its PostgreSQL lock
    session ended): nothing was written."""


def normalize_url(url: str) -> str:
    """The SQLAlchemy URL to open: a plain PostgreSQL URL names psycopg, the driver of
    the ``postgres`` extra.

    >>> normalize_url("postgresql://tavern@db.example/tavern")
    'postgresql+psycopg://tavern@db.example/tavern'
    >>> normalize_url("postgres://tavern@db.example/tavern")
    'postgresql+psycopg://tavern@db.example/tavern'
    >>> normalize_url("sqlite:///./tavern.sqlite3")
    'sqlite:///./tavern.sqlite3'
    """
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain):]
    return url


def is_postgres(url: str) -> bool:
    """Whether ``url`` names a PostgreSQL database.

    >>> is_postgres("postgresql+psycopg://h/db"), is_postgres("sqlite://")
    (True, False)
    """
    return normalize_url(url).startswith("postgresql")


def now_ms() -> int:
    """Milliseconds since the Unix epoch."""
    return int(time.time() * 1000)


def token_hash(token: str) -> str:
    """The stored form of a seat or host token: lowercase hex SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


Fence = Callable[[Connection], None]
"""A check run inside each write transaction that raises :class:`FenceError` when this
process may no longer write (see :meth:`Store.commit_steps`)."""


class Store:
    """Synchronous access to the database. The server calls it from one thread of its own
    (:class:`~.dbthread.StoreThread`); tests and tools may call it directly.

    Args:
        url: an SQLAlchemy database URL; ``sqlite://`` (no path) is a private in-memory
            database; ``postgresql://...`` uses psycopg.
        upgrade: bring the schema up to date first (Alembic, :func:`.migrate.upgrade`).

    Raises:
        DatabaseError: no driver for the URL's database.
    """

    def __init__(self, url: str = DEFAULT_DATABASE_URL, upgrade: bool = True) -> None:
        self.url = url = normalize_url(url)
        self.engine: Engine
        if url.startswith("sqlite"):
            memory = url in ("sqlite://", "sqlite:///:memory:")
            if not memory:
                _create_private(make_url(url).database)
            self.engine = create_engine(
                url,
                connect_args={"check_same_thread": False},
                poolclass=StaticPool if memory else None,
            )
            event.listen(self.engine, "connect", _sqlite_pragmas)
        else:
            try:
                # One thread writes (dbthread); a few connections cover the odd tool or
                # test reading beside it.
                self.engine = create_engine(url, pool_pre_ping=True, pool_size=4,
                                            max_overflow=4)
            except ModuleNotFoundError as error:
                raise DatabaseError(
                    f"{make_url(url).drivername} needs its driver ({error.name}): "
                    "pip install 'tavern-dice[postgres]'") from None
        if upgrade:
            from tavern_dice.web.migrate import upgrade as upgrade_schema

            upgrade_schema(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def close(self) -> None:
        """Release the connection pool."""
        self.engine.dispose()

    # ------------------------------------------------------------------ tables and players

    def add_table(self, row: TableRow) -> None:
        with self._session() as session, session.begin():
            session.add(row)

    def table(self, table_id: str) -> TableRow | None:
        with self._session() as session:
            return session.get(TableRow, table_id)

    def tables_with_games(self) -> list[str]:
        """Ids of tables that have a game running or paused (to resume after a restart)."""
        with self._session() as session:
            rows = session.scalars(
                select(TableRow.id).where(TableRow.game_id.is_not(None))
            )
            return list(rows)

    def update_table(self, table_id: str, **values: Any) -> None:
        with self._session() as session, session.begin():
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**values))

    def add_player(self, row: PlayerRow, ledger: Sequence[LedgerEntry] = (),
                   seats: list[str] | None = None) -> None:
        """Store a new player (and their starting gold, and the table's new seat list)."""
        with self._session() as session, session.begin():
            session.add(row)
            self._write_ledger(session, row.table_id, ledger)
            if seats is not None:
                session.execute(
                    update(TableRow).where(TableRow.id == row.table_id).values(seats=seats)
                )

    def players(self, table_id: str) -> list[PlayerRow]:
        with self._session() as session:
            return list(session.scalars(
                select(PlayerRow).where(PlayerRow.table_id == table_id)
                .order_by(PlayerRow.created_ms, PlayerRow.id)
            ))

    # ------------------------------------------------------------------ games

    def add_game(self, row: GameRow, step: Step) -> None:
        """Store a new game and its first step (events, commitments, antes) together."""
        with self.engine.begin() as conn:
            conn.execute(insert(_GAMES), [{
                "id": row.id, "table_id": row.table_id, "game": row.game,
                "status": row.status, "seats": row.seats, "header": row.header,
                "created_ms": row.created_ms, "finished_ms": row.finished_ms,
            }])
            self._write_step(conn, row.table_id, step)

    def commit_step(self, table_id: str, step: Step) -> None:
        """Write one step in one transaction (SQLAlchemy Core: this runs on every action)."""
        self.commit_steps([(table_id, step)])

    def commit_steps(self, steps: Sequence[tuple[str, Step]], fence: Fence | None = None
                     ) -> None:
        """Write the steps of several tables in one transaction (a group commit: one
        sync of the log for all of them). ``fence`` runs first in the same transaction
        and may refuse the whole write (:class:`FenceError`).

        The rows of each kind go in one statement for all steps; a failure writes
        nothing, and the caller may write the steps one by one to find the bad one.
        """
        steps = [(t, s) for t, s in steps if not s.empty()]
        if not steps:
            return
        with self.engine.begin() as conn:
            if fence is not None:
                fence(conn)
            if len(steps) == 1:
                self._write_step(conn, *steps[0])
            else:
                self._write_many(conn, steps)

    def _write_many(self, conn: Connection, steps: Sequence[tuple[str, Step]]) -> None:
        """Like :meth:`_write_step` for many steps, with one statement per kind of row."""
        events = [{"game_id": s.game_id, "seq": s.first_seq + i, "data": data}
                  for _, s in steps for i, data in enumerate(s.events)]
        if events:
            conn.execute(_INSERT_EVENT, events)
        commitments = [_commitment_values(c) for _, s in steps for c in s.new_commitments]
        if commitments:
            conn.execute(_INSERT_COMMITMENT, commitments)
        reveals = [{"g": s.game_id, "r": r, "s": seat} for _, s in steps for r, seat in s.revealed]
        if reveals:
            conn.execute(_REVEAL, reveals)
        at = now_ms()
        checks = [{"game_id": s.game_id, "round": c.round, "seat": c.seat, "match": c.match,
                   "at_ms": at} for _, s in steps for c in s.dice_checks]
        if checks:
            conn.execute(insert(_DICE_CHECKS), checks)
        ledger = [_ledger_values(table_id, e, at) for table_id, s in steps for e in s.ledger]
        if ledger:
            conn.execute(insert(_LEDGER), ledger)
        ratings = [_rating_values(table_id, r, at) for table_id, s in steps for r in s.ratings]
        if ratings:
            conn.execute(insert(_RATINGS), ratings)
        for table_id, step in steps:
            self._write_status(conn, table_id, step)

    def _write_step(self, conn: Connection, table_id: str, step: Step) -> None:
        if step.events:
            conn.execute(_INSERT_EVENT, [
                {"game_id": step.game_id, "seq": step.first_seq + i, "data": data}
                for i, data in enumerate(step.events)
            ])
        if step.new_commitments:
            conn.execute(_INSERT_COMMITMENT, [_commitment_values(c)
                                              for c in step.new_commitments])
        if step.revealed:
            conn.execute(_REVEAL, [
                {"g": step.game_id, "r": round_, "s": seat} for round_, seat in step.revealed
            ])
        if step.dice_checks:
            conn.execute(insert(_DICE_CHECKS), [
                {"game_id": step.game_id, "round": c.round, "seat": c.seat, "match": c.match,
                 "at_ms": now_ms()}
                for c in step.dice_checks
            ])
        self._write_ledger(conn, table_id, step.ledger)
        if step.ratings:
            conn.execute(insert(_RATINGS), [_rating_values(table_id, r, now_ms())
                                            for r in step.ratings])
        self._write_status(conn, table_id, step)

    @staticmethod
    def _write_status(conn: Connection, table_id: str, step: Step) -> None:
        if step.game_status is not None:
            values: dict[str, Any] = {"status": step.game_status}
            if step.game_status in ("over", "ended"):
                values["finished_ms"] = now_ms()
            conn.execute(update(_GAMES).where(_GAMES.c.id == step.game_id)
                         .values(**values))
        table_values: dict[str, Any] = {}
        if step.table_status is not None:
            table_values["status"] = step.table_status
        if step.table_game_id is not None:
            table_values["game_id"] = step.table_game_id
        if step.clear_table_game:
            table_values["game_id"] = None
        if table_values:
            conn.execute(update(_TABLES).where(_TABLES.c.id == table_id)
                         .values(**table_values))

    @staticmethod
    def _write_ledger(conn: Connection | Session, table_id: str,
                      entries: Iterable[LedgerEntry]) -> None:
        at = now_ms()
        rows = [_ledger_values(table_id, e, at) for e in entries]
        if rows:
            conn.execute(insert(_LEDGER), rows)

    def write_ledger(self, table_id: str, entries: Sequence[LedgerEntry]) -> None:
        with self.engine.begin() as conn:
            self._write_ledger(conn, table_id, entries)

    def game(self, game_id: str) -> StoredGame | None:
        """A stored game with its replayable log (header plus events in order)."""
        with self._session() as session:
            row = session.get(GameRow, game_id)
            if row is None:
                return None
            events = list(session.scalars(
                select(EventRow.data).where(EventRow.game_id == game_id).order_by(EventRow.seq)
            ))
            commitments = [
                Commitment(c.game_id, c.round, c.seat, tuple(c.faces), c.salt, c.digest,
                           c.revealed)
                for c in session.scalars(
                    select(CommitmentRow).where(CommitmentRow.game_id == game_id)
                    .order_by(CommitmentRow.round, CommitmentRow.seat)
                )
            ]
            checks = [
                DiceCheck(c.round, c.seat, c.match)
                for c in session.scalars(
                    select(DiceCheckRow).where(DiceCheckRow.game_id == game_id)
                    .order_by(DiceCheckRow.round, DiceCheckRow.seat)
                )
            ]
            return StoredGame(
                row.id, row.table_id, row.game, row.status, list(row.seats),
                dict(row.header, events=events), commitments, row.created_ms, row.finished_ms,
                checks,
            )

    def load_table(self, table_id: str) -> LoadedTable | None:
        """Everything a process needs to hold ``table_id``, or ``None`` if there is no
        such table."""
        row = self.table(table_id)
        if row is None:
            return None
        game = self.game(row.game_id) if row.game_id is not None else None
        antes = self.antes(table_id, game.id) if game is not None else {}
        return LoadedTable(row, self.players(table_id), self.balances(table_id), game, antes,
                           self.ratings(table_id))

    def antes(self, table_id: str, game_id: str) -> dict[str, int]:
        """cp each player staked at the start of ``game_id`` (Liar's Dice stakes)."""
        with self._session() as session:
            return {player: -amount for player, amount in session.execute(
                select(LedgerRow.player_id, LedgerRow.amount_cp)
                .where(LedgerRow.table_id == table_id, LedgerRow.game_id == game_id,
                       LedgerRow.reason == "ante")
            )}

    def ping(self) -> None:
        """One round trip to the database (``/healthz``)."""
        with self.engine.connect() as conn:
            conn.execute(text("SELECT 1"))

    def games(self, table_id: str) -> list[GameRow]:
        with self._session() as session:
            return list(session.scalars(
                select(GameRow).where(GameRow.table_id == table_id)
                .order_by(GameRow.created_ms.desc())
            ))

    def event_count(self, game_id: str) -> int:
        with self._session() as session:
            count = session.scalar(
                select(func.count()).select_from(EventRow).where(EventRow.game_id == game_id)
            )
            return int(count or 0)

    def ratings(self, table_id: str) -> list[RatingEntry]:
        """Every rating change at ``table_id``, oldest game first."""
        with self._session() as session:
            return [
                RatingEntry(r.game_id, r.player_id, r.place, r.mu_before, r.sigma_before,
                            r.mu, r.sigma)
                for r in session.scalars(
                    select(RatingRow).where(RatingRow.table_id == table_id)
                    .order_by(RatingRow.at_ms, RatingRow.game_id, RatingRow.place))
            ]

    # ------------------------------------------------------------------ ledger

    def balances(self, table_id: str) -> dict[str, int]:
        """Every player's balance in cp at ``table_id``: the sum of their ledger rows."""
        with self._session() as session:
            rows = session.execute(
                select(LedgerRow.player_id, func.sum(LedgerRow.amount_cp))
                .where(LedgerRow.table_id == table_id).group_by(LedgerRow.player_id)
            )
            return {player: int(total or 0) for player, total in rows}

    def ledger(self, table_id: str) -> list[LedgerRow]:
        with self._session() as session:
            return list(session.scalars(
                select(LedgerRow).where(LedgerRow.table_id == table_id).order_by(LedgerRow.id)
            ))


_GAMES = cast(Table, GameRow.__table__)
_TABLES = cast(Table, TableRow.__table__)
_LEDGER = cast(Table, LedgerRow.__table__)
_RATINGS = cast(Table, RatingRow.__table__)
_COMMITMENT_ROWS = cast(Table, CommitmentRow.__table__)
_DICE_CHECKS = cast(Table, DiceCheckRow.__table__)
_INSERT_EVENT = insert(cast(Table, EventRow.__table__))
_INSERT_COMMITMENT = insert(_COMMITMENT_ROWS)
_COMMITMENTS = _COMMITMENT_ROWS.c
_REVEAL = (
    update(_COMMITMENT_ROWS)
    .where(_COMMITMENTS.game_id == bindparam("g"), _COMMITMENTS.round == bindparam("r"),
           _COMMITMENTS.seat == bindparam("s"))
    .values(revealed=True)
)


def _commitment_values(c: Commitment) -> dict[str, Any]:
    return {"game_id": c.game_id, "round": c.round, "seat": c.seat, "faces": list(c.faces),
            "salt": c.salt, "digest": c.digest, "revealed": c.revealed}


def _ledger_values(table_id: str, e: LedgerEntry, at_ms: int) -> dict[str, Any]:
    return {"table_id": table_id, "player_id": e.player_id, "game_id": e.game_id,
            "round": e.round, "amount_cp": e.amount_cp, "reason": e.reason, "at_ms": at_ms}


def _rating_values(table_id: str, r: RatingEntry, at_ms: int) -> dict[str, Any]:
    return {"game_id": r.game_id, "player_id": r.player_id, "table_id": table_id,
            "place": r.place, "mu_before": r.mu_before, "sigma_before": r.sigma_before,
            "mu": r.mu, "sigma": r.sigma, "at_ms": at_ms}


def _create_private(path: str | None) -> None:
    """Create a new SQLite file readable by its owner only (0600): it holds every
    unrevealed die and salt, and the seat and DM key hashes. SQLite gives its ``-wal``
    and ``-shm`` files the same permissions. An existing file is left as it is."""
    if not path or path.startswith("file:"):
        return
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return
    os.close(fd)


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL keeps readers off the writer's back; NORMAL sync is durable across process
    # crashes (only an OS crash can lose the last commits).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()
