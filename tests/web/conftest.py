"""The web suite's back ends: a test that takes ``database_url`` runs twice, on a new
SQLite file and on a new database of a throwaway PostgreSQL cluster.

The cluster (Debian's initdb/pg_ctl, as an unprivileged user, in a temporary folder, on
a free port) is started once per test process and removed at the end. Where it cannot
start, the PostgreSQL runs skip and say why; with ``TAVERN_REQUIRE_POSTGRES=1`` (CI)
they fail instead.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavern_dice.web.pgcluster import Cluster, ClusterUnavailable

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    try:
        cluster = Cluster.start()
    except ClusterUnavailable as error:
        if os.environ.get("TAVERN_REQUIRE_POSTGRES"):
            pytest.fail(f"PostgreSQL is required here (TAVERN_REQUIRE_POSTGRES): {error}")
        pytest.skip(f"PostgreSQL cannot be started here: {error}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """A new, empty PostgreSQL database, dropped after the test."""
    cluster: Cluster = request.getfixturevalue("pg_cluster")
    name = f"t_{uuid.uuid4().hex[:16]}"
    url = cluster.create_database(name)
    try:
        yield url
    finally:
        cluster.drop_database(name)


@pytest.fixture(params=BACKENDS)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new database on each back end in turn."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'tavern.sqlite3'}"
    url: str = request.getfixturevalue("pg_url")
    return url
