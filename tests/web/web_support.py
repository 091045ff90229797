"""Helpers for the web table's tests: a live Uvicorn server on 127.0.0.1 (in the test's
own event loop) and WebSocket clients that record every frame they receive."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import uvicorn
import websockets

from tavern_dice.web.app import create_app

Frame = dict[str, Any]


def uvicorn_server(database_url: str, **app_options: Any) -> tuple[Any, uvicorn.Server]:
    """The app on ``database_url`` (``app_options`` go to ``create_app``, e.g. ``limits``)
    and a Uvicorn server for it on 127.0.0.1, port chosen by the OS (read it from
    ``server.servers`` once started), not yet running."""
    app = create_app(database_url, **app_options)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                            ws_max_size=64 * 1024, lifespan="on")
    return app, uvicorn.Server(config)


class Endpoint:
    """A server's address on 127.0.0.1, with HTTP and WebSocket clients for it."""

    port = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=self.http, timeout=10)

    async def connect(self, table_id: str, token: str | None, name: str = "") -> WsClient:
        ws = await websockets.connect(f"ws://127.0.0.1:{self.port}/ws/{table_id}",
                                      max_size=None)
        client = WsClient(ws, name)
        await client.send({"type": "hello", "token": token})
        welcome = await client.wait_for(lambda f: f["type"] in ("welcome", "error"))
        assert welcome["type"] == "welcome", welcome
        await client.wait_for(lambda f: f["type"] == "state")
        return client


class LiveServer(Endpoint):
    """The app on Uvicorn, port chosen by the OS, serving until :meth:`stop`."""

    def __init__(self, database_url: str, **app_options: Any) -> None:
        self.app, self.server = uvicorn_server(database_url, **app_options)
        self.task: asyncio.Task[None] | None = None
        self.port = 0

    async def start(self) -> LiveServer:
        self.task = asyncio.get_running_loop().create_task(self.server.serve())
        for _ in range(500):
            if self.server.started:
                break
            if self.task.done():
                self.task.result()
            await asyncio.sleep(0.01)
        assert self.server.started, "the server did not start"
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        return self

    async def stop(self) -> None:
        self.server.should_exit = True
        if self.task is not None:
            await asyncio.wait_for(self.task, 10)

    @property
    def manager(self) -> Any:
        return self.app.state.manager


@contextlib.asynccontextmanager
async def live_server(database_url: str, **app_options: Any) -> AsyncIterator[LiveServer]:
    server = await LiveServer(database_url, **app_options).start()
    try:
        yield server
    finally:
        await server.stop()


class WsClient:
    """One browser-like connection: every frame it receives is kept in :attr:`frames`."""

    def __init__(self, ws: Any, name: str) -> None:
        self.ws = ws
        self.name = name
        self.frames: list[Frame] = []
        self._cursor = 0
        self._arrived = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())
        self._next_id = 0
        self.closed = False

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.frames.append(json.loads(text))
                self._arrived.set()
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True
            self._arrived.set()

    async def send(self, frame: Frame) -> None:
        await self.ws.send(json.dumps(frame))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def wait_for(self, predicate: Callable[[Frame], bool], timeout: float = 10) -> Frame:
        """The next frame (after those already waited past) that matches ``predicate``."""
        frame, index = await self._scan(predicate, self._cursor, timeout)
        self._cursor = index + 1
        return frame

    async def _scan(self, predicate: Callable[[Frame], bool], start: int,
                    timeout: float) -> tuple[Frame, int]:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        index = start
        while True:
            while index < len(self.frames):
                if predicate(self.frames[index]):
                    return self.frames[index], index
                index += 1
            if self.closed:
                raise AssertionError(f"{self.name}: connection closed while waiting")
            self._arrived.clear()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise AssertionError(f"{self.name}: no matching frame within {timeout} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), remaining)

    async def request(self, frame: Frame, timeout: float = 10) -> Frame:
        """Send ``frame`` with a fresh id; return its ``ack`` or ``error`` (frames in
        between stay unread for :meth:`wait_for`)."""
        self._next_id += 1
        ref = f"{self.name}-{self._next_id}"
        start = len(self.frames)
        await self.send({**frame, "id": ref})
        found, _ = await self._scan(
            lambda f: f["type"] in ("ack", "error", "pong") and f.get("ref") == ref, start, timeout
        )
        return found

    def latest_state(self) -> Frame:
        return next(f for f in reversed(self.frames) if f["type"] == "state")

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._reader, 5)


async def create_table(server: Endpoint, game: str, **body: Any) -> dict[str, Any]:
    async with server.client() as http:
        response = await http.post("/api/tables", json={"game": game, **body})
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        return created


async def join(server: Endpoint, table_id: str, name: str,
               proficiency: int | None = None) -> dict[str, Any]:
    async with server.client() as http:
        body: dict[str, Any] = {"name": name}
        if proficiency is not None:
            body["proficiency"] = proficiency
        response = await http.post(f"/api/tables/{table_id}/join", json=body)
        assert response.status_code == 201, response.text
        joined: dict[str, Any] = response.json()
        return joined


def game_of(frame: Frame) -> Frame | None:
    game: Frame | None = frame.get("game")
    return game


async def play_liars_dice_person(client: WsClient, stop: Callable[[], bool],
                                 accuse_every: int = 3) -> None:
    """Play a seat from its ``state`` frames until the game is over (or ``stop()``):
    the lowest legal wager, accusing on every ``accuse_every``-th turn when allowed."""
    turns = 0
    handled: set[tuple[int, int]] = set()
    while not stop():
        frame = client.latest_state()
        game = game_of(frame)
        if game is not None and game["status"] != "playing":
            return
        if game is not None:
            view = game["view"]
            key = (game["events_from"] + len(game["events"]), view["round"])
            if view["turn"] == frame["you"]["seat"] and key not in handled:
                handled.add(key)
                turns += 1
                if view["may_accuse"] and (turns % accuse_every == 0
                                           or not view["legal_wagers"]):
                    await client.send({"type": "accuse", "id": f"t{turns}"})
                elif view["legal_wagers"]:
                    await client.send({"type": "wager", "wager": view["legal_wagers"][0],
                                       "id": f"t{turns}"})
        await client.wait_for(lambda f: f["type"] == "state", timeout=30)
