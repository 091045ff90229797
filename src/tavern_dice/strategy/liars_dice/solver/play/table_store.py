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
on these arrays. A big probability array (``q0``, ``q1``, a blueprint's ``p0``, ``p1``) is
stored in row chunks of about :data:`CHUNK_BYTES` each, members ``<name>.<k>.npy`` (listed in
the member ``layout``): a bot reads a few rows of a history, and decompressing only their
chunk (milliseconds) instead of the whole array (0.2-0.3 s for the biggest rounds, and their
20-30 MB held) is most of a round's first decision. Chunks compress all but as well as the
whole array (the seed's tables: 23 kB more in 13.5 MB). The histories' ``parent`` and
``slot_start``, which never decrease, are stored as their steps (:data:`DELTA`; 0.5 MB less
for the seed's and ``standard`` tables). Files of layout 2 (every array whole, as is) read as
before.
"""

from __future__ import annotations

import json
import os
import re
import zipfile
from pathlib import Path
from typing import Any, SupportsIndex

import numpy as np
import numpy.typing as npt

FORMAT = 3
"""The layout version written into every round file's metadata (3: big probability arrays
in row chunks, the sorted arrays as steps; 2: every array whole, as is)."""

ARRAYS = ("parent", "bid", "slot_start", "slot_action", "q0", "q1")
"""The arrays a round file holds."""

CHUNKED = ("q0", "q1", "p0", "p1")
"""The arrays stored in row chunks where they are bigger than :data:`CHUNK_BYTES`."""

CHUNK_BYTES = 1 << 20
"""About how many bytes of rows each chunk holds (1 MiB: about 8 ms of CPU to decompress)."""

DELTA = ("parent", "slot_start")
"""The arrays stored as their steps (``numpy.diff``, the first entry as is): they never
decrease, and their steps compress to a fraction."""

class ChunkedRows:
    """A 2-D array stored in row chunks in a round file, decompressed a chunk at a time
    where rows are asked (``rows[a:b]``, ``rows[[i, j]]``) and then kept: a table's round
    reads a few chunks, and a player that walks a blueprint widely (an exploiter's model)
    holds at most the whole array, as it would have read it at once; ``numpy.asarray(rows)``
    reads it whole (offline work)."""

    def __init__(self, path: Path, name: str, shape: tuple[int, int], dtype: str,
                 chunk_rows: int) -> None:
        self.path, self.name = path, name
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self.ndim = 2
        self.chunk_rows = chunk_rows
        self._kept: dict[int, npt.NDArray[Any]] = {}

    def __len__(self) -> int:
        return self.shape[0]

    @property
    def n_chunks(self) -> int:
        return -(-self.shape[0] // self.chunk_rows)

    def chunk(self, k: int) -> npt.NDArray[Any]:
        """Rows ``k * chunk_rows`` on of the array: chunk ``k``, decompressed or kept."""
        found = self._kept.get(k)
        if found is None:
            with zipfile.ZipFile(self.path) as archive, \
                    archive.open(f"{self.name}.{k}.npy") as member:
                found = np.lib.format.read_array(member, allow_pickle=False)
            self._kept[k] = found
        return found

    def rows(self, lo: int, hi: int) -> npt.NDArray[Any]:
        """Rows ``lo`` to ``hi`` (exclusive), copied out of their chunks."""
        lo, hi = max(lo, 0), min(hi, self.shape[0])
        if hi <= lo:
            return np.zeros((0, self.shape[1]), dtype=self.dtype)
        first, last = lo // self.chunk_rows, (hi - 1) // self.chunk_rows
        base = first * self.chunk_rows
        if first == last:  # a copy: the kept chunk stays as read
            return self.chunk(first)[lo - base:hi - base].copy()
        whole = np.concatenate([self.chunk(k) for k in range(first, last + 1)])
        return whole[lo - base:hi - base]

    def __getitem__(self, index: slice | SupportsIndex | npt.ArrayLike) -> npt.NDArray[Any]:
        if isinstance(index, slice):
            lo, hi, step = index.indices(self.shape[0])
            if step == 1:
                return self.rows(lo, hi)
            index = np.arange(lo, hi, step)
        at = np.asarray(index)
        if at.dtype == bool:
            at = np.flatnonzero(at)
        at = at.astype(np.int64)
        if at.size == 0:
            return self.rows(0, 0).reshape(*at.shape, self.shape[1])
        at = np.where(at < 0, at + self.shape[0], at)
        lo, hi = int(at.min()), int(at.max()) + 1
        if lo < 0 or hi > self.shape[0]:
            raise IndexError(f"rows {lo} to {hi - 1} of an array of {self.shape[0]}")
        found: npt.NDArray[Any] = self.rows(lo, hi)[at - lo]
        return found

    def __array__(self, dtype: Any = None, copy: Any = None) -> npt.NDArray[Any]:
        whole = self.rows(0, self.shape[0])
        out: npt.NDArray[Any] = whole if dtype is None else whole.astype(dtype)
        return out


Rows = npt.NDArray[Any] | ChunkedRows
"""Stored probability rows: an array, or one read from its file a chunk at a time."""

_ROUND_FILE = re.compile(r"r(\d+)_(\d+)\.npz")


def round_file(folder: Path, first: int, second: int) -> Path:
    """The file of round ``(first, second)`` in a key's ``folder``."""
    return folder / f"r{first}_{second}.npz"


def write_npz(path: Path, arrays: dict[str, npt.ArrayLike]) -> None:
    """Write ``arrays`` as an ``.npz`` that :func:`numpy.load` reads, members LZMA-compressed,
    the big :data:`CHUNKED` ones in row chunks and the :data:`DELTA` ones as steps (both
    listed in the member ``layout``); written aside and renamed, as other processes may be
    reading the file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.stem + ".part")
    layout: dict[str, dict[str, Any]] = {}

    def member(archive: zipfile.ZipFile, name: str, array: npt.NDArray[Any]) -> None:
        with archive.open(f"{name}.npy", "w", force_zip64=True) as out:
            np.lib.format.write_array(out, array, allow_pickle=False)

    with zipfile.ZipFile(part, "w", compression=zipfile.ZIP_LZMA) as archive:
        for name, given in arrays.items():
            array = np.asarray(given)
            if name in CHUNKED and array.ndim == 2 and array.nbytes > CHUNK_BYTES:
                step = max(1, CHUNK_BYTES // max(1, array.strides[0]))
                for k, lo in enumerate(range(0, array.shape[0], step)):
                    member(archive, f"{name}.{k}", array[lo:lo + step])
                layout[name] = {"shape": list(array.shape), "dtype": array.dtype.str,
                                "chunk_rows": step}
            elif name in DELTA and array.ndim == 1 and array.dtype.kind == "i":
                member(archive, name, np.diff(array, prepend=array.dtype.type(0)))
                layout[name] = {"delta": True}
            else:
                member(archive, name, array)
        if layout:
            member(archive, "layout", np.array(json.dumps(layout)))
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
               ) -> tuple[dict[str, Rows], dict[str, Any]]:
    """A round file's arrays ``names`` and its figures; an array stored in chunks comes as
    :class:`ChunkedRows` (read where asked), the others whole."""
    arrays: dict[str, Rows] = {}
    with np.load(path, allow_pickle=False) as data:
        layout: dict[str, Any] = (json.loads(str(data["layout"])) if "layout" in data.files
                                  else {})
        for k in names:
            found = layout.get(k, {})
            if found.get("delta"):
                steps = data[k]
                arrays[k] = np.cumsum(steps, dtype=steps.dtype)
            elif "chunk_rows" in found:
                shape = (int(found["shape"][0]), int(found["shape"][1]))
                arrays[k] = ChunkedRows(path, k, shape, found["dtype"],
                                        int(found["chunk_rows"]))
            else:
                arrays[k] = data[k]
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
