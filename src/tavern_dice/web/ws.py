"""WebSocket connections: reading client frames safely and writing server frames in order.

A frame is written to the socket at once while the socket takes it (the usual case:
no task switch, no queue); otherwise it waits in the connection's outbox, drained by
its own writer task, so a slow browser never holds up the table. A client that lets
its outbox fill up is disconnected (close code 1013) and will get a full ``state``
when it reconnects. Client frames are read as text of at most
:data:`~tavern_dice.web.protocol.MAX_FRAME_BYTES` bytes; anything else gets an
``error`` frame and changes nothing (the socket stays open). A message over 64 KiB is
refused by the server's WebSocket layer before it is read: the socket closes with 1009.

A connection to a table that another server process owns is piped to that process
(:mod:`.relay`); the rest of this module then never sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine, Generator
from typing import TYPE_CHECKING, Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import ActionError
from tavern_dice.web.frames import encode
from tavern_dice.web.manager import CLOSE_MOVED, Remote, TableMoving
from tavern_dice.web.relay import RELAY_HEADER, relay_socket
from tavern_dice.web.store import now_ms
from tavern_dice.web.tables import Table

if TYPE_CHECKING:
    from tavern_dice.web.manager import TableManager
    from tavern_dice.web.metrics import Metrics

log = logging.getLogger("tavern_dice.web")

OUTBOX_FRAMES = 512
"""Frames a connection may have waiting before it is dropped as too slow."""
HELLO_TIMEOUT_S = 30.0
"""Seconds a new connection has to send ``hello``."""
CLOSE_BAD_TOKEN = p.CLOSE_BAD_TOKEN
CLOSE_NO_TABLE = 4404
CLOSE_TOO_SLOW = 1013
CLOSE_TIMEOUT_S = 30.0
"""How long the close frame of a too-slow connection may wait behind the frames the
socket already holds (the client must read those first) before the socket is dropped."""
FIND_TRIES = 4
"""Attempts to find a table's owner (one that just died is being replaced meanwhile)."""


class Connection:
    """One WebSocket as a table sees it: role, player, and what it has been sent.

    Frames go through :attr:`outbox` to the :meth:`writer` task. A connection whose
    outbox overflows (a browser that reads too slowly, or a client that floods the
    server without reading the replies) is closed with :data:`CLOSE_TOO_SLOW`: the
    writer may be stuck behind a full TCP window, so the close does not wait for it.
    """

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.role = "spectator"
        self.player_id: str | None = None
        self.sent_game: str | None = None
        self.sent_events = 0
        self.outbox: asyncio.Queue[str | _Rest | None] = asyncio.Queue(maxsize=OUTBOX_FRAMES)
        self.writing = False
        """The writer task holds a frame it has not finished writing."""
        self.too_slow = False
        """The outbox overflowed: the connection is being closed with 1013."""
        self.gone = False
        """Sending failed: the browser went away."""
        self.writer_task: asyncio.Task[None] | None = None
        self.closing: asyncio.Task[None] | None = None

    def start_writer(self) -> asyncio.Task[None]:
        self.writer_task = asyncio.get_running_loop().create_task(self.writer())
        return self.writer_task

    def send_text(self, text: str) -> None:
        """Send a frame, or queue it (never blocks); a full outbox closes the connection
        as too slow."""
        if self.too_slow or self.gone:
            return
        item: str | _Rest = text
        if not self.writing and self.outbox.empty() and self.closing is None:
            # Nothing is ahead of this frame: write it now. The write goes down to the
            # socket without waiting unless the socket is full; then its rest is the
            # writer's, and the frames after it queue behind it.
            rest = _start(self.ws.send_text(text))
            if rest is None:
                return
            if isinstance(rest, BaseException):
                self.gone = True
                return
            item = rest
        try:
            self.outbox.put_nowait(item)
        except asyncio.QueueFull:
            self.too_slow = True
            self.closing = asyncio.get_running_loop().create_task(self._close_too_slow())

    def close_soon(self, code: int, reason: str) -> None:
        """Close the connection after the frames already queued (the table left this
        process); the reader then ends."""
        if self.closing is not None or self.gone:
            return
        self.closing = asyncio.get_running_loop().create_task(self._close(code, reason))

    async def _close(self, code: int, reason: str) -> None:
        writer = self.writer_task
        if writer is not None and not writer.done():
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(writer, 5.0)
        with contextlib.suppress(Exception):
            await self.ws.close(code, reason)

    async def _close_too_slow(self) -> None:
        writer = self.writer_task
        if writer is not None and not writer.done():
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer
        # The close frame goes after what the socket already holds; a client that never
        # reads it is dropped by the server's close handshake timeout.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(
                self.ws.close(CLOSE_TOO_SLOW, "too slow to read the table's frames"),
                CLOSE_TIMEOUT_S)

    def send(self, frame: dict[str, Any]) -> None:
        self.send_text(encode(frame))

    def error(self, code: str, message: str, ref: Any = None) -> None:
        self.send({"type": "error", "code": code, "message": message, "ref": ref})

    async def writer(self) -> None:
        """Send queued frames in order until told to stop (``None``)."""
        try:
            while True:
                item = await self.outbox.get()
                if item is None:
                    return
                self.writing = True
                if isinstance(item, _Rest):
                    await item
                else:
                    await self.ws.send_text(item)
                self.writing = False
        except (WebSocketDisconnect, RuntimeError, OSError):
            # The browser went away; the reader side notices and detaches the connection.
            self.gone = True


