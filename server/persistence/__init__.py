"""Durable storage of games: SQLAlchemy 2 async over SQLite (default) or PostgreSQL."""

from server.persistence.store import SeatRecord, Store, StoredAction, StoredGame

__all__ = ["SeatRecord", "Store", "StoredAction", "StoredGame"]
