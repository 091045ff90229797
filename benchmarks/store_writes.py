"""How the web table should write its game steps without blocking the event loop: the
measurement behind the choice in ``docs/web-scaling.md``.

Many simulated tables, each in a loop: some CPU work on the event loop (the engine and
the frames of one action, ``--cpu-ms``), then one game step written durably (3 events
and a ledger row, as a typical Liar's Dice action) and awaited before the next action.
A ticker coroutine measures how late the loop wakes it (how long the loop was blocked).

Ways of writing:

* ``in-loop``: the synchronous store called on the loop (the web table before issue 10);
* ``thread``: :class:`tavern_dice.web.dbthread.StoreThread`, one writer thread, group
  commits of whatever steps are waiting (what the web table does now);
* ``asyncio``: SQLAlchemy's asyncio engine with an async driver (aiosqlite, asyncpg),
  one transaction per step.

On SQLite and on a throw-away PostgreSQL cluster (durable settings), for each way:
steps per second, the step's round trip p50/p99, and the loop's worst lateness.

    .venv/bin/python benchmarks/store_writes.py                 # needs the bench extra
    .venv/bin/python benchmarks/store_writes.py --tables 50 --seconds 3
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import create_async_engine

from tavern_dice.web.dbthread import StoreThread
from tavern_dice.web.store import EventRow, LedgerEntry, LedgerRow, Step, Store, TableRow

Writer = Callable[[str, Step], Awaitable[None]]


def busy(ms: float) -> None:
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        pass


def make_step(game_id: str, seq: int) -> Step:
    events = [{"type": "wager_made", "seat": i, "quantity": seq, "face": 2} for i in range(3)]
    return Step(game_id=game_id, first_seq=seq, events=events,
                ledger=[LedgerEntry("p", 1, "grant", game_id, 1)])


async def measure(write: Writer, tables: int, seconds: float, cpu_ms: float
                  ) -> dict[str, float]:
    latencies: list[float] = []
    lateness: list[float] = []
    stop = False

    async def table(n: int) -> None:
        seq = 0
        while not stop:
            busy(cpu_ms)
            started = time.perf_counter()
            await write(f"t{n}", make_step(f"g{n}", seq))
            latencies.append((time.perf_counter() - started) * 1000)
            seq += 3
            await asyncio.sleep(0)  # the next frame arrives: other tasks run meanwhile

    async def ticker() -> None:
        while not stop:
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            lateness.append((time.perf_counter() - before) * 1000 - 1)

    tasks = [asyncio.ensure_future(table(n)) for n in range(tables)]
    tasks.append(asyncio.ensure_future(ticker()))
    await asyncio.sleep(seconds)
    stop = True
    await asyncio.gather(*tasks)
    latencies.sort()
    return {"steps_per_s": len(latencies) / seconds, "p50": statistics.median(latencies),
            "p99": latencies[int(len(latencies) * 0.99)], "late_max": max(lateness),
            "late_p99": sorted(lateness)[int(len(lateness) * 0.99)]}


def fresh_store(url: str, tables: int) -> Store:
    store = Store(url)
    with store.engine.begin() as conn:
        conn.execute(EventRow.__table__.delete())  # type: ignore[arg-type]
        conn.execute(LedgerRow.__table__.delete())  # type: ignore[arg-type]
    for n in range(tables):
        if store.table(f"t{n}") is None:
            store.add_table(TableRow(id=f"t{n}", game="liars-dice", name="", rules={},
                                     options={}, host_token_hash="", seats=[],
                                     status="lobby", game_id=None, created_ms=0))
    return store


async def run_way(way: str, url: str, async_url: str, args: argparse.Namespace
                  ) -> dict[str, float]:
    store = fresh_store(url, args.tables)
    if way == "in-loop":
        async def write(table_id: str, step: Step) -> None:
            store.commit_step(table_id, step)

        try:
            return await measure(write, args.tables, args.seconds, args.cpu_ms)
        finally:
            store.close()
    if way == "thread":
        db = StoreThread(store)
        try:
            return await measure(db.commit_step, args.tables, args.seconds, args.cpu_ms)
        finally:
            await db.close()
    store.close()
    engine = create_async_engine(async_url, pool_size=max(5, args.tables // 4))
    events, ledger = insert(EventRow.__table__), insert(LedgerRow.__table__)

    async def write_async(table_id: str, step: Step) -> None:
        async with engine.begin() as conn:
            await conn.execute(events, [
                {"game_id": step.game_id, "seq": step.first_seq + i, "data": e}
                for i, e in enumerate(step.events)])
            await conn.execute(ledger, [
                {"table_id": table_id, "player_id": e.player_id, "game_id": e.game_id,
                 "round": e.round, "amount_cp": e.amount_cp, "reason": e.reason, "at_ms": 0}
                for e in step.ledger])

    try:
        return await measure(write_async, args.tables, args.seconds, args.cpu_ms)
    finally:
        await engine.dispose()


async def main_async(args: argparse.Namespace) -> int:
    print(f"{args.tables} tables, {args.cpu_ms} ms of loop CPU per action, "
          f"{args.seconds:.0f} s per way")
    print(f"{'database':<11} {'way':<8} {'steps/s':>8} {'p50':>8} {'p99':>8} "
          f"{'loop late p99':>13} {'max':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        backends: list[tuple[str, str, str, Any]] = []
        if "sqlite" in args.databases:
            path = Path(tmp) / "w.sqlite3"
            backends.append(("SQLite", f"sqlite:///{path}", f"sqlite+aiosqlite:///{path}",
                             None))
        if "postgres" in args.databases:
            from tavern_dice.web.pgcluster import Cluster

            cluster = Cluster.start(settings=())
            url = cluster.create_database("w")
            backends.append(("PostgreSQL", url,
                             url.replace("postgresql+psycopg", "postgresql+asyncpg"),
                             cluster))
        try:
            for name, url, async_url, _ in backends:
                for way in ("in-loop", "thread", "asyncio"):
                    r = await run_way(way, url, async_url, args)
                    print(f"{name:<11} {way:<8} {r['steps_per_s']:>8.0f} {r['p50']:>6.1f}ms "
                          f"{r['p99']:>6.1f}ms {r['late_p99']:>11.1f}ms {r['late_max']:>6.1f}ms",
                          flush=True)
        finally:
            for *_, cluster in backends:
                if cluster is not None:
                    cluster.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--cpu-ms", type=float, default=1.0)
    parser.add_argument("--databases", default="sqlite,postgres")
    args = parser.parse_args()
    try:
        import aiosqlite  # noqa: F401
        import asyncpg  # noqa: F401
    except ImportError:
        print("needs the bench extra: pip install -e '.[bench]'", file=sys.stderr)
        return 1
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
