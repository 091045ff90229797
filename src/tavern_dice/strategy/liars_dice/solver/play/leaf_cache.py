"""Built leaf values kept on disk, so that a round's first search reads them in
milliseconds instead of building them again in every process.

A round's leaf values (:mod:`.leaves`) are a function of its blueprint file and of the
leaves' settings alone, not of any game: the first search of a round size on a machine
builds them (about 0.4 s of CPU at 5 v 5) and this module writes the first bidder's
factors (:class:`~.leaves.Factors`: 15 MB at 5 v 5, about 46 MB for every round of 7-10
dice of a key) to the user's cache folder; later processes map them read-only
(``numpy.load(mmap_mode="r")``), so they cost no build and no private memory: processes on
one machine (a web server's workers) share the pages.

The folder is ``$TAVERN_DICE_CACHE_DIR`` where set (``off``: no cache), else the user's cache
folder that :mod:`platformdirs` gives (``~/.cache/tavern-dice`` on Linux), under
``leaves/``. Each round's entry is named by a digest of its blueprint file and the
settings, so a rebuilt blueprint or a changed setting never reads a stale entry (and
writing a round's entry removes that round's stale ones). Nothing
here is shipped, and deleting the folder is always safe: an entry that is missing,
unreadable or malformed is built again, and a folder that cannot be written (a read-only
home) only means building every time, as without a cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
from pathlib import Path

import numpy as np

from tavern_dice.strategy.liars_dice.solver.play.blueprint import data_path
from tavern_dice.strategy.liars_dice.solver.play.table_store import round_file

FORMAT = 1
"""The entries' layout version, part of every entry's name."""

ARRAYS = ("u", "vt", "slot", "dense")
"""The arrays of an entry: the first bidder's :class:`~.leaves.Factors`."""

APP = "tavern-dice"


def cache_folder() -> Path | None:
    """Where entries live: ``$TAVERN_DICE_CACHE_DIR/leaves`` (``None`` for ``off``), else the user's
    cache folder's ``leaves``."""
    chosen = os.environ.get("TAVERN_DICE_CACHE_DIR")
    if chosen is not None:
        if chosen.strip().lower() in ("off", ""):
            return None
        return Path(chosen) / "leaves"
    from platformdirs import user_cache_path  # here: only a cached build needs it

    return user_cache_path(APP) / "leaves"


def entry_name(key: str, first: int, second: int, settings: str) -> str | None:
    """The entry of round ``(first, second)`` under blueprint ``key``: the round, then a
    digest of its last-wager blueprint file and ``settings``; ``None`` without the file."""
    path = round_file(data_path(key, None, 1), first, second)
    try:
        digest = hashlib.sha256(path.read_bytes())
    except OSError:
        return None
    digest.update(f"{FORMAT}|{settings}".encode())
    return f"{key}/r{first}_{second}-{digest.hexdigest()[:20]}"


def read(name: str) -> dict[str, np.ndarray] | None:
    """An entry's arrays, mapped read-only, or ``None`` where it is missing or unreadable."""
    folder = cache_folder()
    if folder is None:
        return None
    entry = folder / name
    try:
        # A plain array over the mapping (not numpy's memmap subclass): the searches'
        # products then return plain arrays too.
        return {k: np.load(entry / f"{k}.npy", mmap_mode="r", allow_pickle=False)
                .view(np.ndarray) for k in ARRAYS}
    except (OSError, ValueError):
        return None


def write(name: str, arrays: dict[str, np.ndarray]) -> bool:
    """Store an entry: written into a folder of its own beside it and renamed into place,
    so a reader never sees half an entry and two processes writing the same one leave one
    whole. ``False`` (nothing stored, nothing raised) where the folder cannot be written."""
    folder = cache_folder()
    if folder is None:
        return False
    entry = folder / name
    try:
        entry.parent.mkdir(parents=True, exist_ok=True)
        part = Path(tempfile.mkdtemp(prefix=entry.name + ".", dir=entry.parent))
    except OSError:
        return False
    try:
        for k in ARRAYS:
            np.save(part / f"{k}.npy", np.ascontiguousarray(arrays[k]), allow_pickle=False)
        if entry.exists():
            shutil.rmtree(entry, ignore_errors=True)  # unreadable, or it would not be built
        os.rename(part, entry)
    except OSError:
        return False  # another process's entry is in place, or the disk is full
    finally:
        if part.exists():
            shutil.rmtree(part, ignore_errors=True)
    # The round's entries of other blueprint files or settings are stale (a reinstalled
    # or rebuilt package): one entry a round, so the folder never outgrows a full set.
    round_name = entry.name.rpartition("-")[0]
    for other in entry.parent.glob(f"{round_name}-*"):
        if other.name != entry.name and "." not in other.name:
            shutil.rmtree(other, ignore_errors=True)
    return True
