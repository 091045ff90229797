"""Liar's Dice bots (issue 3): legal answers only, games that end, the probabilistic bot
beating the random one, no loops under the seed's ``either`` raise rule, reproducibility."""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Sequence

import pytest

from tavern_dice.bots.base import ACCUSE, LiarsDiceAction, LiarsDiceAgent
from tavern_dice.bots.liars_probabilistic import ProbabilisticLiarsDiceBot, candidate_raises
from tavern_dice.bots.liars_random import RandomLiarsDiceBot
from tavern_dice.bots.registry import BotError, make_liars_dice_bot
from tavern_dice.dice import ScriptedDice, SeededDice
from tavern_dice.events import Event
from tavern_dice.liars_dice.events import Accused, RoundStarted, WagerMade
from tavern_dice.liars_dice.rules import OPENSPIEL, TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.view import LiarsDiceView
from tavern_dice.liars_dice.wager import SumWager, Wager, is_raise
from tavern_dice.play.runner import play_liars_dice
from tavern_dice.strategy.liars_dice.odds import wager_odds

RULESETS = [
    TAVERN,
    OPENSPIEL,
    TAVERN.replace(wild_face=1),
    TAVERN.replace(raise_rule=RaiseRule.STANDARD, spot_on=False),
    TAVERN.replace(raise_rule=RaiseRule.FACE_MAJOR, sides=4, dice_per_player=3),
    TAVERN.replace(dice_per_player=2, sides=8, sum_endgame=False),
    TAVERN.replace(dice_per_player=1, sides=2),
]


class Referee:
    """Wraps an agent and checks every answer against the view it was given."""

    def __init__(self, agent: LiarsDiceAgent) -> None:
        self.agent = agent
        self.name = agent.name
        self.answers = 0

    def choose_action(self, view: LiarsDiceView) -> LiarsDiceAction:
        assert view.seat == view.turn
        action = self.agent.choose_action(view)
        if action == ACCUSE:
            assert view.may_accuse, (self.name, view.wager)
        else:
            assert action in view.legal_wagers, (self.name, action, view.wager)
            assert isinstance(action, SumWager) == view.sum_wagers
        self.answers += 1
        return action

    def wants_to_accuse(self, view: LiarsDiceView) -> bool:
        assert view.seat != view.turn
        wants = self.agent.wants_to_accuse(view)
        assert isinstance(wants, bool)
        assert view.may_accuse or not wants
        self.answers += 1
        return wants


def bots_for(kinds: Sequence[str], seed: int) -> list[LiarsDiceAgent]:
    return [make_liars_dice_bot(k, name=f"{k}-{i}", seed=seed * 100 + i)
            for i, k in enumerate(kinds)]


def finished(game: LiarsDiceGame, winner: int) -> bool:
    alive = [s for s, c in enumerate(game.dice_counts) if c > 0]
    return game.is_over and alive == [winner] and game.winner == winner


# --------------------------------------------------------------------------- legality


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: str(r.to_dict()))
def test_every_bot_answer_is_legal_and_every_game_ends(rules: LiarsDiceRules) -> None:
    answers = 0
    for seed in range(6):
        players = 2 + seed % 4
        kinds = ["probabilistic" if (seed + i) % 2 else "random" for i in range(players)]
        refs = [Referee(b) for b in bots_for(kinds, seed)]
        game = LiarsDiceGame(players, rules=rules, dice=SeededDice(seed))
        winner = play_liars_dice(game, refs, max_decisions=20_000)
        assert finished(game, winner)
        answers += sum(r.answers for r in refs)
    assert answers >= 40


def test_all_bot_four_player_games_end_with_a_winner() -> None:
    for seed in range(10):
        for kinds in (["probabilistic"] * 4, ["random"] * 4,
                      ["random", "probabilistic", "random", "probabilistic"]):
            game = LiarsDiceGame(4, dice=SeededDice(seed))
            winner = play_liars_dice(game, bots_for(kinds, seed), max_decisions=20_000)
            assert finished(game, winner)
            assert sum(1 for e in game.log if isinstance(e, RoundStarted)) >= 5


