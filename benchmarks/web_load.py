"""Load benchmark of the web table: many concurrent Liar's Dice tables of scripted
WebSocket players on 127.0.0.1.

For each set-up, think time and player count it starts fresh servers on a fresh
database, creates tables of ``--table-size`` people plus a watching host, lets every
player act as soon as it is its turn (after the think time), and measures for
``--duration`` seconds:

* action round trip: from sending a ``wager``/``accuse`` frame to its ``ack`` (the
  server has applied it, stored it durably and queued every seat's ``state``);
  median (p50), 99th percentile and the largest;
* actions per second over all tables;
* CPU used by the server processes (all workers) and by the database server, and the
  server's CPU per acknowledged action (``server CPU per action: N µs``: the server
  processes' CPU time divided by the actions acknowledged meanwhile), beside the load
  generator's own CPU (it shares the machine with the servers).

Set-ups (``--setups``):

* ``sqlite``: one ``tavern serve`` process on a throw-away SQLite file;
* ``postgres``: ``tavern serve --workers 2`` (two processes sharing the port; a
  connection lands on either, and is forwarded to the table's owner if need be) on a
  throw-away PostgreSQL cluster started here (``initdb``/``pg_ctl``, durable settings:
  ``fsync`` and ``synchronous_commit`` on).

Bounded: at most ``--max-players`` players, every level stops after its duration, and
the whole run after ``--timeout`` seconds; servers and cluster are stopped at the end.
The load generator runs on the same machine and takes CPU from the servers.

``--old REF`` measures a second version side by side: a ``git worktree`` of ``REF`` is
checked out in a temporary folder, and at every level its servers (the same Python and
packages, its own ``src`` first on ``PYTHONPATH``) take the same load right after this
tree's, on a fresh database each (``--repeat N``: N times over, in turn, as the machine's
other load comes and goes). ``--profile FILE`` runs this tree's server under cProfile
(one process: the ``sqlite`` set-up) and writes its statistics to ``FILE`` when the server
stops (``python -m pstats`` reads them), to see where a server's time goes flat out.
``--deflate``: the players' sockets offer permessage-deflate, as browsers do (this tree's
server compresses only if told to: ``--server-args=--ws-compression``).

    .venv/bin/python benchmarks/web_load.py            # both set-ups, 500/1000/2000, 500/0 ms
    .venv/bin/python benchmarks/web_load.py --setups sqlite --players 500 --think-ms 0
    .venv/bin/python benchmarks/web_load.py --setups sqlite --players 500 --think-ms 0 --old main
    .venv/bin/python benchmarks/web_load.py --setups sqlite --players 500 --think-ms 0 \
        --deflate --old main
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shlex
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

HOST = "127.0.0.1"
ROOT = Path(__file__).resolve().parent.parent

PROFILED = """
import cProfile, signal, sys
out = sys.argv.pop(1)
# uvicorn raises the SIGTERM it caught again once it has shut down: exit, do not die.
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
from tavern_dice.cli import main
profiler = cProfile.Profile()
profiler.enable()
try:
    main()
except SystemExit:
    pass
finally:
    profiler.disable()
    profiler.dump_stats(out)
"""
"""The server's command line under cProfile: the statistics file comes first."""


