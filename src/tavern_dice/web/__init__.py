"""The multiplayer web table (``tavern serve``): an ASGI app with WebSockets for live play.

Modules: :mod:`.app` (the app), :mod:`.routes` (its routes, one router a job), :mod:`.ws`
(connections), :mod:`.tables` (a table's lifecycle), :mod:`.seating`, :mod:`.schedule`
(bots, timers, stand-ins), :mod:`.frames` (state frames), :mod:`.adapters` (each game's
behaviour, by name), :mod:`.house` (the house's dice), :mod:`.store` and :mod:`.rows` (the
database and the gold ledger), :mod:`.commitments` (verifiable dice) and :mod:`.protocol`
(message schemas).
The wire protocol is documented in ``docs/web-protocol.md``.
"""

from __future__ import annotations

from typing import Any


def create_app(database_url: str = "sqlite:///./tavern.sqlite3") -> Any:
    """Build the ASGI app (see :func:`tavern_dice.web.app.create_app`)."""
    from tavern_dice.web.app import create_app as build

    return build(database_url)


__all__ = ["create_app"]
