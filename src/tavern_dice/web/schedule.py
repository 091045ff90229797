"""A table's background work: bots' moves, turn timers, and stand-ins for away players.

Each runs as an asyncio task that sleeps, then takes the table's lock and checks, with a
version number or a key, that the state it was started for still stands:

* a **bot step** after every change: if the game waits on a seat the server plays (a
  bot, or a person's stand-in), that seat's agent moves; a decision that takes more than
  :data:`THINKING_S` is shown at the table (a ``thinking`` frame naming the seat);
* a **turn timer** (the option ``turn_timer_s``) per decision a person is to make: when
  it runs out, the stand-in makes that one move;
* a **takeover** per person whose last connection closed: after ``grace_s`` they are
  covered, and the stand-in plays for them until they return.

What the game waits on comes from the table's game adapter; nothing here decides a rule.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from tavern_dice.errors import TavernError
from tavern_dice.play.runner import DecisionCapError
from tavern_dice.web import autoplay, physical
from tavern_dice.web import protocol as p
from tavern_dice.web.adapters import GameAdapter
from tavern_dice.web.catalog import ActionError, Rules
from tavern_dice.web.frames import Listener
from tavern_dice.web.journal import GameSession
from tavern_dice.web.seating import Seating
from tavern_dice.web.store import now_ms
from tavern_dice.web.tasks import cancel_all

log = logging.getLogger("tavern_dice.web")

THINKING_S = 0.3
"""Seconds a bot may decide before the table is told that its seat is thinking."""


class Scheduled(Protocol):
    """What the scheduler reads and calls of its table (:class:`~.tables.Table`)."""

    id: str
    lock: asyncio.Lock
    closed: bool
    session: GameSession | None
    options: p.TableOptions
    rules: Rules
    adapter: GameAdapter
    seating: Seating
    listeners: set[Listener]

    def broadcast(self) -> None: ...

    async def after_change(self) -> None: ...

    async def load_game(self, game_id: str) -> None: ...

    async def halt(self, s: GameSession, reason: str) -> None: ...


class Scheduler:
    """The bots, timers and takeovers of one table (see the module doc)."""

    def __init__(self, table: Scheduled) -> None:
        self.table = table
        self.tasks: set[asyncio.Task[None]] = set()
        self.agents: dict[tuple[str, str], Any] = {}
        """Bot agents by ``(player_id, bot kind)``: a seat keeps its agent's memory."""
        self.away_tasks: dict[str, asyncio.Task[None]] = {}
        self.bot_version = 0
        self.timer_key: autoplay.TimerKey | None = None
        self.timer_deadline_ms: int | None = None
        self.timer_seats: tuple[int, ...] = ()

    # ------------------------------------------------------------------ tasks

    def spawn(self, coro: Any) -> asyncio.Task[None]:
        task: asyncio.Task[None] = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: background task failed", self.table.id,
                      exc_info=task.exception())

    async def close(self) -> None:
        """Cancel every task and wait for them (the table is closing)."""
        await cancel_all(self.tasks)

    # ------------------------------------------------------------------ stand-ins

    def schedule_takeover(self, pid: str) -> None:
        """``pid`` is away: cover them with a stand-in after the grace period."""
        self.cancel_takeover(pid)
        self.away_tasks[pid] = self.spawn(self._takeover_after(pid, self.table.options.grace_s))

    def cancel_takeover(self, pid: str) -> None:
        task = self.away_tasks.pop(pid, None)
        if task is not None:
            task.cancel()

    def cancel_takeovers(self) -> None:
        for task in self.away_tasks.values():
            task.cancel()
        self.away_tasks.clear()

    async def _takeover_after(self, pid: str, grace_s: int) -> None:
        await asyncio.sleep(grace_s)
        table = self.table
        async with table.lock:
            self.away_tasks.pop(pid, None)
            if table.seating.online.get(pid) or table.closed:
                return
            table.seating.covered.add(pid)
            table.broadcast()
            self.reschedule()

    # ------------------------------------------------------------------ bots

    def server_plays(self, s: GameSession, seat: int) -> bool:
        return self.table.seating.server_plays(s.seats[seat])

    def agent(self, pid: str, standin: bool) -> Any:
        """The agent that plays ``pid``'s seat: their own bot, or (``standin``, or a
        person) the table's stand-in bot."""
        table = self.table
        occupant = table.seating.occupants[pid]
        kind = (table.options.standin_bot or table.adapter.default_standin) \
            if standin or occupant.bot_kind is None else occupant.bot_kind
        key = (pid, kind)
        agent = self.agents.get(key)
        if agent is None:
            agent = self.agents[key] = table.adapter.make_bot(kind, occupant.name, table.rules)
        return agent

    def reschedule(self) -> None:
        """After any change: start a bot step (it acts if the new state calls for a bot)."""
        table = self.table
        s = table.session
        if table.closed or s is None or s.status != "playing":
            return
        self.bot_version += 1
        self.spawn(self._bot_step(self.bot_version))

    async def _bot_step(self, version: int) -> None:
        table = self.table
        delay = table.options.bot_delay_ms / 1000
        if delay:
            await asyncio.sleep(delay)
        async with table.lock:
            if version != self.bot_version or table.closed:
                return
            s = table.session
            if s is None or s.status != "playing":
                return
            if table.adapter.typed_hands(table.options) and table.adapter.resolve_chance(
                    s, table.options, lambda seat: self.server_plays(s, seat)):
                # A round waiting only on hands the server rolls (a player just covered).
                with contextlib.suppress(ActionError):  # logged there
                    await table.after_change()
                return
            thinking = Thinking(asyncio.get_running_loop(), self._send_thinking)

            def agent_for(seat: int) -> Any:
                thinking.asking(seat)  # from the worker thread, just before it decides
                return self.agent(s.seats[seat], standin=False)

            move: autoplay.Move | None = None
            args = (s.engine, lambda seat: self.server_plays(s, seat), agent_for, s.asked)
            try:
                # In a worker thread: a bot may think for seconds (``strong`` loads a round's
                # table the first time it plays it), and the event loop serves every other
                # table meanwhile. This table's lock is held, so nothing changes its game
                # while the bot reads it; the move itself is made back here. With no seat
                # the server plays no agent is asked: no thread (a hop per action).
                if any(self.server_plays(s, seat) for seat in range(len(s.seats))):
                    move = await asyncio.to_thread(autoplay.next_bot_move, *args)
                else:
                    move = autoplay.next_bot_move(*args)
            except DecisionCapError as error:
                thinking.end()
                await table.halt(s, str(error))
                return
            finally:
                # A move's state frame takes the mark off; without a move (the bots passed,
                # or the step failed) it is taken off here.
                thinking.end(cleared=move is not None)
            if move is None:
                return
            await self.run_move(s, move)

    def _send_thinking(self, seats: list[int]) -> None:
        text = json.dumps({"type": "thinking", "seats": seats}, separators=(",", ":"))
        for conn in list(self.table.listeners):
            conn.send_text(text)

    async def run_move(self, s: GameSession, move: autoplay.Move) -> None:
        """Make a bot's move and store it; a move the engine refuses is logged and the
        stored state reloaded (a bot bug must not stall the table)."""
        table = self.table
        try:
            move()
            table.adapter.resolve_chance(s, table.options,
                                         lambda seat: self.server_plays(s, seat))
        except TavernError:
            log.exception("table %s: a bot's move was refused", table.id,
                          extra={"table": table.id})
            await table.load_game(s.id)
            table.broadcast()
            return
        try:
            await table.after_change()
        except ActionError:
            return  # logged there; the table shows the state as stored

    # ------------------------------------------------------------------ turn timers

    def timer_dict(self) -> dict[str, Any] | None:
        """The running turn timer for the state frame, or ``None``."""
        if self.timer_key is None or self.timer_deadline_ms is None:
            return None
        return {"seats": list(self.timer_seats), "seat": self.timer_seats[0],
                "deadline_ms": self.timer_deadline_ms,
                "seconds": self.table.options.turn_timer_s}

    def _timer_target(self, s: GameSession
                      ) -> tuple[autoplay.TimerKey, tuple[int, ...]] | None:
        table = self.table
        if table.adapter.typed_hands(table.options):
            # Physical dice: the hands still to type are a decision too, timed per round.
            pending = table.adapter.pending_roll(s, table.options,
                                                 lambda seat: self.server_plays(s, seat))
            if pending is not None:
                waiting = tuple(pending["waiting"])
                return (("hands", s.id, pending["round"]), waiting) if waiting else None
        return autoplay.timer_target(s.engine, lambda seat: not self.server_plays(s, seat))

    def arm_timer(self, s: GameSession) -> None:
        """Start the turn timer the state calls for (once per decision), or clear it."""
        seconds = self.table.options.turn_timer_s
        target = self._timer_target(s) if seconds else None
        if target is None:
            self.clear_timer()
            return
        key, seats = target
        self.timer_seats = seats
        if key == self.timer_key:
            return
        self.timer_key = key
        self.timer_deadline_ms = now_ms() + seconds * 1000
        self.spawn(self._timer_expired(key, seconds))

    def clear_timer(self) -> None:
        self.timer_key = None
        self.timer_deadline_ms = None
        self.timer_seats = ()

    async def _timer_expired(self, key: autoplay.TimerKey, seconds: int) -> None:
        await asyncio.sleep(seconds)
        table = self.table
        async with table.lock:
            s = table.session
            if table.closed or key != self.timer_key or s is None or s.status != "playing":
                return
            self.clear_timer()
            target = self._timer_target(s)
            if target is None:
                return
            if target[0][0] == "hands":
                await self._roll_missing_hands(s, target[1])
                return
            for seat in target[1]:
                engine = s.engine
                if not autoplay.must_act(engine, seat):
                    continue
                # The stand-in makes the one move the person ran out of time for.
                agent = self.agent(s.seats[seat], standin=True)
                await self.run_move(s, autoplay.move_for(engine, seat, agent))

    async def _roll_missing_hands(self, s: GameSession, seats: tuple[int, ...]) -> None:
        """The turn timer ran out on hands not typed: the server rolls them, publicly."""
        table = self.table
        server_rolls = lambda seat: self.server_plays(s, seat)  # noqa: E731
        for seat in seats:
            physical.roll_for(s, seat, "time", server_rolls)
        table.adapter.resolve_chance(s, table.options, server_rolls)
        with contextlib.suppress(ActionError):  # logged there
            await table.after_change()


