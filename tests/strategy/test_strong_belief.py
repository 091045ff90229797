"""Beliefs about opponents' dice (issue 3, the ``strong`` bot): the prior over hands and
both Bayes updates checked against brute force over every ordered roll, with each
opponent's odds taken from the exact :func:`~tavern_dice.strategy.liars_dice.odds.true_probability`
rather than the module's own float tables."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict

import numpy as np
import pytest

from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.wager import AnyWager, SumWager, Wager, is_raise
from tavern_dice.strategy.liars_dice.belief import (
    MAX_HANDS,
    BeliefError,
    OpponentBelief,
    RoundBelief,
    WagerModel,
    count_tail,
    hand_space,
    sum_tail,
)
from tavern_dice.strategy.liars_dice.odds import true_probability


def counts_toward(die: int, face: int, rules: LiarsDiceRules) -> bool:
    # Re-read L4/L6 here: a die counts if it shows the face, or the wild face for another.
    return die == face or (rules.wild_face is not None and die == rules.wild_face
                           and face != rules.wild_face)


def brute_face_distribution(
    dice: int, face: int, rules: LiarsDiceRules, weight_of: object = None
) -> list[float]:
    """P(k of the hand's dice count toward face), over every ordered roll, each weighted
    by ``weight_of(hand)`` (default 1) and normalised."""
    out = [0.0] * (dice + 1)
    for roll in itertools.product(range(1, rules.sides + 1), repeat=dice):
        w = 1.0 if weight_of is None else weight_of(roll)  # type: ignore[operator]
        out[sum(counts_toward(d, face, rules) for d in roll)] += w
    total = sum(out)
    return [x / total for x in out]


@pytest.mark.parametrize("rules", [TAVERN, TAVERN.replace(wild_face=1),
                                   TAVERN.replace(sides=4, wild_face=4)])
def test_hand_space_matches_every_ordered_roll(rules: LiarsDiceRules) -> None:
    dice = 3
    space = hand_space(dice, rules)
    assert math.isclose(space.prior.sum(), 1.0)
    assert len(space.prior) == math.comb(dice + rules.sides - 1, dice)
    for face in range(1, rules.sides + 1):
        got = np.bincount(space.match[:, face - 1], weights=space.prior, minlength=dice + 1)
        assert np.allclose(got, brute_face_distribution(dice, face, rules))
    sums: dict[int, float] = defaultdict(float)
    for roll in itertools.product(range(1, rules.sides + 1), repeat=dice):
        sums[sum(roll)] += rules.sides ** -dice
    got_sums = np.bincount(space.sums, weights=space.prior)
    assert np.allclose([got_sums[s] for s in sorted(sums)], [sums[s] for s in sorted(sums)])


def test_float_tables_match_the_exact_odds() -> None:
    rules = TAVERN.replace(wild_face=6)
    for unseen in (0, 1, 4, 9):
        for face in (2, 6):
            tail = count_tail(unseen, face, rules)
            assert len(tail) == unseen + 2 and tail[0] == 1.0 and tail[-1] == 0.0
            for need in range(1, unseen + 1):
                # need more among `unseen` dice = the wager "need" with no own dice
                exact = true_probability(Wager(need, face), (), unseen, rules)
                assert math.isclose(tail[need], exact, rel_tol=1e-12)
    tail = sum_tail(2, 6)
    assert math.isclose(tail[7], 21 / 36) and tail[2] == 1.0 and tail[13] == 0.0


def test_support_update_is_bayes_rule() -> None:
    rules = TAVERN.replace(wild_face=1)
    model = WagerModel("support", temper=1.5, bluff=0.1)
    dice, in_play, wager = 3, 8, Wager(3, 4)
    belief = OpponentBelief(seat=1, dice=dice, rules=rules)
    belief.observe(wager, None, in_play, model)

    def likelihood(hand: tuple[int, ...]) -> float:
        p = true_probability(wager, hand, in_play, rules)
        return float(model.bluff + (1 - model.bluff) * p**model.temper)

    for face in (1, 4, 5):
        expected = brute_face_distribution(dice, face, rules, likelihood)
        assert np.allclose(belief.face_distribution(face), expected)
    # The wagered face's count rose above its prior mean of 3 * 2/6 = 1.
    assert belief.face_distribution(4) @ np.arange(dice + 1) > 1.3


def raises_after(previous: AnyWager | None, in_play: int, rules: LiarsDiceRules
                 ) -> list[Wager]:
    out = []
    for quantity in range(1, in_play + 1):
        for face in range(1, rules.sides + 1):
            w = Wager(quantity, face)
            legal = is_raise(w, previous, rules.raise_rule)
            if legal and rules.raise_rule is RaiseRule.EITHER and previous is not None:
                legal = is_raise(w, previous, RaiseRule.STANDARD)
            if legal:
                out.append(w)
    return out


@pytest.mark.parametrize("rules", [TAVERN, TAVERN.replace(raise_rule=RaiseRule.FACE_MAJOR,
                                                          wild_face=6)])
def test_quantal_update_is_a_softmax_over_the_raises_open_to_them(rules: LiarsDiceRules) -> None:
    model = WagerModel("quantal", rationality=9.0, bluff=0.05)
    dice, in_play = 2, 6
    previous, wager = Wager(1, 3), Wager(2, 5)
    belief = OpponentBelief(seat=2, dice=dice, rules=rules)
    belief.observe(wager, previous, in_play, model)
    options = raises_after(previous, in_play, rules)
    assert wager in options

    def likelihood(hand: tuple[int, ...]) -> float:
        scores = {w: math.exp(model.rationality * true_probability(w, hand, in_play, rules))
                  for w in options}
        choice = scores[wager] / sum(scores.values())
        return model.bluff / len(options) + (1 - model.bluff) * choice

    for face in range(1, 7):
        expected = brute_face_distribution(dice, face, rules, likelihood)
        assert np.allclose(belief.face_distribution(face), expected)


def test_sum_wagers_update_the_sum() -> None:
    belief = OpponentBelief(seat=1, dice=1, rules=TAVERN)
    assert np.allclose(belief.sum_distribution()[1:], [1 / 6] * 6)
    belief.observe(SumWager(10), None, 2, WagerModel("support", bluff=0.0))
    # P(sum >= 10 | their die k) = P(other die >= 10 - k): 0 for k <= 3, (k - 3)/6 above.
    weights = [max(0, k - 3) / 6 for k in range(1, 7)]
    assert np.allclose(belief.sum_distribution()[1:], [w / sum(weights) for w in weights])


def test_large_hands_fall_back_to_face_counts() -> None:
    rules = TAVERN.replace(sides=12, dice_per_player=10)
    assert math.comb(10 + 11, 10) > MAX_HANDS
    belief = OpponentBelief(seat=1, dice=10, rules=rules)
    assert not belief.by_hand
    prior_mean = belief.face_distribution(7) @ np.arange(11)
    assert math.isclose(prior_mean, 10 / 12)
    belief.observe(Wager(5, 7), None, 30, WagerModel())
    assert belief.face_distribution(7) @ np.arange(11) > prior_mean + 0.5
    assert math.isclose(belief.face_distribution(3) @ np.arange(11), 10 / 12)


def test_round_belief_covers_opponents_with_dice_only() -> None:
    belief = RoundBelief(TAVERN, viewer=1, dice_counts=(2, 3, 0, 1))
    assert sorted(belief.opponents) == [0, 3] and belief.dice_in_play == 6
    belief.observe(1, Wager(1, 2), None)  # the viewer's own wager: recorded only
    assert belief.observed == [(1, Wager(1, 2))]
    with pytest.raises(BeliefError, match="no dice"):
        belief.observe(2, Wager(2, 2), Wager(1, 2))
    with pytest.raises(BeliefError):
        WagerModel("psychic")  # type: ignore[arg-type]
