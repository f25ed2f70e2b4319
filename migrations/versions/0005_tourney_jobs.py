"""Distributed tournaments are stored tournaments: a job's result is keyed by
(tournament, match, seating) of a stored tournament; Swiss byes are stored; a
tournament's match numbers are unique.

The table ``tournament_jobs`` of 0004 (keyed by a run's random id) held the
results of the arena-lineup runs, which nothing reads any more: it is replaced.

Revision ID: 0005_tourney_jobs
Revises: 0004_cluster
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0005_tourney_jobs"
down_revision = "0004_cluster"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_table("tournament_jobs")
    op.create_table(
        "tournament_jobs",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("match_number", sa.Integer(), primary_key=True),
        sa.Column("seating", sa.Integer(), primary_key=True),
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "tournament_byes",
        sa.Column("tournament_id", sa.Integer(), sa.ForeignKey("tournaments.id"), primary_key=True),
        sa.Column("round", sa.Integer(), primary_key=True),
        sa.Column("bot", sa.String(128), nullable=False),
        sa.Column("points", sa.Float(), nullable=False),
    )
    op.create_index(
        "ix_tournament_matches_number",
        "tournament_matches",
        ["tournament_id", "number"],
        unique=True,
    )


def downgrade() -> None:
    op.drop_index("ix_tournament_matches_number", table_name="tournament_matches")
    op.drop_table("tournament_byes")
    op.drop_table("tournament_jobs")
    op.create_table(
        "tournament_jobs",
        sa.Column("tournament", sa.String(36), primary_key=True),
        sa.Column("job", sa.Integer(), primary_key=True),
        sa.Column("worker", sa.String(64), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
