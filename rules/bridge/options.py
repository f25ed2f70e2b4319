"""Bridge table options."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import Field, model_validator

from engine.game import GameConfig


class ClaimPolicy(StrEnum):
    """How a claim (by the declarer or a defender) is settled: double_dummy, the
    solver answers for opponents who cannot beat it; defenders, the players answer."""

    # The solver answers for the opponents when their best play cannot beat the claim;
    # otherwise, and for a defender's partner, the players answer.
    DOUBLE_DUMMY = "double_dummy"
    # The players answer every claim (the name predates defenders' claims).
    DEFENDERS = "defenders"


class BridgeConfig(GameConfig):
    """Settings of a bridge table.

    ``boards``: how many boards the session plays (running score in points);
    ``first_board``: the number of the first board (fixes dealer and vulnerability);
    ``deal``: a fixed PBN deal (``N:AKQ2.J54.T9.8765 ...``) for a single board, e.g. an
    imported board; otherwise boards are dealt by the table's seeded RNG;
    ``dealer`` / ``vulnerable``: override what the board number fixes (for imported
    boards whose records disagree with the standard cycle; single board only);
    ``claims``: how claims are settled;
    ``version``: 2 (the default) lets nobody claim again, on turn or not, between a
    rejected claim and the next card played; version-1 tables (stored before) let
    the seat on turn claim again at once.
    """

    version: int = Field(default=2, ge=1, le=2)
    boards: int = Field(default=1, ge=1, le=32, description=(
        "Boards the session plays, with a running score in points."))
    first_board: int = Field(default=1, ge=1, le=9999, description=(
        "Number of the first board, which fixes its dealer and vulnerability."))
    deal: str | None = Field(default=None, description=(
        "A fixed PBN deal for a single board (boards = 1); unset, boards are dealt at random."))
    dealer: Literal["N", "E", "S", "W"] | None = Field(default=None, description=(
        "Overrides the dealer the board number gives (single board only)."))
    vulnerable: Literal["None", "NS", "EW", "All"] | None = Field(default=None, description=(
        "Overrides the vulnerability the board number gives (single board only)."))
    claims: ClaimPolicy = ClaimPolicy.DOUBLE_DUMMY

    @model_validator(mode="after")
    def _deal_needs_one_board(self) -> BridgeConfig:
        if self.first_board + self.boards - 1 > 9999:
            # Files number boards up to 9999; a later one would be read back as another.
            raise ValueError(f"boards {self.first_board}..{self.first_board + self.boards - 1} "
                             "go past board 9999")
        if (self.dealer or self.vulnerable) and self.boards != 1:
            raise ValueError("dealer and vulnerable overrides are for a single board")
        if self.deal is not None:
            if self.boards != 1:
                raise ValueError("a fixed deal is for a single board (boards = 1)")
            from engine.dds.deal import DealError, parse_pbn

            try:
                hands = parse_pbn(self.deal).hands
            except DealError as exc:
                raise ValueError(str(exc)) from None
            if any(len(h) != 13 for h in hands):
                raise ValueError("a deal gives 13 cards to each seat")
        return self
