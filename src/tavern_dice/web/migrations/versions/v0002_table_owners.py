"""Table owners: which server process holds each table's engine, and where the other
processes forward its players (several processes on PostgreSQL, ``tavern_dice.web.coordinator``).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_owners",
        sa.Column("table_id", sa.String(32), primary_key=True),
        sa.Column("node_id", sa.String(32), nullable=False),
        sa.Column("address", sa.String(200), nullable=False),
        sa.Column("since_ms", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_table_owners_node_id", "table_owners", ["node_id"])


def downgrade() -> None:
    op.drop_index("ix_table_owners_node_id", "table_owners")
    op.drop_table("table_owners")
