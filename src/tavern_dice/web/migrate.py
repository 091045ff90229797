"""The database schema's versions: Alembic revisions in :mod:`.migrations`, applied on
start-up (``tavern serve``) or by ``tavern db upgrade``.

A database made before migrations existed (by ``create_all``: tables but no
``alembic_version``) has exactly the first revision's schema, so it is stamped with that
revision and upgraded from there, rows untouched. On PostgreSQL the upgrade holds an
advisory lock, so that several processes starting at once migrate one after the other.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).with_name("migrations")
BASELINE = "0001"
"""The revision whose schema databases made before migrations have."""
MIGRATION_LOCK = 0x7461_7665_726E_0001
"""PostgreSQL advisory lock key held while migrating ('tavern' and 1)."""


def config() -> Config:
    """Alembic's configuration, in code (no ``alembic.ini`` to ship or find)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head() -> str:
    """The newest revision."""
    found = ScriptDirectory.from_config(config()).get_current_head()
    assert found is not None
    return found


def current(engine: Engine) -> str | None:
    """The database's revision (``None``: not under migrations yet, or empty)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Bring the database to ``revision`` (default: the newest) in one transaction."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        names = set(inspect(conn).get_table_names())
        cfg = config()
        cfg.attributes["connection"] = conn
        if "tables" in names and "alembic_version" not in names:
            command.stamp(cfg, BASELINE)
        command.upgrade(cfg, revision)
