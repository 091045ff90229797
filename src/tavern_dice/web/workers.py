"""Running the web table: one server process, or several (``tavern serve --workers N``)
sharing one listening socket and one PostgreSQL database.

Each process also listens on a *peer* socket of its own (``--peer-host``, a port the OS
picks), whose address it registers with the tables it owns: that is where the other
processes forward those tables' players (:mod:`.relay`). With ``--workers N`` the
parent binds the public socket, starts N children that accept on it (the kernel spreads
the connections), starts a new child when one dies, and stops them all on Ctrl+C or
SIGTERM.
"""

from __future__ import annotations

import gc
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from typing import Any

log = logging.getLogger("tavern_dice.web.workers")

WS_MAX_BYTES = 64 * 1024
"""Uvicorn's hard cap on a WebSocket message. The app answers frames over 4 KiB with an
error itself; this cap only bounds the memory one message can take."""

GC_THRESHOLDS = (20_000, 10, 10)
"""The collector's thresholds in a server process: a young pass every 20,000 objects
allocated and kept (Python's default: 700). A server allocates and frees objects for
every frame, and the older passes that the default brings every few seconds under load
walk every table's games: about 5 % of a busy server's CPU, a tenth of that with these
(``benchmarks/web_load.py``)."""

RESTART_DELAY_S = 1.0
"""Pause before a dead worker is replaced (longer if workers keep dying)."""


@dataclass(frozen=True, slots=True)
class ServeSettings:
    """What every server process of one ``tavern serve`` is started with."""

    database_url: str
    peer_host: str | None
    """Where the peer socket listens (PostgreSQL); ``None``: no peers (SQLite)."""
    log_level: str = "warning"
    log_format: str = "text"
    tables_per_client: int = 30
    max_open_tables: int = 500
    ws_compression: bool = False
    """Offer permessage-deflate to WebSocket clients. A table's frames are small, and
    compressing each one for each socket costs more CPU than anything else per frame."""


def bind_peer(host: str) -> tuple[socket.socket, str]:
    """A listening socket on ``host`` (port chosen by the OS) and its ``http://`` address."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.bind((host, 0))
    port = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    return sock, f"http://{shown}:{port}"


def run_server(listener: socket.socket, settings: ServeSettings) -> None:
    """Serve on ``listener`` (and, on PostgreSQL, a peer socket) until stopped."""
    import dataclasses

    import uvicorn

    from tavern_dice.web.app import create_app
    from tavern_dice.web.limits import TableLimits
    from tavern_dice.web.logs import configure

    configure(settings.log_level, settings.log_format)
    sockets = [listener]
    peer_address = None
    if settings.peer_host is not None:
        peer, peer_address = bind_peer(settings.peer_host)
        sockets.append(peer)
    limits = dataclasses.replace(TableLimits(), per_client=settings.tables_per_client,
                                 max_open=settings.max_open_tables)
    application = create_app(settings.database_url, limits=limits, peer_address=peer_address)
    # Everything imported so far lives as long as the process: keep it out of the
    # collector's full passes, whose pauses hold up every table (load benchmark).
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    uvicorn.Server(uvicorn_config(application, settings)).run(sockets=sockets)


def uvicorn_config(application: Any, settings: ServeSettings) -> Any:
    """Uvicorn's settings for a server process (a ``uvicorn.Config``)."""
    import uvicorn

    return uvicorn.Config(
        application, ws_max_size=WS_MAX_BYTES, log_level=settings.log_level,
        proxy_headers=False, server_header=False, log_config=None,
        ws_per_message_deflate=settings.ws_compression,
    )


def _start_worker(listener: socket.socket, settings: ServeSettings) -> subprocess.Popen[bytes]:
    payload = json.dumps({"fd": listener.fileno(), "settings": asdict(settings)})
    return subprocess.Popen([sys.executable, "-m", "tavern_dice.web.workers", payload],
                            pass_fds=[listener.fileno()])


def supervise(listener: socket.socket, settings: ServeSettings, count: int) -> int:
    """Run ``count`` worker processes on ``listener`` until SIGINT/SIGTERM; a worker that
    dies is replaced (its tables are taken over by the others meanwhile)."""
    from tavern_dice.web.logs import configure

    configure(settings.log_level, settings.log_format)
    stopping = False

    def stop(_signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    workers = [_start_worker(listener, settings) for _ in range(count)]
    delay = RESTART_DELAY_S
    while not stopping:
        time.sleep(0.2)
        for i, worker in enumerate(workers):
            if stopping or worker.poll() is None:
                continue
            log.warning("worker %d (pid %d) exited with status %s; starting another",
                        i, worker.pid, worker.returncode, extra={"worker": i})
            time.sleep(delay)
            delay = min(delay * 2, 30.0)
            workers[i] = _start_worker(listener, settings)
    for worker in workers:
        if worker.poll() is None:
            worker.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 15
    for worker in workers:
        try:
            worker.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            worker.kill()
    return 0


def _child(payload: str) -> None:
    data = json.loads(payload)
    listener = socket.socket(fileno=int(data["fd"]))
    run_server(listener, ServeSettings(**data["settings"]))


if __name__ == "__main__":
    # A worker of `tavern serve --workers N` (started by supervise()).
    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m tavern_dice.web.workers SETTINGS_JSON")
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    _child(sys.argv[1])
