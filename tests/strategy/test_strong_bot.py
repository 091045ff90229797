"""The robust ``strong`` bot (issue 7): legal at every table size and ruleset, mixed, fast
to ask about many hands, learning from reveals, and the same on replay."""

from __future__ import annotations

import pytest

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction, LiarsDiceAgent
from tavern_dice.bots.liars_exploit.model import hands_of
from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.events import WagerMade
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.play.runner import play_liars_dice
from tavern_dice.strategy.liars_dice.tendencies import OPENING, Tendencies

RULESETS = [
    TAVERN,
    TAVERN.replace(raise_rule=RaiseRule.STANDARD),
    TAVERN.replace(raise_rule=RaiseRule.FACE_MAJOR, wild_face=1, spot_on=False),
    TAVERN.replace(dice_per_player=2, sides=8, sum_endgame=False),
]


class Referee:
    def __init__(self, agent: LiarsDiceAgent) -> None:
        self.agent = agent
        self.name = agent.name

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        action = self.agent.choose_action(view)
        assert action in view.legal_wagers or (action == ACCUSE and view.may_accuse)
        return action

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        wants = self.agent.wants_to_accuse(view)
        assert not wants or view.may_accuse
        return wants


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: str(r.to_dict()))
def test_strong_plays_only_legal_actions_at_every_table_size(rules: LiarsDiceRules) -> None:
    for players in (2, 3, 6):
        agents = [Referee(StrongLiarsDiceBot(f"s{i}", seed=i)) for i in range(players - 1)]
        agents.append(Referee(make_liars_dice_bot("probabilistic", name="p")))
        game = LiarsDiceGame(players, rules=rules.replace(dice_per_player=min(
            rules.dice_per_player, 3)), dice=SeededDice(players))
        assert play_liars_dice(game, agents) == game.winner


def test_its_chances_are_a_distribution_and_match_the_many_hands_answer() -> None:
    game = LiarsDiceGame(3, dice=SeededDice(4))
    bot = StrongLiarsDiceBot("s", seed=1, tables=False)
    seat = game.turn
    assert seat is not None
    game.wager(game.legal_wagers()[7], seat)
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    chances = bot.action_probabilities(view)
    assert sum(chances.values()) == pytest.approx(1.0)
    assert all(a in view.legal_wagers or a == ACCUSE for a in chances)
    hands = hands_of(view.dice_counts[seat], view.rules.sides)
    actions, probs = bot.range_policy(view, hands.faces)
    row = probs[hands.index(view.own_dice)]
    for action, p in chances.items():
        assert row[actions.index(action)] == pytest.approx(p)
    assert probs.sum(axis=1) == pytest.approx(1.0)
    # It mixes: some hand spreads its chances over more than one action.
    assert ((probs > 0.05).sum(axis=1) > 1).any()


def test_a_seeded_game_replays_identically() -> None:
    def play() -> list[object]:
        game = LiarsDiceGame(4, dice=SeededDice(5))
        agents = [StrongLiarsDiceBot(f"s{i}", seed=i) for i in range(3)]
        agents.append(make_liars_dice_bot("trusting"))
        play_liars_dice(game, agents)
        return [(e.seat, e.wager) for e in game.log if isinstance(e, WagerMade)]

    assert play() == play()


def test_it_learns_that_an_opponent_bluffs() -> None:
    """After reveals in which one seat always wagered on faces it held none of, that seat's
    learned bluff rate rises above the prior; an honest seat's falls."""
    game = LiarsDiceGame(3, dice=SeededDice(21))
    agents = [make_liars_dice_bot("bluffer", name="b", mode="always"),
              make_liars_dice_bot("probabilistic", name="p"),
              StrongLiarsDiceBot("s", seed=1)]
    play_liars_dice(game, agents)
    tendencies = Tendencies()
    tendencies.update(game.log, game.rules)
    assert tendencies.bluff_rate(0, OPENING) > tendencies.prior_bluff
    assert tendencies.seat(1).bluff["raise"].value < tendencies.prior_bluff
