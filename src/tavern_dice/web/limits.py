"""How much one server takes on: tables created per client, tables held in memory, and
how long an unwatched table stays there.

A table that nobody has watched for :attr:`TableLimits.idle_s` leaves memory; its data
stays in the database and it loads again (running game included) when it is visited.
Creating tables is capped per client address in a sliding window, and in all by the
number of tables held in memory, so that a script cannot fill the server's memory.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class TableLimits:
    """The server's limits (``tavern serve`` flags; tests pass small ones).

    Attributes:
        per_client: tables one client address may create per ``window_s`` seconds.
        window_s: the sliding window of ``per_client``.
        max_open: tables held in memory at once; at the cap, idle tables are put away
            first, and creation is refused only if none is idle.
        idle_s: seconds without a connection after which a table leaves memory.
        sweep_s: how often idle tables are looked for.
    """

    per_client: int = 30
    window_s: float = 3600.0
    max_open: int = 500
    idle_s: float = 900.0
    sweep_s: float = 60.0


@dataclass(slots=True)
class CreationLimiter:
    """Counts table creations per client in a sliding window.

    >>> clock = [0.0]
    >>> limiter = CreationLimiter(2, 60.0, lambda: clock[0])
    >>> limiter.wait_s("a"), limiter.note("a"), limiter.note("a"), limiter.wait_s("a")
    (0.0, None, None, 60.0)
    >>> clock[0] = 61.0
    >>> limiter.wait_s("a")
    0.0
    """

    per_client: int
    window_s: float
    clock: Callable[[], float] = time.monotonic
    _seen: dict[str, deque[float]] = field(default_factory=dict)

    def _recent(self, client: str) -> deque[float]:
        times = self._seen.setdefault(client, deque())
        cutoff = self.clock() - self.window_s
        while times and times[0] <= cutoff:
            times.popleft()
        return times

    def wait_s(self, client: str) -> float:
        """Seconds until ``client`` may create another table (0: now)."""
        times = self._recent(client)
        if len(times) < self.per_client:
            if not times:
                self._seen.pop(client, None)
            return 0.0
        return max(0.0, times[0] + self.window_s - self.clock())

    def note(self, client: str) -> None:
        """Count one creation by ``client``."""
        self._recent(client).append(self.clock())
