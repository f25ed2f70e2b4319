"""Whist scoring: a partnership scores one point per trick over six (its book)."""

from __future__ import annotations

BOOK = 6


def deal_points(tricks: tuple[int, int]) -> tuple[int, int]:
    """Points each partnership scores for a deal's trick counts."""
    return (max(0, tricks[0] - BOOK), max(0, tricks[1] - BOOK))
