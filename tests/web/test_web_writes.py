"""A connection writes a frame to its socket at once while the socket takes it, and
queues it behind the writer task otherwise; either way frames go out in order."""

from __future__ import annotations

import asyncio
from typing import Any

from tavern_dice.web.ws import Connection


class _Socket:
    """A socket whose writes wait on ``gate`` while it is set (a full TCP window)."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.gate: asyncio.Future[None] | None = None
        self.broken = False

    async def send_text(self, text: str) -> None:
        if self.broken:
            raise OSError("connection reset")
        if self.gate is not None:
            await self.gate
        self.sent.append(text)


def _connected() -> tuple[_Socket, Connection, asyncio.Task[None]]:
    """A connection to a fresh :class:`_Socket`, its writer started (in a running loop)."""
    socket = _Socket()
    conn = Connection(socket)  # type: ignore[arg-type]
    return socket, conn, conn.start_writer()


def test_web_frames_are_written_at_once_while_the_socket_takes_them() -> None:
    async def scenario() -> None:
        socket, conn, writer = _connected()
        conn.send_text("a")
        conn.send_text("b")
        # Written without a task switch: nothing was awaited, nothing was queued.
        assert socket.sent == ["a", "b"] and conn.outbox.empty()
        socket.gate = asyncio.get_running_loop().create_future()
        conn.send_text("c")  # the socket is full: its rest is the writer's ...
        conn.send_text("d")  # ... and the next frame queues behind it
        assert socket.sent == ["a", "b"] and conn.outbox.qsize() == 2
        await asyncio.sleep(0)
        assert socket.sent == ["a", "b"]
        gate, socket.gate = socket.gate, None
        gate.set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)
        assert socket.sent == ["a", "b", "c", "d"] and conn.outbox.empty()
        assert not conn.writing
        conn.send_text("e")  # the writer is idle again: at once
        assert socket.sent[-1] == "e"
        conn.outbox.put_nowait(None)
        await writer

    asyncio.run(scenario())


def test_web_a_socket_that_fails_a_write_is_marked_gone() -> None:
    async def scenario() -> Any:
        socket, conn, writer = _connected()
        socket.broken = True
        conn.send_text("a")
        assert conn.gone and socket.sent == []
        conn.send_text("b")  # a gone socket is sent nothing more
        assert conn.outbox.empty()
        conn.outbox.put_nowait(None)
        await writer

    asyncio.run(scenario())


def test_web_a_write_waiting_on_a_full_socket_ends_when_the_writer_is_cancelled() -> None:
    async def scenario() -> None:
        socket, conn, writer = _connected()
        socket.gate = asyncio.get_running_loop().create_future()
        conn.send_text("a")
        await asyncio.sleep(0)
        assert conn.writing
        writer.cancel()
        await asyncio.gather(writer, return_exceptions=True)
        # As when a task awaits the write itself: the wait is cancelled, nothing written.
        assert writer.cancelled() and socket.gate.cancelled() and socket.sent == []

    asyncio.run(scenario())