def _start(send: Coroutine[Any, Any, None]) -> _Rest | BaseException | None:
    """Run the coroutine ``send`` up to its first wait, in the caller's task: ``None``
    if it finished, the error a closed socket raised, or its rest (:class:`_Rest`)."""
    try:
        waiting_on = send.send(None)
    except StopIteration:
        return None
    except Exception as error:  # a socket that cannot be written to is gone
        return error
    return _Rest(send, waiting_on)


class _Rest:
    """The rest of a coroutine that :func:`_start` ran up to a wait: awaiting it waits
    for what the coroutine waits on, then runs it to the end."""

    def __init__(self, coroutine: Coroutine[Any, Any, None], waiting_on: Any) -> None:
        self.coroutine = coroutine
        self.waiting_on = waiting_on

    def __await__(self) -> Generator[Any, None, None]:
        try:
            yield self.waiting_on  # handed to the awaiting task, as the coroutine would
        except BaseException:
            self.coroutine.close()
            raise
        # Resumed as the task would have resumed the coroutine: on to its end.
        yield from self.coroutine.__await__()


async def serve_socket(ws: WebSocket, manager: TableManager, table_id: str) -> None:
    """Run one connection to ``/ws/{table_id}``: ``hello``, then frames until it closes;
    or pipe it to the process that owns the table."""
    await ws.accept()
    found = await _find(ws, manager, table_id)
    if found is None:
        return
    conn = Connection(ws)
    writer = conn.start_writer()
    joined: Table | None = None
    metrics = manager.metrics
    metrics.connections.inc()
    try:
        if found == "no-table":
            conn.error("no-table", f"no table {table_id!r}")
            await _close(conn, writer, CLOSE_NO_TABLE)
            return
        joined = await _hello(conn, manager, table_id, writer)
        if joined is None:
            return
        while not conn.too_slow and conn.closing is None and not writer.done():
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await _on_frame(conn, joined, message.get("text"), metrics)
    except WebSocketDisconnect:
        pass
    finally:
        metrics.connections.dec()
        if joined is not None:
            async with joined.lock:
                joined.detach(conn)
        if conn.closing is not None:
            with contextlib.suppress(Exception):
                await conn.closing
        else:
            await _stop_writer(conn, writer)