def test_sum_endgame_is_played_with_sum_wagers() -> None:
    seen_sum = 0
    rules = TAVERN.replace(dice_per_player=2)  # the endgame (one die each) comes often
    for seed in range(20):
        game = LiarsDiceGame(2, rules=rules, dice=SeededDice(seed))
        kinds = ["probabilistic", "random" if seed % 2 else "probabilistic"]
        play_liars_dice(game, [Referee(b) for b in bots_for(kinds, seed)])
        sum_rounds = [e.round for e in game.log if isinstance(e, RoundStarted) and e.sum_wagers]
        sum_wagers = [e for e in game.log if isinstance(e, WagerMade) and e.total is not None]
        assert bool(sum_rounds) == bool(sum_wagers)
        seen_sum += len(sum_wagers)
    assert seen_sum > 0


# --------------------------------------------------------------------------- strength


def test_probabilistic_beats_random_heads_up_over_200_games() -> None:
    wins = 0
    for seed in range(200):
        kinds = ["probabilistic", "random"] if seed % 2 == 0 else ["random", "probabilistic"]
        game = LiarsDiceGame(2, dice=SeededDice(seed))
        winner = play_liars_dice(game, bots_for(kinds, seed))
        wins += kinds[winner] == "probabilistic"
    # A coin would win about 100; measured: 200 of 200.
    assert wins >= 170


def test_probabilistic_seats_win_most_four_player_games() -> None:
    wins = 0
    for seed in range(60):
        kinds = ["probabilistic", "random"] * 2 if seed % 2 else ["random", "probabilistic"] * 2
        game = LiarsDiceGame(4, dice=SeededDice(seed))
        winner = play_liars_dice(game, bots_for(kinds, seed))
        wins += kinds[winner] == "probabilistic"
    # Two seats of four: chance alone gives about 30 of 60; measured: 60 of 60.
    assert wins >= 50


# --------------------------------------------------------------------------- termination


def test_probabilistic_bots_never_loop_under_either() -> None:
    """Every round among probabilistic bots climbs the standard order, so it holds at most
    dice_in_play * sides wagers, even though ``either`` allows cycles."""
    for rules in (TAVERN, TAVERN.replace(wild_face=6), TAVERN.replace(sides=3)):
        assert rules.raise_rule is RaiseRule.EITHER
        for seed in range(15):
            players = 2 + seed % 5
            game = LiarsDiceGame(players, rules=rules, dice=SeededDice(seed))
            rounds: list[list[Event]] = []

            def observe(event: Event, rounds: list[list[Event]] = rounds) -> None:
                if isinstance(event, RoundStarted):
                    rounds.append([event])
                elif rounds:
                    rounds[-1].append(event)

            bots = bots_for(["probabilistic"] * players, seed)
            play_liars_dice(game, bots, observe, max_decisions=50_000)
            for events in rounds:
                start = events[0]
                assert isinstance(start, RoundStarted)
                wagers = [e.wager for e in events if isinstance(e, WagerMade)]
                limit = sum(start.dice_counts) * rules.sides
                assert len(wagers) <= limit
                for old, new in itertools.pairwise(wagers):
                    assert is_raise(new, old, RaiseRule.STANDARD), (old, new)
                assert sum(1 for e in events if isinstance(e, Accused)) == 1


def test_candidate_raises_drop_either_raises_that_step_down_in_quantity() -> None:
    dice = ScriptedDice([(6, 6), (1, 1), (2, 2), (3, 4)])
    game = LiarsDiceGame(2, rules=TAVERN.replace(dice_per_player=2), dice=dice)
    game.wager(Wager(3, 2))
    view = game.view(1)
    assert Wager(1, 6) in view.legal_wagers  # legal under either ...
    raises = candidate_raises(view)
    assert Wager(1, 6) not in raises  # ... but not higher in the standard order
    assert raises == (Wager(3, 3), Wager(3, 4), Wager(3, 5), Wager(3, 6), Wager(4, 1),
                      Wager(4, 2), Wager(4, 3), Wager(4, 4), Wager(4, 5), Wager(4, 6))


