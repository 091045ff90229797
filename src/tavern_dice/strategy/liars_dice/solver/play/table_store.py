"""Heads-up tables on disk: one folder per rules key, one file per round (the blueprints'
folders, :mod:`.blueprint`, are laid out the same way).

A key's tables live in the folder ``liars_dice_heads_up_<key>/`` (package data, a build's
``--out`` folder, or ``$TAVERN_TABLES``), each round ``(first bidder's dice, second's)`` in
its own ``r<first>_<second>.npz``: the histories (``parent``, ``bid``), the actions allowed
at each (``slot_start``, ``slot_action``), each player's probabilities as stored
(:mod:`.table_rows`: ``q0``, ``q1``) and the round's figures as JSON (``meta``). Rebuilding
or re-measuring one round rewrites that file alone, so the repository's history grows by
what changed, not by every table.

The members are LZMA-compressed: a sixth smaller than ``numpy.savez_compressed``'s deflate
on these arrays.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

FORMAT = 2
"""The layout version written into every round file's metadata."""

ARRAYS = ("parent", "bid", "slot_start", "slot_action", "q0", "q1")
"""The arrays a round file holds."""

_ROUND_FILE = re.compile(r"r(\d+)_(\d+)\.npz")


def round_file(folder: Path, first: int, second: int) -> Path:
    """The file of round ``(first, second)`` in a key's ``folder``."""
    return folder / f"r{first}_{second}.npz"


def write_npz(path: Path, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Write ``arrays`` as an ``.npz`` that :func:`numpy.load` reads, members LZMA-compressed;
    written aside and renamed, as other processes may be reading the file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.stem + ".part")
    with zipfile.ZipFile(part, "w", compression=zipfile.ZIP_LZMA) as archive:
        for name, array in arrays.items():
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)
    os.replace(part, path)


def write_round(folder: Path, key: str, rules: dict[str, Any],
                arrays: dict[str, npt.NDArray[Any]], info: dict[str, Any],
                names: tuple[str, ...] = ARRAYS) -> Path:
    """Write one round's arrays ``names`` (a table's, or a blueprint's ``p0``/``p1``) and
    figures ``info`` (with its ``dice``) into the key's ``folder``; return the file."""
    first, second = (int(d) for d in info["dice"])
    path = round_file(folder, first, second)
    meta = {"format": FORMAT, "key": key, "rules": rules, "round": info}
    write_npz(path, {**{k: arrays[k] for k in names}, "meta": np.array(json.dumps(meta))})
    return path


def read_round(path: Path, names: tuple[str, ...] = ARRAYS,
               ) -> tuple[dict[str, npt.NDArray[Any]], dict[str, Any]]:
    """A round file's arrays ``names`` and its figures."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {k: data[k] for k in names}
        meta: dict[str, Any] = json.loads(str(data["meta"]))
    return arrays, meta["round"]


def read_round_info(path: Path) -> dict[str, Any]:
    """A round file's figures alone (the arrays are not decompressed)."""
    with np.load(path, allow_pickle=False) as data:
        meta: dict[str, Any] = json.loads(str(data["meta"]))
    info: dict[str, Any] = meta["round"]
    return info


def round_files(folder: Path) -> list[tuple[tuple[int, int], Path]]:
    """The rounds whose files are in ``folder``, smallest first; none if it is missing."""
    if not folder.is_dir():
        return []
    found = []
    for path in folder.iterdir():
        match = _ROUND_FILE.fullmatch(path.name)
        if match:
            found.append(((int(match[1]), int(match[2])), path))
    return sorted(found)


def read_folder_meta(folder: Path, key: str, rules: dict[str, Any]) -> dict[str, Any]:
    """The figures of every round in a key's ``folder``, as one record:
    ``{"format", "key", "rules", "rounds": [per round, with its "dice"]}``.

    Raises:
        FileNotFoundError: the folder holds no round file.
    """
    files = round_files(folder)
    if not files:
        raise FileNotFoundError(f"no heads-up round files in {folder}")
    return {"format": FORMAT, "key": key, "rules": rules,
            "rounds": [read_round_info(path) for _, path in files]}
