"""Which server process holds which table: the database decides.

One process at a time holds a table's engine, its bots and its timers (its *owner*);
every other process forwards that table's players to it (:mod:`.relay`).

* :class:`SoloCoordinator` (SQLite): one process owns every table. A second process on
  the same SQLite file is refused (a lock on the file), since each would run its own
  copy of every game.
* :class:`PostgresCoordinator`: each process keeps one connection, its *lock session*,
  on which it holds a PostgreSQL advisory lock for itself (its node lock) and one for
  each table it owns. A process that dies loses its session, and PostgreSQL releases
  every one of its locks at once; another process then takes the lock of any of its
  tables (when a player comes back, or at its next sweep for orphans) and loads the
  table from the database. The ``table_owners`` rows say where an owner can be
  reached. Each write transaction first checks that the lock session is still alive
  (:meth:`PostgresCoordinator.fence`), so a process cut off from its locks cannot write
  for a table another process has taken over.

The design, with a picture, is in ``docs/web-scaling.md``.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import secrets
from collections import defaultdict
from dataclasses import dataclass
from typing import IO, Protocol

from sqlalchemy import text
from sqlalchemy.engine import Connection, make_url

from tavern_dice.web.dbthread import StoreThread
from tavern_dice.web.store import DatabaseError, FenceError, now_ms

log = logging.getLogger("tavern_dice.web.coordinator")


def lock_key(kind: str, ident: str) -> int:
    """A PostgreSQL advisory lock key (signed 64 bits) for ``kind:ident``: a hash, so
    that two ids collide only with a chance of about 1 in 2^64.

    >>> lock_key("table", "abc") == lock_key("table", "abc") != lock_key("node", "abc")
    True
    """
    digest = hashlib.sha256(f"tavern:{kind}:{ident}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


@dataclass(frozen=True, slots=True)
class Held:
    """A table this process has just become the owner of (see :meth:`Coordinator.acquire`)."""

    taken_from: str | None = None
    """The node id of the process that owned it before, which died (or lost its lock
    session) without letting it go; ``None`` for a table nobody held."""


class Coordinator(Protocol):
    """Ownership of tables for one server process."""

    node_id: str
    address: str | None
    """Where other processes reach this one (``http://host:port``); ``None`` alone."""

    async def start(self) -> None:
        """Join (take the node lock); raises :class:`DatabaseError` if this process may
        not serve this database."""

    async def acquire(self, table_id: str) -> Held | None:
        """Try to become ``table_id``'s owner: :class:`Held` if this process owns it now,
        else ``None`` (another process holds it)."""

    async def release(self, table_id: str) -> None:
        """Stop owning ``table_id`` (it was put away)."""

    async def owner(self, table_id: str) -> str | None:
        """The address of ``table_id``'s owner if another process holds it."""

    async def orphans(self) -> list[str]:
        """Tables with a running game whose owner died (to take over now)."""

    async def healthy(self) -> bool:
        """Whether this process still holds its locks."""

    async def reconnect(self) -> None:
        """After losing the locks: a new lock session (owning nothing yet)."""

    async def close(self) -> None:
        """Release everything (other processes take the tables over)."""


class SoloCoordinator:
    """SQLite: this process owns every table, and no other process may open the file."""

    def __init__(self, database_path: str | None) -> None:
        self.node_id = secrets.token_hex(8)
        self.address: str | None = None
        self._path = database_path
        self._file: IO[bytes] | None = None

    async def start(self) -> None:
        if not self._path or self._path == ":memory:" or self._path.startswith("file:"):
            return
        handle = open(self._path, "rb")  # noqa: SIM115 - held open while serving
        try:
            # flock, not fcntl: SQLite's own POSIX locks on the file are not touched.
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise DatabaseError(
                f"another tavern serve is already using {self._path}: SQLite serves one "
                "process. Stop the other one, or use PostgreSQL (--database-url "
                "postgresql://...) for several processes") from None
        self._file = handle

    async def acquire(self, table_id: str) -> Held | None:
        return Held()

    async def release(self, table_id: str) -> None:
        return None

    async def owner(self, table_id: str) -> str | None:
        return None

    async def orphans(self) -> list[str]:
        return []

    async def healthy(self) -> bool:
        return True

    async def reconnect(self) -> None:
        return None

    async def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


class PostgresCoordinator:
    """PostgreSQL: advisory locks on one lock session per process (see the module).

    Every call runs on the store thread (the lock session is used by no other thread).

    Args:
        db: the process's store thread.
        address: where other processes reach this one (``http://127.0.0.1:41234``);
            ``None`` for a process that others cannot reach (a test's server).
    """

    def __init__(self, db: StoreThread, address: str | None) -> None:
        self.db = db
        self.address = address
        self._conn: Connection | None = None
        self._pid = 0
        self._new_node()

    def _new_node(self) -> None:
        """A node id of its own for each lock session: the ``table_owners`` rows of a lost
        session then name a node whose lock is free, so its tables count as orphans and
        are taken over (by this process too)."""
        self.node_id = secrets.token_hex(8)
        key = lock_key("node", self.node_id)
        self._node_key = key
        # pg_locks shows a 64-bit key as two 32-bit oids.
        self._node_hi, self._node_lo = (key >> 32) & 0xFFFFFFFF, key & 0xFFFFFFFF

    # ------------------------------------------------------------------ on the store thread

    def _session(self) -> Connection:
        if self._conn is None:
            raise FenceError("this process has no lock session")
        return self._conn

    def _open(self) -> None:
        conn = self.db.store.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
        conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": self._node_key})
        self._pid = int(conn.execute(text("SELECT pg_backend_pid()")).scalar_one())
        self._conn = conn

    def fence(self, conn: Connection) -> None:
        """Refuse to write unless this process's lock session still holds its node lock
        (and so every table lock it took): runs first in each step transaction."""
        held = conn.execute(text(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid = :pid "
            "AND classid::bigint = :hi AND objid::bigint = :lo AND objsubid = 1"),
            {"pid": self._pid, "hi": self._node_hi, "lo": self._node_lo}).first()
        if held is None:
            raise FenceError("this process lost its PostgreSQL lock session; another "
                             "process may own its tables now")

    def _acquire(self, table_id: str) -> Held | None:
        conn = self._session()
        got = conn.execute(text("SELECT pg_try_advisory_lock(:k)"),
                           {"k": lock_key("table", table_id)}).scalar_one()
        if not got:
            return None
        # We hold the table's lock, so a row naming another node is that of a process
        # whose session ended without letting the table go: this is a takeover, whether
        # a player's reconnect or the sweep for orphans brought it here.
        before = conn.execute(text("SELECT node_id FROM table_owners WHERE table_id = :t"),
                              {"t": table_id}).scalar_one_or_none()
        conn.execute(text(
            "INSERT INTO table_owners (table_id, node_id, address, since_ms) "
            "VALUES (:t, :n, :a, :s) ON CONFLICT (table_id) DO UPDATE SET "
            "node_id = excluded.node_id, address = excluded.address, "
            "since_ms = excluded.since_ms"),
            {"t": table_id, "n": self.node_id, "a": self.address or "", "s": now_ms()})
        return Held(str(before) if before is not None and before != self.node_id else None)

    def _release(self, table_id: str) -> None:
        conn = self._session()
        conn.execute(text("DELETE FROM table_owners WHERE table_id = :t AND node_id = :n"),
                     {"t": table_id, "n": self.node_id})
        conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": lock_key("table", table_id)})

    def _owner(self, table_id: str) -> str | None:
        row = self._session().execute(
            text("SELECT node_id, address FROM table_owners WHERE table_id = :t"),
            {"t": table_id}).first()
        if row is None or row[0] == self.node_id or not row[1]:
            return None
        return str(row[1])

    def _orphans(self) -> list[str]:
        conn = self._session()
        rows = conn.execute(text(
            "SELECT o.table_id, o.node_id, t.game_id FROM table_owners o "
            "LEFT JOIN tables t ON t.id = o.table_id WHERE o.node_id <> :n"),
            {"n": self.node_id}).all()
        by_node: dict[str, list[tuple[str, bool]]] = defaultdict(list)
        for table_id, node_id, game_id in rows:
            by_node[str(node_id)].append((str(table_id), game_id is not None))
        found: list[str] = []
        for node_id, tables in by_node.items():
            key = lock_key("node", node_id)
            if not conn.execute(text("SELECT pg_try_advisory_lock(:k)"), {"k": key}).scalar_one():
                continue  # that process is alive
            conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
            idle = [t for t, running in tables if not running]
            if idle:
                # A lobby table of a dead process loads again when someone visits it.
                conn.execute(text("DELETE FROM table_owners WHERE node_id = :n AND "
                                  "table_id = ANY(:ts)"), {"n": node_id, "ts": idle})
            found.extend(t for t, running in tables if running)
        return found

    def _ping(self) -> bool:
        try:
            self.fence(self._session())
        except Exception:
            return False
        return True

    def _close(self) -> None:
        if self._conn is not None:
            # Really closed, not returned to the pool: ending the session is what gives
            # every lock up.
            with contextlib.suppress(Exception):
                self._conn.invalidate()
            with contextlib.suppress(Exception):
                self._conn.close()
            self._conn = None
            self._pid = 0  # no session: the fence refuses every write until a new one

    # ------------------------------------------------------------------ from the loop

    async def start(self) -> None:
        await self.db.call(self._open)
        self.db.fence = self.fence
        log.info("node %s joined at %s (pid %d)", self.node_id, self.address, os.getpid(),
                 extra={"node": self.node_id})

    async def acquire(self, table_id: str) -> Held | None:
        return await self.db.call(self._acquire, table_id)

    async def release(self, table_id: str) -> None:
        await self.db.call(self._release, table_id)

    async def owner(self, table_id: str) -> str | None:
        return await self.db.call(self._owner, table_id)

    async def orphans(self) -> list[str]:
        return await self.db.call(self._orphans)

    async def healthy(self) -> bool:
        return await self.db.call(self._ping)

    async def reconnect(self) -> None:
        await self.db.call(self._close)
        self._new_node()
        await self.db.call(self._open)
        log.warning("node %s: a new lock session", self.node_id, extra={"node": self.node_id})

    async def close(self) -> None:
        await self.db.call(self._close)


def make_coordinator(db: StoreThread, address: str | None) -> Coordinator:
    """The coordinator for the store's database (``address``: see
    :class:`PostgresCoordinator`)."""
    if db.store.postgres:
        return PostgresCoordinator(db, address)
    return SoloCoordinator(make_url(db.store.url).database)
