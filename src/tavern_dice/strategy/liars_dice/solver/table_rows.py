"""How a heads-up table's probabilities are stored (:mod:`.tables`): ``uint16``
(probability x :data:`SCALE`), every action of a history but its last, which gets what the
others leave of 1. A history's rows are consecutive in its actor's array, so dropping and
restoring the last one is a matter of each node's first row and its count."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from tavern_dice.strategy.liars_dice.solver.tables import RoundTable

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]

SCALE = 65535.0
"""A probability of 1 as stored."""


def quantise(strategy: FloatArray) -> npt.NDArray[np.uint16]:
    """Probabilities as ``uint16`` (x 65535)."""
    out: npt.NDArray[np.uint16] = np.rint(np.clip(strategy, 0.0, 1.0) * SCALE).astype(np.uint16)
    return out


def _node_rows(table: RoundTable, player: int) -> tuple[IntArray, npt.NDArray[np.bool_]]:
    """``player``'s nodes as rows of its strategy array: the first row of each node that
    has any action (a node's rows are consecutive), and per row whether it is its
    node's last action."""
    counts = np.diff(table.slot_start)
    mine = (table.depth % 2 == player) & (counts > 0)
    slots_before = np.cumsum(counts[mine]) - counts[mine]
    n_rows = int(counts[mine].sum())
    last = np.zeros(n_rows, dtype=bool)
    last[slots_before + counts[mine] - 1] = True
    return slots_before, last


def stored_rows(table: RoundTable, player: int) -> npt.NDArray[np.uint16]:
    """``player``'s probabilities as stored: quantised (:func:`quantise`), with each node's
    last action left out (it is what the others leave of 1); a hand with nothing at a
    node (never brought there by its own play, or pruned) stores the node's first action
    as certain, the default it plays there."""
    starts, last = _node_rows(table, player)
    q = quantise(table.strategy[player])
    if starts.size:
        # Rounded up, the stored actions could leave less than nothing to the last: the
        # excess comes off the node's biggest stored action, so that reading the file and
        # writing it again stores the same numbers.
        wide = q.astype(np.int64)
        others = np.add.reduceat(np.where(last[:, None], 0, wide), starts, axis=0)
        ends = np.append(starts[1:], q.shape[0]) - 1  # each node's last row
        for node, hand in np.argwhere(others > SCALE):
            rows = np.arange(starts[node], ends[node])
            top = rows[np.argmax(wide[rows, hand])]
            q[top, hand] -= others[node, hand] - int(SCALE)
        empty = np.add.reduceat(wide, starts, axis=0) == 0
        first = q[starts]
        first[empty] = int(SCALE)
        q[starts] = first
    return q[~last]


def unstored_rows(table: RoundTable, player: int, kept: npt.NDArray[Any]) -> FloatArray:
    """The inverse of :func:`stored_rows`: every row, each node's last action given what
    the others leave of 1, so that each node's probabilities sum to 1 per hand as read (no
    second pass renormalises them). A file written before :func:`stored_rows` kept the
    stored actions within 1 may hold a few that exceed it: those are scaled back to 1,
    the last action getting nothing."""
    starts, last = _node_rows(table, player)
    full = np.zeros((last.shape[0], kept.shape[1]), dtype=np.float64)
    full[~last] = kept
    if starts.size:
        others = np.add.reduceat(full, starts, axis=0)
        full[last] = np.clip(SCALE - others, 0.0, None)
        over = others > SCALE
        if over.any():
            sizes = np.diff(np.append(starts, last.shape[0]))
            scale = np.where(over, SCALE / np.maximum(others, SCALE), 1.0)
            full *= np.repeat(scale, sizes, axis=0)
    out: FloatArray = full / SCALE
    return out