@dataclass(frozen=True)
class Version:
    """The code a server runs: this tree, or a worktree of another commit (``--old``)."""

    label: str
    src: Path | None = None
    """The worktree's ``src`` (first on ``PYTHONPATH``); ``None``: the installed package."""
    profile: str | None = None
    options: tuple[str, ...] = ()
    """More ``tavern serve`` options (``--server-args``)."""


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)
    errors: int = 0
    games_finished: int = 0
    measuring: bool = False

    def record(self, ms: float) -> None:
        if self.measuring:
            self.latencies_ms.append(ms)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process (Linux ``/proc``); 0 where unavailable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[11]) + int(fields[12])
        return ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of a process and its children (a supervisor's workers)."""
    import psutil

    try:
        parent = psutil.Process(pid)
        procs = [parent, *parent.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0.0
    for proc in procs:
        try:
            times = proc.cpu_times()
            total += times.user + times.system
        except psutil.Error:
            pass
    return total


def own_cpu_seconds() -> float:
    """CPU seconds of this process alone (the load generator, not the servers it started)."""
    times = os.times()
    return times.user + times.system


@dataclass
class Setup:
    """A running server (and database) to measure."""

    name: str
    port: int
    process: subprocess.Popen[str]
    database_pids: list[int] = field(default_factory=list)

    def server_cpu(self) -> float:
        return tree_cpu_seconds(self.process.pid)

    def database_cpu(self) -> float:
        return sum(tree_cpu_seconds(pid) for pid in self.database_pids)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()


async def start_server(port: int, url: str, folder: Path, workers: int,
                       version: Version) -> subprocess.Popen[str]:
    env = dict(os.environ)
    if version.src is not None:
        env["PYTHONPATH"] = os.pathsep.join(
            [str(version.src), *filter(None, [env.get("PYTHONPATH")])])
    launcher = ["-c", "from tavern_dice.cli import main; main()"]
    if version.profile is not None:
        launcher = ["-c", PROFILED, version.profile]
    command = [sys.executable, *launcher, "serve",
               "--host", HOST, "--port", str(port), "--database-url", url,
               "--workers", str(workers),
               # Every table comes from this one address: lift the per-client cap.
               "--tables-per-client", "1000000", "--max-open-tables", "1000000",
               *version.options]
    # The server's output goes to a file: a pipe nobody reads would fill up and stall it.
    log_path = folder / f"server-{port}.log"
    log = log_path.open("w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, text=True,
                               env=env)
    async with httpx.AsyncClient() as http:
        for _ in range(600):
            with contextlib.suppress(httpx.TransportError):
                if (await http.get(f"http://{HOST}:{port}/healthz")).status_code == 200:
                    return process
            if process.poll() is not None:
                raise RuntimeError("the server exited: " + log_path.read_text()[-2000:])
            await asyncio.sleep(0.05)
    process.terminate()
    raise RuntimeError("the server did not answer within 30 s")


async def start_setup(name: str, folder: Path, level: str, cluster: Any,
                      version: Version) -> Setup:
    """Fresh servers on a fresh database for one level (earlier levels' tables would
    otherwise stay in memory)."""
    port = free_port()
    if name == "sqlite":
        url = f"sqlite:///{folder / f'load-{level}.sqlite3'}"
        process = await start_server(port, url, folder, 1, version)
        return Setup(f"{version.label}1 process, SQLite", port, process)
    url = cluster.create_database(f"load_{level}")
    process = await start_server(port, url, folder, 2, version)
    postmaster = int((cluster.root / "data" / "postmaster.pid").read_text().split()[0])
    return Setup(f"{version.label}2 processes, PostgreSQL", port, process, [postmaster])


class Player:
    """A scripted person: on its turn, accuse now and then, otherwise the lowest legal wager."""

    def __init__(self, ws: Any, stats: Stats, think_s: float, rng: random.Random) -> None:
        self.ws = ws
        self.stats = stats
        self.think_s = think_s
        self.rng = rng
        self.pending: dict[str, float] = {}
        self.handled: tuple[str, int] | None = None
        self.count = 0
        self.sending: set[asyncio.Future[None]] = set()
        self.marker: str | None = None
        """``"turn":SEAT`` once the seat is known: a state frame without it is not this
        player's turn and is not parsed (the load generator shares the servers' CPUs)."""

    async def run(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.ws:
                if self.marker is not None and text.startswith('{"type":"state"') \
                        and self.marker not in text:
                    continue
                frame = json.loads(text)
                kind = frame["type"]
                if kind == "ack" or kind == "error":
                    sent = self.pending.pop(frame.get("ref"), None)
                    if sent is not None:
                        self.stats.record((time.perf_counter() - sent) * 1000)
                    if kind == "error":
                        self.stats.errors += int(self.stats.measuring)
                elif kind == "state":
                    self.on_state(frame)

    def on_state(self, frame: dict[str, Any]) -> None:
        if self.marker is None and frame["you"]["seat"] is not None:
            self.marker = f'"turn":{frame["you"]["seat"]}'
        game = frame.get("game")
        if not game or game["status"] != "playing":
            return
        view = game["view"]
        if view["turn"] is None or view["turn"] != frame["you"]["seat"]:
            return
        key = (game["game_id"], game["events_from"] + len(game["events"]))
        if key == self.handled:
            return
        self.handled = key
        if view["may_accuse"] and (not view["legal_wagers"] or self.rng.random() < 0.3):
            action: dict[str, Any] = {"type": "accuse"}
        else:
            action = {"type": "wager", "wager": view["legal_wagers"][0]}
        if self.think_s:
            asyncio.get_running_loop().call_later(self.think_s, self.spawn_send, action)
        else:
            self.spawn_send(action)

    def spawn_send(self, action: dict[str, Any]) -> None:
        task = asyncio.ensure_future(self.send(action))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def send(self, action: dict[str, Any]) -> None:
        self.count += 1
        ref = str(self.count)
        self.pending[ref] = time.perf_counter()
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(json.dumps({**action, "id": ref}))


class Host:
    """The DM of one table: starts a new game whenever the last one is over."""

    def __init__(self, ws: Any, stats: Stats) -> None:
        self.ws = ws
        self.stats = stats
        self.over_seen: set[str] = set()

    async def run(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.ws:
                if '"status":"over"' not in text:
                    continue
                frame = json.loads(text)
                game = frame.get("game") if frame["type"] == "state" else None
                if game and game["status"] == "over" and game["game_id"] not in self.over_seen:
                    self.over_seen.add(game["game_id"])
                    self.stats.games_finished += int(self.stats.measuring)
                    await self.ws.send(json.dumps({"type": "start"}))


async def connect(port: int, table_id: str, token: str, deflate: bool = False) -> Any:
    """A player's socket, ``hello`` sent and answered; ``deflate``: it offers
    permessage-deflate, as browsers do (the server uses it if it is allowed to)."""
    ws = await websockets.connect(f"ws://{HOST}:{port}/ws/{table_id}", max_size=None,
                                  compression="deflate" if deflate else None)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    welcome = json.loads(await ws.recv())
    if welcome["type"] != "welcome":
        raise RuntimeError(f"hello refused: {welcome}")
    return ws


async def seat_table(http: httpx.AsyncClient, port: int, players: int, t: int,
                     table_size: int, stats: Stats, rng: random.Random, think_s: float,
                     deflate: bool = False
                     ) -> tuple[list[Any], list[asyncio.Future[None]], Any]:
    """One table: created, its people joined and connected, its host connected."""
    created = (await http.post("/api/tables", json={
        "game": "liars-dice", "name": f"load {players}/{t}",
        "options": {"bot_delay_ms": 0, "grace_s": 3600},
    })).json()
    table_id = created["table_id"]
    sockets: list[Any] = []
    tasks: list[asyncio.Future[None]] = []
    for p in range(table_size):
        joined = (await http.post(f"/api/tables/{table_id}/join",
                                  json={"name": f"P{t}-{p}"})).json()
        ws = await connect(port, table_id, joined["seat_token"], deflate)
        sockets.append(ws)
        player = Player(ws, stats, think_s, random.Random(rng.random()))
        tasks.append(asyncio.ensure_future(player.run()))
    host_ws = await connect(port, table_id, created["host_token"], deflate)
    sockets.append(host_ws)
    tasks.append(asyncio.ensure_future(Host(host_ws, stats).run()))
    return sockets, tasks, host_ws


async def run_level(setup: Setup, players: int, table_size: int, duration_s: float,
                    think_s: float, seed: int, deflate: bool = False) -> dict[str, float]:
    stats = Stats()
    rng = random.Random(seed)
    tables = max(1, players // table_size)
    sockets: list[Any] = []
    tasks: list[asyncio.Future[None]] = []
    hosts: list[Any] = []
    gate = asyncio.Semaphore(16)  # tables set up at once

    async def one(http: httpx.AsyncClient, t: int) -> None:
        async with gate:
            got = await seat_table(http, setup.port, players, t, table_size, stats,
                                   random.Random(rng.random()), think_s, deflate)
        sockets.extend(got[0])
        tasks.extend(got[1])
        hosts.append(got[2])

    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{setup.port}", timeout=60,
                                 limits=limits) as http:
        await asyncio.gather(*(one(http, t) for t in range(tables)))
    for host_ws in hosts:
        await host_ws.send(json.dumps({"type": "start"}))
    await asyncio.sleep(2.0)  # warm up: every table is past its first moves
    cpu0, db0, t0 = setup.server_cpu(), setup.database_cpu(), time.perf_counter()
    client0 = own_cpu_seconds()
    stats.measuring = True
    await asyncio.sleep(duration_s)
    stats.measuring = False
    elapsed = time.perf_counter() - t0
    cpu, db_cpu = setup.server_cpu() - cpu0, setup.database_cpu() - db0
    client_cpu = own_cpu_seconds() - client0
    for ws in sockets:
        with contextlib.suppress(Exception):
            await ws.close()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(stats.latencies_ms)
    if not lat:
        return {"players": players, "actions": 0}
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))]
    return {"players": tables * table_size, "tables": tables, "actions": len(lat),
            "actions_per_s": len(lat) / elapsed, "median_ms": statistics.median(lat),
            "p99_ms": p99, "max_ms": lat[-1], "errors": stats.errors,
            "games": stats.games_finished, "server_cpu": cpu / elapsed,
            "db_cpu": db_cpu / elapsed, "client_cpu": client_cpu / elapsed,
            "server_us_per_action": cpu / len(lat) * 1e6,
            "client_us_per_action": client_cpu / len(lat) * 1e6}


HEADER = (f"{'set-up':<30} {'think':>5} {'players':>7} {'actions':>8} {'act/s':>7} "
          f"{'p50':>8} {'p99':>8} {'max':>8} {'errors':>6} {'games':>5} {'server':>6} "
          f"{'db':>4} {'client':>6}")


def row(setup: str, think_ms: int, r: dict[str, float]) -> str:
    return (f"{setup:<30} {think_ms:>3}ms {r['players']:>7.0f} {r['actions']:>8.0f} "
            f"{r['actions_per_s']:>7.1f} {r['median_ms']:>6.1f}ms {r['p99_ms']:>6.1f}ms "
            f"{r['max_ms']:>6.0f}ms {r['errors']:>6.0f} {r['games']:>5.0f} "
            f"{r['server_cpu'] * 100:>5.0f}% {r['db_cpu'] * 100:>3.0f}% "
            f"{r['client_cpu'] * 100:>5.0f}%\n"
            f"{'':<30} server CPU per action: {r['server_us_per_action']:,.0f} µs; load "
            f"generator CPU per action: {r['client_us_per_action']:,.0f} µs")


async def measure(name: str, versions: list[Version], folder: Path, cluster: Any,
                  args: argparse.Namespace, think: int, n: int) -> None:
    """One level of one set-up, for each version in turn (``--repeat`` times over), each
    on a fresh database."""
    for k, version in enumerate(versions * args.repeat):
        level = f"{think}_{n}_{k}"
        setup = await start_setup(name, folder, level, cluster, version)
        try:
            r = await run_level(setup, n, args.table_size, args.duration, think / 1000,
                                args.seed + n, args.deflate)
        finally:
            setup.stop()
            if cluster is not None:
                cluster.drop_database(f"load_{level}")
        if not r["actions"]:
            print(f"{setup.name:<30} {think:>3}ms {n:>7} no actions measured")
            continue
        print(row(setup.name, think, r), flush=True)


@contextlib.contextmanager
def old_worktree(ref: str | None) -> Any:
    """A temporary ``git worktree`` of ``ref`` (removed afterwards), or ``None``."""
    if ref is None:
        yield None
        return
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), ref],
                       check=True, capture_output=True)
        try:
            yield tree
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                            str(tree)], check=False, capture_output=True)


