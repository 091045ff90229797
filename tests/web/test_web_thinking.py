"""A bot that takes more than 0.3 s to decide is shown thinking on its seat: the server
sends a ``thinking`` frame naming the seat, once, and only after 0.3 s; a quick bot never
causes one; and a mark whose bot then decides not to move is taken off again."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, ClassVar

import pytest
from web_support import WsClient, create_table, join, live_server, play_liars_dice_person

from tavern_dice.bots.liars_random import RandomLiarsDiceBot
from tavern_dice.bots.registry import LIARS_DICE_BOTS
from tavern_dice.web import schedule

SLOW_S = 0.5
"""How long the sleepy bot thinks: well past the 0.3 s after which the table is told."""


class SleepyBot(RandomLiarsDiceBot):
    """A random bot that thinks :data:`SLOW_S` over its first wager, or over every
    out-of-turn call it is asked about (and then never calls)."""

    def __init__(self, name: str = "sleepy", seed: int | None = None, *,
                 slow_calls: bool = False) -> None:
        super().__init__(name, seed, out_of_turn_probability=0.0)
        self.slow_calls = slow_calls
        self.wagers = 0

    def choose_action(self, view: Any) -> Any:
        self.wagers += 1
        if self.wagers == 1 and not self.slow_calls:
            time.sleep(SLOW_S)
        return super().choose_action(view)

    def wants_to_accuse(self, view: Any) -> bool:
        if self.slow_calls:
            time.sleep(SLOW_S)
        return False


class Recorded(schedule.Thinking):
    """The scheduler's thinking mark, noting when each step began and what it sent."""

    began: ClassVar[list[float]] = []
    sent: ClassVar[list[tuple[float, list[int]]]] = []

    def __init__(self, *args: Any) -> None:
        Recorded.began.append(time.monotonic())
        super().__init__(*args)
        send = self._send

        def noting(seats: list[int]) -> None:
            Recorded.sent.append((time.monotonic() - Recorded.began[-1], seats))
            send(seats)

        self._send = noting


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> type[Recorded]:
    Recorded.began, Recorded.sent = [], []
    monkeypatch.setattr(schedule, "Thinking", Recorded)
    monkeypatch.setitem(LIARS_DICE_BOTS, "sleepy", SleepyBot)
    monkeypatch.setitem(LIARS_DICE_BOTS, "sleepy-caller",
                        lambda **kw: SleepyBot(**kw, slow_calls=True))
    return Recorded


def over(frame: dict[str, Any]) -> bool:
    return frame["type"] == "state" and (frame["game"] or {}).get("status") == "over"


def thinking(client: WsClient) -> list[dict[str, Any]]:
    return [f for f in client.frames if f["type"] == "thinking"]


async def bots_table(server: Any, kinds: tuple[str, ...]) -> tuple[str, WsClient]:
    table = await create_table(server, "liars-dice", options={"bot_delay_ms": 0},
                               rules={"dice_per_player": 2})
    tid = table["table_id"]
    host = await server.connect(tid, table["host_token"], "host")
    for kind in kinds:
        assert (await host.request({"type": "add_bot", "kind": kind}))["type"] == "ack"
    return tid, host


@pytest.mark.asyncio
async def test_web_a_slow_bot_is_shown_thinking_once_after_0_3_s(
        tmp_path: Path, recorded: type[Recorded]) -> None:
    async with live_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as server:
        _, host = await bots_table(server, ("sleepy", "random"))
        assert (await host.request({"type": "start"}))["type"] == "ack"
        frame = await host.wait_for(lambda f: f["type"] == "thinking", timeout=30)
        seat = host.latest_state()["game"]["view"]["turn"]
        # Only the seat, nothing about dice; the sleepy bot's seat, on its turn.
        assert frame == {"type": "thinking", "seats": [seat]}
        assert host.latest_state()["game"]["seats"][seat]["name"] == "Sleepy Bot"
        # Sent once the step had run 0.3 s (the loop's timer), before the move it was for.
        assert len(recorded.sent) == 1
        after, seats = recorded.sent[0]
        assert seats == [seat]
        assert after >= schedule.THINKING_S, after
        # The move lands: its state frame (which takes the mark off) follows, and the
        # step sends nothing more.
        state = await host.wait_for(lambda f: f["type"] == "state")
        first = state["game"]["events"][0]
        assert (first["type"], first.get("seat", first.get("accuser"))) in (
            ("wager_made", seat), ("accused", seat))
        await host.wait_for(over, timeout=60)
        # The rest of the game's decisions were quick: that was the only mark.
        assert len(thinking(host)) == 1
        assert len(recorded.sent) == 1
        # At least two rounds (two dice each), a wager and an accusation in each.
        assert len(recorded.began) >= 4
        await host.close()


@pytest.mark.asyncio
async def test_web_quick_bots_are_never_shown_thinking(
        tmp_path: Path, recorded: type[Recorded]) -> None:
    async with live_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as server:
        _, host = await bots_table(server, ("random", "random", "random"))
        assert (await host.request({"type": "start"}))["type"] == "ack"
        await host.wait_for(over, timeout=60)
        # At least two rounds (two dice each), a wager and an accusation in each.
        assert len(recorded.began) >= 4  # every bot step ran, none past 0.3 s
        assert thinking(host) == []
        assert recorded.sent == []
        await host.close()


@pytest.mark.asyncio
async def test_web_a_bot_that_thinks_and_passes_takes_its_mark_off(
        tmp_path: Path, recorded: type[Recorded]) -> None:
    async with live_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as server:
        table = await create_table(server, "liars-dice", options={"bot_delay_ms": 0},
                                   rules={"dice_per_player": 2})
        tid = table["table_id"]
        ann, bo = await join(server, tid, "Ann"), await join(server, tid, "Bo")
        host = await server.connect(tid, table["host_token"], "host")
        assert (await host.request({"type": "add_bot", "kind": "sleepy-caller"}))["type"] \
            == "ack"
        people = [await server.connect(tid, x["seat_token"], n)
                  for n, x in (("ann", ann), ("bo", bo))]
        assert (await host.request({"type": "start"}))["type"] == "ack"
        done = False
        players = [asyncio.create_task(play_liars_dice_person(c, lambda: done, 10**6))
                   for c in people]
        # Ann wagers with Bo to act next: the bot (seat 2) is asked whether it calls her
        # wager out of turn, thinks, and does not: the game goes on waiting for Bo.
        shown = await host.wait_for(lambda f: f["type"] == "thinking", timeout=30)
        assert shown == {"type": "thinking", "seats": [2]}
        cleared = await host.wait_for(lambda f: f["type"] == "thinking")
        assert cleared == {"type": "thinking", "seats": []}
        assert [seats for _, seats in recorded.sent[:2]] == [[2], []]
        done = True
        for task in players:
            task.cancel()
        for client in [host, *people]:
            await client.close()
