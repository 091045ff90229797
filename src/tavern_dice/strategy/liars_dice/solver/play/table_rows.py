"""How a heads-up table's probabilities are stored (:mod:`.tables`): ``uint16``
(probability x 65535) or, for a round whose rows are big, ``uint8`` (x 255; the build
measures the stored policy exactly, rounding included), every action of a history but its
last, which gets what the others leave of 1. A history's rows are consecutive in its
actor's array, so dropping and restoring the last one is a matter of each node's first row
and its count; a bot decodes only the rows of the history it is at (:func:`node_rows`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tavern_dice.strategy.liars_dice.solver.play.table_store import Rows

if TYPE_CHECKING:
    from tavern_dice.strategy.liars_dice.solver.play.round_table import RoundTable

FloatArray = npt.NDArray[np.floating[Any]]
IntArray = npt.NDArray[np.int64]

SCALE = 65535.0
"""A probability of 1 as stored in ``uint16``."""

WIDE_ABOVE = 1_500_000
"""A player's rows with more entries than this are stored as ``uint8`` (x 255): a third of
the compressed bytes of the big rounds; the smaller rounds keep ``uint16``."""


def scale_of(dtype: npt.DTypeLike) -> float:
    """A probability of 1 as stored in ``dtype`` (``uint8`` or ``uint16``)."""
    return float(np.iinfo(np.dtype(dtype)).max)


def quantise(strategy: FloatArray, dtype: npt.DTypeLike = np.uint16) -> npt.NDArray[Any]:
    """Probabilities as ``dtype`` (x its largest value)."""
    scale = scale_of(dtype)
    out: npt.NDArray[Any] = np.rint(np.clip(strategy, 0.0, 1.0) * scale).astype(dtype)
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


def stored_rows(table: RoundTable, player: int,
                dtype: npt.DTypeLike | None = None) -> npt.NDArray[Any]:
    """``player``'s probabilities as stored: quantised (:func:`quantise`, as ``dtype``; by
    default ``uint8`` above :data:`WIDE_ABOVE` entries, else ``uint16``), with each node's
    last action left out (it is what the others leave of 1); a hand with nothing at a
    node (never brought there by its own play, or pruned) stores the node's first action
    as certain, the default it plays there."""
    starts, last = _node_rows(table, player)
    if dtype is None:
        dtype = np.uint8 if table.strategy[player].size > WIDE_ABOVE else np.uint16
    one = scale_of(dtype)
    q = quantise(table.strategy[player], dtype)
    if starts.size:
        # Rounded up, the stored actions could leave less than nothing to the last: the
        # excess comes off the node's biggest stored action, so that reading the file and
        # writing it again stores the same numbers.
        wide = q.astype(np.int64)
        others = np.add.reduceat(np.where(last[:, None], 0, wide), starts, axis=0)
        ends = np.append(starts[1:], q.shape[0]) - 1  # each node's last row
        for node, hand in np.argwhere(others > one):
            rows = np.arange(starts[node], ends[node])
            top = rows[np.argmax(wide[rows, hand])]
            q[top, hand] -= others[node, hand] - int(one)
        empty = np.add.reduceat(wide, starts, axis=0) == 0
        first = q[starts]
        first[empty] = int(one)
        q[starts] = first
    return q[~last]


def unstored_rows(table: RoundTable, player: int, stored: Rows) -> FloatArray:
    """The inverse of :func:`stored_rows`: every row, each node's last action given what
    the others leave of 1, so that each node's probabilities sum to 1 per hand as read (no
    second pass renormalises them). A file written before :func:`stored_rows` kept the
    stored actions within 1 may hold a few that exceed it: those are scaled back to 1,
    the last action getting nothing."""
    kept = np.asarray(stored)
    starts, last = _node_rows(table, player)
    one = scale_of(kept.dtype)
    full = np.zeros((last.shape[0], kept.shape[1]), dtype=np.float64)
    full[~last] = kept
    if starts.size:
        others = np.add.reduceat(full, starts, axis=0)
        full[last] = np.clip(one - others, 0.0, None)
        over = others > one
        if over.any():
            sizes = np.diff(np.append(starts, last.shape[0]))
            scale = np.where(over, one / np.maximum(others, one), 1.0)
            full *= np.repeat(scale, sizes, axis=0)
    out: FloatArray = full / one
    return out


def first_stored_rows(table: RoundTable, player: int) -> IntArray:
    """Per node, the first row of its stored actions in ``player``'s stored array (-1 for
    the other player's nodes and for nodes without actions)."""
    starts, _ = _node_rows(table, player)
    counts = np.diff(table.slot_start)
    out = np.full(table.n_nodes, -1, dtype=np.int64)
    # Each earlier node of the player stored one row fewer than it has actions.
    out[(table.depth % 2 == player) & (counts > 0)] = starts - np.arange(starts.shape[0])
    return out


def node_rows(kept: Rows, first: int, actions: int) -> FloatArray:
    """One node's probabilities ``(actions x hands)`` from the stored array ``kept``, whose
    rows ``first`` on are its first ``actions - 1`` actions (as :func:`unstored_rows`
    reads every node)."""
    scale = scale_of(kept.dtype)
    stored = kept[first:first + actions - 1].astype(np.float64)
    others = stored.sum(axis=0)
    last = np.clip(scale - others, 0.0, None)
    full = np.vstack([stored, last[None, :]])
    over = others > scale
    if over.any():
        full *= np.where(over, scale / np.maximum(others, scale), 1.0)[None, :]
    out: FloatArray = full / scale
    return out
