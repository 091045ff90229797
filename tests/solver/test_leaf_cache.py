"""The leaf values a search reads are kept in the cache folder once built: a later process
maps the same numbers instead of building them; a broken entry is built again; a folder
that cannot be written, or ``off``, only means building each time."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tavern_dice.strategy.liars_dice.solver.play import leaf_cache, leaves

KEY = "tavern-standard"
ROUND = (4, 3)


def _fresh(monkeypatch: pytest.MonkeyPatch, folder: Path | str) -> None:
    monkeypatch.setenv("TAVERN_DICE_CACHE_DIR", str(folder))
    leaves.leaf_values.cache_clear()


def _entries(folder: Path) -> list[Path]:
    return sorted(p for p in (folder / "leaves" / KEY).glob("r4_3-*") if p.is_dir())


def test_a_built_round_is_read_back_mapped_with_the_same_values(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh(monkeypatch, tmp_path)
    built = leaves.leaf_values(KEY, *ROUND)
    [entry] = _entries(tmp_path)
    assert sorted(p.name for p in entry.iterdir()) == ["dense.npy", "slot.npy", "u.npy",
                                                        "vt.npy"]
    leaves.leaf_values.cache_clear()
    read = leaves.leaf_values(KEY, *ROUND)
    assert read is not built
    for actor in (0, 1):
        a, b = built.factors[actor], read.factors[actor]
        assert a.flip == b.flip
        for name in ("u", "vt", "slot", "dense"):
            assert np.array_equal(getattr(a, name), getattr(b, name)), (actor, name)
    # Mapped from the entry's file (a plain array over the mapping), not a copy.
    assert isinstance(read.factors[0].dense.base, np.memmap)
    assert not isinstance(built.factors[0].dense.base, np.memmap)
    leaves.leaf_values.cache_clear()


def test_another_process_reads_the_entry_without_building(tmp_path: Path) -> None:
    env = {**os.environ, "TAVERN_DICE_CACHE_DIR": str(tmp_path)}
    code = ("import time; from tavern_dice.strategy.liars_dice.solver.play import leaves\n"
            "built = []\n"
            "real = leaves.build_leaf_values\n"
            "leaves.build_leaf_values = lambda *a: built.append(a) or real(*a)\n"
            f"leaves.leaf_values({KEY!r}, {ROUND[0]}, {ROUND[1]})\n"
            "print(len(built))")
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True).stdout.split()[-1] for _ in range(2)]
    assert runs == ["1", "0"]


def test_a_broken_entry_is_built_again(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh(monkeypatch, tmp_path)
    good = leaves.leaf_values(KEY, *ROUND).factors[0].u.copy()
    [entry] = _entries(tmp_path)
    (entry / "u.npy").write_bytes(b"not an array")
    leaves.leaf_values.cache_clear()
    assert np.array_equal(leaves.leaf_values(KEY, *ROUND).factors[0].u, good)
    np.save(entry / "u.npy", np.zeros((1, 2, 3, 4), dtype=np.float32))  # the wrong shape
    leaves.leaf_values.cache_clear()
    assert np.array_equal(leaves.leaf_values(KEY, *ROUND).factors[0].u, good)
    [again] = _entries(tmp_path)
    assert np.array_equal(np.load(again / "u.npy"), good)  # replaced by the rebuilt one
    leaves.leaf_values.cache_clear()


def test_off_or_an_unwritable_folder_builds_each_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh(monkeypatch, "off")
    assert leaf_cache.cache_folder() is None
    assert leaves.leaf_values(KEY, *ROUND).factors[0].u.shape[1] > 0
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder would be")
    _fresh(monkeypatch, blocker)
    assert leaves.leaf_values(KEY, *ROUND).factors[0].u.shape[1] > 0
    assert blocker.read_text() == "a file where the folder would be"
    leaves.leaf_values.cache_clear()


def test_a_changed_setting_names_another_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    first = leaf_cache.entry_name(KEY, *ROUND, "rank=16")
    assert first is not None and first.startswith(f"{KEY}/r4_3-")
    assert leaf_cache.entry_name(KEY, *ROUND, "rank=32") != first
    assert leaf_cache.entry_name(KEY, 9, 9, "rank=16") is None  # no such blueprint


def test_writing_a_round_removes_its_stale_entries(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh(monkeypatch, tmp_path)
    folder = tmp_path / "leaves" / KEY
    stale = folder / "r4_3-00000000000000000000"
    other_round = folder / "r5_5-00000000000000000000"
    for kept in (stale, other_round):
        kept.mkdir(parents=True)
        (kept / "u.npy").write_bytes(b"from an older package")
    leaves.leaf_values(KEY, *ROUND)
    [entry] = _entries(tmp_path)
    assert entry != stale and not stale.exists()
    assert other_round.exists()  # another round's entry is not this write's to judge
    leaves.leaf_values.cache_clear()


def test_an_entry_whose_whole_matrices_are_misnumbered_is_built_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fresh(monkeypatch, tmp_path)
    good = leaves.leaf_values(KEY, *ROUND).factors[0].slot.copy()
    [entry] = _entries(tmp_path)
    wrong = good.copy()
    wrong[wrong >= 0] = wrong[wrong >= 0][::-1] + 1  # right shape, numbers out of range
    np.save(entry / "slot.npy", wrong)
    leaves.leaf_values.cache_clear()
    assert np.array_equal(leaves.leaf_values(KEY, *ROUND).factors[0].slot, good)
    leaves.leaf_values.cache_clear()
