"""Pruning the heads-up tables (issue 7, "the data stays small"): what a hand's own play
rarely reaches is forgotten, and what that costs is measured exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tavern_dice.liars_dice import TAVERN, RaiseRule
from tavern_dice.strategy.liars_dice.solver.build.build_tables import (
    PRUNE_COST,
    PRUNE_SHARE,
    main,
    prune_allowance,
    prune_file,
)
from tavern_dice.strategy.liars_dice.solver.core.oracle import solve
from tavern_dice.strategy.liars_dice.solver.core.oracle_game import OracleRound
from tavern_dice.strategy.liars_dice.solver.play.table_store import round_file, round_files
from tavern_dice.strategy.liars_dice.solver.play.tables import (
    RoundTable,
    data_path,
    forget_loaded,
    from_result,
    load_round,
    read_meta,
    save,
)


@pytest.fixture(scope="module")
def table() -> RoundTable:
    """The shipped seed's-rules 2 v 2 round (9,078 histories): mixed, deep enough that a
    hand's own play reaches some histories with very small chances."""
    return load_round("tavern", 2, 2)


def naive_own_reach(table: RoundTable, player: int) -> np.ndarray:
    """By the histories themselves: the product of ``player``'s own chances of each of
    its wagers on the way, read with :meth:`RoundTable.policy_at`."""
    out = np.ones((table.n_nodes, table.strategy[player].shape[1]))
    for history, node in table.index.items():
        for k in range(player, len(history), 2):
            found = table.policy_at(history[:k], player)
            assert found is not None
            actions, probs = found
            out[node] *= probs[actions.index(history[k])]
    return out


def test_own_reach_is_the_product_of_a_players_own_chances(table: RoundTable) -> None:
    for player in (0, 1):
        reach = table.own_reach(player)
        assert reach.shape == (table.n_nodes, table.strategy[player].shape[1])
        assert np.allclose(reach, naive_own_reach(table, player))
        assert reach[0].tolist() == [1.0] * reach.shape[1]  # the root, before any wager
        # The opening wager's chances: one step of the first bidder's own play.
        actions, probs = table.policy_at((), 0)  # type: ignore[misc]
        if player == 0:
            node = table.index[(actions[1],)]
            assert np.allclose(reach[node], probs[1])


def test_pruning_forgets_only_what_a_hand_rarely_reaches(table: RoundTable) -> None:
    below = 1e-3
    pruned = table.pruned(below)
    counts = np.diff(table.slot_start)
    slot_node = np.repeat(np.arange(table.n_nodes), counts)
    depth = np.array([len(h) for h, _ in sorted(table.index.items(), key=lambda x: x[1])])
    forgotten = 0
    for p in (0, 1):
        reach = table.own_reach(p)
        mine = np.flatnonzero(depth[slot_node] % 2 == p)
        rows = table.rows[mine]
        kept = reach[slot_node[mine]] >= below
        assert np.array_equal(pruned.strategy[p][rows][kept], table.strategy[p][rows][kept])
        assert not pruned.strategy[p][rows][~kept].any()
        forgotten += int((table.strategy[p][rows][~kept] > 0).sum())
    assert forgotten > 0
    assert table.strategy[0].any() and pruned.meta == table.meta


def mixed(path: Path) -> int:
    """How many stored probabilities are neither 0 nor 1 (what takes room compressed: a
    forgotten hand stores its default, the first action, as certain)."""
    total = 0
    for _, file in round_files(path):
        with np.load(file) as data:
            for k in ("q0", "q1"):
                top = np.iinfo(data[k].dtype).max
                total += int(((data[k] > 0) & (data[k] < top)).sum())
    return total


