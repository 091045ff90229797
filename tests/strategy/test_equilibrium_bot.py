"""The ``equilibrium`` bot: covered situations, legal play, and results in solved states."""

from __future__ import annotations

import pytest

from tavern_dice.bots.liars_equilibrium import EquilibriumLiarsDiceBot, policy_covers
from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice import TAVERN, LiarsDiceGame, LiarsDiceRules, RaiseRule, Wager
from tavern_dice.play.runner import play_liars_dice

STANDARD = TAVERN.replace(raise_rule=RaiseRule.STANDARD)


def equilibrium_win_rate(opponent: str, rules: LiarsDiceRules, start: tuple[int, int],
                         games: int) -> float:
    """Share of ``games`` two-player games won by ``equilibrium`` from dice ``start``, with
    its seat and which of the two dice counts it holds both alternated."""
    wins = 0
    for i in range(games):
        eq_seat = i % 2
        mine, theirs = start if (i // 2) % 2 == 0 else start[::-1]
        dice = [0, 0]
        dice[eq_seat], dice[1 - eq_seat] = mine, theirs
        bots = [make_liars_dice_bot(opponent, seed=20_000 + i)] * 2
        bots[eq_seat] = make_liars_dice_bot("equilibrium", seed=10_000 + i)
        game = LiarsDiceGame(2, rules=rules, dice=SeededDice(i), starting_dice=dice)
        wins += play_liars_dice(game, bots) == eq_seat
    return wins / games


@pytest.mark.parametrize("opponent", ["trusting", "probabilistic"])
@pytest.mark.parametrize(
    ("rules", "start"),
    [(TAVERN, (1, 1)), (STANDARD, (2, 1))],
    ids=["seed-sum-endgame-1-1", "standard-2-1"],
)
def test_equilibrium_wins_at_least_half_from_solved_states(
    opponent: str, rules: LiarsDiceRules, start: tuple[int, int]
) -> None:
    """Issue 3: at least half of 2,000 games from a solved state, seats alternated."""
    rate = equilibrium_win_rate(opponent, rules, start, 2000)
    assert rate >= 0.5, f"equilibrium won {rate:.1%} against {opponent}"


def test_policy_covers_two_player_solved_rounds_only() -> None:
    game = LiarsDiceGame(2, rules=STANDARD, dice=SeededDice(1), starting_dice=[2, 1])
    assert policy_covers(game.view(game.turn))
    either = LiarsDiceGame(2, dice=SeededDice(1), starting_dice=[2, 1])
    assert policy_covers(either.view(either.turn))  # finite with repeats forbidden (L5b)
    repeats = LiarsDiceGame(2, rules=TAVERN.replace(repeat_wagers=True), dice=SeededDice(1),
                            starting_dice=[2, 1])
    assert not policy_covers(repeats.view(repeats.turn))
    endgame = LiarsDiceGame(2, dice=SeededDice(1), starting_dice=[1, 1])
    assert endgame.sum_wagers and policy_covers(endgame.view(endgame.turn))
    wild = LiarsDiceGame(2, rules=STANDARD.replace(wild_face=1), dice=SeededDice(1))
    assert not policy_covers(wild.view(wild.turn))
    four = LiarsDiceGame(4, rules=STANDARD, dice=SeededDice(1))
    assert not policy_covers(four.view(four.turn))


def test_samples_only_actions_the_policy_gives_weight_and_the_engine_allows() -> None:
    game = LiarsDiceGame(["eq", "opp"], rules=STANDARD, dice=SeededDice(5), starting_dice=[2, 1])
    bot = EquilibriumLiarsDiceBot("eq", seed=3)
    seen = set()
    for _ in range(50):
        view = game.view(game.turn)
        action = bot.choose_action(view)
        assert action in view.legal_wagers  # the opening wager cannot be an accusation
        seen.add(action)
    assert len(seen) >= 1


def test_falls_back_at_bigger_tables_and_plays_legally() -> None:
    game = LiarsDiceGame(4, dice=SeededDice(9), rules=LiarsDiceRules(dice_per_player=2))
    bots = [make_liars_dice_bot("equilibrium", seed=s) for s in range(4)]
    assert play_liars_dice(game, bots, max_decisions=5_000) in range(4)


def test_view_lists_this_rounds_wagers_in_order() -> None:
    game = LiarsDiceGame(3, dice=SeededDice(2))
    first = game.turn
    assert first is not None
    game.wager(Wager(1, 2))
    second = game.turn
    game.wager(Wager(2, 2))
    assert game.view(0).round_wagers == ((first, Wager(1, 2)), (second, Wager(2, 2)))
