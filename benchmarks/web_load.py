"""Load benchmark of the web table: many concurrent Liar's Dice tables of scripted
WebSocket players on 127.0.0.1.

It starts its own server (``tavern serve`` in a child process, on a free port and
a throw-away SQLite file), then for each player count (default 100, 250 and 500)
creates tables of ``--table-size`` people plus a watching host, lets every player
act as soon as it is its turn (after ``--think-ms``), and measures for
``--duration`` seconds:

* action round trip: from sending a ``wager``/``accuse`` frame to its ``ack``
  (the server has applied it, stored it and queued every seat's ``state``);
* actions per second over all tables;
* server CPU seconds used (from ``/proc``) during the measured window.

Bounded: at most ``--max-players`` players, every level stops after its duration,
and the whole run after ``--timeout`` seconds; the server is stopped at the end.

    .venv/bin/python benchmarks/web_load.py                       # 100, 250, 500 players
    .venv/bin/python benchmarks/web_load.py --players 500 --think-ms 250
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
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


async def start_server(port: int, database: Path) -> subprocess.Popen[str]:
    command = [sys.executable, "-c", "from tavern_dice.cli import main; main()", "serve",
               "--host", HOST, "--port", str(port), "--database-url", f"sqlite:///{database}",
               # Every table comes from this one address: lift the per-client cap.
               "--tables-per-client", "1000000", "--max-open-tables", "1000000"]
    # The server's output goes to a file: a pipe nobody reads would fill up and stall it.
    log = (database.parent / "server.log").open("w")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, text=True)
    async with httpx.AsyncClient() as http:
        for _ in range(300):
            with contextlib.suppress(httpx.TransportError):
                if (await http.get(f"http://{HOST}:{port}/api/health")).status_code == 200:
                    return process
            if process.poll() is not None:
                raise RuntimeError("the server exited: "
                                   + (database.parent / "server.log").read_text()[-2000:])
            await asyncio.sleep(0.05)
    process.terminate()
    raise RuntimeError("the server did not answer within 15 s")


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

    async def run(self) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for text in self.ws:
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
                frame = json.loads(text)
                game = frame.get("game") if frame["type"] == "state" else None
                if game and game["status"] == "over" and game["game_id"] not in self.over_seen:
                    self.over_seen.add(game["game_id"])
                    self.stats.games_finished += int(self.stats.measuring)
                    await self.ws.send(json.dumps({"type": "start"}))


async def connect(port: int, table_id: str, token: str) -> Any:
    ws = await websockets.connect(f"ws://{HOST}:{port}/ws/{table_id}", max_size=None,
                                  compression=None)
    await ws.send(json.dumps({"type": "hello", "token": token}))
    welcome = json.loads(await ws.recv())
    if welcome["type"] != "welcome":
        raise RuntimeError(f"hello refused: {welcome}")
    return ws


async def run_level(port: int, players: int, table_size: int, duration_s: float,
                    think_s: float, seed: int, server_pid: int) -> dict[str, float]:
    stats = Stats()
    rng = random.Random(seed)
    tables = max(1, players // table_size)
    sockets: list[Any] = []
    tasks: list[asyncio.Task[None]] = []
    hosts: list[tuple[Any, str]] = []
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=30) as http:
        for t in range(tables):
            created = (await http.post("/api/tables", json={
                "game": "liars-dice", "name": f"load {players}/{t}",
                "options": {"bot_delay_ms": 0, "grace_s": 3600},
            })).json()
            table_id = created["table_id"]
            tokens = []
            for p in range(table_size):
                joined = (await http.post(f"/api/tables/{table_id}/join",
                                          json={"name": f"P{t}-{p}"})).json()
                tokens.append(joined["seat_token"])
            for token in tokens:
                ws = await connect(port, table_id, token)
                sockets.append(ws)
                player = Player(ws, stats, think_s, random.Random(rng.random()))
                tasks.append(asyncio.ensure_future(player.run()))
            host_ws = await connect(port, table_id, created["host_token"])
            sockets.append(host_ws)
            hosts.append((host_ws, table_id))
            tasks.append(asyncio.ensure_future(Host(host_ws, stats).run()))
    for host_ws, _ in hosts:
        await host_ws.send(json.dumps({"type": "start"}))
    await asyncio.sleep(1.0)  # warm up: every table is past its first moves
    cpu0, t0 = cpu_seconds(server_pid), time.perf_counter()
    stats.measuring = True
    await asyncio.sleep(duration_s)
    stats.measuring = False
    elapsed, cpu = time.perf_counter() - t0, cpu_seconds(server_pid) - cpu0
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
            "games": stats.games_finished, "server_cpu": cpu / elapsed}


async def main_async(args: argparse.Namespace) -> int:
    levels = [int(x) for x in args.players.split(",")]
    if any(not 1 <= n <= args.max_players for n in levels):
        raise SystemExit(f"player counts are 1-{args.max_players}")
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = await start_server(port, Path(tmp) / "load.sqlite3")
        try:
            print(f"server pid {server.pid} on {HOST}:{port}; tables of {args.table_size} "
                  f"players + 1 host; think {args.think_ms} ms; {args.duration:.0f} s per level")
            print(f"{'players':>7} {'tables':>6} {'actions':>8} {'act/s':>8} {'median':>8} "
                  f"{'p99':>8} {'max':>8} {'errors':>6} {'games':>5} {'srv CPU':>7}")
            for n in levels:
                r = await run_level(port, n, args.table_size, args.duration,
                                    args.think_ms / 1000, args.seed + n, server.pid)
                if not r["actions"]:
                    print(f"{n:>7} no actions measured")
                    continue
                print(f"{r['players']:>7.0f} {r['tables']:>6.0f} {r['actions']:>8.0f} "
                      f"{r['actions_per_s']:>8.1f} {r['median_ms']:>6.1f}ms {r['p99_ms']:>6.1f}ms "
                      f"{r['max_ms']:>6.1f}ms {r['errors']:>6.0f} {r['games']:>5.0f} "
                      f"{r['server_cpu'] * 100:>6.0f}%", flush=True)
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", default="100,250,500",
                        help="comma-separated concurrent player counts (default 100,250,500)")
    parser.add_argument("--table-size", type=int, default=5, help="people per table (2-10)")
    parser.add_argument("--duration", type=float, default=10.0,
                        help="seconds measured per level (default 10)")
    parser.add_argument("--think-ms", type=int, default=0,
                        help="a player's pause before acting (default 0: as fast as possible)")
    parser.add_argument("--max-players", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="hard limit on the whole run, seconds")
    parser.add_argument("--seed", type=int, default=1)
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
