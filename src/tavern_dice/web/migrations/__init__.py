"""Alembic revisions of the web table's schema (run by :func:`tavern_dice.web.migrate.upgrade`)."""
