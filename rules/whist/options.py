"""Whist table options."""

from __future__ import annotations

from pydantic import Field

from engine.game import GameConfig


class WhistConfig(GameConfig):
    """Settings of a whist table.

    ``deals``: how many deals the match lasts (the dealer rotates each deal);
    the partnership with more points at the end wins.
    """

    deals: int = Field(default=1, ge=1, le=16, description=(
        "Deals in the match; the partnership with more points at the end wins."))
