"""The web table's ASGI app: HTTP routes, the WebSocket route and the pages.

``create_app(database_url)`` builds a FastAPI app; ``tavern serve`` runs it on
Uvicorn. Routes are listed in ``docs/web-protocol.md``. The app holds no rules:
it validates the shape of requests, then hands them to :mod:`.tables` (or, for a table
another server process owns, forwards them there: :mod:`.relay`). ``/healthz`` and
``/metrics`` are for the operator (``docs/web-scaling.md``).
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import qrcode
import qrcode.image.svg
from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tavern_dice.web import protocol as p
from tavern_dice.web.adapters import adapter_for
from tavern_dice.web.catalog import (
    GAMES,
    ActionError,
    bot_kinds,
    bot_levels,
    presets,
    validation_error,
)
from tavern_dice.web.coordinator import make_coordinator
from tavern_dice.web.dbthread import StoreThread
from tavern_dice.web.house_edge import house_edge_router
from tavern_dice.web.limits import TableLimits
from tavern_dice.web.manager import Remote, TableManager, TableMoving
from tavern_dice.web.metrics import CONTENT_TYPE, Metrics
from tavern_dice.web.pages import page_response
from tavern_dice.web.relay import RELAY_HEADER, forward_http, peer_client
from tavern_dice.web.review import review_router
from tavern_dice.web.store import DEFAULT_DATABASE_URL, PlayerRow, Store, StoredGame
from tavern_dice.web.tables import Table
from tavern_dice.web.ws import serve_socket

STATIC_DIR = Path(__file__).with_name("static")
"""The pages' scripts, styles and icon, served as they are (the pages: :mod:`.pages`)."""

ModelT = TypeVar("ModelT", bound=BaseModel)

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


HEALTH_TIMEOUT_S = 5.0
"""How long ``/healthz`` waits for the database."""


