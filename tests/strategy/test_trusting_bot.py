"""The ``strong`` Liar's Dice bot (issue 3): legal answers under every ruleset, no loops
under the seed's ``either`` raise rule, sensible single decisions, and a clear edge over
the ``probabilistic`` bot in seeded games."""

from __future__ import annotations

import itertools
import pickle

import pytest

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction, LiarsDiceAgent
from tavern_dice.bots.liars_trusting import TrustingLiarsDiceBot
from tavern_dice.bots.registry import BotError, make_liars_dice_bot
from tavern_dice.dice import ScriptedDice, SeededDice
from tavern_dice.liars_dice.events import RoundStarted, WagerMade
from tavern_dice.liars_dice.rules import OPENSPIEL, TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager, is_raise
from tavern_dice.play.runner import play_liars_dice
from tavern_dice.play.simulate import simulate_liars_dice

RULESETS = [
    TAVERN,
    OPENSPIEL,
    TAVERN.replace(wild_face=1),
    TAVERN.replace(raise_rule=RaiseRule.STANDARD, spot_on=False),
    TAVERN.replace(raise_rule=RaiseRule.FACE_MAJOR, sides=4, dice_per_player=3),
    TAVERN.replace(dice_per_player=2, sides=8, sum_endgame=False),
    TAVERN.replace(dice_per_player=1, sides=2),
    TAVERN.replace(dice_per_player=3, sides=12, wild_face=12),
]


class Referee:
    """Checks every answer of an agent against the view it was given; counts them."""

    def __init__(self, agent: LiarsDiceAgent) -> None:
        self.agent = agent
        self.name = agent.name
        self.actions = 0
        self.accusations = 0

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        assert view.seat == view.turn
        action = self.agent.choose_action(view)
        if action == ACCUSE:
            assert view.may_accuse, (view.wager, view.legal_wagers[:3])
            self.accusations += 1
        else:
            assert action in view.legal_wagers, (action, view.wager)
            assert isinstance(action, SumWager) == view.sum_wagers
        self.actions += 1
        return action

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        assert view.seat != view.turn
        wants = self.agent.wants_to_accuse(view)
        assert isinstance(wants, bool)
        assert view.may_accuse or not wants
        self.accusations += wants
        return wants


def round_wagers(game: LiarsDiceGame) -> list[list[WagerMade]]:
    """The wagers of each round, in order."""
    rounds: list[list[WagerMade]] = []
    for event in game.log:
        if isinstance(event, RoundStarted):
            rounds.append([])
        elif isinstance(event, WagerMade):
            rounds[-1].append(event)
    return rounds


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: str(r.to_dict()))
def test_strong_plays_only_legal_actions_and_games_end(rules: LiarsDiceRules) -> None:
    sum_rounds = 0
    for seed in range(3):
        players = 3 + seed % 2
        kinds = ["trusting", "probabilistic", "random", "trusting"][:players]
        agents = [Referee(make_liars_dice_bot(k, name=f"{k}{i}", seed=seed))
                  for i, k in enumerate(kinds)]
        game = LiarsDiceGame(players, rules=rules, dice=SeededDice(seed))
        winner = play_liars_dice(game, agents, max_decisions=20_000)
        assert game.is_over and game.winner == winner
        assert game.dice_counts[winner] > 0 and sum(game.dice_counts) == game.dice_counts[winner]
        assert sum(a.actions for a in agents if a.name.startswith("trusting")) > 0
        sum_rounds += sum(
            1 for e in game.log if isinstance(e, RoundStarted) and e.sum_wagers
        )
    if rules.sum_endgame and rules.dice_per_player == 1:
        assert sum_rounds > 0  # the L10 endgame was played, not skipped


@pytest.mark.parametrize("raise_rule", list(RaiseRule))
def test_strong_never_raises_in_a_cycle(raise_rule: RaiseRule) -> None:
    """An all-strong table: every wager of a round is higher than the one before it in the
    standard (quantity, face) order, so a round has at most dice x sides wagers."""
    rules = TAVERN.replace(raise_rule=raise_rule)
    for seed in range(2):
        agents = [TrustingLiarsDiceBot(f"s{i}") for i in range(4)]
        game = LiarsDiceGame(4, rules=rules, dice=SeededDice(seed))
        play_liars_dice(game, agents, max_decisions=5_000)
        for wagers in round_wagers(game):
            for before, after in itertools.pairwise(wagers):
                if raise_rule is RaiseRule.FACE_MAJOR:
                    assert is_raise(after.wager, before.wager, RaiseRule.FACE_MAJOR)
                else:
                    assert is_raise(after.wager, before.wager, RaiseRule.STANDARD), (
                        before.wager, after.wager)


