"""The database off the event loop: one thread per server process runs every database
call, and writes the game steps that queue up meanwhile in one transaction.

The event loop only hands work over and awaits a future, so a commit (an fsync on
SQLite, a network round trip and an fsync on PostgreSQL) never holds up the WebSockets
of other tables. A table awaits its step before it sends any frame about it, so an
action is still acknowledged only once its events are durable.

Why a thread and not SQLAlchemy's asyncio drivers: the same synchronous store code
serves SQLite and PostgreSQL, and one writer can *group* commits: every step that
arrives while a transaction is being written goes into the next one, so under load one
sync of the log covers many tables' steps (``docs/web-scaling.md`` has the figures).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from tavern_dice.web.store import Fence, Step, Store

log = logging.getLogger("tavern_dice.web.db")

T = TypeVar("T")

MAX_BATCH = 256
"""Most steps written in one transaction."""


@dataclass(slots=True)
class _Call:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


@dataclass(slots=True)
class _StepJob:
    table_id: str
    step: Step
    future: asyncio.Future[Any]
    loop: asyncio.AbstractEventLoop


_Job = _Call | _StepJob


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class StoreThread:
    """Runs :class:`~.store.Store` calls on one thread, in the order they arrive.

    Args:
        store: the database.
        observe_commit: told ``(steps, seconds)`` after each group commit (metrics).
    """

    def __init__(self, store: Store,
                 observe_commit: Callable[[int, float], None] | None = None) -> None:
        self.store = store
        self.fence: Fence | None = None
        """Checked in each step transaction (set by the coordinator on PostgreSQL)."""
        self._observe = observe_commit
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="tavern-store", daemon=True)
        self._thread.start()

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the store thread; its result or its exception."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put(_Call(fn, args, future, loop))
        return await future

    async def commit_step(self, table_id: str, step: Step) -> None:
        """Write one step (in a group commit with whatever else is waiting); returns once
        it is durable.

        Raises:
            Exception: the database's error for this step; nothing of it was written.
        """
        if step.empty():
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._jobs.put(_StepJob(table_id, step, future, loop))
        await future

    async def close(self) -> None:
        """Finish the queued work, stop the thread and release the connections."""
        self._jobs.put(None)
        await asyncio.to_thread(self._thread.join)
        self.store.close()

    # ------------------------------------------------------------------ the thread

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                return
            steps: list[_StepJob] = []
            calls: list[_Call] = []
            stop = False
            while True:
                if isinstance(job, _StepJob):
                    steps.append(job)
                else:
                    calls.append(job)
                if len(steps) >= MAX_BATCH:
                    break
                try:
                    job = self._jobs.get_nowait()
                except queue.Empty:
                    break
                if job is None:
                    stop = True
                    break
            if steps:
                self._write(steps)
            for call in calls:
                self._run_call(call)
            if stop:
                return

    def _run_call(self, call: _Call) -> None:
        result: Any = None
        error: BaseException | None = None
        try:
            result = call.fn(*call.args)
        except Exception as exc:
            error = exc
        _done(call.loop, call.future, result, error)

    def _write(self, jobs: list[_StepJob]) -> None:
        started = time.perf_counter()
        try:
            self.store.commit_steps([(j.table_id, j.step) for j in jobs], self.fence)
        except Exception as error:
            if len(jobs) == 1:
                _done(jobs[0].loop, jobs[0].future, None, error)
                return
            # One bad step must not fail its neighbours: write them one by one.
            log.warning("a group commit of %d steps failed (%s); writing them one by one",
                        len(jobs), error)
            for job in jobs:
                self._write([job])
            return
        if self._observe is not None:
            self._observe(len(jobs), time.perf_counter() - started)
        # One hand-over per event loop for the whole commit: each wakes the loop.
        waiting: dict[asyncio.AbstractEventLoop, list[asyncio.Future[Any]]] = {}
        for job in jobs:
            waiting.setdefault(job.loop, []).append(job.future)
        for loop, futures in waiting.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits
                loop.call_soon_threadsafe(_settle_all, futures)


def _settle_all(futures: list[asyncio.Future[Any]]) -> None:
    for future in futures:
        _settle(future, None, None)


def _done(loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], result: Any,
          error: BaseException | None) -> None:
    # A closed loop (RuntimeError) has nobody waiting any more.
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(_settle, future, result, error)
