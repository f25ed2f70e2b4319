"""Alembic migrations: the only way cardtable's schema changes."""