# --------------------------------------------------------------------------- decisions


def scripted_game(hands: Sequence[tuple[int, ...]], rules: LiarsDiceRules) -> LiarsDiceGame:
    """A game whose first round deals ``hands``; seat 0 wins the roll-off and opens."""
    rolloff = [tuple([rules.sides] * rules.dice_per_player)] + [
        tuple([1] * rules.dice_per_player) for _ in hands[1:]
    ]
    return LiarsDiceGame(len(hands), rules=rules, dice=ScriptedDice([*rolloff, *hands]))


def test_opening_is_the_smallest_sure_wager() -> None:
    rules = TAVERN.replace(dice_per_player=3)
    game = scripted_game([(4, 2, 4), (1, 1, 1), (5, 5, 5)], rules)
    bot = ProbabilisticLiarsDiceBot(seed=0)
    # Sure wagers: 1 two, 1 four, 2 fours; the smallest in (quantity, face) order is 1 two.
    assert bot.choose_action(game.view(0)) == Wager(1, 2)


def test_raise_goes_to_the_likeliest_candidate() -> None:
    rules = TAVERN.replace(dice_per_player=3)
    game = scripted_game([(4, 2, 4), (6, 6, 3), (5, 5, 5)], rules)
    game.wager(Wager(2, 4))
    bot = ProbabilisticLiarsDiceBot(seed=0)
    view = game.view(1)
    choice = bot.choose_action(view)
    assert choice == Wager(2, 6)  # holds two sixes: sure
    best = max(wager_odds(w, view.own_dice, 9, rules).true for w in candidate_raises(view))
    assert wager_odds(choice, view.own_dice, 9, rules).true == best == 1


def test_accuses_an_unlikely_wager_on_its_turn_and_out_of_turn() -> None:
    rules = TAVERN.replace(dice_per_player=3)
    game = scripted_game([(4, 2, 4), (1, 2, 3), (1, 3, 3)], rules)
    game.wager(Wager(7, 6))  # 7 sixes among 9 dice, and seats 1 and 2 hold none: impossible
    bot = ProbabilisticLiarsDiceBot(seed=0)
    assert bot.choose_action(game.view(1)) == ACCUSE
    assert bot.wants_to_accuse(game.view(2))


def test_does_not_accuse_a_likely_wager_out_of_turn() -> None:
    rules = TAVERN.replace(dice_per_player=3)
    game = scripted_game([(4, 2, 4), (1, 2, 3), (3, 3, 3)], rules)
    game.wager(Wager(2, 3))
    assert ProbabilisticLiarsDiceBot(seed=0).wants_to_accuse(game.view(2)) is False


def test_turn_accusation_weighs_the_threshold_and_the_best_raise() -> None:
    rules = TAVERN.replace(dice_per_player=3)
    game = scripted_game([(4, 2, 4), (2, 5, 5), (1, 3, 6)], rules)
    game.wager(Wager(2, 6))
    view = game.view(1)
    # 2 sixes among 6 unseen dice: P(true) = 1 - (5/6)^6 - (5/6)^5 = 0.263; the best
    # candidate, 3 fives, needs one five among them: P(true) = 1 - (5/6)^6 = 0.665.
    assert float(wager_odds(Wager(2, 6), view.own_dice, 9, rules).true) == pytest.approx(0.263,
                                                                                       abs=1e-3)
    assert ProbabilisticLiarsDiceBot(threshold=0.5).choose_action(view) == ACCUSE  # 0.737 > 0.665
    assert ProbabilisticLiarsDiceBot(threshold=0.2).choose_action(view) == Wager(3, 5)

    sure = scripted_game([(4, 2, 4), (5, 5, 5), (1, 3, 6)], rules)
    sure.wager(Wager(2, 6))
    # Holding three fives, raising to 3 fives is sure: better than a 0.737 accusation.
    assert ProbabilisticLiarsDiceBot(threshold=0.5).choose_action(sure.view(1)) == Wager(3, 5)


