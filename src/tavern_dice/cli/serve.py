"""`tavern serve`: the multiplayer web table, one command, no other server to start.

Runs the ASGI app (:mod:`tavern_dice.web`) on Uvicorn with an embedded SQLite
database by default, and prints the address to open. On PostgreSQL it can run several
processes (``--workers``) that share the tables (:mod:`tavern_dice.web.workers`).
``tavern db upgrade`` brings a database's schema up to date without serving.
"""

from __future__ import annotations

import socket
from typing import Annotated

import typer

from tavern_dice.cli.app import app, command_group
from tavern_dice.web.limits import TableLimits

DEFAULT_LIMITS = TableLimits()

LOG_LEVELS = ("debug", "info", "warning", "error", "critical")


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
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on (0.0.0.0: every interface, for phones on "
        "your network).")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", min=1, max=65535, help="TCP port to listen on.")
    ] = 8000,
    database_url: Annotated[
        str,
        typer.Option(
            "--database-url",
            help="Database: SQLite by default (a file, nothing to start), or PostgreSQL, "
            "e.g. postgresql://user:pass@host/db (needs its driver, the postgres extra of "
            "tavern-dice), which several server processes can share. Its schema is "
            "created or upgraded on start-up.",
        ),
    ] = "sqlite:///./tavern.sqlite3",
    workers: Annotated[
        int, typer.Option(
            "--workers", min=1, max=64,
            help="Server processes sharing the port (PostgreSQL only). Each table is run "
            "by one of them; the others forward its players there, and take its tables "
            "over if it dies.")
    ] = 1,
    peer_host: Annotated[
        str, typer.Option(
            "--peer-host",
            help="PostgreSQL: the address other server processes reach this one on (each "
            "process listens there on a port the OS picks). Set it to this machine's "
            "address when processes run on several machines.")
    ] = "127.0.0.1",
    log_level: Annotated[
        str, typer.Option("--log-level", help="Least severe log records shown: debug, "
                          "info, warning, error.")
    ] = "warning",
    log_format: Annotated[
        str, typer.Option("--log-format", help="Logs on stderr as text, or json: one JSON "
                          "object a line, with table and node fields, for log collectors.")
    ] = "text",
    tables_per_client: Annotated[
        int, typer.Option("--tables-per-client", min=1,
                          help="Tables one address may create per hour (per process).")
    ] = DEFAULT_LIMITS.per_client,
    max_open_tables: Annotated[
        int, typer.Option("--max-open-tables", min=1,
                          help="Tables one process holds in memory at once (idle ones are "
                          "put away and load again when visited).")
    ] = DEFAULT_LIMITS.max_open,
    ws_compression: Annotated[
        bool, typer.Option("--ws-compression/--no-ws-compression",
                           help="Compress WebSocket frames (permessage-deflate) for "
                           "clients that offer it, as browsers do. Off by default: the "
                           "frames are small, and compressing each one for each socket "
                           "costs the server more CPU than the rest of sending it.")
    ] = False,
) -> None:
    """Host a web table for Liar's Dice and Dice Blackjack: create a table, share the link.

    Operators: GET /healthz (200 while the database answers) and /metrics (Prometheus).
    """
    from tavern_dice.web.workers import ServeSettings, run_server, supervise

    log_level = _check_logs(log_level, log_format)
    postgres = _check_processes(database_url, workers, peer_host)
    shown_url = _open_database(database_url)
    try:
        listener = bind_listener(host, port)
    except OSError as error:
        reason = error.strerror or str(error)
        typer.echo(f"Tavern Dice web table: cannot listen on {host}:{port}: {reason}. "
                   f"Is another server using the port? Try --port with a free one.", err=True)
        raise typer.Exit(1) from None
    settings = ServeSettings(
        database_url=database_url, peer_host=peer_host if postgres else None,
        log_level=log_level, log_format=log_format, tables_per_client=tables_per_client,
        max_open_tables=max_open_tables, ws_compression=ws_compression)
    typer.echo(f"Tavern Dice web table: open {open_address(host, port)}")
    for address in lan_addresses(host):
        typer.echo(f"  from phones on your network: {open_address(address, port)}")
    processes = f", {workers} processes" if workers > 1 else ""
    typer.echo(f"Database: {shown_url}{processes}  (Ctrl+C to stop)")
    with listener:
        if workers > 1:
            raise typer.Exit(supervise(listener, settings, workers))
        run_server(listener, settings)


def _check_logs(log_level: str, log_format: str) -> str:
    """The log level, lower case, once it and the log format are known ones.

    Raises:
        typer.BadParameter: naming the option and what it may be.
    """
    log_level = log_level.lower()
    if log_level not in LOG_LEVELS:
        raise typer.BadParameter(f"one of {', '.join(LOG_LEVELS)}, not {log_level!r}",
                                 param_hint="--log-level")
    if log_format not in ("text", "json"):
        raise typer.BadParameter(f"text or json, not {log_format!r}", param_hint="--log-format")
    return log_level


def _check_processes(database_url: str, workers: int, peer_host: str) -> bool:
    """Whether the database is PostgreSQL, once the processes asked for can share it
    (several need PostgreSQL, and an address the others reach)."""
    from tavern_dice.web.store import is_postgres

    postgres = is_postgres(database_url)
    if workers > 1 and not postgres:
        typer.echo(f"Tavern Dice web table: --workers {workers} needs PostgreSQL. SQLite is "
                   "the database of one process (each worker would play its own copy of "
                   "every game): use --database-url postgresql://..., or one worker.",
                   err=True)
        raise typer.Exit(2)
    if postgres and peer_host in WILDCARD_HOSTS:
        raise typer.BadParameter("name an address the other processes can reach, not a "
                                 "wildcard", param_hint="--peer-host")
    return postgres


def _open_database(database_url: str) -> str:
    """Create or upgrade the schema once, here, and say so plainly if the database cannot
    be used, before anything listens; the database's address to print (no password)."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from tavern_dice.web.store import DatabaseError, Store, normalize_url

    try:
        shown_url = make_url(normalize_url(database_url)).render_as_string(hide_password=True)
        Store(database_url).close()
    except (DatabaseError, ArgumentError, SQLAlchemyError) as error:
        reason = str(error).splitlines()[0]
        typer.echo(f"Tavern Dice web table: cannot use the database {database_url!r}: "
                   f"{reason}", err=True)
        raise typer.Exit(1) from None
    return shown_url


db_app = command_group("db", "The web table's database: its schema version and upgrades.")


@db_app.command("upgrade")
def db_upgrade(
    database_url: Annotated[
        str, typer.Option("--database-url", help="The database to upgrade (as for serve).")
    ] = "sqlite:///./tavern.sqlite3",
) -> None:
    """Create the schema, or upgrade it to this version's, keeping every row.

    tavern serve does the same on start-up.
    """
    from sqlalchemy.exc import ArgumentError, SQLAlchemyError

    from tavern_dice.web.migrate import current, head
    from tavern_dice.web.store import DatabaseError, Store

    try:
        store = Store(database_url, upgrade=False)
        before = current(store.engine)
        store.close()
        store = Store(database_url)
        after = current(store.engine)
        store.close()
    except (DatabaseError, ArgumentError, SQLAlchemyError) as error:
        typer.echo(f"cannot upgrade {database_url!r}: {str(error).splitlines()[0]}", err=True)
        raise typer.Exit(1) from None
    if before == after:
        typer.echo(f"The schema is up to date (revision {after}).")
    else:
        typer.echo(f"Upgraded the schema from revision {before or 'none'} to {after} "
                   f"(the newest is {head()}).")