class Thinking:
    """One bot step's "thinking" mark: once the step has run :data:`THINKING_S`, the seat
    whose bot is deciding is sent to every connection (``{"type": "thinking", "seats":
    [2]}``), once, and again only if another seat's bot takes over the deciding; when the
    step ends without a state frame to follow, ``seats: []`` clears the mark.

    :meth:`asking` is called from the bot's worker thread; everything else runs on the
    event loop (the thread only hands the seat over).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop,
                 send: Callable[[list[int]], None]) -> None:
        self._loop = loop
        self._send = send
        self._seat: int | None = None
        self._shown: int | None = None
        self._due = False
        self._over = False
        self._timer = loop.call_later(THINKING_S, self._on_due)

    def asking(self, seat: int) -> None:
        """The worker thread is about to ask ``seat``'s bot for its decision."""
        self._loop.call_soon_threadsafe(self._on_asking, seat)

    def _on_asking(self, seat: int) -> None:
        self._seat = seat
        self._show()

    def _on_due(self) -> None:
        self._due = True
        self._show()

    def _show(self) -> None:
        if self._over or not self._due or self._seat is None or self._seat == self._shown:
            return
        self._shown = self._seat
        self._send([self._seat])

    def end(self, *, cleared: bool = False) -> None:
        """The step is over; unless a state frame follows (``cleared``), a mark that was
        shown is taken off."""
        self._timer.cancel()
        if self._over:
            return
        self._over = True
        if self._shown is not None and not cleared:
            self._send([])
