"""The integrated round gain (2026-12-06): LBR's choices for every hand at once are the ones it
makes hand by hand, and summing both hands out keeps the expected figure (checked against
the exact LBR value of a shipped table) while cutting the variance of a round's score."""

from __future__ import annotations

import math

import pytest

from tavern_dice.bots.liars_exploit.lookahead import LookaheadExploiter
from tavern_dice.bots.liars_exploit.model import RangeTracker, hands_of
from tavern_dice.bots.liars_exploit.views import view_as
from tavern_dice.bots.registry import make_liars_dice_bot
from tavern_dice.liars_dice.actions import ACCUSE
from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.measure.exploit import ExploitError, lookup
from tavern_dice.measure.round_gain import deal_round
from tavern_dice.measure.round_gain_integrated import integrated_round_gain
from tavern_dice.strategy.liars_dice.solver.core.lbr import lbr_value
from tavern_dice.strategy.liars_dice.solver.play.tables import load_round


@pytest.mark.parametrize(("dice", "seed"), [((2, 2), 3), ((1, 1), 4), ((3, 2), 5)])
def test_lbr_chooses_for_every_hand_as_it_does_hand_by_hand(
        dice: tuple[int, int], seed: int) -> None:
    # (1, 1) plays the sum endgame (L10): sum wagers, read by the dice's total.
    table = TAVERN.replace(dice_per_player=3)
    game = deal_round(table, seed, dice)
    seat = game.starter
    assert seat is not None
    opp = 1 - seat
    exploiter = lookup("lbr").build("strong", "lbr", seed)
    assert isinstance(exploiter, LookaheadExploiter)
    target = make_liars_dice_bot("strong", "strong", seed)
    tracker = RangeTracker(exploiter.model, opp)
    hands = hands_of(game.dice_counts[seat], table.sides).faces
    decisions = 0
    while True:
        view = game.view(seat)
        if game.turn == seat:
            options, pick = exploiter.choices(view, tracker.reach(view))
            for i, hand in enumerate(hands):
                alone = lookup("lbr").build("strong", "lbr", seed)
                assert alone.choose_action(view_as(view, seat, hand)) == options[pick[i]]
            decisions += len(hands)
            action = exploiter.choose_action(view)
            if action == ACCUSE:
                break
            game.wager(action, seat)
        else:
            action = target.choose_action(game.view(opp))
            if action == ACCUSE:
                break
            game.wager(action, opp)
    assert decisions >= len(hands)


def test_summing_the_hands_out_keeps_lbrs_exact_value_and_cuts_the_variance() -> None:
    # `equilibrium` samples the shipped table as it is (an accusation off it), as the
    # exact LBR walk of the table assumes: each position's mean is that value, up to
    # sampling (z within 4), and a round's score varies far less than a played one's
    # (1 - mean^2, about 0.9 here).
    table = load_round("tavern", 2, 1)
    result = integrated_round_gain("equilibrium", "lbr", (2, 1), 400, 11, TAVERN)
    assert result.rounds == 400
    for position, sample in ((0, result.first), (1, result.second)):
        exact, _ = lbr_value(table, position)
        assert sample.rounds > 150
        z = (sample.mean - exact) / math.sqrt(sample.variance_of_mean)
        assert abs(z) < 4, (position, sample.mean, exact)
        assert sample.variance < 0.3
    assert result.played_rounds_equivalent > 3 * result.rounds
    low, high = result.interval
    assert low < result.gain < high and high - low < 0.08


def test_the_same_seed_repeats_the_figure_and_bad_requests_say_what_is_legal() -> None:
    once = integrated_round_gain("strong", "lbr", (2, 2), 6, 21, TAVERN)
    again = integrated_round_gain("strong", "lbr", (2, 2), 6, 21, TAVERN)
    assert once.to_dict() == again.to_dict()
    assert once.to_dict()["integrated"] is True
    with pytest.raises(ExploitError, match="lbr"):
        integrated_round_gain("strong", "bluffer", 2, 2)
    with pytest.raises(ExploitError, match="lbr"):
        integrated_round_gain("strong", "best-response", 2, 2)
    with pytest.raises(ExploitError, match="whole number"):
        integrated_round_gain("strong", "lbr", 2, 1.5)  # type: ignore[arg-type]
