"""The game registry (issue 9): definitions by name, who may act in asking order, one
place where an agent's answer (or a web message) becomes an engine action, and the one
runner loop for both games."""

from __future__ import annotations

from typing import Any

import pytest

from tavern_dice.blackjack import BlackjackGame
from tavern_dice.blackjack.actions import Bet, Roll, SitOut, Stand
from tavern_dice.blackjack.rules import TAVERN as BLACKJACK_TAVERN
from tavern_dice.bots.base import ACCUSE
from tavern_dice.dice import ScriptedDice, SeededDice
from tavern_dice.errors import InvalidActionError, LogError, NotYourTurnError
from tavern_dice.games import (
    BLACKJACK,
    GAMES,
    LIARS_DICE,
    Ask,
    UnknownGameError,
    apply_message,
    definition_of,
    game,
    load_log,
    step,
)
from tavern_dice.liars_dice import LiarsDiceGame, LiarsDiceRules, Wager
from tavern_dice.liars_dice.actions import Accuse
from tavern_dice.liars_dice.events import Accused, WagerMade
from tavern_dice.liars_dice.rules import TAVERN as LIARS_TAVERN
from tavern_dice.play.runner import play_blackjack_round, play_liars_dice


class Scripted:
    """An agent that answers from lists and remembers who asked it what."""

    def __init__(self, name: str, actions: list[Any] | None = None,
                 accuse: bool = False, bets: list[Bet | SitOut] | None = None,
                 moves: list[Roll | Stand] | None = None) -> None:
        self.name = name
        self.actions = actions or []
        self.accuse = accuse
        self.bets = bets or []
        self.moves = moves or []
        self.asked: list[str] = []

    def choose_action(self, view: Any) -> Any:
        self.asked.append("act")
        return self.actions.pop(0)

    def wants_to_accuse(self, view: Any) -> bool:
        self.asked.append("accuse?")
        return self.accuse

    def choose_bet(self, view: Any) -> Bet | SitOut:
        self.asked.append("bet")
        return self.bets.pop(0)

    def choose_move(self, view: Any) -> Roll | Stand:
        self.asked.append("move")
        return self.moves.pop(0)


def four_players() -> LiarsDiceGame:
    """Seat 0 wins the roll-off (all sixes against ones); every hand is five threes; the
    dice of later rounds are left to be typed in (the game waits there)."""
    g = LiarsDiceGame(4, auto_roll=False)
    g.roll([(6,) * 5] + [(1,) * 5] * 3)
    g.roll([(3,) * 5] * 4)
    return g


def test_definitions_by_name_with_rules_presets_bots_and_seat_limits() -> None:
    assert list(GAMES) == ["liars-dice", "blackjack"]
    assert game("liars-dice") is LIARS_DICE and game("blackjack") is BLACKJACK
    assert LIARS_DICE.presets["tavern"] == LIARS_TAVERN and "strong" in LIARS_DICE.bots
    assert BLACKJACK.presets["tavern"] == BLACKJACK_TAVERN and "optimal" in BLACKJACK.bots
    assert LIARS_DICE.seat_limits(LiarsDiceRules(max_players=6)) == (2, 6)
    assert BLACKJACK.seat_limits(BLACKJACK_TAVERN) == (1, 10)
    assert BLACKJACK.make_bot("cautious", name="Cy").name == "Cy"
    with pytest.raises(UnknownGameError, match="no game 'chess'; the games are liars-dice, "
                       "blackjack"):
        game("chess")


def test_liars_asking_order_out_of_turn_accusers_from_the_makers_left_then_the_turn() -> None:
    g = four_players()
    assert LIARS_DICE.asking_order(g) == (Ask(0, False),)  # no wager yet: only the opener
    g.apply(0, Wager(2, 3))
    assert LIARS_DICE.asking_order(g) == (Ask(2, True), Ask(3, True), Ask(1, False))
    assert LIARS_DICE.waiting_on(g) == (1,)
    g.apply(1, Wager(3, 3))
    assert LIARS_DICE.asking_order(g) == (Ask(3, True), Ask(0, True), Ask(2, False))


def test_blackjack_asking_order_bettors_in_seat_order_then_the_turn() -> None:
    g = BlackjackGame(3, dice=ScriptedDice([(15,), (2, 3), (7,), (9,)]), balances=[500, 0, 500])
    assert BLACKJACK.asking_order(g) == (Ask(0, False), Ask(2, False))  # seat 1 has no gold
    g.apply(2, Bet(100))
    assert BLACKJACK.waiting_on(g) == (0,)
    g.apply(0, SitOut())
    assert BLACKJACK.asking_order(g) == (Ask(2, False),)  # seat 2's d12 rolled: it plays
    assert BLACKJACK.decision_key(g) == ("turn", len(g.log))


