"""All tables of one server: created here (within :class:`~.limits.TableLimits`), loaded
from the store when visited, put away when nobody has watched them for a while, and
their running games resumed after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
import time
from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import ActionError, bot_kinds, build_rules, validation_error
from tavern_dice.web.limits import CreationLimiter, TableLimits
from tavern_dice.web.store import Store, TableRow, now_ms, token_hash
from tavern_dice.web.tables import Table

log = logging.getLogger("tavern_dice.web")


def _minutes(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return f"{minutes} minute" + ("" if minutes == 1 else "s")


class TableManager:
    """The tables of one server.

    Args:
        store: the database.
        limits: creation caps and the idle time after which a table leaves memory.
        clock: seconds, monotonic (tests pass their own).
    """

    def __init__(self, store: Store, limits: TableLimits | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.limits = limits or TableLimits()
        self.clock = clock
        self.tables: dict[str, Table] = {}
        self.limiter = CreationLimiter(self.limits.per_client, self.limits.window_s, clock)
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ creating

    async def create(self, game: str, name: str, preset: str, rules: dict[str, Any],
                     options: dict[str, Any], client: str = "") -> tuple[Table, str]:
        """A new table and its host token (shown once; only its hash is stored).

        Raises:
            ActionError: bad game, preset, rules or options (naming the field); code
                ``rate-limited`` when ``client`` has created its most tables for now, or
                ``too-many-tables`` when the server holds its most tables and none is idle.
        """
        built = build_rules(game, preset, rules)
        try:
            opts = p.TableOptions.model_validate(options)
        except ValidationError as error:
            raise validation_error(error, "options.") from None
        if opts.standin_bot is not None and opts.standin_bot not in bot_kinds(game):
            raise ActionError("illegal", f"options.standin_bot: unknown bot "
                              f"{opts.standin_bot!r}; known: {bot_kinds(game)}",
                              "options.standin_bot")
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
        self.store.add_table(row)
        self.limiter.note(client)
        table = Table(self.store, row, [], {})
        table.last_active = self.clock()
        self.tables[row.id] = table
        return table, host_token

    # ------------------------------------------------------------------ finding

    def get(self, table_id: str) -> Table | None:
        """The table, loaded from the store if it is not in memory (a running game then
        resumes: its bots and timers start again)."""
        table = self.tables.get(table_id)
        if table is None:
            table = self._load(table_id)
            if table is None:
                return None
        table.last_active = self.clock()
        return table

    def _load(self, table_id: str) -> Table | None:
        if len(table_id) > p.MAX_ID:
            return None
        row = self.store.table(table_id)
        if row is None:
            return None
        table = Table(self.store, row, self.store.players(table_id),
                      self.store.balances(table_id))
        if row.game_id is not None:
            table.load_game(row.game_id)
        self.tables[table_id] = table
        table.start_background()
        return table

    def resume_all(self) -> int:
        """Load every table with a running game (its bots and timers start again)."""
        count = 0
        for table_id in self.store.tables_with_games():
            if self.get(table_id) is not None:
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
        loads it again). Returns whether it was put away."""
        async with table.lock:
            if table.listeners or self.tables.get(table.id) is not table:
                return False
            await table.close()
            del self.tables[table.id]
        log.info("table %s: idle, put away", table.id)
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

    def start_sweeper(self) -> None:
        """Look for idle tables every :attr:`TableLimits.sweep_s` seconds."""
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_s)
            try:
                await self.put_away_idle()
            except Exception:  # a failed sweep must not end the sweeping
                log.exception("putting idle tables away failed")

    async def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sweeper
        for table in list(self.tables.values()):
            await table.close()
