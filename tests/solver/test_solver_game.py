"""Wagers, hands, truth of wagers and the public tree of two-player rounds."""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest

from tavern_dice.errors import IllegalActionError, RulesetError
from tavern_dice.liars_dice.rules import OPENSPIEL, TAVERN, RaiseRule
from tavern_dice.liars_dice.wager import SumWager, Wager, is_raise
from tavern_dice.strategy.liars_dice.solver.core.bids import BidSpace
from tavern_dice.strategy.liars_dice.solver.core.chance import PrivateStates
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame, RoundSpec


@pytest.mark.parametrize("rule", [RaiseRule.STANDARD, RaiseRule.FACE_MAJOR])
def test_bid_numbers_follow_the_raise_rule(rule: RaiseRule) -> None:
    space = BidSpace.counts(3, 4, rule)
    wagers = [space.wager(i) for i in range(space.n_bids)]
    assert len(set(wagers)) == space.n_bids == 12
    for i, j in itertools.product(range(space.n_bids), repeat=2):
        assert is_raise(wagers[j], wagers[i], rule) == (j > i)
        assert space.index(wagers[i]) == i


def test_either_rule_and_bad_wagers_are_rejected() -> None:
    with pytest.raises(RulesetError, match="cycles"):
        BidSpace.counts(2, 6, RaiseRule.EITHER)
    with pytest.raises(RulesetError, match="cycles"):
        RoundSpec((2, 2), raise_rule=RaiseRule.EITHER)
    with pytest.raises(IllegalActionError):
        BidSpace.counts(2, 6).index(Wager(3, 1))  # quantity above the dice in play
    with pytest.raises(IllegalActionError):
        BidSpace.sums(6).index(SumWager(13))
    with pytest.raises(RulesetError):
        RoundSpec((2, 1), sum_wagers=True)


@pytest.mark.parametrize(("d", "s"), [(1, 6), (2, 6), (3, 4), (5, 6)])
def test_hands_are_multinomial(d: int, s: int) -> None:
    hands = PrivateStates.roll(d, s)
    assert hands.n_states == math.comb(d + s - 1, d)
    assert hands.prob.sum() == pytest.approx(1.0)
    freq: dict[int, int] = {}
    for roll in itertools.product(range(1, s + 1), repeat=d):
        freq[hands.index(roll)] = freq.get(hands.index(roll), 0) + 1
    assert np.allclose([freq[i] / s**d for i in range(hands.n_states)], hands.prob)


def test_truth_counts_wilds_except_on_the_wild_face() -> None:
    game = RoundGame.build(RoundSpec((2, 1), wild_face=6))
    bids, (h0, h1) = game.bids, game.hands
    x, y = h0.index([6, 3]), h1.index([3])
    assert game.truth[bids.index(Wager(3, 3)), x, y]  # 3, 3 and the wild 6
    assert not game.truth[bids.index(Wager(2, 6)), x, y]  # a wager on sixes counts sixes only
    assert game.truth[bids.index(Wager(1, 5)), x, y]  # the 6 counts as a five
    plain = RoundGame.build(RoundSpec((2, 1)))
    assert not plain.truth[bids.index(Wager(3, 3)), x, y]
    # an exact count is true (two-player spot-on: the accuser loses)
    assert plain.truth[bids.index(Wager(2, 3)), x, y]


def test_sum_wagers() -> None:
    game = RoundGame.build(RoundSpec.from_rules(TAVERN, (1, 1)))
    assert game.spec.sum_wagers and game.bids.kind == "sum"
    x, y = game.hands[0].index([4]), game.hands[1].index([3])
    assert game.truth[game.bids.index(SumWager(7)), x, y]
    assert not game.truth[game.bids.index(SumWager(8)), x, y]
    assert not RoundSpec.from_rules(OPENSPIEL, (1, 1)).sum_wagers


def test_payoff_signs() -> None:
    game = RoundGame.build(RoundSpec((1, 1), payoffs=(-0.5, 0.25)))
    b = game.bids.index(Wager(2, 6))
    x, y = game.hands[0].index([1]), game.hands[1].index([2])
    assert game.payoff0[0, b, x, y] == -0.5  # player 0's false wager: player 0 loses the die
    assert game.payoff0[1, b, x, y] == 0.25  # player 1's false wager: player 1 loses the die


