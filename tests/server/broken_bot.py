"""A bot module that fails as it is imported (a name its author never defined), for
the tournament's load check."""

from __future__ import annotations

TABLES = build_tables()  # type: ignore[name-defined]  # noqa: F821


class Bot:
    def decide(self, view, legal, seat, seed, budget):  # pragma: no cover - never loaded
        return None