def create_app(database_url: str = DEFAULT_DATABASE_URL, static_dir: Path | None = None,
               limits: TableLimits | None = None, peer_address: str | None = None) -> Any:
    """Build the app on ``database_url`` (SQLite by default, or PostgreSQL).

    On start-up the schema is upgraded (Alembic) and running games stored in the
    database that no other process holds are resumed. ``limits`` caps table creation
    and says when idle tables leave memory (defaults: :class:`~.limits.TableLimits`).
    ``peer_address`` is where other server processes on the same PostgreSQL database
    reach this one (``http://127.0.0.1:41234``), to forward the players of the tables
    it owns.
    """
    static = static_dir or STATIC_DIR
    state: dict[str, Any] = {}
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        store = Store(database_url)
        db = StoreThread(store, metrics.observe_commit)
        manager = TableManager(db, make_coordinator(db, peer_address), limits,
                               metrics=metrics)
        state["manager"] = manager
        state["peers"] = peer_client()
        _app.state.manager = manager
        try:
            await manager.start()
            yield
        finally:
            await manager.close()
            await state["peers"].aclose()
            await db.close()

    app = FastAPI(title="Tavern Dice web table", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url=None)
    app.add_middleware(_SecurityHeaders)

    def manager() -> TableManager:
        found: TableManager = state["manager"]
        return found

    def peers() -> httpx.AsyncClient:
        client: httpx.AsyncClient = state["peers"]
        return client

    async def table_or_404(table_id: str, request: Request) -> Table | Response:
        """The table if this process owns it; else the owner's answer to ``request``."""
        try:
            found = await manager().locate(table_id)
            if isinstance(found, Remote) and RELAY_HEADER not in request.headers:
                return await forward_http(peers(), request, found.address)
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

    async def table_exists(table_id: str) -> None:
        if len(table_id) > p.MAX_ID or await db().call(db().store.table, table_id) is None:
            raise HTTPException(404, f"no table {table_id!r}")

    def db() -> StoreThread:
        return manager().db

    # ------------------------------------------------------------------ pages

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return page_response("index")

    @app.get("/t/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> HTMLResponse:
        return page_response("table")

    @app.get("/host/{table_id}", include_in_schema=False)
    async def host_page(table_id: str) -> HTMLResponse:
        return page_response("host")

    @app.get("/review/{table_id}", include_in_schema=False)
    async def review_page(table_id: str) -> HTMLResponse:
        return page_response("review")

    app.mount("/static", StaticFiles(directory=static), name="static")

    # ------------------------------------------------------------------ API

    @app.get("/api/health")
    async def health() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/healthz")
    async def healthz() -> JSONResponse:
        """For load balancers and orchestrators: 200 while this process can use its
        database (and, on PostgreSQL, holds its lock session), else 503."""
        m = manager()
        body: dict[str, Any] = {"node": m.coordinator.node_id,
                                "database": m.store.engine.dialect.name,
                                "tables": len(m.tables)}
        try:
            await asyncio.wait_for(m.db.call(m.store.ping), HEALTH_TIMEOUT_S)
            locks = await asyncio.wait_for(m.coordinator.healthy(), HEALTH_TIMEOUT_S)
        except Exception as error:
            return JSONResponse({**body, "ok": False,
                                 "detail": f"the database does not answer: {error}"},
                                status_code=503)
        if not locks:
            return JSONResponse({**body, "ok": False,
                                 "detail": "lost the lock session; reconnecting"},
                                status_code=503)
        return JSONResponse({**body, "ok": True})

    @app.get("/metrics")
    async def prometheus_metrics() -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    @app.get("/api/catalog")
    async def catalog() -> dict[str, Any]:
        defaults = p.TableOptions().model_dump()
        return {"games": {
            game: {
                "presets": {name: rules.to_dict() for name, rules in presets(game).items()},
                "bot_kinds": bot_kinds(game), "bot_levels": bot_levels(game),
                "options": defaults | {"standin_bot": adapter_for(game).default_standin},
            }
            for game in GAMES
        }}

    @app.post("/api/tables", status_code=201)
    async def create_table(request: Request) -> dict[str, Any]:
        body = await _read_body(request, p.CreateTable)
        client = request.client.host if request.client is not None else ""
        table, host_token = await manager().create(body.game, body.name, body.preset,
                                                   body.rules, body.options, client)
        base = str(request.base_url).rstrip("/")
        return {
            "table_id": table.id,
            "host_token": host_token,
            "join_url": f"{base}/t/{table.id}",
            "host_url": f"{base}/host/{table.id}#{host_token}",
            "qr_svg_url": f"/api/tables/{table.id}/qr.svg",
        }

    @app.post("/api/tables/{table_id}/host-link", response_model=None)
    async def host_link(table_id: str, request: Request) -> dict[str, Any] | Response:
        # The DM key travels in the body, never in a URL (which logs and proxies keep);
        # only the key's holder gets the link, so this is no open QR service.
        table = await table_or_404(table_id, request)
        if isinstance(table, Response):
            return table
        body = await _read_body(request, p.HostLink)
        if table.role_for(body.host_token)[0] != "host":
            raise ActionError("bad-token", "that is not this table's DM key")
        url = f"{str(request.base_url).rstrip('/')}/host/{table.id}#{body.host_token}"
        svg = await run_in_threadpool(_qr_svg, url)
        return {"host_url": url, "qr_svg": svg}

    @app.post("/api/tables/{table_id}/host-key", response_model=None)
    async def host_key(table_id: str, request: Request) -> dict[str, Any] | Response:
        # Opening the DM link moves the console: the page that opens it trades the key
        # for a new one, and the consoles holding the old key close. A console may also
        # ask for a new key itself (the DM suspects the link was seen).
        table = await table_or_404(table_id, request)
        if isinstance(table, Response):
            return table
        body = await _read_body(request, p.HostLink)
        async with table.lock:
            if table.role_for(body.host_token)[0] != "host":
                raise ActionError("bad-token", "that is not this table's DM key (the console "
                                  "may have moved to another device since)")
            token = await table.new_host_key()
        base = str(request.base_url).rstrip("/")
        return {"host_token": token, "host_url": f"{base}/host/{table.id}#{token}"}

    @app.get("/api/tables/{table_id}", response_model=None)
    async def get_table(table_id: str, request: Request) -> dict[str, Any] | Response:
        table = await table_or_404(table_id, request)
        return table if isinstance(table, Response) else table.summary()

    @app.get("/api/tables/{table_id}/qr.svg")
    async def table_qr(table_id: str, request: Request) -> Response:
        await table_exists(table_id)
        url = f"{str(request.base_url).rstrip('/')}/t/{table_id}"
        # Building the QR code is pure CPU work (milliseconds); keep it off the event loop.
        svg = await run_in_threadpool(_qr_svg, url)
        return Response(svg, media_type="image/svg+xml",
                        headers={"Cache-Control": "public, max-age=3600"})

    @app.post("/api/tables/{table_id}/join", status_code=201, response_model=None)
    async def join_table(table_id: str, request: Request) -> dict[str, Any] | Response:
        table = await table_or_404(table_id, request)
        if isinstance(table, Response):
            return table
        body = await _read_body(request, p.JoinTable)
        player_id, token = await table.join(body.name, body.proficiency)
        return {"player_id": player_id, "seat_token": token, "table_id": table.id}

    # Gold, games and exports are read from the database, which every process shares:
    # no need to find (or load) the table's owner for them.

    @app.get("/api/tables/{table_id}/ledger")
    async def table_ledger(table_id: str) -> dict[str, Any]:
        await table_exists(table_id)
        store = db().store
        rows = await db().call(store.ledger, table_id)
        balances = await db().call(store.balances, table_id)
        names = await player_names(table_id)
        return {
            "balances": [
                {"player_id": pid, "name": names[pid].name if pid in names else pid,
                 "balance_cp": cp}
                for pid, cp in balances.items()
            ],
            "rows": [
                {"id": r.id, "player_id": r.player_id, "game_id": r.game_id, "round": r.round,
                 "amount_cp": r.amount_cp, "reason": r.reason, "at_ms": r.at_ms}
                for r in rows
            ],
        }

    async def player_names(table_id: str) -> dict[str, PlayerRow]:
        return {row.id: row for row in await db().call(db().store.players, table_id)}

    @app.get("/api/tables/{table_id}/games")
    async def table_games(table_id: str) -> dict[str, Any]:
        await table_exists(table_id)
        return {"games": [
            {"game_id": g.id, "game": g.game, "status": g.status, "created_ms": g.created_ms,
             "finished_ms": g.finished_ms}
            for g in await db().call(db().store.games, table_id)
        ]}

    async def game_or_404(game_id: str) -> StoredGame:
        stored = (await db().call(db().store.game, game_id)
                  if len(game_id) <= p.MAX_ID else None)
        if stored is None:
            raise HTTPException(404, f"no game {game_id!r}")
        return stored

    @app.get("/api/games/{game_id}")
    async def export_game(game_id: str) -> dict[str, Any]:
        stored = await game_or_404(game_id)
        if stored.status not in ("over", "ended"):
            raise HTTPException(409, "the game is still running; its log holds secret dice")
        names = await player_names(stored.table_id)
        return {
            "game_id": stored.id,
            "table_id": stored.table_id,
            "status": stored.status,
            "seats": [
                {"seat": i, "player_id": pid,
                 "name": names[pid].name if pid in names else stored.log["players"][i],
                 "kind": names[pid].kind if pid in names else "person"}
                for i, pid in enumerate(stored.seats)
            ],
            "log": stored.log,
            "commitments": [
                {"round": c.round, **c.proof(), "revealed": c.revealed}
                for c in stored.commitments
            ],
        }

    @app.get("/api/games/{game_id}/proofs")
    async def game_proofs(game_id: str) -> dict[str, Any]:
        stored = await game_or_404(game_id)
        return {"game_id": game_id, "commitments": [
            {"round": c.round, "seat": c.seat, "digest": c.digest,
             "faces": list(c.faces) if c.revealed else None,
             "salt": c.salt if c.revealed else None, "revealed": c.revealed}
            for c in stored.commitments
        ]}

    # The DM's house-edge dial for a new Dice Blackjack table (web/house_edge.py).
    app.include_router(house_edge_router())

    # The post-game review's endpoint (web/review.py).
    app.include_router(review_router(manager))

    @app.websocket("/ws/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await serve_socket(websocket, manager(), table_id)

    @app.exception_handler(ActionError)
    async def action_error(_request: Request, error: ActionError) -> JSONResponse:
        body: dict[str, Any] = {"detail": error.message}
        if error.field is not None:
            body["field"] = error.field
        status = _HTTP_STATUS.get(error.code, 422)
        headers = {"Retry-After": "60"} if status == 429 else None
        return JSONResponse(body, status_code=status, headers=headers)

    return app


def _qr_svg(url: str) -> str:
    """An SVG QR code of ``url``."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg: str = image.to_string(encoding="unicode")
    return svg


async def _read_body(request: Request, model: type[ModelT]) -> ModelT:
    """Read at most :data:`~.protocol.MAX_BODY_BYTES` of JSON and validate it strictly."""
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
