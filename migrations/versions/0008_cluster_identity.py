"""The database's identity for its cluster: a random id the nodes announce with
their presence (a node of another database on the same bus is ignored), and the
topics' prefix the cluster uses (a node given another one is refused while the
cluster's nodes hold tables).

Revision ID: 0008_cluster_identity
Revises: 0007_fingerprint_backfill
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_cluster_identity"
down_revision = "0007_fingerprint_backfill"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "cluster_identity",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("database", sa.String(36), nullable=False),
        sa.Column("prefix", sa.String(128), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("cluster_identity")
