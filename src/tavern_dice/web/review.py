"""The post-game review at the web table: ``GET /api/tables/{table_id}/review`` (its page,
``/review/{table_id}``, is one of :mod:`.pages`).

A finished game's review (:mod:`tavern_dice.review`) shows a seat's own dice at every
decision, so it is never public: the request carries the seat token or the DM key in an
``Authorization: Bearer TOKEN`` header (a token never goes in a URL). A player gets the
review of the seat they played in that game, and only that one; the DM gets every seat,
or the one asked for (``?seat=N``). ``?game_id=G`` picks the game (default: the table's
latest finished game); a game still running has no review.

Everything is read from the database (the game's stored log and the table's token
hashes), on the store thread, not from the table in memory, so any server process
answers for any table; the review itself is CPU work, done off the event loop and kept
for the finished games asked for lately (a finished log never changes).
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from starlette.concurrency import run_in_threadpool

from tavern_dice.review import review_game
from tavern_dice.web import protocol as p
from tavern_dice.web.catalog import KINDS, ActionError
from tavern_dice.web.routes.common import manager_of
from tavern_dice.web.store import Store, StoredGame, token_hash

FINISHED = ("over", "ended")
"""Game statuses whose log holds no secret any more, and which a review may cover."""

CACHE_SIZE = 32
"""How many reviews (game and seats) are kept."""


@dataclass(frozen=True, slots=True)
class _Request:
    """A review request, authorised: which game, and which of its seats."""

    stored: StoredGame
    seats: tuple[int, ...]
    role: str


def review_router() -> APIRouter:
    """The review's endpoint, for ``create_app`` to include (its page: :mod:`.pages`),
    with its own cache of reviews (one an app)."""
    router = APIRouter()
    cache: OrderedDict[tuple[str, tuple[int, ...]], dict[str, Any]] = OrderedDict()

    @router.get("/api/tables/{table_id}/review")
    async def table_review(table_id: str, request: Request) -> dict[str, Any]:
        token = _bearer(request)
        query = request.query_params
        wanted = _seat_param(query.get("seat"))
        game_id = query.get("game_id")
        # Database reads on the store thread, never on the event loop.
        tables = manager_of(request)
        asked = await tables.db.call(_authorise, tables.store, table_id, game_id, token,
                                     wanted)
        stored = asked.stored
        key = (stored.id, asked.seats)
        review = cache.get(key)
        if review is None:
            # Replaying and valuing every decision is pure CPU work: off the event loop.
            review = await run_in_threadpool(_review, stored, asked.seats)
            cache[key] = review
            while len(cache) > CACHE_SIZE:
                cache.popitem(last=False)
        cache.move_to_end(key)
        return {"table_id": table_id, "game_id": stored.id, "status": stored.status,
                "role": asked.role, "rules": stored.log.get("rules"), **review}

    return router


def _bearer(request: Request) -> str:
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(
            401, "a review shows a seat's own dice: send your seat token (or the DM key) as "
            "'Authorization: Bearer TOKEN'", headers={"WWW-Authenticate": "Bearer"})
    return token.strip()


def _seat_param(text: str | None) -> int | None:
    if text is None or text == "":
        return None
    if not text.isdigit():
        raise ActionError("bad-message", f"seat: a seat number from 0, not {text!r}", "seat")
    return int(text)


def _authorise(store: Store, table_id: str, game_id: str | None, token: str,
               wanted: int | None) -> _Request:
    """The game and seats the holder of ``token`` may review (see the module doc).

    Raises:
        HTTPException: 404 no such table or game; 409 no finished game.
        ActionError: ``bad-token`` (403) a token of no seat here, ``not-allowed`` (403)
            another player's seat, ``bad-message`` (422) a seat the game does not have.
    """
    row = store.table(table_id) if len(table_id) <= p.MAX_ID else None
    if row is None:
        raise HTTPException(404, f"no table {table_id!r}")
    digest = token_hash(token)
    player_id: str | None = None
    if not secrets.compare_digest(digest, row.host_token_hash):
        player_id = next((r.id for r in store.players(table_id) if r.token_hash is not None
                          and secrets.compare_digest(digest, r.token_hash)), None)
        if player_id is None:
            raise ActionError("bad-token", "this token belongs to no seat at this table")
    stored = _finished_game(store, table_id, game_id)
    count = len(stored.seats)
    if wanted is not None and wanted >= count:
        raise ActionError("bad-message", f"seat: no seat {wanted} in this game; seats are "
                          f"0-{count - 1}", "seat")
    if player_id is None:
        seats = tuple(range(count)) if wanted is None else (wanted,)
        return _Request(stored, seats, "host")
    if player_id not in stored.seats:
        raise ActionError("not-allowed", "you had no seat in this game, so it has no review "
                          "for you")
    mine = stored.seats.index(player_id)
    if wanted is not None and wanted != mine:
        raise ActionError("not-allowed", f"a player sees the review of their own seat only "
                          f"(yours is seat {mine}); the DM's key opens every seat")
    return _Request(stored, (mine,), "player")


def _finished_game(store: Store, table_id: str, game_id: str | None) -> StoredGame:
    if game_id is None:
        finished = [g for g in store.games(table_id) if g.status in FINISHED]
        if not finished:
            raise HTTPException(409, "no game at this table has finished yet; a review "
                                "comes when a game is over")
        game_id = max(finished, key=lambda g: g.created_ms).id
    stored = store.game(game_id) if len(game_id) <= p.MAX_ID else None
    if stored is None or stored.table_id != table_id:
        raise HTTPException(404, f"no game {game_id!r} at this table")
    if stored.status not in FINISHED:
        raise HTTPException(409, "the game is still running; its review comes when it is over")
    return stored


def _review(stored: StoredGame, seats: tuple[int, ...]) -> dict[str, Any]:
    game = KINDS[stored.game].state.from_log(stored.log)
    return review_game(game, seats).to_dict()
