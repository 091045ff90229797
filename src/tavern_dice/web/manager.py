"""All tables of one server process: created here (within :class:`~.limits.TableLimits`),
loaded from the store when visited, put away when nobody has watched them for a while,
their running games resumed after a restart, and, with several processes on
PostgreSQL, found in the process that owns them or taken over from one that died
(:mod:`.coordinator`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import ActionError, build_rules
from tavern_dice.web.coordinator import Coordinator
from tavern_dice.web.dbthread import StoreThread
from tavern_dice.web.limits import CreationLimiter, TableLimits
from tavern_dice.web.metrics import Metrics
from tavern_dice.web.options import read_options
from tavern_dice.web.store import PlayerRow, RatingEntry, TableRow, now_ms, token_hash
from tavern_dice.web.tables import Table
from tavern_dice.web.tasks import cancel_all

log = logging.getLogger("tavern_dice.web")

CLOSE_MOVED = 1012
"""WebSocket close code ("service restart") for connections of a table that left this
process: the browser reconnects, and its table is found again wherever it is now."""

WATCH_S = 1.0
"""How often a process on PostgreSQL checks its lock session and looks for orphans."""


@dataclass(frozen=True, slots=True)
class Remote:
    """A table that another process owns: forward its requests to ``address``."""

    address: str


class TableMoving(Exception):
    """The table's owner cannot be reached just now (it is dying, or being taken over):
    try again in a moment."""


def _minutes(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return f"{minutes} minute" + ("" if minutes == 1 else "s")


class TableManager:
    """The tables of one server process.

    Args:
        db: the store thread (every database call goes through it).
        coordinator: which tables this process may hold.
        limits: creation caps and the idle time after which a table leaves memory.
        clock: seconds, monotonic (tests pass their own).
        metrics: the app's metrics.
    """

    def __init__(self, db: StoreThread, coordinator: Coordinator,
                 limits: TableLimits | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 metrics: Metrics | None = None) -> None:
        self.db = db
        self.store = db.store
        self.coordinator = coordinator
        self.limits = limits or TableLimits()
        self.clock = clock
        self.metrics = metrics or Metrics()
        self.tables: dict[str, Table] = {}
        self.limiter = CreationLimiter(self.limits.per_client, self.limits.window_s, clock)
        self._loading: dict[str, tuple[asyncio.Lock, list[int]]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.metrics.track(lambda: len(self.tables), self._running_games)

    def _running_games(self) -> float:
        return sum(1 for t in self.tables.values()
                   if t.session is not None and t.session.running)

    async def start(self) -> None:
        """Join the database's processes, resume running games nobody holds, and start
        the sweeps (idle tables; on PostgreSQL the lock watch and orphans)."""
        await self.coordinator.start()
        await self.resume_all()
        self._spawn(self._sweep())
        if self.store.postgres:
            self._spawn(self._watch())

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # ------------------------------------------------------------------ creating

    async def create(self, game: str, name: str, preset: str, rules: dict[str, Any],
                     options: dict[str, Any], client: str = "") -> tuple[Table, str]:
        """A new table (owned by this process) and its host token (shown once; only its
        hash is stored).

        Raises:
            ActionError: bad game, preset, rules or options (naming the field); code
                ``rate-limited`` when ``client`` has created its most tables for now, or
                ``too-many-tables`` when the process holds its most tables and none is idle.
        """
        built = build_rules(game, preset, rules)
        opts = read_options(game, options, "options.")
        wait = self.limiter.wait_s(client)
        if wait:
            raise ActionError(
                "rate-limited",
                f"this address has created {self.limits.per_client} tables in the last "
                f"{_minutes(self.limits.window_s)}, the most it may; try again in "
                f"{_minutes(wait)}, or reuse a table you made (its DM link still works)")
        if len(self.tables) >= self.limits.max_open:
            await self.put_away_idle(at_least=len(self.tables) - self.limits.max_open + 1)
        if len(self.tables) >= self.limits.max_open:
            raise ActionError(
                "too-many-tables",
                f"the server already has {self.limits.max_open} tables in play, the most it "
                "holds at once; try again in a few minutes")
        host_token = secrets.token_urlsafe(24)
        row = TableRow(
            id=secrets.token_urlsafe(6), game=game, name=name.strip()[:64] or "Tavern table",
            rules=built.to_dict(), options=opts.model_dump(),
            host_token_hash=token_hash(host_token), seats=[], status="lobby", game_id=None,
            created_ms=now_ms(),
        )
        # The lock first: a process that sees the row finds its owner too.
        if not await self.coordinator.acquire(row.id):
            raise ActionError("server", "could not hold the new table; try again")
        try:
            await self.db.call(self.store.add_table, row)
        except Exception:
            await self.coordinator.release(row.id)
            raise
        self.limiter.note(client)
        table = self._hold(row, [], {})
        return table, host_token

    def _hold(self, row: TableRow, players: list[PlayerRow], balances: dict[str, int],
              ratings: list[RatingEntry] | None = None) -> Table:
        table = Table(self.db, row, players, balances, ratings or [])
        table.last_active = self.clock()
        table.on_lost = lambda: self._drop_soon(table)
        self.tables[row.id] = table
        return table

    # ------------------------------------------------------------------ finding

    async def locate(self, table_id: str) -> Table | Remote | None:
        """The table if this process owns it (loaded from the store, and taken from a
        process that died, if need be: a running game then resumes, bots and timers
        included); :class:`Remote` if another process owns it; ``None`` if there is no
        such table.

        Raises:
            TableMoving: another process holds it but cannot be reached yet.
        """
        table = self.tables.get(table_id)
        if table is None:
            if len(table_id) > p.MAX_ID:
                return None
            async with self._loading_lock(table_id):
                table = self.tables.get(table_id)
                if table is None:
                    return await self._load_or_find(table_id)
        table.last_active = self.clock()
        return table

    def loaded(self, table_id: str) -> Table | None:
        """The table if this process holds it now (no database call)."""
        return self.tables.get(table_id)

    @contextlib.asynccontextmanager
    async def _loading_lock(self, table_id: str) -> AsyncIterator[None]:
        """One load of a table at a time; the entry goes when nobody waits for it."""
        lock, users = self._loading.setdefault(table_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if not users[0]:
                del self._loading[table_id]

    async def _load_or_find(self, table_id: str) -> Table | Remote | None:
        if await self.db.call(self.store.table, table_id) is None:
            return None
        for attempt in range(5):
            held = await self.coordinator.acquire(table_id)
            if held is not None:
                table = await self._load(table_id)
                if table is not None and held.taken_from is not None:
                    self._taken_over(table, held.taken_from)
                return table
            address = await self.coordinator.owner(table_id)
            if address:
                return Remote(address)
            # Locked, but no address yet: its new owner is writing its row.
            await asyncio.sleep(0.05 * (attempt + 1))
        raise TableMoving(table_id)

    async def _load(self, table_id: str) -> Table | None:
        try:
            loaded = await self.db.call(self.store.load_table, table_id)
        except Exception:
            await self.coordinator.release(table_id)
            raise
        if loaded is None:
            await self.coordinator.release(table_id)
            return None
        table = self._hold(loaded.row, loaded.players, loaded.balances, loaded.ratings)
        if loaded.game is not None:
            table.restore_game(loaded.game, loaded.antes)
        table.start_background()
        log.info("table %s: loaded", table_id, extra={"table": table_id,
                                                     "node": self.coordinator.node_id})
        return table

    async def resume_all(self) -> int:
        """Load every table with a running game that no live process holds (its bots and
        timers start again)."""
        count = 0
        for table_id in await self.db.call(self.store.tables_with_games):
            with contextlib.suppress(TableMoving):
                if isinstance(await self.locate(table_id), Table):
                    count += 1
        return count

    # ------------------------------------------------------------------ idle tables

    def idle(self, table: Table) -> bool:
        """Whether nobody has watched ``table`` for :attr:`TableLimits.idle_s`."""
        if table.listeners:
            table.last_active = self.clock()
            return False
        return self.clock() - table.last_active >= self.limits.idle_s

    async def put_away(self, table: Table) -> bool:
        """Take an unwatched table out of memory (its data stays in the database; a visit
        loads it again, in this process or another). Returns whether it was put away."""
        async with table.lock:
            if table.listeners or self.tables.get(table.id) is not table:
                return False
            await table.close()
            del self.tables[table.id]
        with contextlib.suppress(Exception):
            await self.coordinator.release(table.id)
        log.info("table %s: idle, put away", table.id, extra={"table": table.id})
        return True

    async def put_away_idle(self, at_least: int | None = None) -> int:
        """Put away idle tables, least recently used first; all of them, or ``at_least``
        that many if fewer would do."""
        idle = sorted((t for t in self.tables.values() if self.idle(t)),
                      key=lambda t: t.last_active)
        done = 0
        for table in idle:
            if at_least is not None and done >= at_least:
                break
            if await self.put_away(table):
                done += 1
        return done

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_s)
            try:
                await self.put_away_idle()
            except Exception:  # a failed sweep must not end the sweeping
                log.exception("putting idle tables away failed")

    # ------------------------------------------------------------------ several processes

    async def _watch(self) -> None:
        """PostgreSQL: keep the lock session alive (or let every table go if it is lost),
        and take over the running tables of processes that died."""
        while True:
            await asyncio.sleep(WATCH_S)
            try:
                await self.watch_once()
            except Exception:
                log.exception("watching the lock session failed")

    async def watch_once(self) -> int:
        """One watch: returns how many tables were taken over."""
        if not await self.coordinator.healthy():
            log.error("lost the PostgreSQL lock session: letting every table go",
                      extra={"node": self.coordinator.node_id})
            for table in list(self.tables.values()):
                await self.drop(table)
            await self.coordinator.reconnect()
            return 0
        taken = 0
        for table_id in await self.coordinator.orphans():
            with contextlib.suppress(TableMoving):
                if isinstance(await self.locate(table_id), Table):
                    taken += 1
        return taken

    def _taken_over(self, table: Table, dead_node: str) -> None:
        """``table`` was loaded here from a process that died holding it (a player came
        back to it here first, the sweep for orphans found it, or this process resumed it
        on starting): counted once, however it came, if it has a game running (a lobby
        table just loads again)."""
        if table.session is None or not table.session.running:
            return
        self.metrics.takeovers.inc()
        log.warning("table %s: taken over from a process that died (node %s)", table.id,
                    dead_node, extra={"table": table.id, "node": self.coordinator.node_id})

    def _drop_soon(self, table: Table) -> None:
        # Not in the table's own tasks: drop() cancels those.
        self._spawn(self.drop(table))

    async def drop(self, table: Table) -> None:
        """Let a table go without a word to the database (another process owns it now):
        its connections are closed and reconnect to wherever it is."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        await table.close()
        for conn in list(table.listeners):
            conn.close_soon(CLOSE_MOVED, "the table moved to another server")

    async def close(self) -> None:
        await cancel_all(self._tasks)
        for table in list(self.tables.values()):
            await table.close()
        # The lock session ends with the process's tables: others may take them now.
        with contextlib.suppress(Exception):
            await self.coordinator.close()