async def main_async(args: argparse.Namespace) -> int:
    levels = [int(x) for x in args.players.split(",")]
    thinks = [int(x) for x in args.think_ms.split(",")]
    if any(not 1 <= n <= args.max_players for n in levels):
        raise SystemExit(f"player counts are 1-{args.max_players}")
    setups = args.setups.split(",")
    if any(name not in ("sqlite", "postgres") for name in setups):
        raise SystemExit("set-ups are sqlite and postgres")
    with old_worktree(args.old) as old:
        versions = [Version("new: " if old else "", profile=args.profile,
                            options=tuple(shlex.split(args.server_args)))]
        if old is not None:
            commit = subprocess.run(["git", "-C", str(old), "rev-parse", "--short", "HEAD"],
                                    check=True, capture_output=True, text=True).stdout.strip()
            print(f"old: {args.old} ({commit}); new: this tree")
            versions.append(Version("old: ", old / "src"))
        print(f"tables of {args.table_size} players + 1 host; {args.duration:.0f} s per level; "
              f"{os.cpu_count()} CPUs; CPU columns: share of one core")
        print(HEADER, flush=True)
        for name in setups:
            cluster = None
            if name == "postgres":
                from tavern_dice.web.pgcluster import Cluster

                # Durable settings: the figures include each commit's fsync, as in production.
                cluster = Cluster.start(settings=("shared_buffers=256MB",))
            try:
                with tempfile.TemporaryDirectory() as tmp:
                    for think in thinks:
                        for n in levels:
                            await measure(name, versions, Path(tmp), cluster, args, think, n)
            finally:
                if cluster is not None:
                    cluster.stop()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setups", default="sqlite,postgres",
                        help="comma-separated: sqlite (1 process), postgres (2 processes)")
    parser.add_argument("--players", default="500,1000,2000",
                        help="comma-separated concurrent player counts (default 500,1000,2000)")
    parser.add_argument("--think-ms", default="500,0",
                        help="comma-separated pauses before acting (default 500,0; "
                        "0: as fast as possible)")
    parser.add_argument("--table-size", type=int, default=5, help="people per table (2-10)")
    parser.add_argument("--duration", type=float, default=10.0,
                        help="seconds measured per level (default 10)")
    parser.add_argument("--max-players", type=int, default=2000)
    parser.add_argument("--timeout", type=float, default=1800.0,
                        help="hard limit on the whole run, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1,
                        help="measure each level this many times, the versions in turn")
    parser.add_argument("--old", metavar="REF",
                        help="also measure commit REF (a git worktree), side by side")
    parser.add_argument("--deflate", action="store_true",
                        help="players' sockets offer permessage-deflate, as browsers do")
    parser.add_argument("--server-args", default="", metavar="ARGS",
                        help="more `tavern serve` options for this tree's servers, "
                        "e.g. --server-args=--ws-compression")
    parser.add_argument("--profile", metavar="FILE",
                        help="run this tree's server under cProfile; statistics to FILE")
    args = parser.parse_args()
    if not 2 <= args.table_size <= 10:
        parser.error("--table-size is 2-10")
    try:
        import uvloop

        runner: Any = uvloop.run
    except ImportError:
        runner = asyncio.run
    try:
        result: int = runner(asyncio.wait_for(main_async(args), args.timeout))
        return result
    except TimeoutError:
        print(f"stopped after the {args.timeout:.0f} s limit", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
