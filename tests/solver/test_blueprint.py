"""The heads-up blueprints for rounds no table covers (issue 7): solved on the last-wager
DAG, stored as ``uint8``, read back as distributions, answered through a player's view,
and played by ``strong`` there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tavern_dice.bots.base import ACCUSE
from tavern_dice.bots.liars_exploit.model import hands_of
from tavern_dice.bots.liars_strong import StrongLiarsDiceBot
from tavern_dice.dice import SeededDice
from tavern_dice.liars_dice.rules import TAVERN, LiarsDiceRules, RaiseRule
from tavern_dice.liars_dice.state import LiarsDiceGame
from tavern_dice.liars_dice.wager import Wager
from tavern_dice.strategy.liars_dice.solver.play.blueprint import (
    BLUEPRINT_KEYS,
    SHIPPED_RECALLS,
    blueprint_policy,
    blueprint_rounds,
    data_path,
    load_blueprint,
    read_meta,
    save,
    solve_blueprint,
)

STANDARD = TAVERN.replace(raise_rule=RaiseRule.STANDARD)


@pytest.fixture(scope="module")
def solved() -> dict[tuple[int, int], Any]:
    # 2 v 5 and 5 v 2: the cheapest rounds a blueprint covers (21 x 252 hands).
    return {dice: solve_blueprint("tavern-standard", dice, 30) for dice in ((2, 5), (5, 2))}


@pytest.fixture(scope="module")
def solved2() -> dict[tuple[int, int], Any]:
    # The two-wager blueprint of 2 v 5 only (a few iterations: its numbers are not the point).
    return {(2, 5): solve_blueprint("tavern-standard", (2, 5), 10, recall=2)}


@pytest.fixture()
def folder(
    tmp_path: Path, solved: dict[tuple[int, int], Any], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    save(solved, "tavern-standard", data_path("tavern-standard", tmp_path))
    monkeypatch.setenv("TAVERN_TABLES", str(tmp_path))
    load_blueprint.cache_clear()
    yield tmp_path
    load_blueprint.cache_clear()


def test_the_rounds_covered_are_those_with_7_to_10_dice_in_play() -> None:
    rounds = blueprint_rounds()
    assert len(rounds) == 10 and rounds[0] == (5, 5)
    assert all(7 <= a + b <= 10 and min(a, b) >= 1 for a, b in rounds)


def test_a_saved_blueprint_reads_back_as_the_solved_distributions(
    folder: Path, solved: dict[tuple[int, int], Any]
) -> None:
    strategy, meta = solved[(2, 5)]
    assert meta["iterations"] == 30 and meta["recall"] == 1
    loaded = load_blueprint("tavern-standard", 2, 5)
    tree = loaded.tree
    for p in (0, 1):
        # Every node's probabilities sum to one for every hand again after uint8 storage,
        # and differ from the solved ones by the rounding step and the dropped chances
        # (each at most 1.5 / 255, the node renormalised) at most.
        sums = np.add.reduceat(loaded.strategy[p], tree.seg_starts[p], axis=0)
        assert sums == pytest.approx(1.0)
        assert np.abs(loaded.strategy[p] - strategy[p]).max() < 0.05
        # A chance under 1.5 / 255 was not stored.
        small = (strategy[p] < 0.5 / 255) | ((strategy[p] > 1.5 / 255) & (strategy[p] < 1))
        assert not (loaded.raw[p][(strategy[p] >= 0.5 / 255) & (strategy[p] < 1.5 / 255)]).any()
        assert small.any()
    # Play renormalises one node at a time (the stored bytes stay in memory): the same rows.
    full = loaded.strategy
    for node in range(0, tree.n_nodes, 7):
        actor, slots = tree.slots_at(node)
        if slots.stop == slots.start:
            continue
        remembered = [] if tree.node_layer[node] < 0 else [int(tree.node_layer[node])]
        hands = list(range(full[actor].shape[1]))
        _, rows = loaded.policy(remembered, actor, hands)
        assert rows == pytest.approx(full[actor][slots].T)
    rounds = read_meta(data_path("tavern-standard", folder))["rounds"]
    assert [r["dice"] for r in rounds] == [[2, 5], [5, 2]]


@pytest.mark.parametrize("rules", [STANDARD, TAVERN], ids=["standard", "either"])
def test_a_player_reads_the_blueprint_through_its_view(folder: Path, rules: LiarsDiceRules) -> None:
    engine = LiarsDiceGame(2, rules=rules, dice=SeededDice(3), starting_dice=[2, 5])
    seen = 0
    while engine.winner is None and sum(engine.dice_counts) >= 7 and seen < 12:
        seat = engine.turn
        assert seat is not None
        view = engine.view(seat)
        faces = hands_of(engine.dice_counts[seat], rules.sides).faces
        found = blueprint_policy(view, faces)
        assert found is not None
        actions, probs = found
        legal = set(view.legal_wagers)
        assert all(a in legal or (a == ACCUSE and view.may_accuse) for a in actions)
        assert probs.shape == (len(faces), len(actions))
        assert probs.sum(axis=1) == pytest.approx(1.0)
        # The row of the seat's own hand is what the blueprint stores for it.
        own = faces.index(tuple(sorted(view.own_dice)))
        one = blueprint_policy(view, [tuple(view.own_dice)])
        assert one is not None and one[1][0] == pytest.approx(probs[own])
        action = actions[int(np.argmax(probs[own]))]
        if action == ACCUSE:
            engine.accuse(seat)
        else:
            engine.wager(action, seat)
        seen += 1
    assert seen >= 2


def test_no_blueprint_where_a_table_covers_or_more_players_sit(folder: Path) -> None:
    small = LiarsDiceGame(2, rules=STANDARD, dice=SeededDice(1), starting_dice=[3, 3])
    seat = small.turn
    assert seat is not None
    assert blueprint_policy(small.view(seat), [(1, 2, 3)]) is None
    three = LiarsDiceGame(3, rules=STANDARD, dice=SeededDice(1))
    seat = three.turn
    assert seat is not None
    assert blueprint_policy(three.view(seat), [(1, 2, 3, 4, 5)]) is None
    missing = LiarsDiceGame(2, rules=STANDARD, dice=SeededDice(1))  # 5 v 5: not in this folder
    seat = missing.turn
    assert seat is not None
    assert blueprint_policy(missing.view(seat), [(1, 2, 3, 4, 5)]) is None


def test_strong_plays_the_blueprint_heads_up_in_a_big_round(folder: Path) -> None:
    engine = LiarsDiceGame(2, rules=STANDARD, dice=SeededDice(8), starting_dice=[5, 2])
    seat = engine.turn
    assert seat is not None
    view = engine.view(seat)
    faces = hands_of(engine.dice_counts[seat], 6).faces
    bot = StrongLiarsDiceBot("s", seed=1)
    found = blueprint_policy(view, faces)
    assert found is not None
    assert bot.range_policy(view, faces)[1] == pytest.approx(found[1])
    off = StrongLiarsDiceBot("s", seed=1, blueprints=False)
    assert off.range_policy(view, faces)[1].shape[0] == len(faces)
    probs = bot.action_probabilities(view)
    assert sum(probs.values()) == pytest.approx(1.0)


def test_the_shipped_blueprints_cover_every_round() -> None:
    for key in BLUEPRINT_KEYS:
        for recall in SHIPPED_RECALLS[key]:
            meta = read_meta(data_path(key, recall=recall))
            assert sorted(tuple(r["dice"]) for r in meta["rounds"]) == sorted(
                blueprint_rounds(key))
            assert {r["recall"] for r in meta["rounds"]} == {recall}


def test_the_two_wager_blueprint_answers_where_it_has_a_node(
    folder: Path, solved2: dict[tuple[int, int], Any]
) -> None:
    """With both memories shipped, a player two rising wagers into a round reads the
    two-wager blueprint's node for them; after an ``either``-only raise (a higher face at a
    lower quantity: the two wagers do not rise in the ``standard`` order) it has no node,
    and the last-wager blueprint answers."""
    save(solved2, "tavern-standard", data_path("tavern-standard", folder, recall=2))
    load_blueprint.cache_clear()
    two = load_blueprint("tavern-standard", 2, 5, recall=2)
    one = load_blueprint("tavern-standard", 2, 5)
    assert two.tree.recall == 2 and one.tree.recall == 1
    game = two.game
    hands = hands_of(2, 6).faces  # the first bidder holds 2 dice
    numbers = [game.hands[0].index(h) for h in hands]

    # Seat 0 (2 dice) opens.
    rising = LiarsDiceGame(2, rules=TAVERN, dice=SeededDice(4), starting_dice=[2, 5])
    first = rising.turn
    assert first == 0
    rising.wager(Wager(2, 3), first)
    rising.wager(Wager(3, 3), 1 - first)
    found = blueprint_policy(rising.view(first), hands)
    assert found is not None
    wagers = [game.bids.index(Wager(2, 3)), game.bids.index(Wager(3, 3))]
    actions, probs = two.policy(wagers, 0, numbers)
    expected = [ACCUSE if a == game.bids.liar else game.bids.wager(a) for a in actions]
    assert list(found[0]) == expected
    assert found[1] == pytest.approx(probs)
    last_only = one.policy(wagers[1:], 0, numbers)[1]
    assert not np.allclose(probs, last_only)  # it does remember more

    falling = LiarsDiceGame(2, rules=TAVERN, dice=SeededDice(4), starting_dice=[2, 5])
    falling.wager(Wager(3, 3), first)
    falling.wager(Wager(2, 6), 1 - first)  # a higher face, a lower quantity (either)
    found = blueprint_policy(falling.view(first), hands)
    assert found is not None
    actions, probs = one.policy([game.bids.index(Wager(2, 6))], 0, numbers)
    keep = [i for i, a in enumerate(actions) if a == game.bids.liar
            or game.bids.wager(a) in set(falling.view(first).legal_wagers)]
    assert found[1] == pytest.approx(probs[:, keep] / probs[:, keep].sum(axis=1, keepdims=True))
