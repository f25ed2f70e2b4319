"""Bot tournaments: tournaments, matches, their games, ratings over time; seat bot
names long enough for an outside bot's ``module:Class``.

Revision ID: 0003_tourney
Revises: 0002
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0003_tourney"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("bot", type_=sa.String(128), existing_type=sa.String(32))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game_type", sa.String(32), nullable=False, index=True),
        sa.Column("config", sa.JSON(), nullable=False),
        sa.Column("setup", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("standings", sa.JSON(), nullable=True),
    )
    op.create_table(
        "tournament_matches",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id"),
            nullable=False,
            index=True,
        ),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("bot_a", sa.String(128), nullable=False),
        sa.Column("bot_b", sa.String(128), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("score_a", sa.Float(), nullable=False),
        sa.Column("score_b", sa.Float(), nullable=False),
    )
    op.create_table(
        "tournament_games",
        sa.Column(
            "match_id", sa.Integer(), sa.ForeignKey("tournament_matches.id"), primary_key=True
        ),
        sa.Column("game_id", sa.Integer(), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seating", sa.JSON(), nullable=False),
    )
    op.create_table(
        "bot_ratings",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "tournament_id",
            sa.Integer(),
            sa.ForeignKey("tournaments.id"),
            nullable=False,
            index=True,
        ),
        sa.Column("match_number", sa.Integer(), nullable=False),
        sa.Column("game_type", sa.String(32), nullable=False),
        sa.Column("bot", sa.String(128), nullable=False, index=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("bot_ratings")
    op.drop_table("tournament_games")
    op.drop_table("tournament_matches")
    op.drop_table("tournaments")
    with op.batch_alter_table("seats") as batch:
        batch.alter_column("bot", type_=sa.String(32), existing_type=sa.String(128))