def test_a_pruned_file_stores_less_and_costs_at_most_its_limit(tmp_path: Path) -> None:
    key = "tavern-standard"
    game = OracleRound(TAVERN.replace(raise_rule=RaiseRule.STANDARD), (2, 2))
    path = data_path(key, tmp_path)
    save({(2, 2): from_result(solve(game, target=2e-2, cfr_iterations=60))}, key, path)
    forget_loaded()
    try:
        base = load_round(key, 2, 2, folder=tmp_path).measure(lbr=False)["exploitability"]
        stored = load_round(key, 2, 2, folder=tmp_path)
        stored.meta["exploitability"] = base  # as stored, like the build's figure
        save({(2, 2): stored}, key, path)
        before = mixed(path)
        prune_file(key, path, levels=(1e-1, 1e-4))
        after = read_meta(path)["rounds"][0]
        # The figures stored are those of the data stored.
        measured = load_round(key, 2, 2, folder=tmp_path).measure(lbr=False)
    finally:
        forget_loaded()
    assert after["exploitability_unpruned"] == base
    # Forgetting everything a hand reaches under 10 % of the time costs too much; under
    # 0.01 % it does not, and some probabilities are forgotten.
    assert after["pruned_below"] == 1e-4
    assert after["exploitability"] <= base + prune_allowance(base)
    assert prune_allowance(base) == max(PRUNE_COST, PRUNE_SHARE * base)
    # A solved round keeps the absolute limit; one far from an equilibrium a share of it.
    assert prune_allowance(0.004) == PRUNE_COST and prune_allowance(0.1) == pytest.approx(1e-3)
    assert mixed(path) < before
    assert measured["exploitability"] == pytest.approx(after["exploitability"], abs=1e-12)


def test_pruning_named_rounds_leaves_the_others_as_stored(tmp_path: Path) -> None:
    key = "tavern-standard"
    rules = TAVERN.replace(raise_rule=RaiseRule.STANDARD)
    path = data_path(key, tmp_path)
    save({dice: from_result(solve(OracleRound(rules, dice), target=2e-2, cfr_iterations=60))
          for dice in ((1, 1), (2, 1))}, key, path)
    with np.load(round_file(path, 1, 1)) as data:
        before = {k: data[k].copy() for k in data.files if k != "meta"}
    forget_loaded()
    try:
        prune_file(key, path, levels=(1e-1,), cost=1.0, rounds={(2, 1)})
        meta = {tuple(r["dice"]): r for r in read_meta(path)["rounds"]}
    finally:
        forget_loaded()
    with np.load(round_file(path, 1, 1)) as data:
        assert all(np.array_equal(data[k], v) for k, v in before.items())
    assert "pruned_below" not in meta[(1, 1)] and meta[(2, 1)]["pruned_below"] == 1e-1


def test_merging_copies_rounds_built_apart_as_they_are(tmp_path: Path) -> None:
    """Rounds built in folders of their own join a file: arrays and figures unchanged, a
    round the file had replaced, the others kept."""
    shipped = {d: load_round("tavern", *d) for d in ((1, 1), (1, 2), (2, 1))}
    save({(1, 1): shipped[(1, 1)], (2, 1): shipped[(1, 2)]}, "tavern",
         data_path("tavern", tmp_path / "out"))  # 2 v 1 holds a wrong round, to be replaced
    save({(1, 2): shipped[(1, 2)]}, "tavern", data_path("tavern", tmp_path / "a"))
    save({(2, 1): shipped[(2, 1)]}, "tavern", data_path("tavern", tmp_path / "b"))
    main(["--rules", "tavern", "--out", str(tmp_path / "out"),
          "--merge", f"{tmp_path / 'a'},{tmp_path / 'b'}"])
    forget_loaded()
    out = data_path("tavern", tmp_path / "out")
    assert [r["dice"] for r in read_meta(out)["rounds"]] == [[1, 1], [1, 2], [2, 1]]
    for dice, table in shipped.items():
        merged = load_round("tavern", *dice, folder=out.parent)
        assert merged.meta == table.meta
        assert np.array_equal(merged.parent, table.parent)
        for p in (0, 1):
            assert np.array_equal(merged.strategy[p], table.strategy[p])
    forget_loaded()


def test_merging_with_rounds_takes_only_those_from_the_sources(tmp_path: Path) -> None:
    """A resumed build's folder holds a copy of every round; ``--rounds`` takes only the
    one it rebuilt, so that a round built beside it elsewhere is not overwritten."""
    shipped = {d: load_round("tavern", *d) for d in ((1, 1), (1, 2))}
    save(shipped, "tavern", data_path("tavern", tmp_path / "out"))
    # The source's 1 v 1 is a wrong round (the 1 v 2 table): it must not be taken.
    save({(1, 1): shipped[(1, 2)], (1, 2): shipped[(1, 2)]}, "tavern",
         data_path("tavern", tmp_path / "a"))
    main(["--rules", "tavern", "--out", str(tmp_path / "out"), "--merge",
          str(tmp_path / "a"), "--rounds", "1x2"])
    forget_loaded()
    out = data_path("tavern", tmp_path / "out")
    kept = load_round("tavern", 1, 1, folder=out.parent)
    assert kept.meta == shipped[(1, 1)].meta
    assert np.array_equal(kept.parent, shipped[(1, 1)].parent)
    forget_loaded()
