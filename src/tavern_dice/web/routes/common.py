"""What the web table's routes share.

The app's state lives on ``app.state``, set up by the app's lifespan
(:func:`tavern_dice.web.app.create_app`): ``manager`` (the tables this process holds),
``peers`` (the HTTP client that forwards to other server processes) and ``metrics``.
A route reaches it through its request (or WebSocket), never through a global, so that
several apps (the tests start many) never share tables.
"""

from __future__ import annotations

import json
from typing import TypeVar

import httpx
import qrcode
import qrcode.image.svg
from fastapi import HTTPException, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ValidationError
from starlette.requests import HTTPConnection

from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import validation_error
from tavern_dice.web.dbthread import StoreThread
from tavern_dice.web.manager import Remote, TableManager, TableMoving
from tavern_dice.web.metrics import Metrics
from tavern_dice.web.relay import RELAY_HEADER, forward_http
from tavern_dice.web.tables import Table

ModelT = TypeVar("ModelT", bound=BaseModel)


def manager_of(conn: HTTPConnection) -> TableManager:
    """The table manager of the app serving ``conn`` (a request or a WebSocket)."""
    found: TableManager = conn.app.state.manager
    return found


def db_of(conn: HTTPConnection) -> StoreThread:
    """The store thread of the app serving ``conn``: every database call goes through it."""
    return manager_of(conn).db


def peers_of(conn: HTTPConnection) -> httpx.AsyncClient:
    """The client that forwards requests to the server process owning a table."""
    client: httpx.AsyncClient = conn.app.state.peers
    return client


def metrics_of(conn: HTTPConnection) -> Metrics:
    found: Metrics = conn.app.state.metrics
    return found


async def table_or_404(table_id: str, request: Request) -> Table | Response:
    """The table if this process owns it; else the owner's answer to ``request`` (or a
    503 while the table moves between processes).

    Raises:
        HTTPException: 404 when there is no such table.
    """
    try:
        found = await manager_of(request).locate(table_id)
        if isinstance(found, Remote) and RELAY_HEADER not in request.headers:
            return await forward_http(peers_of(request), request, found.address)
    except TableMoving:
        found = None
        moving = True
    else:
        moving = isinstance(found, Remote)
    if moving:
        return JSONResponse({"detail": "the table is moving between servers; try again "
                             "in a moment"}, status_code=503, headers={"Retry-After": "1"})
    if found is None:
        raise HTTPException(404, f"no table {table_id!r}")
    assert isinstance(found, Table)
    return found


async def table_exists(table_id: str, request: Request) -> None:
    """Check in the database (which every process shares) that the table exists.

    Raises:
        HTTPException: 404 when it does not.
    """
    db = db_of(request)
    if len(table_id) > p.MAX_ID or await db.call(db.store.table, table_id) is None:
        raise HTTPException(404, f"no table {table_id!r}")


def qr_svg(url: str) -> str:
    """An SVG QR code of ``url``."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg: str = image.to_string(encoding="unicode")
    return svg


def base_url(request: Request) -> str:
    """The address the client reached this server on, without a trailing slash."""
    return str(request.base_url).rstrip("/")


async def read_body(request: Request, model: type[ModelT]) -> ModelT:
    """Read at most :data:`~tavern_dice.web.protocol.MAX_BODY_BYTES` of JSON and validate
    it strictly.

    Raises:
        HTTPException: 413 for a longer body, 422 for one that is not a JSON object.
        ActionError: the object does not fit ``model`` (naming the field).
    """
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > p.MAX_BODY_BYTES:
            raise HTTPException(413, f"request bodies are at most {p.MAX_BODY_BYTES} bytes")
        chunks.append(chunk)
    try:
        data = json.loads(b"".join(chunks) or b"null")
    except (ValueError, RecursionError):  # RecursionError: nested past the parser's depth
        raise HTTPException(422, "the body is not JSON") from None
    if not isinstance(data, dict):
        raise HTTPException(422, "the body is a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise validation_error(error) from None
