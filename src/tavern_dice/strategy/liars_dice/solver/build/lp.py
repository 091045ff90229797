"""Sequence-form linear program of a round (Koller, Megiddo & von Stengel 1994).

An independent check of the CFR solver on small rounds: the value of the
zero-sum round is the optimum of

    maximise  q_0   over realisation plans x >= 0 of player 0 and free q
    subject to  E x = e,   F^T q - A^T x <= 0,

where ``E x = e`` / ``F y = f`` are the two players' sequence constraints
(one row per information set: own hand x public node) and ``A`` is player 0's
payoff per pair of sequences, weighted by the hands' chance probabilities.
Solved with SciPy's HiGHS. Only for the exact tree, and sizes of a few
thousand nodes (the sum endgame, OpenSpiel's 1-die round).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import scipy.optimize
import scipy.sparse as sp

from tavern_dice.errors import TavernError
from tavern_dice.strategy.liars_dice.solver.core.public_tree import PublicTree
from tavern_dice.strategy.liars_dice.solver.core.round_game import RoundGame

IntArray = npt.NDArray[np.int64]


def last_own_slots(tree: PublicTree) -> tuple[IntArray, IntArray]:
    """Per player, shape ``(n_nodes,)``: the player's last slot on the path to each node.

    -1 where the player has not acted yet.
    """
    last = [np.full(tree.n_nodes, -1, dtype=np.int64) for _ in (0, 1)]
    for g in tree.groups:
        if g.layer < 0:
            continue
        nodes = np.arange(g.n_lo, g.n_hi)
        mover = 1 - g.actor
        last[mover][nodes] = g.in_slots
        last[g.actor][nodes] = last[g.actor][g.in_parents]
    return (last[0], last[1])


def _sequence_matrix(tree: PublicTree, p: int, n_hands: int, last: IntArray) -> sp.csr_matrix:
    """Rows: the empty sequence, then (node of p, hand); columns: 1 + slot * n_hands + hand."""
    n_seq = 1 + tree.n_slots[p] * n_hands
    rows, cols, vals = [np.array([0])], [np.array([0])], [np.array([1.0])]
    hands = np.arange(n_hands)
    seg = tree.slot_seg[p]
    # +1 for every slot of the information set
    r = 1 + seg[:, None] * n_hands + hands[None, :]
    c = 1 + np.arange(tree.n_slots[p])[:, None] * n_hands + hands[None, :]
    rows.append(r.ravel())
    cols.append(c.ravel())
    vals.append(np.ones(r.size))
    # -1 for the parent sequence
    nodes = tree.player_nodes[p]
    par = last[nodes]
    r2 = 1 + np.arange(nodes.shape[0])[:, None] * n_hands + hands[None, :]
    c2 = np.where(par[:, None] < 0, 0, 1 + par[:, None] * n_hands + hands[None, :])
    rows.append(r2.ravel())
    cols.append(c2.ravel())
    vals.append(-np.ones(r2.size))
    n_rows = 1 + nodes.shape[0] * n_hands
    return sp.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))), shape=(n_rows, n_seq)
    )


def lp_value(game: RoundGame, tree: PublicTree | None = None) -> float:
    """The round's value for player 0 (the first bidder), by linear programming."""
    tree = tree or PublicTree.build(game.bids.n_bids, None)
    if tree.recall is not None:
        raise TavernError("the sequence-form LP needs the exact (perfect-recall) tree")
    n0, n1 = game.n_states
    last = last_own_slots(tree)
    e_mat = _sequence_matrix(tree, 0, n0, last[0])
    f_mat = _sequence_matrix(tree, 1, n1, last[1])
    chance = game.hands[0].prob[:, None] * game.hands[1].prob[None, :]
    pay = game.payoff0 * chance[None, None, :, :]
    hx, hy = np.meshgrid(np.arange(n0), np.arange(n1), indexing="ij")
    rows, cols, vals = [], [], []
    for a in (0, 1):
        liar = np.flatnonzero(tree.slot_action[a] == tree.n_bids)
        nodes = tree.slot_node[a][liar]
        other = last[1 - a][nodes]
        layer = tree.node_layer[nodes]
        own_seq = 1 + liar[:, None, None] * (n0 if a == 0 else n1) + (hx if a == 0 else hy)
        oth = other[:, None, None]
        oth_seq = np.where(oth < 0, 0, 1 + oth * (n1 if a == 0 else n0) + (hy if a == 0 else hx))
        seq0, seq1 = (own_seq, oth_seq) if a == 0 else (oth_seq, own_seq)
        rows.append(np.broadcast_to(seq0, (liar.shape[0], n0, n1)).ravel())
        cols.append(np.broadcast_to(seq1, (liar.shape[0], n0, n1)).ravel())
        vals.append(pay[1 - a, layer].ravel())
    a_mat = sp.csr_matrix(
        (np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
        shape=(e_mat.shape[1], f_mat.shape[1]),
    )
    nx, nq = e_mat.shape[1], f_mat.shape[0]
    c = np.zeros(nx + nq)
    c[nx] = -1.0
    a_ub = sp.hstack([-a_mat.T, f_mat.T]).tocsr()
    a_eq = sp.hstack([e_mat, sp.csr_matrix((e_mat.shape[0], nq))]).tocsr()
    b_eq = np.zeros(e_mat.shape[0])
    b_eq[0] = 1.0
    bounds = [(0.0, None)] * nx + [(None, None)] * nq
    res = scipy.optimize.linprog(
        c, A_ub=a_ub, b_ub=np.zeros(a_ub.shape[0]), A_eq=a_eq, b_eq=b_eq, bounds=bounds,
        method="highs",
    )
    if res.status != 0:
        raise TavernError(f"linear program failed: {res.message}")
    return float(-res.fun)
