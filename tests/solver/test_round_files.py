"""Round files read a chunk at a time: big probability arrays in row chunks, the sorted
history arrays as steps, both read back exactly; a shipped table's first decision reads
only the chunks it needs; files of the older, whole layout still read."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tavern_dice.strategy.liars_dice.solver.play import table_store
from tavern_dice.strategy.liars_dice.solver.play.round_table import RoundTable
from tavern_dice.strategy.liars_dice.solver.play.table_store import (
    ChunkedRows,
    read_round,
    write_npz,
)
from tavern_dice.strategy.liars_dice.solver.play.tables import forget_loaded, load_round


def _arrays(rng: np.random.Generator) -> dict[str, np.ndarray]:
    parent = np.sort(rng.integers(-1, 500, size=700)).astype(np.int32)
    return {
        "parent": parent,
        "slot_start": np.cumsum(rng.integers(0, 4, size=701)).astype(np.int32),
        "bid": rng.integers(0, 60, size=700).astype(np.int16),
        "q0": rng.integers(0, 256, size=(1000, 7)).astype(np.uint8),
        "q1": rng.integers(0, 65536, size=(3, 5)).astype(np.uint16),  # small: kept whole
        "meta": np.array(json.dumps({"round": {"dice": [1, 1]}})),
    }


def test_chunks_and_steps_read_back_exactly(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_store, "CHUNK_BYTES", 64)  # 9 rows of 7 bytes a chunk
    arrays = _arrays(np.random.default_rng(5))
    path = tmp_path / "r1_1.npz"
    write_npz(path, arrays)
    names = zipfile.ZipFile(path).namelist()
    assert "q0.npy" not in names and "q0.0.npy" in names and "q0.111.npy" in names
    assert "q1.npy" in names and "layout.npy" in names
    found, info = read_round(path, ("parent", "slot_start", "bid", "q0", "q1"))
    assert info == {"dice": [1, 1]}
    q0 = found["q0"]
    assert isinstance(q0, ChunkedRows) and q0.shape == (1000, 7) and q0.chunk_rows == 9
    for name in ("parent", "slot_start", "bid", "q1"):
        got = np.asarray(found[name])
        assert got.dtype == arrays[name].dtype and np.array_equal(got, arrays[name]), name
    whole = arrays["q0"]
    assert np.array_equal(np.asarray(q0), whole)
    # Rows within a chunk, across chunk ends, in any order, by mask, at the ends.
    for lo, hi in [(0, 1), (5, 30), (8, 10), (990, 1000), (995, 2000), (40, 40)]:
        assert np.array_equal(q0[lo:hi], whole[lo:hi]), (lo, hi)
    assert np.array_equal(q0[[17, 3, 3, 998]], whole[[17, 3, 3, 998]])
    assert np.array_equal(q0[np.arange(1000) % 97 == 0], whole[np.arange(1000) % 97 == 0])
    assert np.array_equal(q0[-1:], whole[-1:]) and np.array_equal(q0[[-2]], whole[[-2]])
    with pytest.raises(IndexError):
        q0[[1000]]


def test_a_file_of_the_whole_layout_still_reads(tmp_path: Path) -> None:
    arrays = _arrays(np.random.default_rng(6))
    path = tmp_path / "r1_1.npz"
    np.savez_compressed(path, **arrays)  # every member whole, as layout 2 wrote them
    found, _ = read_round(path, ("parent", "slot_start", "q0"))
    for name in ("parent", "slot_start", "q0"):
        assert isinstance(found[name], np.ndarray)
        assert np.array_equal(found[name], arrays[name])


def test_a_shipped_round_s_first_decision_reads_only_its_chunks() -> None:
    forget_loaded()
    try:
        table = load_round("tavern", 3, 3)
        assert table.stored is not None
        stored = table.stored[0]
        assert isinstance(stored, ChunkedRows) and stored.n_chunks > 5
        actions, probs = table.policy((), range(stored.shape[1]))
        assert probs.sum(axis=1) == pytest.approx(1.0) and len(actions) == probs.shape[1]
        assert len(stored._kept) == 1  # the root's one chunk, not the round's 14 MB
    finally:
        forget_loaded()


def test_depth_by_levels_matches_a_walk_and_any_order_falls_back() -> None:
    rng = np.random.default_rng(7)
    parent = np.concatenate([[-1], np.sort(rng.integers(0, 400, size=999))])
    parent = np.minimum(parent, np.arange(1000) - 1)  # parents first, breadth first
    walked = np.zeros(1000, dtype=np.int64)
    for node in range(1, 1000):
        walked[node] = walked[parent[node]] + 1

    def table(parents: np.ndarray) -> RoundTable:
        empty = np.zeros(0, dtype=np.int64)
        return RoundTable(None, parents, empty, np.zeros(len(parents) + 1, dtype=np.int64),  # type: ignore[arg-type]
                          empty, None)

    assert np.array_equal(table(parent).depth, walked)
    # Nodes renumbered out of breadth-first order (parents still first): pointer jumps.
    order = np.concatenate([[0], 1 + rng.permutation(999)])
    order = order[np.argsort(walked[order], kind="stable")]  # parents before children
    shuffled = np.concatenate([order[:1], order[1:][::-1][np.argsort(
        walked[order[1:][::-1]], kind="stable")]])
    rank = np.empty(1000, dtype=np.int64)
    rank[shuffled] = np.arange(1000)
    renumbered = np.full(1000, -1, dtype=np.int64)
    renumbered[rank[1:]] = rank[parent[1:]]
    assert not (np.diff(renumbered[1:]) >= 0).all()
    assert np.array_equal(table(renumbered).depth, walked[shuffled])