def test_exact_tree_shape_and_lookup() -> None:
    tree = PublicTree.build(5)
    assert tree.n_nodes == 32
    seen = set()
    for r in range(6):
        for hist in itertools.combinations(range(5), r):
            node = tree.node_of(hist)
            seen.add(node)
            actor, sl = tree.slots_at(node)
            assert actor == r % 2 == tree.node_actor[node]
            acts = tree.slot_action[actor][sl].tolist()
            last = hist[-1] if hist else -1
            assert acts == ([5] if hist else []) + list(range(last + 1, 5))
    assert len(seen) == 32
    with pytest.raises(IllegalActionError):
        tree.node_of([3, 2])


def test_the_escape_tree_adds_the_either_only_raises_within_a_budget() -> None:
    """1 die each: wager 8 is 2 threes, whose escapes are 1 four, 1 five, 1 six (3-5).
    With one escape left they join the raises and lead to nodes with none left; with
    none left (and with a budget of 0 everywhere) the tree is the last-wager DAG."""
    escape_to = [[j for j in range(12) if j % 6 > i % 6 and j // 6 < i // 6]
                 for i in range(12)]
    assert escape_to[8] == [3, 4, 5]
    tree = PublicTree.build_escapes(12, escape_to, 1)
    node = tree.escape_node(8, 1, 1)
    actor, slots = tree.slots_at(node)
    assert actor == 1
    assert sorted(tree.slot_action[1][slots].tolist()) == [3, 4, 5, 9, 10, 11, 12]
    for slot in range(slots.start, slots.stop):
        action = int(tree.slot_action[1][slot])
        child = int(tree.slot_child[1][slot])
        if action in (3, 4, 5):
            assert child == tree.escape_node(action, 0, 0)
        elif action < 12:
            assert child == tree.escape_node(action, 0, 1)
    _, spent = tree.slots_at(tree.escape_node(8, 1, 0))
    assert sorted(tree.slot_action[1][spent].tolist()) == [9, 10, 11, 12]
    assert tree.window_node([8], 1) == node  # a history is read with every escape left
    plain, none = PublicTree.build(12, recall=1), PublicTree.build_escapes(12, escape_to, 0)
    for p in (0, 1):
        assert (none.slot_action[p] == plain.slot_action[p]).all()
        assert (none.slot_child[p] == plain.slot_child[p]).all()
    with pytest.raises(RulesetError):
        PublicTree.build_escapes(12, escape_to[:5], 1)


def test_window_tree_merges_histories() -> None:
    tree = PublicTree.build(6, recall=1)
    assert tree.node_of([0, 1, 2, 4]) == tree.node_of([2, 4])  # same last wager, same actor
    assert tree.node_of([1, 4]) != tree.node_of([4])  # different player to act
    two = PublicTree.build(6, recall=2)
    assert two.node_of([0, 1, 2, 4]) == two.node_of([2, 4])
    assert two.node_of([0, 1, 3, 4]) != two.node_of([2, 4])


def _same_tree(a: PublicTree, b: PublicTree) -> None:
    """Every field of two compiled DAGs equal, their sweep groups included."""
    for field in dataclasses.fields(a):
        x, y = getattr(a, field.name), getattr(b, field.name)
        if field.name == "groups":
            assert len(x) == len(y)
            for g, h in zip(x, y, strict=True):
                for part in dataclasses.fields(g):
                    u, v = getattr(g, part.name), getattr(h, part.name)
                    assert (np.array_equal(u, v) if isinstance(u, np.ndarray) else u == v), \
                        part.name
        elif isinstance(x, tuple) and x and isinstance(x[0], np.ndarray):
            assert all(np.array_equal(u, v) for u, v in zip(x, y, strict=True)), field.name
        elif isinstance(x, np.ndarray):
            assert np.array_equal(x, y), field.name
        else:
            assert x == y, field.name


@pytest.mark.parametrize("recall", [1, 2])
def test_the_written_down_window_dag_is_the_walked_one(recall: int) -> None:
    # The walk numbers windows as it meets them; the closed form must keep that numbering
    # (the blueprints' stored rows follow it), for every round size up to 10 dice of 6.
    for n_bids in [*range(1, 16), 37, 61]:
        _same_tree(PublicTree._build_window_closed(n_bids, recall),
                   PublicTree._build_window_bfs(n_bids, recall))
    assert PublicTree.build(8, recall=3).recall == 3  # longer memories are walked
