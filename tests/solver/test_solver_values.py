"""Solver correctness: known game values, exploitability, an independent LP."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from tavern_dice.liars_dice.actions import Accuse
from tavern_dice.liars_dice.rules import OPENSPIEL, TAVERN
from tavern_dice.liars_dice.wager import Wager
from tavern_dice.strategy.liars_dice.solver.build.lp import lp_value
from tavern_dice.strategy.liars_dice.solver.core.cfr import solve_round
from tavern_dice.strategy.liars_dice.solver.core.policy import RoundPolicy
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame, RoundSpec
from tavern_dice.strategy.liars_dice.solver.core.sweeps import Sweeper


def test_openspiel_liars_dice_value() -> None:
    """OpenSpiel's liars_dice (1 die each, face 6 wild, standard raise): value -7/258."""
    res = solve_round(RoundSpec.from_rules(OPENSPIEL, (1, 1)), target_exploitability=1e-4)
    assert res.exploitability < 1e-4
    assert res.value == pytest.approx(-7 / 258, abs=1e-4)


def test_no_wild_value() -> None:
    res = solve_round(RoundSpec((1, 1), wild_face=None, spot_on=False), target_exploitability=1e-4)
    assert res.exploitability < 1e-4
    assert res.value == pytest.approx(-1 / 9, abs=1e-4)


def test_sum_endgame_matches_linear_program() -> None:
    spec = RoundSpec.from_rules(TAVERN, (1, 1))
    game = RoundGame.build(spec)
    tree = PublicTree.build(game.bids.n_bids)
    res = solve_round(spec, target_exploitability=1e-6, algorithm="pcfr+", game=game, tree=tree)
    assert res.exploitability < 1e-6
    value = lp_value(game, tree)
    assert res.value == pytest.approx(value, abs=1e-6)


def test_payoffs_are_an_affine_change() -> None:
    """Match payoffs (a, b) with b > a give the +-1 equilibrium; value (a+b)/2 + (b-a)/2 * v."""
    base = RoundSpec((1, 1), sides=4)
    a, b = 0.2, 0.9
    v = solve_round(base, target_exploitability=1e-7).value
    res = solve_round(base.with_payoffs((a, b)), target_exploitability=1e-7)
    assert res.value == pytest.approx((a + b) / 2 + (b - a) / 2 * v, abs=1e-6)


def _naive_value(game: RoundGame, pol: RoundPolicy, x: int, y: int, hist: tuple[int, ...]) -> float:
    actor = len(hist) % 2
    hand = game.hands[actor].faces[(x, y)[actor]]
    acts, probs = pol.distribution(hand, list(hist))
    total = 0.0
    for act, p in zip(acts.tolist(), probs.tolist(), strict=True):
        if act == game.bids.liar:
            total += p * game.payoff0[1 - actor, hist[-1], x, y]
        else:
            total += p * _naive_value(game, pol, x, y, (*hist, act))
    return total


def test_sweeps_match_a_naive_recursion() -> None:
    spec = RoundSpec((1, 2), sides=2, wild_face=2)
    game = RoundGame.build(spec)
    tree = PublicTree.build(game.bids.n_bids)
    sw = Sweeper(game, tree)
    rng = np.random.default_rng(3)
    sigma = (sw.normalise(0, rng.random((tree.n_slots[0], 2))),
             sw.normalise(1, rng.random((tree.n_slots[1], 3))))
    pol = RoundPolicy(spec, None, sigma)
    pol.attach(game, tree)
    naive = sum(
        game.hands[0].prob[x] * game.hands[1].prob[y] * _naive_value(game, pol, x, y, ())
        for x, y in itertools.product(range(2), range(3))
    )
    assert sw.expected_value(sigma) == pytest.approx(naive, abs=1e-12)
    expl, _ = sw.exploitability(sigma)
    assert expl > 0


def test_policy_query_and_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    res = solve_round(RoundSpec.from_rules(OPENSPIEL, (1, 1)), target_exploitability=1e-3)
    pol = res.policy
    probs = pol.action_probabilities([6], [Wager(1, 2)])
    assert sum(probs.values()) == pytest.approx(1.0)
    assert Accuse() in probs and Wager(2, 6) in probs and Wager(1, 2) not in probs
    path = tmp_path / "p.npz"
    pol.save(path)
    back = RoundPolicy.load(path)
    assert back.spec == pol.spec
    again = back.action_probabilities([6], [Wager(1, 2)])
    assert all(abs(again[k] - v) < 1e-6 for k, v in probs.items())
