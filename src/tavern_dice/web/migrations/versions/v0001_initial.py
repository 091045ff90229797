"""The schema before migrations: tables, players, games, events, commitments, ledger.

Databases made by ``tavern serve`` before Alembic (``create_all``, no ``alembic_version``)
have exactly this schema; :func:`tavern_dice.web.migrate.upgrade` stamps them with this
revision instead of running it.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("host_token_hash", sa.String(64), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("bot_kind", sa.String(32), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=True),
        sa.Column("proficiency", sa.Integer(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_players_table_id", "players", ["table_id"])
    op.create_index("ix_players_token_hash", "players", ["token_hash"])
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("header", sa.JSON(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_table_id", "games", ["table_id"])
    op.create_table(
        "events",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("seq", sa.Integer(), primary_key=True),
        sa.Column("data", sa.JSON(), nullable=False),
    )
    op.create_table(
        "commitments",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.String(8), primary_key=True),
        sa.Column("faces", sa.JSON(), nullable=False),
        sa.Column("salt", sa.String(32), nullable=False),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("revealed", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(32), nullable=False),
        sa.Column("player_id", sa.String(32), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("amount_cp", sa.BigInteger(), nullable=False),
        sa.Column("reason", sa.String(32), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_ledger_table_id", "ledger", ["table_id"])
    op.create_index("ix_ledger_player_id", "ledger", ["player_id"])


def downgrade() -> None:
    for table in ("ledger", "commitments", "events", "games", "players", "tables"):
        op.drop_table(table)
