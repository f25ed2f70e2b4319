"""The schema.  Changed only through Alembic migrations (migrations/)."""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON}


class Player(Base):
    """A guest identity; the session token is stored only as its SHA-256."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameRow(Base):
    """One table's game: what to replay it from and how it ended."""

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_type: Mapped[str] = mapped_column(String(32), index=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    table_options: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # An imported game's record, hashed (None for games played here): one record, one game.
    fingerprint: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True,
                                                    index=True)


class SeatRow(Base):
    """Who sits where: a human (player id + seat token hash), a bot, or nobody."""

    __tablename__ = "seats"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(128), nullable=True)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    """The append-only action log: the game is ``new(config, seed)`` plus these."""

    __tablename__ = "actions"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    actor: Mapped[str] = mapped_column(Text)


class TableEvent(Base):
    """Notable table-level events that are not game actions (seat policies applied,
    bots taking over after a disconnect), kept for operators."""

    __tablename__ = "table_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    kind: Mapped[str] = mapped_column(String(32))
    detail: Mapped[dict[str, Any]] = mapped_column(JSON)


class TournamentRow(Base):
    """A bot tournament: the game, its options, the entrants and how it ended."""

    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_type: Mapped[str] = mapped_column(String(32), index=True)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    # entrants (name -> bot target), schedule, deals, seed, budget, scale
    setup: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    standings: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class TournamentMatchRow(Base):
    """One match: two bots over one deal in every seating, and each side's score."""

    __tablename__ = "tournament_matches"
    # One row per match number: a resumed run never stores a match twice.
    __table_args__ = (
        Index("ix_tournament_matches_number", "tournament_id", "number", unique=True),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    round: Mapped[int] = mapped_column(Integer)
    bot_a: Mapped[str] = mapped_column(String(128))
    bot_b: Mapped[str] = mapped_column(String(128))
    seed: Mapped[int] = mapped_column(BigInteger)
    score_a: Mapped[float] = mapped_column(Float)
    score_b: Mapped[float] = mapped_column(Float)


class TournamentGameRow(Base):
    """A match's game (stored in ``games``, so it replays): who sat where, the
    per-seat scores and stand-ins."""

    __tablename__ = "tournament_games"
    match_id: Mapped[int] = mapped_column(ForeignKey("tournament_matches.id"), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seating: Mapped[dict[str, Any]] = mapped_column(JSON)  # {"bots": [...], "scores": [...], ...}


class RatingRow(Base):
    """A bot's rating in a game after a match (or, with match 0, at a tournament's start)."""

    __tablename__ = "bot_ratings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    match_number: Mapped[int] = mapped_column(Integer)
    game_type: Mapped[str] = mapped_column(String(32))
    bot: Mapped[str] = mapped_column(String(128), index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ClusterIdentity(Base):
    """One row: the database's own random id (nodes of a cluster tell their bus
    who they serve with it) and the topics' prefix its cluster uses."""

    __tablename__ = "cluster_identity"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)  # always 1
    database: Mapped[str] = mapped_column(String(36))
    prefix: Mapped[str | None] = mapped_column(String(128), nullable=True)


class TableLease(Base):
    """Which node of a cluster owns a live table, until when (seconds since the
    epoch on the database's clock), and the fencing token of that ownership: every
    acquisition raises it, and a write carrying an older one is refused."""

    __tablename__ = "table_leases"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    node: Mapped[str] = mapped_column(String(64))
    token: Mapped[int] = mapped_column(BigInteger)
    expires_at: Mapped[float] = mapped_column(Float)


class TournamentBye(Base):
    """A Swiss round's bye: the bot that sat out and the points it scored."""

    __tablename__ = "tournament_byes"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    round: Mapped[int] = mapped_column(Integer, primary_key=True)
    bot: Mapped[str] = mapped_column(String(128))
    points: Mapped[float] = mapped_column(Float)


class TournamentJob(Base):
    """The result of one game of a distributed tournament (a match's game in one
    seating, played by a worker): the primary key makes it recorded once,
    whichever worker finishes it first."""

    __tablename__ = "tournament_jobs"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    match_number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seating: Mapped[int] = mapped_column(Integer, primary_key=True)
    worker: Mapped[str] = mapped_column(String(64))
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
