"""No connection ever receives another seat's unrevealed dice.

A whole Liar's Dice game is played at a web table by two people (scripted
WebSocket clients) and two bots, watched by a spectator and the host. Every
frame each connection received is then checked against the finished game's log:
a seat's own dice are its own, other seats' secret dice are always masked, salts
arrive only for revealed rounds, and no frame carries a field that is neither
the engine's view/event fields nor the documented protocol's.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import json
from collections.abc import Iterator
from typing import Any

import pytest
from web_support import create_table, join, live_server, play_liars_dice_person

from tavern_dice.blackjack import events as blackjack_events
from tavern_dice.dice import SeededDice
from tavern_dice.events import Event
from tavern_dice.liars_dice import events as liars_events
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.web.commitments import verify

PROTOCOL_KEYS = {
    # frames
    "type", "ref", "code", "message", "role", "player_id", "table_id", "server_ms",
    "you", "table", "game",
    # table summary and occupants
    "name", "status", "rules", "options", "join_url", "game_id", "seats", "balances",
    "kind", "bot_kind", "proficiency", "presence", "grace_s", "turn_timer_s", "standin_bot",
    "bot_delay_ms", "starting_gold_cp", "stake_cp", "dice_mode", "auto_house",
    # game state
    "seat", "view", "events_from", "events", "commitments", "proofs", "timer",
    "pending_roll", "round", "items", "digest", "faces", "salt", "deadline_ms", "seconds",
    "purpose", "count", "sides", "notice",
    # physical dice (Liar's Dice, dice_mode "manual"): who has typed, answers at a reveal,
    # the hands the server rolled (by round and seat, with why: no faces)
    "entered", "waiting", "dice_checks", "match", "server_rolled",
    # rated tables: the option, each person's table rating, a finished game's standings
    "rated", "ratings", "rating", "mu", "sigma", "games", "change", "why", "standings",
    "place", "level", "rating_before",
}


def engine_keys() -> set[str]:
    """Every key the engines' views and events may put in a frame."""
    game = LiarsDiceGame(2, dice=SeededDice(1))
    keys = set(game.view(0).to_dict()) | set(game.rules.to_dict())
    for module in (liars_events, blackjack_events):
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Event) and dataclasses.is_dataclass(cls):
                keys |= {f.name for f in dataclasses.fields(cls)}
    keys |= {f.name for f in dataclasses.fields(liars_events.Revealed)}
    return keys | {"dice", "seats", "secret"}


def walk_keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            # Balances and similar maps are keyed by player id or seat, not by field.
            if not key.startswith("p_") and not key.isdigit():
                yield key
            yield from walk_keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from walk_keys(item)


NON_DICE_KEYS = {"dice_counts", "sums", "seats", "leaders", "losers", "eligible", "balances",
                 "legal_wagers", "players", "legal_bonuses", "bet_limits", "house_dice",
                 "entered", "waiting"}
"""Keys whose int lists are counts, sums or seat numbers, never a player's secret faces."""


def int_lists(value: Any, key: str = "") -> Iterator[tuple[str, list[int]]]:
    """Every list of ints in a frame with the key it sits under, skipping reveals and rolls
    (both checked on their own), keys that never hold faces, and the viewer's own dice."""
    if isinstance(value, dict):
        if value.get("type") in ("revealed", "dice_rolled"):
            return
        for k, item in value.items():
            if k in ("last_reveal", "proofs", "own_dice") or k in NON_DICE_KEYS:
                continue
            yield from int_lists(item, k)
    elif isinstance(value, list):
        if value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            yield key, value
        else:
            for item in value:
                yield from int_lists(item, key)


def secret_rolls(events: list[dict[str, Any]]) -> tuple[dict[int, dict[int, list[int]]],
                                                       dict[int, int]]:
    """From the full log: each round's secret hands, and the log index of its reveal."""
    hands: dict[int, dict[int, list[int]]] = {}
    revealed_at: dict[int, int] = {}
    current = 0
    for index, event in enumerate(events):
        if event["type"] == "round_started":
            current = event["round"]
        elif event["type"] == "dice_rolled" and event["secret"]:
            hands[current] = dict(zip(event["seats"], event["dice"], strict=True))
        elif event["type"] == "revealed":
            revealed_at[current] = index
    return hands, revealed_at


