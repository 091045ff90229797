"""The operator's routes (``docs/web-scaling.md``): ``/api/health`` (the process
answers), ``/healthz`` (for load balancers: it can use its database) and ``/metrics``
(Prometheus)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from tavern_dice.web.metrics import CONTENT_TYPE
from tavern_dice.web.routes.common import manager_of, metrics_of

HEALTH_TIMEOUT_S = 5.0
"""How long ``/healthz`` waits for the database."""

router = APIRouter()


@router.get("/api/health")
async def health() -> dict[str, bool]:
    return {"ok": True}


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    """For load balancers and orchestrators: 200 while this process can use its
    database (and, on PostgreSQL, holds its lock session), else 503."""
    m = manager_of(request)
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


@router.get("/metrics")
async def prometheus_metrics(request: Request) -> Response:
    return Response(metrics_of(request).render(), media_type=CONTENT_TYPE)
