"""Forwarding to a table's owner: a process that does not hold a table passes its
WebSockets and HTTP requests to the process that does (found by the coordinator).

A forwarded WebSocket is a pipe: frames go both ways unchanged, the owner does the
``hello``, the checks and the per-seat views, and sees the connection as any other (the
player is online while it is open). When the owner goes away mid-game (it died, or let
the table go), the pipe closes the browser's connection with 1012, and the browser
reconnects: its table is then found, or taken over, wherever it is now.

Forwarded requests carry :data:`RELAY_HEADER`; a process that gets one for a table it
does not hold answers "moving" instead of forwarding again, so that requests never go
round in circles.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

import httpx
from starlette.requests import Request
from starlette.responses import Response
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tavern_dice.web.manager import CLOSE_MOVED, TableMoving
from tavern_dice.web.protocol import MAX_BODY_BYTES

log = logging.getLogger("tavern_dice.web.relay")

RELAY_HEADER = "x-tavern-relay"
"""Marks a request one process forwarded to another."""
WS_MAX_BYTES = 64 * 1024
"""Largest frame either way (as Uvicorn's own cap; the owner enforces 4 KiB)."""
PASSED_CODES = {1000, 1013, 4401, 4404}
"""Close codes of the owner that the browser must see as they are; any other end of the
owner's side (it died: 1006) becomes :data:`~.manager.CLOSE_MOVED`."""
_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
               "proxy-authorization", "proxy-authenticate", "content-length",
               "content-encoding"}


def peer_client() -> httpx.AsyncClient:
    """The HTTP client for forwarding (no proxies from the environment: peers are
    reached directly)."""
    return httpx.AsyncClient(timeout=10, trust_env=False,
                             limits=httpx.Limits(max_connections=200))


async def forward_http(client: httpx.AsyncClient, request: Request, address: str) -> Response:
    """Send ``request`` to the owner at ``address`` and return its answer as it is (the
    ``Host`` header goes along, so the links it builds name this server).

    Raises:
        TableMoving: the owner cannot be reached.
    """
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return Response(f'{{"detail": "request bodies are at most {MAX_BODY_BYTES} bytes"}}',
                            status_code=413, media_type="application/json")
        chunks.append(chunk)
    headers = {k: v for k, v in request.headers.items() if k.lower() not in _HOP_BY_HOP}
    headers[RELAY_HEADER] = "1"
    url = address + request.url.path + (f"?{request.url.query}" if request.url.query else "")
    try:
        answer = await client.request(request.method, url, headers=headers,
                                      content=b"".join(chunks))
    except httpx.TransportError as error:
        raise TableMoving(str(error)) from None
    kept = {k: v for k, v in answer.headers.items() if k.lower() not in _HOP_BY_HOP}
    return Response(answer.content, status_code=answer.status_code, headers=kept)


async def relay_socket(ws: WebSocket, address: str, table_id: str) -> None:
    """Pipe an accepted WebSocket to the owner's ``/ws/{table_id}`` until either side
    closes.

    Raises:
        TableMoving: the owner cannot be reached (nothing was sent to the browser yet).
    """
    url = "ws" + address.removeprefix("http") + f"/ws/{table_id}"
    try:
        upstream = await connect(url, additional_headers={RELAY_HEADER: "1"},
                                 max_size=WS_MAX_BYTES, compression=None, proxy=None,
                                 open_timeout=5, ping_interval=None)
    except (OSError, InvalidHandshake, TimeoutError) as error:
        raise TableMoving(str(error)) from None
    down = asyncio.ensure_future(_to_browser(upstream, ws))
    up = asyncio.ensure_future(_to_owner(ws, upstream))
    try:
        await asyncio.wait({down, up}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (down, up):
            task.cancel()
        await asyncio.gather(down, up, return_exceptions=True)
    if not _browser_left(up):
        code = upstream.close_code
        reason = upstream.close_reason or ""
        if code not in PASSED_CODES:
            code, reason = CLOSE_MOVED, "the table's server went away; reconnecting"
        with contextlib.suppress(Exception):
            await ws.close(code, reason)
    with contextlib.suppress(Exception):
        await upstream.close()


def _browser_left(up: asyncio.Future[bool]) -> bool:
    return up.done() and not up.cancelled() and up.exception() is None and up.result()


async def _to_browser(upstream: ClientConnection, ws: WebSocket) -> None:
    with contextlib.suppress(ConnectionClosed, WebSocketDisconnect, RuntimeError, OSError):
        async for message in upstream:
            if isinstance(message, str):
                await ws.send_text(message)
            else:
                await ws.send_bytes(message)


async def _to_owner(ws: WebSocket, upstream: ClientConnection) -> bool:
    """Pass the browser's frames on; ``True`` when the browser closed its side."""
    try:
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                return True
            if message.get("text") is not None:
                await upstream.send(message["text"])
            elif message.get("bytes") is not None:
                await upstream.send(message["bytes"])
    except (ConnectionClosed, OSError):
        return False
    except (WebSocketDisconnect, RuntimeError):
        return True
