"""Alembic's environment for the web table's schema.

Migrations run on the connection that :func:`tavern_dice.web.migrate.upgrade` hands over
(``config.attributes["connection"]``), inside its transaction, so that on PostgreSQL the
advisory lock it holds keeps two starting processes from migrating at once.
"""

from __future__ import annotations

from alembic import context

from tavern_dice.web.store import Base

connection = context.config.attributes["connection"]
# Batch mode: SQLite alters a table by copying it, which plain ALTER cannot do there.
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
