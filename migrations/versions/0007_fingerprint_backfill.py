"""Fingerprints for the games imported before 0006, so that importing their files
again finds them too.  The hash is the one imports compute (server/files.py,
``fingerprint``): SHA-256 of the compact, key-sorted JSON of [game type, config,
seed, [[seat, action], ...], the file's title, players and tags].  Where a record
was already stored twice, the first copy gets the fingerprint.

Revision ID: 0007_fingerprint_backfill
Revises: 0006_import_fingerprint
Create Date: 2026-11-29
"""

import hashlib
import json

import sqlalchemy as sa
from alembic import op

revision = "0007_fingerprint_backfill"
down_revision = "0006_import_fingerprint"
branch_labels = None
depends_on = None

games = sa.table(
    "games",
    sa.column("id", sa.Integer()),
    sa.column("game_type", sa.String()),
    sa.column("config", sa.JSON()),
    sa.column("seed", sa.BigInteger()),
    sa.column("table_options", sa.JSON()),
    sa.column("fingerprint", sa.String()),
)
actions = sa.table(
    "actions",
    sa.column("game_id", sa.Integer()),
    sa.column("seq", sa.Integer()),
    sa.column("seat", sa.Integer()),
    sa.column("action", sa.JSON()),
)


def upgrade() -> None:
    db = op.get_bind()
    taken = {fp for (fp,) in db.execute(
        sa.select(games.c.fingerprint).where(games.c.fingerprint.is_not(None)))}
    rows = db.execute(
        sa.select(games.c.id, games.c.game_type, games.c.config, games.c.seed,
                  games.c.table_options)
        .where(games.c.fingerprint.is_(None), games.c.table_options.is_not(None))
        .order_by(games.c.id)
    ).all()
    for game_id, game_type, config, seed, options in rows:
        source = (options or {}).get("imported")
        if source is None:
            continue  # played here, not imported
        played = [[seat, action] for seat, action in db.execute(
            sa.select(actions.c.seat, actions.c.action)
            .where(actions.c.game_id == game_id).order_by(actions.c.seq))]
        text = json.dumps([game_type, config, seed, played, source], sort_keys=True,
                          separators=(",", ":"), ensure_ascii=False)
        fp = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        if fp in taken:
            continue  # a second copy of a record: the first keeps the fingerprint
        taken.add(fp)
        db.execute(sa.update(games).where(games.c.id == game_id).values(fingerprint=fp))


def downgrade() -> None:
    pass  # the fingerprints stay; 0006's downgrade drops the column
