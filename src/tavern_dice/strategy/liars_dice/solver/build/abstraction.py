"""Carry a last-``k``-wagers policy onto the exact tree, to measure it exactly.

A ``recall=k`` strategy is a legal strategy of the real round: at any full
history it plays what it plays at (last ``k`` wagers, player to act). Lifting
it to the perfect-recall tree lets :class:`~.sweeps.Sweeper`
compute its *exact* exploitability (a best response that sees everything),
which is how the abstraction is validated on rounds small enough for the
exact tree.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.policy import RoundPolicy
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree

IntArray = npt.NDArray[np.int64]


def exact_node_map(exact: PublicTree, abstract: PublicTree) -> IntArray:
    """Shape ``(exact.n_nodes,)``: the ``abstract`` node each exact node falls in."""
    if exact.recall is not None or abstract.recall is None or exact.n_bids != abstract.n_bids:
        raise TavernError("need an exact tree and a recall-k tree of the same round")
    n_bids, k = exact.n_bids, abstract.recall
    out = np.empty(exact.n_nodes, dtype=np.int64)
    masks = np.arange(1 << n_bids)
    assert exact._mask_to_node is not None
    for mask in masks.tolist():
        bits = [b for b in range(n_bids) if mask >> b & 1]
        out[exact._mask_to_node[mask]] = abstract.node_of(bits[-k:]) if len(bits) <= k else \
            abstract._key_to_node[(tuple(bits[-k:]), len(bits) % 2)]  # type: ignore[index]
    return out


def lift(policy: RoundPolicy, exact: PublicTree | None = None) -> RoundPolicy:
    """The same behaviour as ``policy`` (a ``recall=k`` policy) on the exact tree."""
    if policy.recall is None:
        return policy
    exact = exact or PublicTree.build(policy.tree.n_bids, None)
    abstract = policy.tree
    node_map = exact_node_map(exact, abstract)
    strat = []
    for p in (0, 1):
        seg = exact.slot_seg[p]
        offset = np.arange(exact.n_slots[p]) - exact.seg_starts[p][seg]
        a_nodes = node_map[exact.slot_node[p]]
        a_seg = np.searchsorted(abstract.player_nodes[p], a_nodes)
        a_slot = abstract.seg_starts[p][a_seg] + offset
        if not np.array_equal(abstract.slot_action[p][a_slot], exact.slot_action[p]):
            raise TavernError("abstract and exact action sets disagree")
        strat.append(policy.strategy[p][a_slot])
    lifted = RoundPolicy(policy.spec, None, (strat[0], strat[1]))
    lifted.attach(policy.game, exact)
    return lifted
