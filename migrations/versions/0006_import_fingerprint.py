"""An imported game's fingerprint: the same record imported again is found, not
stored twice.

Revision ID: 0006_import_fingerprint
Revises: 0005_tourney_jobs
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_import_fingerprint"
down_revision = "0005_tourney_jobs"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("fingerprint", sa.String(64), nullable=True))
        batch.create_index("ix_games_fingerprint", ["fingerprint"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_fingerprint")
        batch.drop_column("fingerprint")
