"""The WebSocket a browser plays through: ``/ws/{table_id}`` (the protocol:
``docs/web-protocol.md``; the connection's life: :mod:`tavern_dice.web.ws`)."""

from __future__ import annotations

from fastapi import APIRouter, WebSocket

from tavern_dice.web.routes.common import manager_of
from tavern_dice.web.ws import serve_socket

router = APIRouter()


@router.websocket("/ws/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    await serve_socket(websocket, manager_of(websocket), table_id)