def test_one_step_asks_in_order_and_applies_the_first_answer() -> None:
    g = four_players()
    g.apply(0, Wager(2, 3))
    agents = [Scripted("A"), Scripted("B", [Wager(5, 3)]), Scripted("C"),
              Scripted("D", accuse=True)]
    event = step(g, agents)
    assert isinstance(event, type(g.last_reveal)) and g.last_reveal is not None
    assert [a.asked for a in agents] == [[], [], ["accuse?"], ["accuse?"]]
    assert [e for e in g.log if isinstance(e, Accused)] == [Accused(3, 0)]


def test_agents_answer_with_engine_actions_passed_on_as_they_are() -> None:
    g = four_players()
    g.apply(0, Wager(2, 3))
    assert LIARS_DICE.answer(g, Ask(1, False), Scripted("B", [ACCUSE])) is ACCUSE
    assert LIARS_DICE.answer(g, Ask(3, True), Scripted("D", accuse=True)) == Accuse()
    assert LIARS_DICE.answer(g, Ask(2, True), Scripted("C")) is None  # passes
    bj = BlackjackGame(["Ann"], dice=ScriptedDice([(14,), (9, 17), (8,)]), balances=1000)
    assert BLACKJACK.answer(bj, Ask(0, False), Scripted("A", bets=[SitOut()])) == SitOut()
    assert BLACKJACK.answer(bj, Ask(0, False), None) == SitOut()  # an empty seat
    bj.apply(0, Bet(100))
    assert BLACKJACK.answer(bj, Ask(0, False), Scripted("A", moves=[Stand(0)])) == Stand(0)
    assert BLACKJACK.answer(bj, Ask(0, False), Scripted("A", moves=[Roll()])) == Roll()


def test_web_messages_become_engine_calls_in_one_place() -> None:
    g = four_players()
    assert apply_message(g, 0, {"type": "wager", "wager": "2x3", "id": 7}) == WagerMade(0, 2, 3,
                                                                                         None)
    with pytest.raises(NotYourTurnError):
        apply_message(g, 0, {"type": "wager", "wager": "3x3"})
    assert apply_message(g, 2, {"type": "accuse", "round": 1}).type == "revealed"
    with pytest.raises(InvalidActionError, match="'bet' is not a Liar's Dice action"):
        LIARS_DICE.action_from_message({"type": "bet", "amount_cp": 5})
    assert BLACKJACK.action_from_message({"type": "bet", "amount_cp": 200}) == Bet(200)
    assert BLACKJACK.action_from_message({"type": "sit_out"}) == SitOut()
    assert BLACKJACK.action_from_message({"type": "stand", "bonus": 1}) == Stand(1)
    assert BLACKJACK.action_from_message({"type": "roll"}) == Roll()
    with pytest.raises(InvalidActionError, match="'wager' is not a Dice Blackjack action"):
        BLACKJACK.action_from_message({"type": "wager", "wager": "2x3"})


def test_the_runner_plays_both_games_with_one_loop() -> None:
    rules = LiarsDiceRules(dice_per_player=1, sum_endgame=False)
    g = LiarsDiceGame(2, rules=rules, dice=ScriptedDice([(6,), (1,), (2,), (5,)]))
    seen: list[str] = []
    winner = play_liars_dice(g, [Scripted("A", [Wager(2, 2)]), Scripted("B", [ACCUSE])],
                             observer=lambda e: seen.append(e.type))
    assert winner == 1  # one two on the table: the wager was false
    assert seen[-2:] == ["player_out", "game_won"] and seen.count("wager_made") == 1
    bj = BlackjackGame(["Ann", "Bo"], dice=ScriptedDice([(14,), (9, 17), (8,), (5,), (10,)]),
                       balances=1000, proficiency=[4, None])
    ann = Scripted("Ann", bets=[Bet(300)], moves=[Roll(), Stand(1)])
    play_blackjack_round(bj, [ann, None])
    assert ann.asked == ["bet", "move", "move"]
    assert [(s.seat, s.outcome, s.delta) for s in bj.settlements()] == [(0, "exact", 450)]


def test_load_log_finds_the_game_by_name() -> None:
    g = four_players()
    g.apply(0, Wager(2, 3))
    assert definition_of(load_log(g.to_log())) is LIARS_DICE
    bj = BlackjackGame(1, dice=SeededDice(3))
    assert isinstance(load_log(bj.to_log()), BlackjackGame)
    with pytest.raises(LogError, match="its 'game' is 'chess'"):
        load_log({"game": "chess"})
    with pytest.raises(LogError, match="it names no game"):
        load_log([])
