"""The Liar's Dice review: each decision of a seat, valued from its own view, with the
known blunder (accusing a wager one's own dice make true) marked and costed."""

from __future__ import annotations

import pytest
from review_games import liars_blunder, liars_three

from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.events import Accused, WagerMade
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.play.runner import play_liars_dice
from tavern_dice.review import (
    ACCUSE_OUT_OF_TURN,
    LIARS_THRESHOLDS,
    PASS_OUT_OF_TURN,
    TURN,
    LiarsKnown,
    ReviewError,
    people_seats,
    review_game,
)


def replayed(game: LiarsDiceGame) -> LiarsDiceGame:
    return LiarsDiceGame.from_log(game.to_log())


def test_accusing_a_wager_your_own_dice_make_true_is_a_blunder_with_its_cost() -> None:
    review = review_game(replayed(liars_blunder()), [0])
    (ann,) = review.seats
    (decision,) = ann.decisions
    assert decision.kind == TURN and decision.chosen.code == "accuse"
    assert decision.mark == "blunder" and decision.symbol == "??"
    # Accusing a sure wager loses the die for certain; a raise was worth much more.
    assert decision.chosen.value == pytest.approx(-1.0)
    assert decision.cost >= LIARS_THRESHOLDS.blunder
    assert decision.best.code != "accuse"
    assert decision.note is not None
    assert "already made 2 fives true (5 of yours count, 2 needed)" in decision.note
    known = decision.known
    assert isinstance(known, LiarsKnown)
    assert known.own_dice == (5, 5, 5, 5, 5) and known.wagers == ((1, "2 fives"),)
    assert known.standing_odds is not None and known.standing_odds.false == 0
    assert ann.counts() == {"inaccuracy": 0, "mistake": 0, "blunder": 1}
    assert ann.result == "still in the game with 4 dice when it stopped"


def test_the_wager_maker_is_judged_from_their_own_dice_only() -> None:
    review = review_game(replayed(liars_blunder()), [1])
    (bo,) = review.seats
    (decision,) = bo.decisions
    assert decision.chosen.code == "2x5"
    known = decision.known
    assert isinstance(known, LiarsKnown)
    # Bo saw his own dice only: "2 fives" needs one five among Ann's 5 unseen dice.
    assert known.own_dice == (1, 2, 3, 4, 6)
    assert known.chosen_odds is not None
    assert known.chosen_odds.false == pytest.approx((5 / 6) ** 5 + 5 * (1 / 6) * (5 / 6) ** 4)


def test_out_of_turn_accusations_and_passes_are_decisions() -> None:
    review = review_game(replayed(liars_three()), [0, 1, 2])
    ann, bo, cy = review.seats
    # Cy let Ann's "1 two" pass: Bo, to act, raised it.
    assert [d.kind for d in cy.decisions] == [PASS_OUT_OF_TURN]
    (passed,) = cy.decisions
    assert {c.code for c in passed.alternatives} == {"accuse", "pass"}
    assert passed.chosen.code == "pass" and passed.chosen.value == 0.0
    assert isinstance(passed.known, LiarsKnown) and passed.known.standing == "1 two"
    # Ann accused "2 twos" out of turn, holding two twos herself: a known blunder, costed
    # against letting it pass (worth 0).
    assert [d.kind for d in ann.decisions] == [TURN, ACCUSE_OUT_OF_TURN]
    accused = ann.decisions[1]
    assert accused.chosen.code == "accuse" and accused.method == "lookahead"
    assert accused.best.code == "pass" and accused.best.value == 0.0
    assert accused.cost == pytest.approx(-accused.chosen.value)
    assert accused.mark == "blunder"
    assert accused.note is not None and "already made 2 twos true" in accused.note
    # Cy, to act on "2 twos", was cut short by Ann's accusation: no pass is counted.
    assert [d.kind for d in bo.decisions] == [TURN]
    assert bo.decisions[0].chosen.text == "2 twos"
    assert ann.result == "still in the game with 1 die when it stopped"


def test_every_action_of_the_seat_is_reviewed_once() -> None:
    game = LiarsDiceGame(4, dice=SeededDice(11))
    bots = [make_liars_dice_bot(kind, name=f"b{i}", seed=i)
            for i, kind in enumerate(("probabilistic", "random", "trusting", "bluffer"))]
    play_liars_dice(game, bots)
    review = review_game(replayed(game), [0, 1, 2, 3])
    for seat_review in review.seats:
        seat = seat_review.seat
        acted = sum(1 for e in game.log if (isinstance(e, WagerMade) and e.seat == seat)
                    or (isinstance(e, Accused) and e.accuser == seat))
        mine = [d for d in seat_review.decisions if d.kind != PASS_OUT_OF_TURN]
        assert len(mine) == acted
        assert [d.number for d in seat_review.decisions] == list(
            range(1, len(seat_review.decisions) + 1))
        for d in seat_review.decisions:
            assert d.cost >= 0 and d.best.value >= d.chosen.value - 1e-12
            assert d.mark == (None if d.forced else LIARS_THRESHOLDS.mark(d.cost)) or (
                d.note is not None and d.mark == "blunder")
    assert review.seats[game.winner or 0].result == "won the game"


def test_the_judges_own_play_at_a_big_table_earns_no_mark() -> None:
    # The strong bot mixes only among actions within 0.06 of its lookahead's best, under
    # the inaccuracy threshold (0.10): while three or more play, it is never marked.
    game = LiarsDiceGame(3, dice=SeededDice(5))
    play_liars_dice(game, [make_liars_dice_bot("strong", name=f"s{i}", seed=i)
                           for i in range(3)])
    review = review_game(replayed(game), [0, 1, 2])
    for seat_review in review.seats:
        for d in seat_review.decisions:
            assert isinstance(d.known, LiarsKnown)
            if sum(1 for c in d.known.dice_counts if c) >= 3:
                assert d.mark is None, d


def test_a_seat_out_of_range_names_the_seats() -> None:
    with pytest.raises(ReviewError, match=r"no seat 3 in this game; seats: 0 Ann, 1 Bo, 2 Cy$"):
        review_game(liars_three(), [3])


def test_default_seats_are_the_people() -> None:
    players = ["Ann", "Bo", "Cy"]
    assert people_seats({"people": [1, 2]}, players) == [1, 2]
    assert people_seats({"people": []}, players) == [0]
    assert people_seats({}, players) == [0]
    assert people_seats({"people": [7, "x"]}, players) == [0]
