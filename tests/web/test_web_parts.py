"""The web table's parts, each on its own: the house's committing dice, the chance policy
the engines are made with, option checks, the per-game adapters, the pot, the frames, and
the shape of the package (no module over 600 lines, no game named outside its adapter)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from tavern_dice.blackjack.rules import TAVERN as BLACKJACK_TAVERN
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.state import Phase as BlackjackPhase
from tavern_dice.dice import ScriptedDice, SeededDice
from tavern_dice.errors import InsufficientFundsError
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.state import Phase as LiarsPhase
from tavern_dice.stakes import Pot
from tavern_dice.web import protocol as p
from tavern_dice.web.adapters import ADAPTERS, adapter_for
from tavern_dice.web.catalog import GAMES, ActionError, build_rules
from tavern_dice.web.commitments import HOUSE_SEAT, verify
from tavern_dice.web.frames import Frames
from tavern_dice.web.house import HouseDice
from tavern_dice.web.journal import GameSession, collect_step
from tavern_dice.web.options import changed_options, read_options

WEB = Path(__file__).resolve().parents[2] / "src" / "tavern_dice" / "web"


def test_web_house_dice_give_the_engine_the_faces_they_sealed() -> None:
    house = HouseDice(BLACKJACK_TAVERN, SeededDice(5))
    game = BlackjackGame(["Ann"], dice=house, balances=1000, auto_roll={"d12"})
    sealed = house.seal("g_1", game.round)
    assert sealed.seat == HOUSE_SEAT and len(sealed.faces) == 1 + BLACKJACK_TAVERN.house_dice
    assert verify(sealed.digest, "g_1", game.round, HOUSE_SEAT, sealed.faces, sealed.salt)
    game.place_bet(0, 100)
    # The chance policy {"d12"}: the house's d20s wait for the DM ...
    assert game.phase is BlackjackPhase.TARGET_ROLL
    game.roll()
    if game.phase is BlackjackPhase.HOUSE_ROLL:
        game.roll()
        assert game.house_dice == sealed.faces[1:]
    assert game.target == sealed.faces[0]
    # ... and the d12 that follows rolls itself.
    if game.target != 1:
        assert game.phase is BlackjackPhase.PLAYING and game.totals[0] > 0


def test_web_session_seals_the_house_dice_as_each_round_opens() -> None:
    adapter = adapter_for("blackjack")
    options = p.TableOptions()
    engine, house = adapter.open_game(BLACKJACK_TAVERN, options, ["Ann"], [1000], [None])
    assert house is not None and engine.dice is house
    s = GameSession("g_2", "blackjack", engine, ["p_ann"], "playing", persisted=0,
                    house=house)
    step = collect_step(s, adapter.is_over(engine))
    [sealed] = step.new_commitments
    assert sealed.seat == HOUSE_SEAT and house.sealed == sealed.faces
    # Manual dice: nothing is sealed, and the engine rolls nothing itself.
    manual = p.TableOptions(dice_mode="manual")
    engine, house = adapter.open_game(BLACKJACK_TAVERN, manual, ["Ann"], [1000], [None])
    assert house is None and engine.auto_roll is False


def test_web_liars_dice_typed_hands_roll_only_the_roll_off() -> None:
    adapter = adapter_for("liars-dice")
    rules = build_rules("liars-dice", "tavern", {})
    engine, _ = adapter.open_game(rules, p.TableOptions(dice_mode="manual"), ["Ann", "Bo"],
                                  [0, 0], [None, None])
    assert isinstance(engine, LiarsDiceGame)
    assert engine.auto_roll == frozenset({"roll-off"})
    assert engine.phase is LiarsPhase.ROUND_ROLL  # the roll-off is done; hands wait
    digital, _ = adapter.open_game(rules, p.TableOptions(), ["Ann", "Bo"], [0, 0],
                                   [None, None])
    assert isinstance(digital, LiarsDiceGame) and digital.phase is LiarsPhase.BIDDING


def test_web_a_game_reopened_from_its_log_keeps_its_chance_policy() -> None:
    game = LiarsDiceGame(["Ann", "Bo"], dice=SeededDice(3), auto_roll=False)
    game.roll()  # the roll-off, by hand
    log = game.to_log()
    dice = ScriptedDice([(1, 2, 3, 4, 5), (6, 6, 6, 6, 6)])
    reopened = LiarsDiceGame.from_log(log, dice=dice, auto_roll={"roll-off"})
    assert reopened.dice is dice and reopened.auto_roll == frozenset({"roll-off"})
    assert reopened.log == game.log


def test_web_options_are_checked_once_for_create_and_set_options() -> None:
    with pytest.raises(ActionError) as error:
        read_options("blackjack", {"standin_bot": "telepath"}, "options.")
    assert error.value.field == "options.standin_bot"
    assert "known: " in error.value.message and "cautious" in error.value.message
    with pytest.raises(ActionError) as error:
        read_options("liars-dice", {"grace_s": "5"}, "options.")
    assert (error.value.code, error.value.field) == ("bad-message", "options.grace_s")
    current = read_options("liars-dice", {})
    assert changed_options("liars-dice", current, {"grace_s": 5}, running=True).grace_s == 5
    with pytest.raises(ActionError) as error:
        changed_options("liars-dice", current, {"dice_mode": "manual"}, running=True)
    assert error.value.code == "conflict"


def test_web_every_game_has_one_adapter() -> None:
    assert sorted(ADAPTERS) == sorted(GAMES)
    assert {name: a.name for name, a in ADAPTERS.items()} == {g: g for g in GAMES}
    with pytest.raises(ActionError) as error:
        adapter_for("chess")
    assert error.value.code == "bad-message"


def test_web_stakes_collect_antes_and_pay_the_winner() -> None:
    pot = adapter_for("liars-dice").pot(30, {"a": 30, "b": 90}, ["a", "b"],
                                        {"a": "Ann", "b": "Bo"})
    assert (pot.total, pot.payout("a"), pot.refunds()) == (60, {"a": 60}, {"a": 30, "b": 30})
    with pytest.raises(ActionError, match="the stake is 40 cp; Ann cannot pay it"):
        adapter_for("liars-dice").pot(40, {"a": 30, "b": 90}, ["a", "b"],
                                      {"a": "Ann", "b": "Bo"})
    assert adapter_for("blackjack").pot(40, {"a": 30}, ["a"], {"a": "Ann"}).total == 0
    with pytest.raises(InsufficientFundsError):
        Pot.collect(5, {}, ["x"])


class _Conn:
    def __init__(self, role: str, player_id: str | None) -> None:
        self.role, self.player_id = role, player_id
        self.sent_game: str | None = None
        self.sent_events = 0

    def send_text(self, text: str) -> None:
        raise AssertionError("not sent here")

    def close_soon(self, code: int, reason: str) -> None:
        raise AssertionError("not closed here")


def test_web_frames_are_json_with_only_the_new_events() -> None:
    engine = LiarsDiceGame(["Ann", "Bo"], dice=SeededDice(1))
    s = GameSession("g_3", "liars-dice", engine, ["pa", "pb"], "playing", persisted=0)
    frames = Frames(lambda: {"table_id": "t"}, lambda s: {"game_id": s.id})
    ann = _Conn("player", "pa")
    first = json.loads(frames.state_text(s, ann))
    assert first["you"] == {"role": "player", "player_id": "pa", "seat": 0}
    assert first["table"] == {"table_id": "t"} and first["game"]["game_id"] == "g_3"
    assert first["game"]["events_from"] == 0
    assert len(first["game"]["events"]) == len(engine.log)
    assert first["game"]["view"]["own_dice"] == list(engine.hands[0])
    # Bo's copy of the secret roll hides Ann's dice.
    bo = json.loads(frames.state_text(s, _Conn("player", "pb")))
    rolled = [e for e in bo["game"]["events"] if e.get("secret")]
    assert rolled and all(hand[0] is None for e in rolled for hand in e["dice"][:1])
    engine.wager(engine.legal_wagers()[0])
    frames.changed()
    second = json.loads(frames.state_text(s, ann))
    assert second["game"]["events_from"] == first["game"]["events_from"] + len(engine.log) - 1
    assert [e["type"] for e in second["game"]["events"]] == ["wager_made"]


def test_web_modules_are_small_and_name_no_game_engine() -> None:
    sizes = {path.name: len(path.read_text().splitlines()) for path in WEB.rglob("*.py")}
    assert max(sizes.values()) <= 600, sorted(sizes.items(), key=lambda kv: -kv[1])[:3]
    # autoplay.move_for turns an agent's answer into an engine call; the runner's one
    # vocabulary of actions (issue 9) replaces its branch.
    for path in WEB.rglob("*.py"):
        name = path.name
        if name == "autoplay.py":
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "isinstance":
                first = node.args[0]
                assert not (isinstance(first, ast.Name) and first.id == "engine"), name
                assert not (isinstance(first, ast.Attribute) and first.attr == "engine"), name


def test_web_house_dice_resume_the_sealed_round_after_a_restart() -> None:
    adapter = adapter_for("blackjack")
    options = p.TableOptions()
    engine, house = adapter.open_game(BLACKJACK_TAVERN, options, ["Ann"], [1000], [None])
    s = GameSession("g_4", "blackjack", engine, ["p_ann"], "playing", persisted=0,
                    house=house)
    [sealed] = collect_step(s, False).new_commitments
    engine.place_bet(0, 100)
    # The process restarts: the game comes back from its log, the seal from the store.
    again, house_again = adapter.reopen_game(engine.to_log(), BLACKJACK_TAVERN, options)
    assert house_again is not None and house_again is not house
    restored = GameSession("g_4", "blackjack", again, ["p_ann"], "playing",
                           persisted=len(again.log), house=house_again)
    restored.add_commitments([sealed])
    assert isinstance(again, BlackjackGame) and again.phase is BlackjackPhase.TARGET_ROLL
    again.roll()
    assert again.target == sealed.faces[0]
