"""How a search reads its subgame's leaves (``LeafSet``), checked leaf by leaf.

The products read every whole matrix once for all root raises, and the second bidder's
values as the first bidder's transposed; here each leaf is valued on its own from the
blueprint's played-out values (``eu``, the first bidder's score per pair of hands), with
no factoring and no shared product.
"""

from __future__ import annotations

import numpy as np
import pytest

from tavern_dice.liars_dice.rules import TAVERN
from tavern_dice.liars_dice.wager import AnyWager, Wager
from tavern_dice.strategy.liars_dice.solver.play.leaf_set import LeafSet, padded_rows
from tavern_dice.strategy.liars_dice.solver.play.leaves import build_leaf_values, leaf_values
from tavern_dice.strategy.liars_dice.solver.play.subgame import searched_raises

KEY = "tavern-standard"


@pytest.mark.parametrize("wagers", [(), (Wager(2, 3),), (Wager(2, 3), Wager(1, 5))])
def test_each_leaf_reads_its_nodes_blueprint_values(wagers: tuple[AnyWager, ...]) -> None:
    leaf_values.cache_clear()
    leaves = build_leaf_values(KEY, 4, 3)
    actor = len(wagers) % 2
    dice = leaves.first + leaves.second
    owner, column, nodes = [], [], []
    raises = searched_raises(TAVERN, dice, wagers)
    for i, r in enumerate(raises):
        for j, answer in enumerate(searched_raises(TAVERN, dice, [*wagers, r])):
            owner.append(i)
            column.append(1 + j)
            nodes.append(leaves.leaf(r, answer, actor))
    values = leaves.factored(actor)
    found = LeafSet(values, np.array(nodes), np.array(owner), np.array(column), len(raises))
    assert found.high.shape[0] > 0 and found.low.shape[0] > 0  # both ways of reading

    rng = np.random.default_rng(7)
    n_a, n_b = leaves.game.n_states[actor], leaves.game.n_states[1 - actor]
    width = 1 + max(column)
    x = rng.random((n_a, len(raises)))
    y = rng.random((len(raises), width, n_b))
    forward = found.forward(x)
    backward = found.backward(y, None)

    expected_back = np.zeros((n_a, len(raises)))
    for leaf, (i, j, node) in enumerate(zip(owner, column, nodes, strict=True)):
        # The actor's score per pair of hands, its own hands as rows.
        score = leaves.eu[node] if actor == 0 else -leaves.eu[node].T
        expected = x[:, i] @ score
        scale = np.abs(expected).max() + 1e-9
        # Factored nodes keep all but DENSE_RESIDUAL of the matrix; whole ones, float32.
        assert np.abs(forward[0, leaf] - expected).max() <= 2e-3 * scale
        expected_back[:, i] += score @ y[i, j]
    scale = np.abs(expected_back).max()
    assert np.abs(backward - expected_back).max() <= 2e-3 * scale
    leaf_values.cache_clear()


def test_the_iteration_budget_counts_rows_as_padded_blocks() -> None:
    """The budget's unit pads blocks of nodes to their widest: with blocks free every node
    is its own block (the leaves' own rows), with blocks dear all are one block."""
    counts = np.array([3, 12, 6, 6])
    assert padded_rows(counts, pairs=10**12) == 27
    assert padded_rows(counts, pairs=1) == 48
    assert padded_rows(np.array([], dtype=np.int64), pairs=1) == 0
