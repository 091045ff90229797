"""Gold, games and exports: a table's ledger and games, a finished game's log and the
proofs of its dice.

They are read from the database, which every server process shares: no need to find
(or load) the table's owner for them.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from tavern_dice.web import protocol as p
from tavern_dice.web.routes.common import db_of, table_exists
from tavern_dice.web.store import PlayerRow, StoredGame

router = APIRouter()


@router.get("/api/tables/{table_id}/ledger")
async def table_ledger(table_id: str, request: Request) -> dict[str, Any]:
    await table_exists(table_id, request)
    db = db_of(request)
    rows = await db.call(db.store.ledger, table_id)
    balances = await db.call(db.store.balances, table_id)
    names = await _player_names(table_id, request)
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


@router.get("/api/tables/{table_id}/games")
async def table_games(table_id: str, request: Request) -> dict[str, Any]:
    await table_exists(table_id, request)
    db = db_of(request)
    return {"games": [
        {"game_id": g.id, "game": g.game, "status": g.status, "created_ms": g.created_ms,
         "finished_ms": g.finished_ms}
        for g in await db.call(db.store.games, table_id)
    ]}


@router.get("/api/games/{game_id}")
async def export_game(game_id: str, request: Request) -> dict[str, Any]:
    stored = await _game_or_404(game_id, request)
    if stored.status not in ("over", "ended"):
        raise HTTPException(409, "the game is still running; its log holds secret dice")
    names = await _player_names(stored.table_id, request)
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


@router.get("/api/games/{game_id}/proofs")
async def game_proofs(game_id: str, request: Request) -> dict[str, Any]:
    stored = await _game_or_404(game_id, request)
    return {"game_id": game_id, "commitments": [
        {"round": c.round, "seat": c.seat, "digest": c.digest,
         "faces": list(c.faces) if c.revealed else None,
         "salt": c.salt if c.revealed else None, "revealed": c.revealed}
        for c in stored.commitments
    ]}


async def _player_names(table_id: str, request: Request) -> dict[str, PlayerRow]:
    db = db_of(request)
    return {row.id: row for row in await db.call(db.store.players, table_id)}


async def _game_or_404(game_id: str, request: Request) -> StoredGame:
    db = db_of(request)
    stored = await db.call(db.store.game, game_id) if len(game_id) <= p.MAX_ID else None
    if stored is None:
        raise HTTPException(404, f"no game {game_id!r}")
    return stored
