"""Heads-up ``strong`` under rules without tables of their own: ones wild (Perudo's common
house rule) has blueprints of its own, searched under the seed's ``either`` raise, and its
sum endgame is the seed's (every die counts toward a sum, L10)."""

from __future__ import annotations

import numpy as np
import pytest

from tavern_dice.bots.liars_exploit.model import hands_of
from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
from tavern_dice.liars_dice import OPENSPIEL, TAVERN, RaiseRule
from tavern_dice.measure.round_gain import deal_round
from tavern_dice.strategy.liars_dice.solver.play import search
from tavern_dice.strategy.liars_dice.solver.play.blueprint import (
    blueprint_key,
    blueprint_policy,
    blueprint_round,
)
from tavern_dice.strategy.liars_dice.solver.play.tables import heads_up_policy

WILD = TAVERN.replace(wild_face=1, spot_on=False)
WILD_STANDARD = WILD.replace(raise_rule=RaiseRule.STANDARD)


def test_each_ruleset_finds_the_blueprint_solved_for_it() -> None:
    assert blueprint_key(TAVERN) == "tavern-standard"
    assert blueprint_key(WILD) == "wild-ones-standard"
    assert blueprint_key(WILD_STANDARD) == "wild-ones-standard"
    assert blueprint_key(WILD.replace(repeat_wagers=True)) == "wild-ones-standard"
    # Sixes wild and no sum endgame (OpenSpiel's round): nothing solved for it.
    assert blueprint_key(OPENSPIEL) is None
    assert blueprint_key(TAVERN.replace(wild_face=6)) is None


def test_ones_wild_standard_rounds_play_the_blueprint_at_every_size() -> None:
    for dice in ((5, 5), (2, 3), (2, 1)):
        game = deal_round(WILD_STANDARD, 4, dice)
        seat = game.turn
        assert seat is not None
        view = game.view(seat)
        hands = hands_of(view.dice_counts[seat], 6).faces
        found = blueprint_policy(view, hands)
        assert found is not None, dice
        actions, probs = found
        assert np.allclose(probs.sum(axis=1), 1.0)
        bot_actions, bot_probs = StrongLiarsDiceBot("s", seed=1).range_policy(view, hands)
        assert bot_actions == actions
        assert bot_probs == pytest.approx(probs)


def test_ones_wild_either_rounds_are_searched_on_the_wild_blueprint() -> None:
    game = deal_round(WILD, 4, (2, 2))
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    assert search.applies(WILD)
    assert blueprint_round(view) is not None
    assert blueprint_round(view)[0] == "wild-ones-standard"  # type: ignore[index]
    found = search.search_policy(view, [view.own_dice], {})
    assert found is not None
    actions, probs = found
    assert set(actions) <= set(game.legal_actions(seat))
    assert probs.sum() == pytest.approx(1.0)


def test_the_sum_endgame_under_ones_wild_reads_the_seeds_table() -> None:
    game = deal_round(WILD, 4, (1, 1))
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    assert view.sum_wagers
    wild = heads_up_policy(view, [view.own_dice])
    plain = heads_up_policy(deal_round(TAVERN, 4, (1, 1)).view(seat), [view.own_dice])
    assert wild is not None and plain is not None
    assert wild[0] == plain[0]
    assert wild[1] == pytest.approx(plain[1])
