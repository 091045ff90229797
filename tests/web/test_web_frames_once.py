"""One change at a table builds each distinct part of its ``state`` frames once, however
many connections read them (``Table.broadcast``: ``Frames.changed``, then every
listener's ``state_text``)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.web import frames as frames_module
from tavern_dice.web.frames import Frames
from tavern_dice.web.journal import GameSession


class _Conn:
    def __init__(self, role: str, player_id: str | None) -> None:
        self.role, self.player_id = role, player_id
        self.sent_game: str | None = None
        self.sent_events = 0

    def send_text(self, text: str) -> None:
        raise AssertionError("not sent here")

    def close_soon(self, code: int, reason: str) -> None:
        raise AssertionError("not closed here")


def test_web_one_action_at_a_6_player_table_builds_each_distinct_frame_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    seats = [f"p{i}" for i in range(6)]
    engine = LiarsDiceGame([f"P{i}" for i in range(6)], dice=SeededDice(3))
    s = GameSession("g_1", "liars-dice", engine, seats, "playing", persisted=0)
    built: Counter[Any] = Counter()

    def summary() -> dict[str, Any]:
        built["summary"] += 1
        return {"table_id": "t_1", "seats": seats}

    def shared(s: GameSession) -> dict[str, Any]:
        built["shared"] += 1
        return {"game_id": s.id, "status": s.status}

    real_view = engine.view

    def view(seat: int | None) -> Any:
        built["view", seat] += 1
        return real_view(seat)

    monkeypatch.setattr(engine, "view", view)
    real_encode = frames_module.encode

    def encode(value: Any) -> str:
        built["encode"] += 1
        return real_encode(value)

    monkeypatch.setattr(frames_module, "encode", encode)
    frames = Frames(summary, shared)
    # Every seat online, seat 0 in two tabs, the DM and three spectators.
    conns = [_Conn("player", pid) for pid in seats] + [_Conn("player", "p0")]
    conns += [_Conn("host", None)] + [_Conn("spectator", None) for _ in range(3)]
    for conn in conns:  # everyone has had the log so far
        frames.state_text(s, conn)

    engine.apply(engine.turn, engine.legal_actions()[0])
    built.clear()
    frames.changed()
    texts = [frames.state_text(s, conn) for conn in conns]

    # The table summary and the shared parts of the game: once each.
    assert built["summary"] == 1 and built["shared"] == 1
    # One view per seat, and one for the DM and the spectators together.
    assert {key: n for key, n in built.items() if key[0] == "view"} == {
        ("view", seat): 1 for seat in [*range(6), None]}
    # One frame per distinct reader: six seats, the DM, the spectators. A second tab of
    # a seat and every spectator get the very same text.
    assert len({id(text) for text in texts}) == 8
    assert texts[6] is texts[0] and texts[8] is texts[9] is texts[10]
    # Encoded once each: the summary, the shared parts, what each of the 7 views has of
    # its own, what every view shows alike, and the new wager (a public event, for
    # everyone alike); the 8 readers' "you" were encoded with their first frames.
    assert built["encode"] == 1 + 1 + 7 + 1 + 1
    frame = json.loads(texts[0])
    assert frame["you"] == {"role": "player", "player_id": "p0", "seat": 0}
    assert frame["table"] == {"table_id": "t_1", "seats": seats}
    assert [e["type"] for e in frame["game"]["events"]] == ["wager_made"]
    assert frame["game"]["view"]["own_dice"] == list(engine.hands[0])
    assert frame["game"]["status"] == "playing"
    # Another seat's frame shows that seat's own dice, not seat 0's.
    assert json.loads(texts[1])["game"]["view"]["own_dice"] == list(engine.hands[1])
    # Each reader's view, joined from its parts, is the whole view of its seat.
    for conn, text in zip(conns, texts, strict=True):
        seat = None if conn.player_id is None else seats.index(conn.player_id)
        assert json.loads(text)["game"]["view"] == json.loads(
            json.dumps(engine.view(seat).to_dict(include_log=False)))
