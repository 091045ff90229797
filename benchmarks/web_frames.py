"""What a change at a web table costs in ``state`` frames: every connection's frame built
and encoded (:class:`tavern_dice.web.frames.Frames`), as a table does on each change
(``Table.broadcast``).

A Liar's Dice game a few wagers in, with every seat a person who is online and some
spectators; each change rebuilds the frames of all connections (no new log entries, as
after a wager they have already been sent). Prints the milliseconds per change.

    .venv/bin/python benchmarks/web_frames.py
    .venv/bin/python benchmarks/web_frames.py --players 10 --spectators 50
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.web.frames import Frames
from tavern_dice.web.journal import GameSession


class _Connection:
    def __init__(self, role: str, player_id: str | None) -> None:
        self.role, self.player_id = role, player_id
        self.sent_game: str | None = None
        self.sent_events = 0

    def send_text(self, text: str) -> None:
        pass

    def close_soon(self, code: int, reason: str) -> None:
        pass


def per_change_ms(players: int, spectators: int, changes: int) -> tuple[float, int]:
    """Milliseconds to build every connection's frame once, and the bytes sent."""
    engine = LiarsDiceGame([f"P{i}" for i in range(players)], dice=SeededDice(1))
    for _ in range(players):
        engine.wager(engine.legal_wagers()[0])
    seats = [f"p{i}" for i in range(players)]
    s = GameSession("g_bench", "liars-dice", engine, seats, "playing", persisted=0)
    summary: dict[str, Any] = {
        "table_id": "t_bench", "name": "Bench", "game": "liars-dice", "status": "playing",
        "rules": engine.rules.to_dict(), "options": {"grace_s": 30, "turn_timer_s": 0},
        "join_url": "/t/t_bench", "game_id": s.id,
        "seats": [{"player_id": pid, "name": pid, "kind": "person", "bot_kind": None,
                   "proficiency": None, "presence": "online"} for pid in seats],
        "balances": {pid: 1000 for pid in seats},
    }

    def shared(s: GameSession) -> dict[str, Any]:
        return {"game_id": s.id, "game": s.kind, "status": s.status,
                "seats": [{"seat": i, "player_id": pid} for i, pid in enumerate(seats)],
                "commitments": None, "proofs": None, "dice_checks": None, "timer": None,
                "pending_roll": None, "notice": None}

    frames = Frames(lambda: summary, shared)
    connections = [_Connection("player", pid) for pid in seats]
    connections += [_Connection("spectator", None) for _ in range(spectators)]
    for conn in connections:  # the first frames carry the whole log
        frames.state_text(s, conn)
    sent = 0
    start = time.perf_counter()
    for _ in range(changes):
        frames.changed()
        sent = sum(len(frames.state_text(s, conn)) for conn in connections)
    return (time.perf_counter() - start) / changes * 1000, sent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, nargs="*", default=[2, 6, 10])
    parser.add_argument("--spectators", type=int, default=20)
    parser.add_argument("--changes", type=int, default=300)
    args = parser.parse_args()
    for players in args.players:
        ms, sent = per_change_ms(players, args.spectators, args.changes)
        print(f"{players:>2} players + {args.spectators} spectators: {ms:.3f} ms per change "
              f"({sent / 1024:.1f} KiB of frames)")


if __name__ == "__main__":
    main()
