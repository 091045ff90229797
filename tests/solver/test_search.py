"""The decision-time search of heads-up rounds under the seed's ``either`` rule.

Checked against independent computations: the leaf values against the blueprint's own
``EU`` matrices, the accusation scores against the round's truth table, and the solved
subgame against best responses computed densely here (its NashConv shrinks to near zero).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest

from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
from tavern_dice.liars_dice.rules import TAVERN, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import ACCUSE, Wager
from tavern_dice.play.runner import liars_dice_step
from tavern_dice.strategy.liars_dice.solver import search
from tavern_dice.strategy.liars_dice.solver.search import (
    LeafValues,
    RoundSearcher,
    leaf_values,
    search_policy,
    solve,
)

KEY = "tavern-standard"
STANDARD = TAVERN.replace(raise_rule=RaiseRule.STANDARD)


@pytest.fixture
def exact(monkeypatch: pytest.MonkeyPatch) -> Iterator[LeafValues]:
    """The 4 v 3 round's leaf values at full rank (the shipped rank is a speed trade)."""
    monkeypatch.setattr(search, "RANK", 10_000)
    leaf_values.cache_clear()
    yield leaf_values(KEY, 4, 3)
    leaf_values.cache_clear()


def test_leaf_factors_reproduce_the_blueprint_values(exact: LeafValues) -> None:
    for actor in (0, 1):
        u, vt = exact.stacks(actor)
        for node in (0, 7, exact.eu.shape[0] - 1):
            expected = exact.eu[node] if actor == 0 else -exact.eu[node].T
            assert u[node] @ vt[node] == pytest.approx(expected, abs=1e-4)


def test_every_leaf_is_within_the_residual_the_search_allows() -> None:
    """At the shipped rank the low wagers' value matrices are far from rank 16; those are
    kept whole, so no node's values as the search reads them are off by more than
    DENSE_RESIDUAL of the blueprint's own (Frobenius norm)."""
    leaf_values.cache_clear()
    leaves = leaf_values(KEY, 4, 3)
    whole = 0
    for actor in (0, 1):
        values = leaves.factored(actor)
        for node in range(leaves.eu.shape[0]):
            expected = leaves.eu[node] if actor == 0 else -leaves.eu[node].T
            slot = values.slot[node]
            read = values.dense[slot] if slot >= 0 else values.u[node] @ values.vt[node]
            whole += slot >= 0
            error = np.linalg.norm(read - expected) / max(np.linalg.norm(expected), 1e-12)
            assert error <= search.DENSE_RESIDUAL + 1e-5
    assert whole > 0  # the opening wagers need more than the shipped rank


