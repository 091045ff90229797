"""The HTML pages: the lobby, a table, the DM's console and a game's review. Each page
is the same file whatever the table; its script reads the table from the address
(:mod:`tavern_dice.web.pages`)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from tavern_dice.web.pages import page_response

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index() -> HTMLResponse:
    return page_response("index")


@router.get("/t/{table_id}")
async def table_page(table_id: str) -> HTMLResponse:
    return page_response("table")


@router.get("/host/{table_id}")
async def host_page(table_id: str) -> HTMLResponse:
    return page_response("host")


@router.get("/review/{table_id}")
async def review_page(table_id: str) -> HTMLResponse:
    return page_response("review")
