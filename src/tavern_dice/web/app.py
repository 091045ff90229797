"""The web table's ASGI app: HTTP routes, the WebSocket route and the pages.

``create_app(database_url)`` builds a FastAPI app; ``tavern serve`` runs it on
Uvicorn. Routes are listed in ``docs/web-protocol.md`` and defined in :mod:`.routes`,
one router a job. The app holds no rules: it validates the shape of requests, then hands
them to :mod:`.tables` (or, for a table another server process owns, forwards them
there: :mod:`.relay`). ``/healthz`` and ``/metrics`` are for the operator
(``docs/web-scaling.md``).
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tavern_dice.web.catalog import ActionError
from tavern_dice.web.coordinator import make_coordinator
from tavern_dice.web.dbthread import StoreThread
from tavern_dice.web.house_edge import house_edge_router
from tavern_dice.web.limits import TableLimits
from tavern_dice.web.manager import TableManager
from tavern_dice.web.metrics import Metrics
from tavern_dice.web.relay import peer_client
from tavern_dice.web.review import review_router
from tavern_dice.web.routes import games, operator, pages, sockets, tables
from tavern_dice.web.store import DEFAULT_DATABASE_URL, Store

STATIC_DIR = Path(__file__).with_name("static")
"""The pages' scripts, styles and icon, served as they are (the pages: :mod:`.pages`)."""

_HTTP_STATUS = {"not-allowed": 403, "conflict": 409, "no-game": 409, "bad-token": 403,
                "rate-limited": 429, "too-many-tables": 429}

SECURITY_HEADERS = {
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


_HOST = re.compile(r"^[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$")


def content_security_policy(host: str | None) -> str:
    """The page policy: scripts, styles and connections only from this server. The
    WebSocket address is named as well, for browsers whose ``'self'`` leaves out ws:.

    >>> "ws://127.0.0.1:8000" in content_security_policy("127.0.0.1:8000")
    True
    >>> "ws:" in content_security_policy("evil.example'; script-src *")
    False
    """
    sockets = f" ws://{host} wss://{host}" if host and _HOST.match(host) else ""
    return (
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        f"img-src 'self' data:; connect-src 'self'{sockets}; frame-ancestors 'none'; "
        "base-uri 'none'"
    )


class _SecurityHeaders:
    """Pure ASGI middleware adding :data:`SECURITY_HEADERS` and the page policy to every
    HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.headers = [(k.lower().encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        host = next((v.decode("latin-1") for k, v in scope.get("headers", [])
                     if k == b"host"), None)
        policy = (b"content-security-policy", content_security_policy(host).encode())

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in [*self.headers, policy] if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


@dataclass(frozen=True, slots=True)
class _Settings:
    """What the lifespan opens the tables with (``create_app``'s arguments)."""

    database_url: str
    limits: TableLimits | None
    peer_address: str | None


def create_app(database_url: str = DEFAULT_DATABASE_URL, static_dir: Path | None = None,
               limits: TableLimits | None = None, peer_address: str | None = None) -> Any:
    """Build the app on ``database_url`` (SQLite by default, or PostgreSQL).

    On start-up the schema is upgraded (Alembic) and running games stored in the
    database that no other process holds are resumed. ``limits`` caps table creation
    and says when idle tables leave memory (defaults: :class:`~.limits.TableLimits`).
    ``peer_address`` is where other server processes on the same PostgreSQL database
    reach this one (``http://127.0.0.1:41234``), to forward the players of the tables
    it owns.

    The routes are :mod:`.routes`' routers, one a job, and the house-edge dial's and the
    review's; they reach the tables through ``app.state`` (set up by the lifespan).
    """
    app = FastAPI(title="Tavern Dice web table", lifespan=_lifespan, docs_url=None,
                  redoc_url=None, openapi_url=None)
    app.state.settings = _Settings(database_url, limits, peer_address)
    app.state.metrics = Metrics()
    app.add_middleware(_SecurityHeaders)
    app.exception_handler(ActionError)(_action_error)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=static_dir or STATIC_DIR), name="static")
    app.include_router(operator.router)
    app.include_router(tables.router)
    app.include_router(games.router)
    # The DM's house-edge dial for a new Dice Blackjack table (web/house_edge.py).
    app.include_router(house_edge_router())
    # The post-game review's endpoint (web/review.py).
    app.include_router(review_router())
    app.include_router(sockets.router)
    return app


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the database and the tables (resuming stored games) for as long as the app
    serves; close them, and the peers' client, when it stops."""
    settings: _Settings = app.state.settings
    metrics: Metrics = app.state.metrics
    store = Store(settings.database_url)
    db = StoreThread(store, metrics.observe_commit)
    manager = TableManager(db, make_coordinator(db, settings.peer_address), settings.limits,
                           metrics=metrics)
    app.state.manager = manager
    app.state.peers = peers = peer_client()
    try:
        await manager.start()
        yield
    finally:
        await manager.close()
        await peers.aclose()
        await db.close()


async def _action_error(_request: Request, error: ActionError) -> JSONResponse:
    """A refusal as JSON: its message and field, with the status its code maps to."""
    body: dict[str, Any] = {"detail": error.message}
    if error.field is not None:
        body["field"] = error.field
    status = _HTTP_STATUS.get(error.code, 422)
    headers = {"Retry-After": "60"} if status == 429 else None
    return JSONResponse(body, status_code=status, headers=headers)