def two_player_game(own: tuple[int, ...], other: tuple[int, ...], rules: LiarsDiceRules
                    = TAVERN) -> LiarsDiceGame:
    """A two-player game in round 1 with seat 0 to wager first, hands as given."""
    per = len(own)
    dice = ScriptedDice([(6,) * per, (1,) * per, own, other])
    return LiarsDiceGame(2, rules=rules.replace(dice_per_player=per), dice=dice)


def test_accuses_a_wager_its_own_dice_make_impossible() -> None:
    # Seat 0 holds no six among 3 of the 5 dice in play: "4 sixes" cannot be true.
    game = two_player_game((1, 2, 3), (6, 6, 4))
    game.wager(Wager(1, 6), 0)
    game.wager(Wager(4, 6), 1)
    bot = TrustingLiarsDiceBot("s")
    assert bot.choose_action(game.view(0)) == ACCUSE


def test_raises_rather_than_accusing_a_wager_it_holds() -> None:
    # Seat 1 holds five sixes; "2 sixes" is certainly true: raise, never accuse.
    game = two_player_game((1, 2, 3, 4, 5), (6, 6, 6, 6, 6))
    game.wager(Wager(2, 6), 0)
    bot = TrustingLiarsDiceBot("s")
    action = bot.choose_action(game.view(1))
    assert action != ACCUSE
    assert not bot.wants_to_accuse(game.view(1))


def test_out_of_turn_accusation_of_an_impossible_wager() -> None:
    rules = TAVERN.replace(dice_per_player=2)
    dice = ScriptedDice([(6, 6), (1, 1), (1, 1), (1, 2), (2, 2), (3, 3)])
    game = LiarsDiceGame(3, rules=rules, dice=dice)
    game.wager(Wager(5, 6), 0)  # seats 1 and 2 hold no six: at most 2 of the 6 dice
    bot = TrustingLiarsDiceBot("s")
    view = game.view(2)  # seat 2 is asked out of turn (seat 1 is to act)
    assert view.turn == 1 and bot.wants_to_accuse(view)


def test_sum_endgame_decisions() -> None:
    dice = ScriptedDice([(6,), (1,), (6,), (1,)])
    game = LiarsDiceGame(2, rules=TAVERN.replace(dice_per_player=1), dice=dice)
    assert game.sum_wagers
    bot = TrustingLiarsDiceBot("s")
    opening = bot.choose_action(game.view(0))
    assert isinstance(opening, SumWager) and opening in game.legal_wagers()
    game.wager(SumWager(12), 0)
    # Seat 1 shows a 1: a sum of 12 is impossible.
    assert bot.choose_action(game.view(1)) == ACCUSE


def test_the_same_view_gets_the_same_answer_and_bots_pickle() -> None:
    game = LiarsDiceGame(4, dice=SeededDice(11))
    game.wager(Wager(2, 3), game.turn)
    bot = TrustingLiarsDiceBot("s", seed=1)
    assert game.turn is not None
    first = bot.choose_action(game.view(game.turn))
    fresh = pickle.loads(pickle.dumps(TrustingLiarsDiceBot("s", seed=1)))
    assert fresh.choose_action(game.view(game.turn)) == first
    assert bot.choose_action(game.view(game.turn)) == first  # cached beliefs, same answer


def test_options_are_checked() -> None:
    with pytest.raises(BotError, match="bluff"):
        make_liars_dice_bot("trusting", bluff=2.0)
    with pytest.raises(BotError, match="accuse_threshold"):
        make_liars_dice_bot("trusting", accuse_threshold=-0.1)
    with pytest.raises(BotError, match="does not take"):
        make_liars_dice_bot("trusting", cunning=3)
    assert isinstance(make_liars_dice_bot("trusting", pass_value=0.1), TrustingLiarsDiceBot)


def test_seated_in_every_position_strong_wins_well_over_its_share() -> None:
    """200 seeded games against three ``probabilistic`` bots, seats rotating: the even
    share is 25 %. Measured while tuning: about 70 % (e.g. 281 of 400 games); 45 %
    leaves a margin of about 7 standard errors."""
    result = simulate_liars_dice(
        ["trusting", "probabilistic", "probabilistic", "probabilistic"], games=200, seed=7,
        workers=1,
    )
    strong = result.bots[0]
    assert strong.games == 200
    assert strong.win_rate >= 0.45, result
    assert all(b.win_rate < 0.25 for b in result.bots[1:])


def wagers_of(game: LiarsDiceGame) -> list[AnyWager]:
    return [e.wager for e in game.log if isinstance(e, WagerMade)]


def test_a_seeded_game_repeats_exactly() -> None:
    def play() -> list[AnyWager]:
        game = LiarsDiceGame(4, dice=SeededDice(5))
        agents = [TrustingLiarsDiceBot("s", seed=1)] + [
            make_liars_dice_bot("probabilistic", seed=i) for i in range(3)
        ]
        play_liars_dice(game, agents)
        return wagers_of(game)

    assert play() == play()
