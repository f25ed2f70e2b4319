"""No-limit hold'em table options: every house rule explicit, with its default."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, model_validator

from engine.game import GameConfig


class OddChip(StrEnum):
    """Who gets the chips left over when a pot splits unevenly.

    ``one_each``: one chip each to the winners in seat order from the first seat left
    of the button (the usual card-room rule, and the default).  ``first_winner``: all
    of the remainder to the first winner left of the button (pokerkit's convention;
    identical whenever at most two players split).
    """

    ONE_EACH = "one_each"
    FIRST_WINNER = "first_winner"


class PokerConfig(GameConfig):
    """Settings of a no-limit hold'em cash table.

    - ``seats`` (2..10, default 6): chairs at the table.
    - ``small_blind`` (default 1), ``big_blind`` (default 2), ``ante`` (default 0,
      paid by every player dealt in, as part of their contribution to the pot).
    - ``starting_stack`` (default 200 = 100 big blinds): chips each seat buys in for.
    - ``max_buy_in`` (default: the starting stack): a rebuy may bring a stack up to
      this, never above.
    - ``rebuys`` (default on): a player who is sitting out or busted may buy chips
      between hands; with rebuys off a busted player is out for the session.
    - ``hands`` (1..100,000, default 20): the session ends after this many hands, or
      sooner when fewer than two players can be dealt in.
    - ``muck_losers`` (default on): at showdown a player whose hand cannot win any pot
      against the hands already shown mucks it unseen (automatically); off: every
      player still in the hand shows.
    - ``odd_chip`` (default ``one_each``): see :class:`OddChip`.
    """

    seats: int = Field(default=6, ge=2, le=10)
    small_blind: int = Field(default=1, ge=0)
    big_blind: int = Field(default=2, ge=1)
    ante: int = Field(default=0, ge=0)
    starting_stack: int = Field(default=200, ge=1)
    max_buy_in: int | None = Field(default=None, ge=1)
    rebuys: bool = True
    hands: int = Field(default=20, ge=1, le=100_000)
    muck_losers: bool = True
    odd_chip: OddChip = OddChip.ONE_EACH

    @model_validator(mode="after")
    def _consistent(self) -> PokerConfig:
        if self.small_blind > self.big_blind:
            raise ValueError("small_blind must not exceed big_blind")
        if self.max_buy_in is not None and self.max_buy_in < self.starting_stack:
            raise ValueError("max_buy_in must be at least starting_stack")
        return self

    @property
    def buy_in_cap(self) -> int:
        """The most chips a stack may be topped up to by a rebuy."""
        return self.starting_stack if self.max_buy_in is None else self.max_buy_in
