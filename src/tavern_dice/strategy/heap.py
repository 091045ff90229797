"""Freed memory back to the system after a round's leaf values are built.

A heads-up search builds a round's leaf values once (at 5 v 5 about 80 MB of
temporaries: the blueprint's values, their residuals) and keeps 19 MB. glibc's ``malloc``
maps a block of over 128 KiB on its own and unmaps it on ``free``, but after the first
such ``free`` it raises that threshold to the block's size (up to 32 MiB), so later
temporaries come from the heap, which keeps what is freed: a process that had played 8
heads-up games held about 300 MB, 130 MB of them live. :func:`trim` hands the free parts
of the heap back (``malloc_trim``), once a round, when the build is over. Fixing the
threshold instead (``mallopt``) kept the process at 210 MB but made every search slower
(5 v 5 warm decisions: p50 157 -> 274 ms of CPU), as each large temporary then costs a
fresh mapping and its page faults.

Elsewhere than glibc (macOS, musl, Windows) :func:`trim` does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache
from typing import Any


@cache
def _malloc_trim() -> Any:
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        found = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc
        return None
    found.argtypes = [ctypes.c_size_t]
    found.restype = ctypes.c_int
    return found


def trim() -> bool:
    """Return the heap's free memory to the system (glibc); whether any was."""
    found = _malloc_trim()
    return bool(found(0)) if found is not None else False