def test_a_solve_reading_whole_matrices_matches_one_reading_exact_factors(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The two ways the search reads leaf values (factors per leaf; whole matrices grouped
    by node) solve the same subgame alike when both are exact."""
    wagers = (Wager(2, 3), Wager(1, 5))
    solved = []
    for rank, residual in ((10_000, 1.0), (1, 0.0)):  # every node factored / every node whole
        monkeypatch.setattr(search, "RANK", rank)
        monkeypatch.setattr(search, "DENSE_RESIDUAL", residual)
        leaf_values.cache_clear()
        leaves = leaf_values(KEY, 4, 3)
        reach = (np.ones(leaves.game.n_states[0]), np.ones(leaves.game.n_states[1]))
        solved.append(solve(leaves, TAVERN, 0, wagers, reach))
    leaf_values.cache_clear()
    assert solved[0].strategy == pytest.approx(solved[1].strategy, abs=1e-4)
    assert solved[0].answer_strategy == pytest.approx(solved[1].answer_strategy, abs=1e-4)


def test_an_accused_raise_scores_by_the_truth_table() -> None:
    leaves = leaf_values(KEY, 4, 3)
    truth = leaves.game.truth
    for actor in (0, 1):
        for wager in (Wager(1, 1), Wager(3, 4), Wager(7, 6)):
            u, vt = leaves.raise_accused(actor, wager)
            true = truth[leaves.game.bids.index(wager)]
            mine = true if actor == 0 else true.T
            # The raise's maker scores +1 when it holds (the accuser pays, L8), else -1.
            assert u @ vt == pytest.approx(np.where(mine, 1.0, -1.0))


def _dense_nashconv(leaves: LeafValues, actor: int, wagers: tuple[Wager, ...],
                    solution: search.Solution) -> float:
    """NashConv of the solved subgame, each side's best response computed densely from
    the blueprint's ``EU`` and the round's accusation payoffs (not the search's factors)."""
    a, b = actor, 1 - actor
    game = leaves.game
    w_a, w_b = game.hands[a].prob, game.hands[b].prob

    def orient(m: np.ndarray) -> np.ndarray:  # the first bidder's scores -> A's, rows A
        return m if a == 0 else -m.T

    pay = game.payoff0
    root, sa = solution.actions, solution.strategy
    br_a = np.zeros((w_a.shape[0], len(root)))  # A's values against B's average
    value_vs_br_b = 0.0  # A's average against B's best responses
    r = 0
    for i, action in enumerate(root):
        if action == ACCUSE:
            m = orient(pay[b, game.bids.index(wagers[-1])])
            br_a[:, i] = m @ w_b
            value_vs_br_b += float((w_a * sa[:, i]) @ m @ w_b)
            continue
        answers = solution.answers[r]
        sb = solution.answer_strategy[r]
        x = w_a * sa[:, i]
        assert isinstance(action, Wager)
        mats = [orient(pay[a, game.bids.index(action)])]
        for w in answers[1:]:
            assert isinstance(w, Wager)
            mats.append(orient(leaves.eu[leaves.node(w, a)].astype(np.float64)))
        br_a[:, i] = sum(m @ (w_b * sb[:, j]) for j, m in enumerate(mats))
        # B picks, per hand, the answer worst for A.
        value_vs_br_b += float(np.min(np.stack([x @ m for m in mats]), axis=0) @ w_b)
        r += 1
    best_a = float(w_a @ br_a.max(axis=1))
    return best_a - value_vs_br_b


def test_the_subgame_solve_approaches_an_equilibrium(
    exact: LeafValues, monkeypatch: pytest.MonkeyPatch
) -> None:
    wagers = (Wager(2, 3), Wager(1, 5))  # an either-only raise: a higher face, fewer dice
    reach = (np.ones(exact.game.n_states[0]), np.ones(exact.game.n_states[1]))
    gaps = []
    for iterations in (5, 400):
        monkeypatch.setattr(search, "ITERATIONS", iterations)
        gaps.append(_dense_nashconv(exact, 0, wagers, solve(exact, TAVERN, 0, wagers, reach)))
    assert gaps[1] >= -1e-9
    assert gaps[1] < 0.01 < gaps[0]


def test_every_root_action_is_legal_and_the_strategy_sums_to_one() -> None:
    leaves = leaf_values(KEY, 4, 3)
    reach = (np.ones(leaves.game.n_states[0]), np.ones(leaves.game.n_states[1]))
    wagers = (Wager(2, 3), Wager(1, 5), Wager(2, 1))
    made = [(0, w) for w in wagers]
    from tavern_dice.liars_dice.wager import legal_raises

    legal = set(legal_raises(TAVERN, 7, wagers[-1], False, made))
    for every in (False, True):
        found = solve(leaves, TAVERN, 1, wagers, reach, every)
        assert found.actions[0] == ACCUSE
        assert all(w in legal for w in found.actions[1:])
        assert Wager(2, 3) not in found.actions  # a repeat (L5b) is never searched
        assert found.strategy.sum(axis=1) == pytest.approx(1.0)
        if every:
            assert set(found.actions[1:]) == legal


def test_ranges_follow_the_wagers_the_search_would_make() -> None:
    searcher = RoundSearcher(KEY, 4, 3)
    first = (Wager(2, 3),)
    before = searcher.reach(TAVERN, (), 0)
    actions, strategy = searcher.policy(TAVERN, (), 0)
    mine = searcher.reach(TAVERN, first, 0)
    # The viewer's own wager: exactly its chance under the search it played.
    assert mine[0] == pytest.approx(before[0] * strategy[:, actions.index(first[0])])
    assert mine[1] == pytest.approx(before[1])
    # Seen by the other player, the same wager is read with a floor: nothing impossible.
    theirs = searcher.reach(TAVERN, first, 1)
    assert theirs[0].min() > 0
    assert not np.allclose(theirs[0], theirs[0][0])


def test_strong_searches_heads_up_under_the_seed_rules_only() -> None:
    game = LiarsDiceGame(2, rules=TAVERN, seed=3, starting_dice=[4, 3])
    seat = game.turn
    assert seat is not None
    view = game.view(seat)
    hands = [tuple(view.own_dice)]
    bot = StrongLiarsDiceBot("s", seed=1)
    found = search_policy(view, hands, {})
    assert found is not None
    assert bot.range_policy(view, hands)[1] == pytest.approx(found[1])
    plain = LiarsDiceGame(2, rules=STANDARD, seed=3, starting_dice=[4, 3])
    seat = plain.turn
    assert seat is not None
    assert search_policy(plain.view(seat), hands, {}) is None
    small = LiarsDiceGame(2, rules=TAVERN, seed=3, starting_dice=[3, 3])
    seat = small.turn
    assert seat is not None
    assert search_policy(small.view(seat), [(1, 2, 3)], {}) is None


def test_a_searched_round_replays_from_its_seed() -> None:
    def play() -> list[str]:
        game = LiarsDiceGame(2, rules=TAVERN, seed=11, starting_dice=[4, 3])
        bots = [StrongLiarsDiceBot("a", seed=5), StrongLiarsDiceBot("b", seed=6)]
        first = game.round
        while game.round == first and game.winner is None:
            liars_dice_step(game, bots)
        return [type(e).__name__ + str(getattr(e, "quantity", "")) for e in game.log]

    assert play() == play()
