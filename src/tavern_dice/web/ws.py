"""WebSocket connections: reading client frames safely and writing server frames in order.

Each connection gets an outbox queue drained by its own writer task, so a slow
browser never holds up the table (a table only ever *queues* frames). A client
that lets its outbox fill up is disconnected (close code 1013) and will get a
full ``state`` when it reconnects. Client frames are read as text of at most
:data:`~tavern_dice.web.protocol.MAX_FRAME_BYTES` bytes; anything else gets an
``error`` frame and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import ActionError
from tavern_dice.web.store import now_ms
from tavern_dice.web.tables import Table, TableManager

log = logging.getLogger("tavern_dice.web")

OUTBOX_FRAMES = 512
"""Frames a connection may have waiting before it is dropped as too slow."""
HELLO_TIMEOUT_S = 30.0
"""Seconds a new connection has to send ``hello``."""
CLOSE_BAD_TOKEN = 4401
CLOSE_NO_TABLE = 4404
CLOSE_TOO_SLOW = 1013


class Connection:
    """One WebSocket as a table sees it: role, player, and what it has been sent."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.role = "spectator"
        self.player_id: str | None = None
        self.sent_game: str | None = None
        self.sent_events = 0
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue(maxsize=OUTBOX_FRAMES)
        self.too_slow = False

    def send_text(self, text: str) -> None:
        """Queue a frame (never blocks); a full outbox marks the connection too slow."""
        if self.too_slow:
            return
        try:
            self.outbox.put_nowait(text)
        except asyncio.QueueFull:
            self.too_slow = True

    def send(self, frame: dict[str, Any]) -> None:
        self.send_text(json.dumps(frame, separators=(",", ":")))

    def error(self, code: str, message: str, ref: Any = None) -> None:
        self.send({"type": "error", "code": code, "message": message, "ref": ref})

    async def writer(self) -> None:
        """Send queued frames in order until told to stop (``None``) or too slow."""
        try:
            while True:
                text = await self.outbox.get()
                if text is None:
                    return
                await self.ws.send_text(text)
                if self.too_slow:
                    await self.ws.close(CLOSE_TOO_SLOW, "too slow to read the table's frames")
                    return
        except (WebSocketDisconnect, RuntimeError, OSError):
            # The browser went away; the reader side notices and detaches the connection.
            self.too_slow = True


async def serve_socket(ws: WebSocket, manager: TableManager, table_id: str) -> None:
    """Run one connection to ``/ws/{table_id}``: ``hello``, then frames until it closes."""
    await ws.accept()
    table = manager.get(table_id)
    conn = Connection(ws)
    writer = asyncio.get_running_loop().create_task(conn.writer())
    joined: Table | None = None
    try:
        if table is None:
            conn.error("no-table", f"no table {table_id!r}")
            await _close(conn, writer, CLOSE_NO_TABLE)
            return
        joined = await _hello(conn, table, writer)
        if joined is None:
            return
        while not conn.too_slow and not writer.done():
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await _on_frame(conn, joined, message.get("text"))
    except WebSocketDisconnect:
        pass
    finally:
        if joined is not None:
            async with joined.lock:
                joined.detach(conn)
        await _stop_writer(conn, writer)


async def _hello(conn: Connection, table: Table, writer: asyncio.Task[None]) -> Table | None:
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


async def _on_frame(conn: Connection, table: Table, text: str | None) -> None:
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
    try:
        await table.handle(conn, frame)
    except ActionError as error:
        conn.error(error.code, error.message, frame.id)
        return
    except Exception:
        log.exception("table %s: frame %s failed", table.id, frame.type)
        conn.error("server", "the server could not apply this frame", frame.id)
        return
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
