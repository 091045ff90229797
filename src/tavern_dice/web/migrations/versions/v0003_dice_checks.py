"""Dice checks: at a table with physical dice, each player's answer at a reveal (does
their cup show the faces they typed in).

A database made by a version with physical dice but before migrations already has the
table (it was stamped ``0001``): then it is kept as it is.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("dice_checks"):
        return
    op.create_table(
        "dice_checks",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("match", sa.Boolean(), nullable=False),
        sa.Column("at_ms", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("dice_checks")
