"""Every agent answers with the engine's own action types: each registered bot and level of
both games, and each exploiter, plays seeded games in which every answer is checked."""

from __future__ import annotations

from typing import Any, get_args

import pytest

from tavern_dice.blackjack.actions import Bet, Roll, SitOut, Stand
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.bots.base import BlackjackAgent, LiarsDiceAgent
from tavern_dice.bots.registry import (
    BLACKJACK_BOTS,
    LIARS_DICE_BOTS,
    make_blackjack_bot,
    make_liars_dice_bot,
)
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.actions import Accuse, LiarsDiceAction
from tavern_dice.liars_dice.rules import LiarsDiceRules
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import SumWager, Wager
from tavern_dice.measure.exploit import EXPLOITERS
from tavern_dice.play.runner import play_blackjack_round, play_liars_dice

LIARS_TYPES = get_args(LiarsDiceAction)


class CheckedLiar:
    """Passes a bot's answers on, recording the type of each."""

    def __init__(self, agent: LiarsDiceAgent) -> None:
        self.agent, self.name = agent, agent.name
        self.answers: list[type] = []

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        answer = self.agent.choose_action(view)
        assert isinstance(answer, LIARS_TYPES), (self.name, answer)
        self.answers.append(type(answer))
        return answer

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        answer = self.agent.wants_to_accuse(view)
        assert type(answer) is bool, (self.name, answer)
        return answer


class CheckedBettor:
    """Passes a Blackjack bot's answers on, recording the type of each."""

    def __init__(self, agent: BlackjackAgent) -> None:
        self.agent, self.name = agent, agent.name
        self.answers: list[type] = []

    def choose_bet(self, view: BlackjackView) -> Bet | SitOut:
        answer = self.agent.choose_bet(view)
        assert isinstance(answer, Bet | SitOut), (self.name, answer)
        self.answers.append(type(answer))
        return answer

    def choose_move(self, view: BlackjackView) -> Roll | Stand:
        answer = self.agent.choose_move(view)
        assert isinstance(answer, Roll | Stand), (self.name, answer)
        self.answers.append(type(answer))
        return answer


def play_checked(agents: list[Any], dice: int, seed: int) -> list[CheckedLiar]:
    checked = [CheckedLiar(agent) for agent in agents]
    game = LiarsDiceGame([a.name for a in checked], rules=LiarsDiceRules(dice_per_player=dice),
                         dice=SeededDice(seed))
    play_liars_dice(game, checked)
    return checked


def test_the_action_types_are_the_engines() -> None:
    assert set(LIARS_TYPES) == {Wager, SumWager, Accuse}


@pytest.mark.parametrize("kind", sorted(LIARS_DICE_BOTS))
def test_every_liars_dice_bot_answers_with_engine_actions(kind: str) -> None:
    answered: set[type] = set()
    # Heads-up with two dice each (the solved tables' ground), then three at a table.
    for seed, (dice, others) in enumerate([(2, ["random"]), (2, ["random"]),
                                           (1, ["probabilistic", "random"])]):
        agents = [make_liars_dice_bot(kind, name=f"{kind}-0", seed=seed),
                  *(make_liars_dice_bot(o, name=f"{o}-{i}", seed=seed)
                    for i, o in enumerate(others, 1))]
        answered.update(play_checked(agents, dice, seed)[0].answers)
    assert answered >= {Wager}, answered  # it wagered at least once, with a Wager


def test_every_liars_dice_bot_accuses_with_an_accuse() -> None:
    """The accusation on one's turn, in particular, is ``Accuse()``, not its old name."""
    for kind in sorted(LIARS_DICE_BOTS):
        found: set[type] = set()
        for seed in range(8):
            agents = [make_liars_dice_bot(kind, name="a", seed=seed),
                      make_liars_dice_bot("random", name="b", seed=seed)]
            found.update(play_checked(agents, 2, seed)[0].answers)
            if Accuse in found:
                break
        assert Accuse in found, kind


@pytest.mark.parametrize("name", sorted(EXPLOITERS))
def test_every_exploiter_answers_with_engine_actions(name: str) -> None:
    exploiter = EXPLOITERS[name]
    players = max(2, exploiter.min_players)
    agents = [exploiter.build("probabilistic", "x", seed=3),
              *(make_liars_dice_bot("probabilistic", name=f"p{i}", seed=i)
                for i in range(1, players))]
    answers = play_checked(agents, 2, 5)[0].answers
    assert answers and set(answers) <= set(LIARS_TYPES)


@pytest.mark.parametrize("kind", sorted(BLACKJACK_BOTS))
def test_every_blackjack_bot_answers_with_engine_actions(kind: str) -> None:
    bot = CheckedBettor(make_blackjack_bot(kind, name=kind, seed=1, bet_cp=150))
    game = BlackjackGame([kind], balances=100_000, proficiency=[4], dice=SeededDice(2))
    for _ in range(30):
        play_blackjack_round(game, [bot])
        game.new_round()
    assert {Bet, Roll, Stand} <= set(bot.answers) <= {Bet, SitOut, Roll, Stand}
