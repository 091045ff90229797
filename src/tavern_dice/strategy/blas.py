"""One BLAS thread while a bot decides.

A bot's matrix work is many small products (at 5 v 5 a search multiplies a few dozen
252 x 252 matrices by a handful of rows, thirty times over). OpenBLAS splits each across
its threads, and on a machine whose cores are busy elsewhere (a web server, a test run,
the other player) those threads spin waiting for each other: one batch of such products
took 105 ms of CPU with OpenBLAS's two threads on this project's 2-core machine under
load and 2 ms with one (``benchmarks/strong_cost.py``; docs/strategy.md has the
decision times before and after). So :func:`one_blas_thread` holds BLAS to one thread
for the length of a decision and gives the process its setting back afterwards.

It uses ``threadpoolctl`` (the scikit-learn project's library for exactly this). The
limit is process-wide, as BLAS's setting is: two decisions running at once in threads of
one process (the web table's bot moves) may leave the other with one thread for a
moment, which costs nothing but speed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any


@cache
def _controller() -> Any:
    # Built once, on the first decision: it reads which BLAS libraries the process has
    # loaded (about 20 ms), and NumPy's is loaded by then.
    from threadpoolctl import ThreadpoolController

    return ThreadpoolController()


_held = threading.local()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the body with BLAS limited to one thread (about 30 microseconds to enter and
    leave; free inside another such body of the same thread, as where an exploiter's copy
    of a bot decides dozens of times within one decision)."""
    if getattr(_held, "on", False):  # an outer body holds the limit and gives it back
        yield
        return
    with _controller().limit(limits=1, user_api="blas"):
        _held.on = True
        try:
            yield
        finally:
            _held.on = False
