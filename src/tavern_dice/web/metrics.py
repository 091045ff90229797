"""What an operator's Prometheus scrapes from ``/metrics``: tables, connections, actions,
their latency, and the database's group commits. Each app has its own registry (a test
process builds many apps); each server process reports its own figures, labelled by
nothing but what it is: scrape every process.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CONTENT_TYPE_LATEST as CONTENT_TYPE
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds: an action's round trip is a few milliseconds when all is well."""


class Metrics:
    """The server's metrics (one registry per app)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge("tavern_tables", "Tables this process holds in memory (owns).",
                            registry=r)
        self.games = Gauge("tavern_games_running",
                           "Games running or paused at the tables this process owns.",
                           registry=r)
        self.connections = Gauge("tavern_connections",
                                 "Open WebSocket connections to tables this process owns.",
                                 registry=r)
        self.relayed = Gauge("tavern_relayed_connections",
                             "WebSocket connections this process forwards to a table's "
                             "owner in another process.", registry=r)
        self.actions = Counter("tavern_actions", "Frames that ask for a change "
                               "(player and DM actions), by result.", ["result"], registry=r)
        self.action_seconds = Histogram(
            "tavern_action_seconds", "From an action's frame to its ack or error: applied, "
            "durable, and every connection's state queued.", buckets=LATENCY_BUCKETS,
            registry=r)
        self.commit_seconds = Histogram(
            "tavern_db_commit_seconds", "One group commit of game steps.",
            buckets=LATENCY_BUCKETS, registry=r)
        self.commit_steps = Histogram(
            "tavern_db_commit_steps", "Game steps written by one group commit.",
            buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256), registry=r)
        self.takeovers = Counter("tavern_table_takeovers",
                                 "Tables with a game running that this process took over "
                                 "from a process that died: a player came back to it here "
                                 "first, the sweep for orphans found it, or this process "
                                 "resumed it on starting.", registry=r)

    def observe_commit(self, steps: int, seconds: float) -> None:
        """Called from the store thread after each group commit (prometheus-client's
        metrics are thread-safe)."""
        self.commit_steps.observe(steps)
        self.commit_seconds.observe(seconds)

    def track(self, tables: Callable[[], float], games: Callable[[], float]) -> None:
        """Read the table and game counts when scraped."""
        self.tables.set_function(tables)
        self.games.set_function(games)

    def render(self) -> bytes:
        """The text exposition format."""
        return generate_latest(self.registry)


__all__ = ["CONTENT_TYPE", "Metrics"]
