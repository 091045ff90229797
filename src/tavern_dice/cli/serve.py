"""`tavern serve`: the multiplayer web table, one command, no other server to start.

Runs the ASGI app (:mod:`tavern_dice.web`) on Uvicorn with an embedded SQLite
database by default, and prints the address to open.
"""

from __future__ import annotations

import socket
from typing import Annotated

import typer

from tavern_dice.cli.app import app
from tavern_dice.web.limits import TableLimits

DEFAULT_LIMITS = TableLimits()

WS_MAX_BYTES = 64 * 1024
"""Uvicorn's hard cap on a WebSocket message. The app answers frames over 4 KiB with an
error itself; this cap only bounds the memory one message can take."""


WILDCARD_HOSTS = ("0.0.0.0", "::", "")
"""Hosts that listen on every interface of the machine."""


def open_address(host: str, port: int) -> str:
    """The address to print: ``http://127.0.0.1:8000/``; a wildcard host shows as localhost.

    >>> open_address("0.0.0.0", 8000)
    'http://localhost:8000/'
    >>> open_address("::1", 9000)
    'http://[::1]:9000/'
    """
    shown = "localhost" if host in WILDCARD_HOSTS else host
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}/"


def lan_addresses(host: str) -> list[str]:
    """The machine's own network addresses that a server bound to ``host`` answers on, for
    phones on the same network: every interface's IPv4 address (and, for ``::``, its
    global IPv6 ones), loopback and link-local left out.

    Read from the interfaces themselves (psutil); no packet is sent anywhere.
    """
    import ipaddress

    import psutil

    if host not in WILDCARD_HOSTS:
        return []
    families = {socket.AF_INET} | ({socket.AF_INET6} if host == "::" else set())
    found: list[str] = []
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family not in families:
                continue
            ip = ipaddress.ip_address(address.address.split("%")[0])
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified:
                continue
            if str(ip) not in found:
                found.append(str(ip))
    return found


def bind_listener(host: str, port: int) -> socket.socket:
    """A TCP socket bound to ``(host, port)``, ready to hand to Uvicorn.

    Binding here, before anything is printed, lets ``tavern serve`` say plainly that
    the port is taken instead of printing an address that will never answer.

    Raises:
        OSError: the address cannot be bound (port in use, unknown host, no permission).
    """
    family, kind, proto, _, address = socket.getaddrinfo(
        host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        # Same socket options as Uvicorn's own bind: a restart may reuse a port whose old
        # connections are in TIME_WAIT, but never one another server is listening on.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


@app.command("serve")
def serve(
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=1, max=65535, help="TCP port to listen on.")
    ] = 8000,
    database_url: Annotated[
        str,
        typer.Option(
            "--database-url",
            help="SQLAlchemy URL of the database: SQLite by default, or e.g. "
            "postgresql+psycopg://user:pass@host/db.",
        ),
    ] = "sqlite:///./tavern.sqlite3",
    log_level: Annotated[
        str, typer.Option("--log-level", help="Uvicorn log level (info, warning, ...).")
    ] = "warning",
    tables_per_client: Annotated[
        int, typer.Option("--tables-per-client", min=1,
                          help="Tables one address may create per hour.")
    ] = DEFAULT_LIMITS.per_client,
    max_open_tables: Annotated[
        int, typer.Option("--max-open-tables", min=1,
                          help="Tables held in memory at once (idle ones are put away and "
                          "load again when visited).")
    ] = DEFAULT_LIMITS.max_open,
) -> None:
    """Host a web table for Liar's Dice and Dice Blackjack: create a table, share the link."""
    import dataclasses

    import uvicorn

    from tavern_dice.web.app import create_app

    try:
        listener = bind_listener(host, port)
    except OSError as error:
        reason = error.strerror or str(error)
        typer.echo(f"Tavern Dice web table: cannot listen on {host}:{port}: {reason}. "
                   f"Is another server using the port? Try --port with a free one.", err=True)
        raise typer.Exit(1) from None
    limits = dataclasses.replace(DEFAULT_LIMITS, per_client=tables_per_client,
                                 max_open=max_open_tables)
    application = create_app(database_url, limits=limits)
    typer.echo(f"Tavern Dice web table: open {open_address(host, port)}")
    for address in lan_addresses(host):
        typer.echo(f"  from phones on your network: {open_address(address, port)}")
    typer.echo(f"Database: {database_url}  (Ctrl+C to stop)")
    config = uvicorn.Config(
        application, host=host, port=port, ws_max_size=WS_MAX_BYTES, log_level=log_level,
        proxy_headers=False, server_header=False,
    )
    with listener:
        uvicorn.Server(config).run(sockets=[listener])
