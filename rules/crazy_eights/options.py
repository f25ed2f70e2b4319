"""Crazy Eights table options (docs/rules/crazy_eights.md, rule 9 "Game")."""

from __future__ import annotations

from pydantic import Field, model_validator

from engine.game import GameConfig


class CrazyEightsConfig(GameConfig):
    """Settings of a Crazy Eights table.

    ``seats``: 2 to 5 players.  ``hands``: how many hands the game lasts; or, with
    ``target`` set, the game goes on until a hand leaves someone with at least
    ``target`` penalty points.  The fewest penalty points win.
    """

    seats: int = Field(default=4, ge=2, le=5, description="Players at the table.")
    hands: int = Field(default=1, ge=1, le=20, description=(
        "Hands the game lasts; leave at 1 when target is set."))
    target: int = Field(default=0, ge=0, le=1000, description=(
        "Play until a hand leaves someone at this many penalty points or more (0 = off; "
        "needs hands = 1)."))

    @model_validator(mode="after")
    def _one_end(self) -> CrazyEightsConfig:
        if self.target and self.hands != 1:
            raise ValueError("set either hands or target, not both")
        return self