def check_frames(frames: list[dict[str, Any]], seat: int | None, game_id: str,
                 hands: dict[int, dict[int, list[int]]], revealed_at: dict[int, int],
                 allowed_keys: set[str], salts: dict[int, list[str]]) -> int:
    """Assert nothing in ``frames`` shows another seat's unrevealed dice; return how many
    state frames were checked."""
    known = 0  # log entries this connection has been sent so far
    checked = 0
    for frame in frames:
        unknown = set(walk_keys(frame)) - allowed_keys
        assert not unknown, f"unexpected fields {unknown} in {frame['type']} frame"
        game = frame.get("game") if frame["type"] == "state" else None
        if not game or game["game_id"] != game_id:
            continue
        checked += 1
        known = max(known, game["events_from"] + len(game["events"]))
        hidden = [
            faces for round_, seats in hands.items()
            if revealed_at.get(round_, len(hands) * 10**6) >= known
            for roller, faces in seats.items()
            if roller != seat and len(faces) >= 2
            and faces != hands[round_].get(seat if seat is not None else -1)
        ]
        for key, values in int_lists(frame):
            assert values not in hidden, f"{key}: {values} is another seat's secret hand"
        text = json.dumps(frame)
        for round_, round_salts in salts.items():
            if revealed_at.get(round_, 10**9) >= known:
                assert not any(salt in text for salt in round_salts), "a salt before its reveal"
        view = game["view"]
        own = view["own_dice"]
        if seat is None or view["round"] not in hands or seat not in hands[view["round"]]:
            assert own == [], own
        else:
            assert own == hands[view["round"]][seat]
        for event in game["events"]:
            if event["type"] == "dice_rolled" and event["secret"]:
                for roller, faces in zip(event["seats"], event["dice"], strict=True):
                    if roller != seat:
                        assert faces == [None] * len(faces), event
                    else:
                        assert None not in faces
        if game["commitments"]:
            for item in game["commitments"]["items"]:
                assert set(item) == {"seat", "digest"}, item
        if game["proofs"]:
            round_ = game["proofs"]["round"]
            assert revealed_at[round_] < known, "salts sent before the reveal"
            for item in game["proofs"]["items"]:
                assert item["faces"] == hands[round_][int(item["seat"])]
                assert verify(item["digest"], game_id, round_, int(item["seat"]),
                              item["faces"], item["salt"])
    return checked


@pytest.mark.asyncio
async def test_web_no_frame_shows_another_seats_unrevealed_dice(database_url: str) -> None:
    async with live_server(database_url) as server:
        table = await create_table(server, "liars-dice", name="Privacy",
                                   rules={"dice_per_player": 3},
                                   options={"bot_delay_ms": 0, "grace_s": 600, "rated": True})
        tid = table["table_id"]
        ann = await join(server, tid, "Ann")
        bo = await join(server, tid, "Bo")
        host = await server.connect(tid, table["host_token"], "host")
        spectator = await server.connect(tid, None, "spectator")
        players = [await server.connect(tid, ann["seat_token"], "ann"),
                   await server.connect(tid, bo["seat_token"], "bo")]
        for kind in ("random", "probabilistic"):
            assert (await host.request({"type": "add_bot", "kind": kind}))["type"] == "ack"
        assert (await host.request({"type": "start"}))["type"] == "ack"
        state = await host.wait_for(lambda f: f["type"] == "state" and f["game"] is not None)
        game_id = state["game"]["game_id"]

        async with server.client() as http:
            # While the game runs, neither the export nor the proofs give secret dice away.
            assert (await http.get(f"/api/games/{game_id}")).status_code == 409
            proofs = (await http.get(f"/api/games/{game_id}/proofs")).json()["commitments"]
            hidden = [c for c in proofs if not c["revealed"]]
            assert len(hidden) >= 2  # the round in play
            assert all(c["faces"] is None and c["salt"] is None for c in hidden)

        over = False

        def stop() -> bool:
            return over

        await asyncio.wait_for(asyncio.gather(
            *(play_liars_dice_person(p, stop) for p in players)), timeout=60)
        over = True
        await asyncio.sleep(0.05)

        async with server.client() as http:
            export = (await http.get(f"/api/games/{game_id}")).json()
        assert export["status"] == "over"
        events = export["log"]["events"]
        assert events[-1]["type"] == "game_won"
        hands, revealed_at = secret_rolls(events)
        assert len(hands) >= 2 and revealed_at

        allowed = PROTOCOL_KEYS | engine_keys()
        seat_of = {s["player_id"]: s["seat"] for s in export["seats"]}
        salts: dict[int, list[str]] = {}
        for c in export["commitments"]:
            salts.setdefault(c["round"], []).append(c["salt"])
        total = 0
        for client, seat in ((players[0], seat_of[ann["player_id"]]),
                             (players[1], seat_of[bo["player_id"]]),
                             (spectator, None), (host, None)):
            total += check_frames(client.frames, seat, game_id, hands, revealed_at, allowed,
                                  salts)
            await client.close()
        # Every connection saw the game from start to end (dozens of frames each).
        assert total > 4 * len(hands)
        # The replayed export is the same game.
        assert LiarsDiceGame.from_log(export["log"]).winner == events[-1]["seat"]
