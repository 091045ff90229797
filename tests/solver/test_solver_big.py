"""Imperfect-recall DAG solver, the match recursion, playouts, shipped data, CLI."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from tavern_dice.errors import NotYourTurnError
from tavern_dice.liars_dice.actions import Accuse
from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.liars_dice.wager import SumWager, Wager
from tavern_dice.strategy.liars_dice.solver.build.abstraction import lift
from tavern_dice.strategy.liars_dice.solver.build.playouts import random_playouts
from tavern_dice.strategy.liars_dice.solver.core.cfr import solve_round
from tavern_dice.strategy.liars_dice.solver.core.match import (
    MatchPlan,
    solve_match,
    win_probabilities,
)
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame, RoundSpec
from tavern_dice.strategy.liars_dice.solver.core.sweeps import Sweeper
from tavern_dice.strategy.liars_dice.solver.play.store import (
    data_path,
    equilibrium_action_probabilities,
    match_win_probability,
)
from tavern_dice.strategy.liars_dice.solver.play.tables import TableError


def test_dag_policy_value_matches_exact_tree() -> None:
    """A recall-1 policy has the same value on its DAG and lifted to the exact tree; the
    recall-1 lower bound never exceeds the exact exploitability."""
    spec = RoundSpec((1, 1), wild_face=None, spot_on=False)
    res = solve_round(spec, recall=1, target_exploitability=1e-5, max_iterations=2000)
    lifted = lift(res.policy)
    sw = Sweeper(lifted.game, lifted.tree)
    expl, value = sw.exploitability(lifted.strategy)
    assert value == pytest.approx(res.value, abs=1e-5)
    assert expl >= res.exploitability - 1e-5
    # without wilds the 1-die round has a Markov equilibrium: recall 1 is exact here
    assert expl < 1e-3 and value == pytest.approx(-1 / 9, abs=1e-3)


def test_win_probabilities_are_consistent() -> None:
    values = {(a, b): 0.1 * (a - b) - 0.05 for a in range(1, 4) for b in range(1, 4)}
    w = win_probabilities(values, 3)
    for a in range(1, 4):
        for b in range(1, 4):
            assert w[a, b, 0] + w[b, a, 1] == pytest.approx(1.0)
    assert w[1, 1, 0] == pytest.approx((1 + values[(1, 1)]) / 2)
    assert np.all((w >= 0) & (w <= 1))


def test_small_match() -> None:
    rules = TAVERN.replace(sides=3)
    plan = MatchPlan(max_dice=2, target_exploitability=1e-3, max_seconds=5, exact_max_seconds=5)
    sol = solve_match(rules, plan)
    assert set(sol.rounds) == {(1, 1), (1, 2), (2, 1), (2, 2)}
    assert sol.rounds[(1, 1)].policy.spec.sum_wagers
    assert sol.rounds[(2, 2)].policy.recall == 2
    assert sol.win[2, 1, 0] > sol.win[1, 1, 0] > sol.win[1, 2, 0]


def test_playouts_follow_the_round_rules() -> None:
    """Random playouts lose at the rate the exact tree gives the uniform strategy."""
    spec = RoundSpec((1, 1), wild_face=6, spot_on=False)
    game = RoundGame.build(spec)
    sw = Sweeper(game, PublicTree.build(game.bids.n_bids))
    p_first_loses = (1 - sw.expected_value(sw.uniform())) / 2
    n = 200_000
    out = random_playouts(n, dice=(1, 1), wild_face=6, rng=np.random.default_rng(5))
    assert abs((out.loser == 0).mean() - p_first_loses) < 4 * np.sqrt(0.25 / n)


needs_data = pytest.mark.skipif(not data_path("tavern-standard").exists(),
                                reason="package data not built")


@needs_data
def test_shipped_policies() -> None:
    probs = equilibrium_action_probabilities("tavern-standard", [5, 2], 2, False, [Wager(1, 5)])
    assert sum(probs.values()) == pytest.approx(1.0, abs=1e-9)
    assert Accuse() in probs and Wager(1, 5) not in probs and Wager(1, 6) in probs
    opening = equilibrium_action_probabilities("tavern", [3], 1, True, [])
    assert Accuse() not in opening and all(isinstance(w, SumWager) for w in opening)
    with pytest.raises(NotYourTurnError):
        equilibrium_action_probabilities("tavern-standard", [1, 2, 3], 2, True, [Wager(1, 1)])
    w = match_win_probability("tavern-standard", 3, 3, True)
    assert 0.3 < w < 0.7
    assert match_win_probability("tavern-standard", 3, 1, True) > 0.9
    with pytest.raises(TableError, match=r"covers whole matches up to \d dice a side"):
        match_win_probability("tavern-standard", 6, 6, True)


def test_cli_solve(tmp_path: Path) -> None:
    from tavern_dice.cli import app

    out, png = tmp_path / "p.npz", tmp_path / "c.png"
    result = CliRunner().invoke(app, [
        "solve", "liars-dice", "--dice-each", "1,1", "--sides", "4", "--target-exploitability",
        "1e-3", "--output", str(out), "--plot", str(png),
    ])
    assert result.exit_code == 0, result.output
    assert "exploitability" in result.output and out.exists() and png.stat().st_size > 1000
    bad = CliRunner().invoke(app, ["solve", "liars-dice", "--raise", "either"])
    assert bad.exit_code != 0 and "cycles" in bad.output
