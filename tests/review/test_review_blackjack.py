"""The Dice Blackjack review: each roll and stand against the exact optimal policy."""

from __future__ import annotations

from fractions import Fraction

from review_games import blackjack_bonus_mistake

from tavern_dice.blackjack.events import RolledAgain, Stood
from tavern_dice.blackjack.state import BlackjackGame
from tavern_dice.bots.registry import make_blackjack_bot
from tavern_dice.dice import SeededDice
from tavern_dice.play.runner import play_blackjack_round
from tavern_dice.review import BLACKJACK_THRESHOLDS, BlackjackKnown, review_game


def test_a_bonus_left_unadded_costs_the_exact_hit() -> None:
    game = BlackjackGame.from_log(blackjack_bonus_mistake().to_log())
    (ann,) = review_game(game, [0]).seats
    rolled, stood = ann.decisions
    assert rolled.chosen.code == "roll" and rolled.cost == 0 and rolled.mark is None
    known = stood.known
    assert isinstance(known, BlackjackKnown)
    assert (known.target, known.house, known.total, known.bonus_cap) == (20, 15, 18, 2)
    assert known.bet_cp == 200 and known.bust_chance == Fraction(10, 12)
    assert stood.chosen.code == "stand+0" and stood.chosen.value == 1.0
    assert stood.best.code == "stand+2" and stood.best.value == 1.5
    assert stood.exact_cost == Fraction(1, 2) and stood.mark == "blunder"
    assert ann.result == "+2 gp over 1 round (now 12 gp)"


def test_optimal_play_costs_nothing_and_every_move_is_one_decision() -> None:
    game = BlackjackGame(3, dice=SeededDice(8), proficiency=[None, 4, 6])
    bots = [make_blackjack_bot(kind, name=kind) for kind in ("optimal", "bold", "cautious")]
    for _ in range(12):
        play_blackjack_round(game, bots)
    review = review_game(BlackjackGame.from_log(game.to_log()), [0, 1, 2])
    optimal, bold, _cautious = review.seats
    assert optimal.decisions and all(d.cost == 0 for d in optimal.decisions)
    assert any(d.cost > 0 for d in bold.decisions)
    for seat_review in review.seats:
        moves = sum(1 for e in game.log if isinstance(e, RolledAgain | Stood)
                    and e.seat == seat_review.seat)
        assert len(seat_review.decisions) == moves
        for d in seat_review.decisions:
            assert d.mark == BLACKJACK_THRESHOLDS.mark(d.cost)
            assert d.exact_cost is not None and float(d.exact_cost) == d.cost
