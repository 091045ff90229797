"""Tables: the catalog the create page reads, creating a table, joining it, its summary
and QR code, and the DM's key (its link, and trading it for a new one).

A request about a table goes to the process that owns it: answered here when this one
does, else forwarded there (:func:`~tavern_dice.web.routes.common.table_or_404`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from tavern_dice.web import protocol as p
from tavern_dice.web.adapters import adapter_for
from tavern_dice.web.catalog import GAMES, ActionError, bot_kinds, bot_levels, presets
from tavern_dice.web.routes.common import (
    base_url,
    manager_of,
    qr_svg,
    read_body,
    table_exists,
    table_or_404,
)

router = APIRouter()


@router.get("/api/catalog")
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


@router.post("/api/tables", status_code=201)
async def create_table(request: Request) -> dict[str, Any]:
    body = await read_body(request, p.CreateTable)
    client = request.client.host if request.client is not None else ""
    table, host_token = await manager_of(request).create(
        body.game, body.name, body.preset, body.rules, body.options, client)
    base = base_url(request)
    return {
        "table_id": table.id,
        "host_token": host_token,
        "join_url": f"{base}/t/{table.id}",
        "host_url": f"{base}/host/{table.id}#{host_token}",
        "qr_svg_url": f"/api/tables/{table.id}/qr.svg",
    }


@router.post("/api/tables/{table_id}/host-link", response_model=None)
async def host_link(table_id: str, request: Request) -> dict[str, Any] | Response:
    # The DM key travels in the body, never in a URL (which logs and proxies keep);
    # only the key's holder gets the link, so this is no open QR service.
    table = await table_or_404(table_id, request)
    if isinstance(table, Response):
        return table
    body = await read_body(request, p.HostLink)
    if table.role_for(body.host_token)[0] != "host":
        raise ActionError("bad-token", "that is not this table's DM key")
    url = f"{base_url(request)}/host/{table.id}#{body.host_token}"
    svg = await run_in_threadpool(qr_svg, url)
    return {"host_url": url, "qr_svg": svg}


@router.post("/api/tables/{table_id}/host-key", response_model=None)
async def host_key(table_id: str, request: Request) -> dict[str, Any] | Response:
    # Opening the DM link moves the console: the page that opens it trades the key
    # for a new one, and the consoles holding the old key close. A console may also
    # ask for a new key itself (the DM suspects the link was seen).
    table = await table_or_404(table_id, request)
    if isinstance(table, Response):
        return table
    body = await read_body(request, p.HostLink)
    async with table.lock:
        if table.role_for(body.host_token)[0] != "host":
            raise ActionError("bad-token", "that is not this table's DM key (the console "
                              "may have moved to another device since)")
        token = await table.new_host_key()
    return {"host_token": token, "host_url": f"{base_url(request)}/host/{table.id}#{token}"}


@router.get("/api/tables/{table_id}", response_model=None)
async def get_table(table_id: str, request: Request) -> dict[str, Any] | Response:
    table = await table_or_404(table_id, request)
    return table if isinstance(table, Response) else table.summary()


@router.get("/api/tables/{table_id}/qr.svg")
async def table_qr(table_id: str, request: Request) -> Response:
    await table_exists(table_id, request)
    url = f"{base_url(request)}/t/{table_id}"
    # Building the QR code is pure CPU work (milliseconds); keep it off the event loop.
    svg = await run_in_threadpool(qr_svg, url)
    return Response(svg, media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=3600"})


@router.post("/api/tables/{table_id}/join", status_code=201, response_model=None)
async def join_table(table_id: str, request: Request) -> dict[str, Any] | Response:
    table = await table_or_404(table_id, request)
    if isinstance(table, Response):
        return table
    body = await read_body(request, p.JoinTable)
    player_id, token = await table.join(body.name, body.proficiency)
    return {"player_id": player_id, "seat_token": token, "table_id": table.id}