def test_sum_endgame_decisions() -> None:
    # Two players with one die each wager on the sum (L10).
    game = scripted_game([(2,), (6,)], TAVERN.replace(dice_per_player=1))
    assert game.sum_wagers
    bot = ProbabilisticLiarsDiceBot(seed=0)
    opening = bot.choose_action(game.view(0))
    assert opening == SumWager(2)  # every sum is sure at first; the smallest is 2
    game.wager(SumWager(9))
    # Holding a 6, seat 1 thinks "9" holds w.p. 4/6, and every raise is less likely.
    assert bot.choose_action(game.view(1)) == SumWager(10)
    game.wager(SumWager(11))
    # Seat 0, holding a 2, knows the sum is at most 8: "11" is false.
    assert bot.choose_action(game.view(0)) == ACCUSE
    assert bot.wants_to_accuse(game.view(0))


# --------------------------------------------------------------------------- random bot


def test_random_bot_accuses_at_about_its_rate() -> None:
    game = scripted_game([(1, 2, 3), (4, 5, 6)], TAVERN.replace(dice_per_player=3))
    game.wager(Wager(1, 1))
    view = game.view(1)
    bot = RandomLiarsDiceBot(seed=9, accuse_probability=0.3, out_of_turn_probability=0.05)
    choices = [bot.choose_action(view) for _ in range(2000)]
    accusations = sum(1 for c in choices if c == ACCUSE)
    assert 500 <= accusations <= 700  # 600 expected; sd about 20
    wagers = {c for c in choices if c != ACCUSE}
    assert wagers == set(view.legal_wagers)  # every legal wager gets drawn
    assert not any(RandomLiarsDiceBot(seed=1, out_of_turn_probability=0).wants_to_accuse(
        game.view(0)) for _ in range(50))


def test_random_bot_rejects_bad_probabilities() -> None:
    for kwargs in ({"accuse_probability": 1.5}, {"accuse_probability": 0},
                   {"out_of_turn_probability": -0.1}):
        with pytest.raises(BotError, match=r"probability|above 0"):
            RandomLiarsDiceBot(**kwargs)
    with pytest.raises(BotError, match="threshold"):
        ProbabilisticLiarsDiceBot(threshold=2)


# --------------------------------------------------------------------------- reproducibility


def run_game(seed: int, kinds: Sequence[str]) -> dict[str, object]:
    game = LiarsDiceGame(len(kinds), dice=SeededDice(seed))
    play_liars_dice(game, bots_for(kinds, seed))
    return game.to_log()


def test_same_seed_same_game() -> None:
    kinds = ["random", "probabilistic", "random"]
    first = run_game(5, kinds)
    assert first == run_game(5, kinds)
    assert first != run_game(6, kinds)
    # The random bot's own seed alone changes its choices on identical dice.
    a = LiarsDiceGame(3, dice=SeededDice(5))
    play_liars_dice(a, [RandomLiarsDiceBot(seed=s) for s in (1, 2, 3)])
    b = LiarsDiceGame(3, dice=SeededDice(5))
    play_liars_dice(b, [RandomLiarsDiceBot(seed=s) for s in (4, 5, 6)])
    assert a.to_log()["events"] != b.to_log()["events"]


def test_bots_pickle_mid_game_and_play_on_identically() -> None:
    game = LiarsDiceGame(3, dice=SeededDice(2))
    bots: list[LiarsDiceAgent] = [RandomLiarsDiceBot(seed=1), ProbabilisticLiarsDiceBot(seed=2),
                                  RandomLiarsDiceBot(seed=3)]
    for bot in bots:
        bot.choose_action(game.view(game.turn or 0))  # advance the bots' generators
    copies = pickle.loads(pickle.dumps(bots))
    game_copy = LiarsDiceGame(3, dice=SeededDice(2))
    play_liars_dice(game, bots)
    play_liars_dice(game_copy, copies)
    assert game.to_log() == game_copy.to_log()
