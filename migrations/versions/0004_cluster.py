"""Table ownership leases for a cluster of nodes, with fencing tokens; the results
of a distributed tournament's jobs, one per job.

Revision ID: 0004_cluster
Revises: 0003_tourney
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0004_cluster"
down_revision = "0003_tourney"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("node", sa.String(64), nullable=False),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "tournament_jobs",
        sa.Column("tournament", sa.String(36), primary_key=True),
        sa.Column("job", sa.Integer(), primary_key=True),
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_jobs")
    op.drop_table("table_leases")
