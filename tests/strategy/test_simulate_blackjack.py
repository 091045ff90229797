"""The ``optimal`` Dice Blackjack bot and the Blackjack simulation (issue 3): the bot plays
the solver's every move, and its simulated mean payout matches the solver's exact
expectation."""

from __future__ import annotations

import pytest

from tavern_dice.blackjack.actions import Bet, Roll, SitOut, Stand
from tavern_dice.blackjack.rules import TAVERN
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.blackjack.view import BlackjackView
from tavern_dice.bots.blackjack_optimal import OptimalBlackjackBot
from tavern_dice.bots.registry import BotError, make_blackjack_bot
from tavern_dice.dice import SeededDice
from tavern_dice.play.runner import play_blackjack_round
from tavern_dice.play.simulate import (
    SESSION_ROUNDS,
    Z95,
    BlackjackEntry,
    SimulationError,
    exact_payout,
    simulate_blackjack,
)
from tavern_dice.strategy.blackjack.solver import house_edge, solve


class Checked:
    """Wraps the optimal bot and compares each move with the solver's table."""

    def __init__(self, bot: OptimalBlackjackBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.moves = 0
        self.bonuses: set[int] = set()

    def choose_bet(self, view: BlackjackView) -> Bet | SitOut:
        return self.bot.choose_bet(view)

    def choose_move(self, view: BlackjackView) -> Roll | Stand:
        move = self.bot.choose_move(view)
        assert view.seat is not None and view.target is not None
        house = None if view.house_bust else view.house_roll
        total = view.totals[view.seat]
        best = solve(view.rules, view.proficiency[view.seat])
        assert move == best.action(view.target, house, total)
        if isinstance(move, Stand):
            assert move.bonus == best.bonus(view.target, house, total)
            assert move.bonus in view.legal_bonuses
            self.bonuses.add(move.bonus)
        self.moves += 1
        return move


def test_every_move_is_the_solvers() -> None:
    seats = [Checked(OptimalBlackjackBot(f"o{pb}")) for pb in (None, 2, 5)]
    game = BlackjackGame(3, rules=TAVERN, balances=100_000, proficiency=[None, 2, 5],
                         dice=SeededDice(4))
    for _ in range(300):
        play_blackjack_round(game, seats)
    assert all(s.moves > 200 for s in seats)
    assert seats[2].bonuses > {0}  # the proficient seat did add bonuses


def test_optimal_mean_payout_matches_the_exact_expectation() -> None:
    """12 000 seeded rounds: the estimate lies within 4 standard errors of the solver's
    exact expected payout (+0.94 % of the bet). The standard error, about 0.0096, also
    keeps the cautious policy's -4.35 % more than 5 s.e. away."""
    result = simulate_blackjack(["optimal"], rounds=12_000, seed=2, workers=1)
    (bot,) = result.bots
    exact = -house_edge(TAVERN)
    assert bot.exact == exact and bot.rounds == 12_000
    standard_error = (bot.high - bot.low) / (2 * Z95)
    assert 0.008 < standard_error < 0.011
    assert abs(bot.mean - float(exact)) <= 4 * standard_error


def test_each_bot_gets_its_own_exact_value_and_proficiency() -> None:
    entries: list[BlackjackEntry | str] = [
        BlackjackEntry("optimal", 4), BlackjackEntry("cautious"), "bold"]
    result = simulate_blackjack(entries, rounds=2 * SESSION_ROUNDS + 10, seed=1, workers=1)
    assert [b.label for b in result.bots] == ["optimal:4", "cautious", "bold"]
    assert [b.rounds for b in result.bots] == [210, 210, 210]
    assert result.bots[0].exact == exact_payout("optimal", TAVERN, 4) == -house_edge(TAVERN, 4)
    assert float(result.bots[2].exact or 0) == pytest.approx(-0.3252, abs=1e-4)
    again = simulate_blackjack(entries, rounds=2 * SESSION_ROUNDS + 10, seed=1, workers=2)
    assert again == result
    data = result.to_dict()
    assert data["bet_cp"] == 100 and data["results"][0]["proficiency"] == 4


def test_bad_blackjack_simulations_are_refused() -> None:
    with pytest.raises(SimulationError):
        simulate_blackjack([], rounds=10, seed=1, workers=1)
    with pytest.raises(SimulationError):
        simulate_blackjack(["optimal"], rounds=1, seed=1, workers=1)
    with pytest.raises(ValueError, match="proficiency"):
        simulate_blackjack([BlackjackEntry("optimal", 9)], rounds=10, seed=1, workers=1)
    with pytest.raises(BotError):
        make_blackjack_bot("optimal", bet_cp=0)
    assert make_blackjack_bot("optimal", bet_cp=250).name == "optimal"