async def _find(ws: WebSocket, manager: TableManager, table_id: str) -> str | None:
    """``"local"`` or ``"no-table"`` for this process to answer; ``None`` once the
    connection was piped to the table's owner (and has ended) or closed as moving."""
    for attempt in range(FIND_TRIES):
        try:
            found = await manager.locate(table_id)
        except TableMoving:
            found = Remote("")
        if found is None:
            return "no-table"
        if isinstance(found, Table):
            return "local"
        if found.address and RELAY_HEADER not in ws.headers:
            manager.metrics.relayed.inc()
            try:
                await relay_socket(ws, found.address, table_id)
                return None
            except TableMoving:
                pass
            finally:
                manager.metrics.relayed.dec()
        if RELAY_HEADER in ws.headers:
            break  # forwarded here by a process that thinks we own it: no second hop
        await asyncio.sleep(0.25 * (attempt + 1))
    with contextlib.suppress(Exception):
        await ws.close(CLOSE_MOVED, "the table is moving between servers; reconnecting")
    return None


async def _hello(conn: Connection, manager: TableManager, table_id: str,
                 writer: asyncio.Task[None]) -> Table | None:
    while True:
        try:
            message = await asyncio.wait_for(conn.ws.receive(), HELLO_TIMEOUT_S)
        except TimeoutError:
            conn.error("hello-first", "no hello received")
            await _close(conn, writer, 1000)
            return None
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        try:
            frame = p.parse_frame(text)
        except p.ProtocolError as error:
            conn.error(error.code, error.message, p.frame_ref(text))
            continue
        if not isinstance(frame, p.Hello):
            conn.error("hello-first", "send hello with your token (or null) first", frame.id)
            continue
        # Looked up again: an idle table may have been put away while we waited.
        try:
            table = await manager.locate(table_id)
        except TableMoving:
            table = Remote("")
        if table is None:
            conn.error("no-table", f"no table {table_id!r}")
            await _close(conn, writer, CLOSE_NO_TABLE)
            return None
        if isinstance(table, Remote):
            # It moved to another process meanwhile: the browser reconnects to it.
            await _close(conn, writer, CLOSE_MOVED)
            return None
        async with table.lock:
            try:
                conn.role, conn.player_id = table.role_for(frame.token)
            except ActionError as error:
                conn.error(error.code, error.message, frame.id)
                await _close(conn, writer, CLOSE_BAD_TOKEN)
                return None
            conn.send({"type": "welcome", "role": conn.role, "player_id": conn.player_id,
                       "table_id": table.id, "ref": frame.id})
            table.attach(conn)
        return table


async def _on_frame(conn: Connection, table: Table, text: str | None,
                    metrics: Metrics) -> None:
    try:
        frame = p.parse_frame(text)
    except p.ProtocolError as error:
        conn.error(error.code, error.message, p.frame_ref(text))
        return
    if isinstance(frame, p.Ping):
        conn.send({"type": "pong", "ref": frame.id, "server_ms": now_ms()})
        return
    if isinstance(frame, p.Hello):
        conn.error("bad-message", "hello was already received", frame.id)
        return
    started = time.perf_counter()
    result = "error"
    try:
        await table.handle(conn, frame)
        result = "ack"
    except ActionError as error:
        conn.error(error.code, error.message, frame.id)
        return
    except Exception:
        log.exception("table %s: frame %s failed", table.id, frame.type,
                      extra={"table": table.id})
        conn.error("server", "the server could not apply this frame", frame.id)
        return
    finally:
        metrics.actions.labels(result).inc()
        metrics.action_seconds.observe(time.perf_counter() - started)
    conn.send({"type": "ack", "ref": frame.id})


async def _close(conn: Connection, writer: asyncio.Task[None], code: int) -> None:
    await _stop_writer(conn, writer)
    with contextlib.suppress(Exception):
        await conn.ws.close(code)


async def _stop_writer(conn: Connection, writer: asyncio.Task[None]) -> None:
    if writer.done():
        return
    try:
        conn.outbox.put_nowait(None)
    except asyncio.QueueFull:
        writer.cancel()
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.wait_for(writer, 5.0)
