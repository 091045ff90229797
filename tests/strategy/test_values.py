"""The lookahead's raise values (:class:`~tavern_dice.strategy.liars_dice.values.Valuer`),
computed by the bot's own matching dice and gathered per hand, against the same model
written out in plain loops, one hand, face and claim at a time."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tavern_dice.bots.liars_exploit.model import hands_of
from tavern_dice.bots.liars_trusting import TrustingLiarsDiceBot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import Wager
from tavern_dice.strategy.liars_dice.values import RoundState, Valuer


def _loop_value(valuer: Valuer, state: RoundState, own: int, face: int, claim: int) -> float:
    """The modelled score of wagering ``claim`` of ``face`` holding ``own`` of it: each
    opponent in answering order accuses with a logistic chance of their own odds (their
    dice and fresh unseen dice), scored jointly with the dice that made them accuse."""
    belief = state.belief
    value, survive = 0.0, 1.0
    for seat in state.order:
        mine = belief.opponents[seat].face_distribution(face)
        rest = np.ones(1)
        for other in state.opponents:
            if other != seat:
                rest = np.convolve(rest, belief.opponents[other].face_distribution(face))
        unseen = belief.dice_in_play - belief.dice_counts[seat]
        p_fresh = 1 / belief.rules.sides
        below = exact = p_accuse = 0.0
        for k, p_k in enumerate(mine):
            need = claim - k
            odds = sum(math.comb(unseen, n) * p_fresh**n * (1 - p_fresh) ** (unseen - n)
                       for n in range(max(need, 0), unseen + 1))
            threshold = valuer.threshold(seat, seat == state.order[-1])
            x = max(min(valuer.steepness * (odds - threshold), 50.0), -50.0)
            weight = p_k / (1 + math.exp(x))
            short = need - own  # what the rest must supply
            below += weight * float(rest[: max(min(short, len(rest)), 0)].sum())
            if 0 <= short < len(rest):
                exact += weight * float(rest[short])
            p_accuse += weight
        if_false, if_true, if_exact = valuer.scores(state.me, seat, state)
        over = p_accuse - below - exact
        value += survive * (below * if_false + over * if_true + exact * if_exact)
        survive *= 1 - p_accuse
    return value + survive * valuer.pass_value


@pytest.mark.parametrize("seed", [1, 4])
def test_raise_values_for_every_hand_match_the_model_written_in_loops(seed: int) -> None:
    game = LiarsDiceGame(4, rules=TAVERN.replace(dice_per_player=2), dice=SeededDice(seed))
    seat = game.turn
    assert seat is not None
    game.wager(Wager(2, 3), seat)
    bot = TrustingLiarsDiceBot()
    view = game.view(game.turn)
    state = bot._round(view)
    hands = hands_of(2, 6).faces
    own = bot.valuer.own_matrix(state, hands, False)
    candidates = [Wager(q, f) for q in (1, 3, 5) for f in (2, 3, 6)]
    values = bot.valuer.raise_values_for(state, candidates, own)
    assert values.shape == (len(hands), len(candidates))
    for h in range(0, len(hands), 4):
        for j, w in enumerate(candidates):
            expected = _loop_value(bot.valuer, state, int(own[h, w.face - 1]), w.face,
                                   w.quantity)
            assert values[h, j] == pytest.approx(expected, abs=1e-12)
    grid = bot.valuer.raise_grid(state, False, own)
    assert grid[:, 2, 3].tolist() == pytest.approx(values[:, 4].tolist(), abs=0)
