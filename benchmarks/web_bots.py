"""Memory of a web server whose tables are played by bots: ``--tables`` heads-up Liar's Dice
tables at once, each ``strong`` against ``trusting`` (5 dice each, the seed's rules), on one
``tavern serve`` process with a throw-away SQLite file.

For each version it starts a fresh server, creates the tables, has each table's DM seat the
two bots and start one game, waits until every game is over, and prints the games played,
the wall time, the server's CPU time and its peak resident memory (``VmHWM`` from
``/proc``): what a host pays to run that many bot tables at once. The server's leaf-value
cache folder (``TAVERN_DICE_CACHE_DIR``) is a fresh, empty one (``--cache cold``, a
machine's first games) or one filled by a first, unmeasured server on the same tables
(``--cache warm``).

``--old REF`` runs the same first on a ``git worktree`` of ``REF`` (its ``src`` first on
``PYTHONPATH``), side by side in one run.

    .venv/bin/python benchmarks/web_bots.py [--tables 20] [--old REF] [--cache cold|warm]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import (  # the benchmark next door: its server and sockets
    HOST,
    Version,
    connect,
    free_port,
    old_worktree,
    start_server,
    tree_cpu_seconds,
)


def peak_rss_mb(pid: int) -> float:
    """The process's peak resident set (``VmHWM``), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def play_table(http: httpx.AsyncClient, port: int, t: int) -> None:
    """One table: created, the DM seats ``strong`` and ``trusting`` and starts a game;
    returns when it is over."""
    created = (await http.post("/api/tables", json={
        "game": "liars-dice", "name": f"bots {t}", "options": {"bot_delay_ms": 0},
    })).json()
    ws = await connect(port, created["table_id"], created["host_token"])
    try:
        for kind in ("strong", "trusting"):
            await ws.send(json.dumps({"type": "add_bot", "kind": kind}))
        await ws.send(json.dumps({"type": "start"}))
        async for text in ws:
            if '"status":"over"' in text:
                frame = json.loads(text)
                game = frame.get("game") if frame["type"] == "state" else None
                if game and game["status"] == "over":
                    return
            elif '"type":"error"' in text:
                raise RuntimeError(f"table {t}: {text}")
    finally:
        await ws.close()


async def serve_and_play(version: Version, tables: int, cache: str, folder: Path,
                         ) -> dict[str, float]:
    port = free_port()
    url = f"sqlite:///{folder / f'bots-{port}.sqlite3'}"
    os.environ["TAVERN_DICE_CACHE_DIR"] = cache  # the server inherits it
    server = await start_server(port, url, folder, 1, version)
    try:
        cpu0, start = tree_cpu_seconds(server.pid), time.perf_counter()
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=600) as http:
            await asyncio.gather(*(play_table(http, port, t) for t in range(tables)))
        return {"games": tables, "wall_s": time.perf_counter() - start,
                "cpu_s": tree_cpu_seconds(server.pid) - cpu0,
                "peak_mb": peak_rss_mb(server.pid)}
    finally:
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(timeout=30)


async def main_async(args: argparse.Namespace) -> None:
    versions = [Version("")]
    with old_worktree(args.old) as old_tree, tempfile.TemporaryDirectory() as tmp:
        if old_tree is not None:
            versions.insert(0, Version(f"old {args.old} ", old_tree / "src"))
        print(f"{args.tables} heads-up tables at once, strong v trusting, one server process "
              f"(SQLite), leaf-value cache {args.cache}", flush=True)
        for n, version in enumerate(versions):
            cache = Path(tmp) / f"cache-{n}"
            cache.mkdir()
            if args.cache == "warm":
                await serve_and_play(version, args.tables, str(cache), Path(tmp))
            r = await serve_and_play(version, args.tables, str(cache), Path(tmp))
            print(f"  {(version.label or 'new').strip():<14} {r['games']:.0f} games in "
                  f"{r['wall_s']:6.1f} s | server CPU {r['cpu_s']:6.1f} s | "
                  f"peak RSS {r['peak_mb']:6.0f} MB", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20, help="bot tables at once")
    parser.add_argument("--old", default=None, help="git commit to compare against")
    parser.add_argument("--cache", choices=("cold", "warm"), default="cold",
                        help="the leaf-value cache: empty (cold) or filled by a first run")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
