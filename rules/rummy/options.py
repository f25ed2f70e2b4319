"""Meld rules of the rummy family as one configurable rule set, with presets.

Every rummy variant cardtable plays is a value of :class:`MeldRules`; the
presets ``indian`` and ``gin`` are just two such values (``PRESETS``).  The
model is frozen and rejects unknown fields like :class:`engine.game.GameConfig`,
so a rummy table config can embed it as a field.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from functools import cached_property, lru_cache
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.cards import FACES_PER_DECK, SMALL_JOKER, rank_of
from engine.game import GameConfig


class AceRule(StrEnum):
    """Where an ace may sit in a run."""

    LOW = "low"  # A-2-3 only (gin)
    LOW_OR_HIGH = "low_or_high"  # A-2-3 or Q-K-A, never K-A-2 (indian)
    WRAP = "wrap"  # runs go round the corner: K-A-2 is a run


class PointScheme(StrEnum):
    """What a card left out of melds costs."""

    GIN = "gin"  # ace 1, 2..10 face value, J Q K 10
    INDIAN = "indian"  # A K Q J 10, 2..10 face value


class Objective(StrEnum):
    """What ``best`` optimises."""

    DEADWOOD = "deadwood"  # least points left out of melds (gin and points games)
    DECLARATION = "declaration"  # a valid declaration first, else least counted points


# run_min, ace, set_min, set_max, uses_jokers, jokers_in_runs, jokers_in_sets, max_jokers
MeldSpec = tuple[int, AceRule, int, int, bool, bool, bool, int]


class MeldRules(BaseModel):
    """Which groups of cards are melds, and what the leftover costs.

    Ranks are engine rank indices (0 = deuce .. 12 = ace).  ``wild_rank`` makes
    every card of that rank a joker as well as a natural card (Indian rummy
    draws it at the start of a deal; see :meth:`with_wild`).  A meld always
    holds at least one natural card.  A run with no joker is *pure*; a wild card
    used as the card it is (in its natural place) keeps a run pure.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False)

    run_min: int = Field(default=3, ge=3, le=13)
    ace: AceRule = AceRule.LOW_OR_HIGH
    set_min: int = Field(default=3, ge=2, le=4)
    set_max: int = Field(default=4, ge=2, le=4)
    printed_jokers: bool = False
    wild_rank: int | None = Field(default=None, ge=0, le=12)
    jokers_in_runs: bool = True
    jokers_in_sets: bool = True
    max_jokers_per_meld: int | None = Field(default=None, ge=1)
    points: PointScheme = PointScheme.GIN
    joker_points: int = Field(default=0, ge=0)
    points_cap: int | None = Field(default=None, ge=1)
    objective: Objective = Objective.DEADWOOD
    runs_required: int = Field(default=0, ge=0)
    pure_runs_required: int = Field(default=0, ge=0)
    declare_size: int = Field(default=13, ge=1)

    @model_validator(mode="after")
    def _check(self) -> MeldRules:
        if self.set_min > self.set_max:
            raise ValueError("set_min must not exceed set_max")
        if self.pure_runs_required > self.runs_required:
            raise ValueError("pure_runs_required must not exceed runs_required")
        return self

    @property
    def uses_jokers(self) -> bool:
        """Whether any card can act as a joker under these rules."""
        return (self.printed_jokers or self.wild_rank is not None) and (
            self.jokers_in_runs or self.jokers_in_sets
        )

    @property
    def max_jokers(self) -> int:
        """Jokers one meld may hold (13 stands for "no limit")."""
        return 13 if self.max_jokers_per_meld is None else self.max_jokers_per_meld

    @cached_property
    def meld_spec(self) -> MeldSpec:
        """The fields that decide meld validity, as a cheap hashable key."""
        return (
            self.run_min,
            self.ace,
            self.set_min,
            self.set_max,
            self.uses_jokers,
            self.jokers_in_runs,
            self.jokers_in_sets,
            self.max_jokers,
        )

    @property
    def face_points(self) -> tuple[int, ...]:
        """What each face (0..53) costs when left over (cached per point scheme,
        jokers and wild rank, so every copy of the rules shares it)."""
        return _face_points(self.points, self.printed_jokers, self.wild_rank, self.joker_points)

    def with_wild(self, rank: int | None) -> MeldRules:
        """The same rules with ``rank`` as the wild rank (None: no wild rank)."""
        copy = self.model_copy(update={"wild_rank": rank})
        # a copy carries the original's cached properties: drop the one that
        # depends on the wild rank (through ``uses_jokers``)
        copy.__dict__.pop("meld_spec", None)
        return copy

    def replace(self, **changes: Any) -> MeldRules:
        """A validated copy with some fields changed."""
        return MeldRules.model_validate({**self.model_dump(), **changes})

    @classmethod
    def indian(cls, wild_rank: int | None = None) -> MeldRules:
        """13-card Indian points rummy: two decks, printed jokers and a wild rank.

        Ace low or high, jokers anywhere without limit, a declaration needs two
        runs of which one is pure, points A K Q J = 10 capped at 80.
        """
        return cls(
            ace=AceRule.LOW_OR_HIGH,
            printed_jokers=True,
            wild_rank=wild_rank,
            points=PointScheme.INDIAN,
            points_cap=80,
            objective=Objective.DECLARATION,
            runs_required=2,
            pure_runs_required=1,
            declare_size=13,
        )

    @classmethod
    def gin(cls) -> MeldRules:
        """Gin rummy: one deck, no jokers, ace low only, least deadwood wins."""
        return cls(
            ace=AceRule.LOW,
            printed_jokers=False,
            wild_rank=None,
            points=PointScheme.GIN,
            objective=Objective.DEADWOOD,
            declare_size=10,
        )


def joker_face(face: int, printed_jokers: bool, wild_rank: int | None) -> bool:
    """Whether a card of ``face`` can stand in as a joker: a printed joker when
    they are in play, or a card of the wild rank."""
    if face >= SMALL_JOKER:
        return printed_jokers
    return wild_rank is not None and rank_of(face) == wild_rank


def face_cost(
    face: int, points: PointScheme, printed_jokers: bool, wild_rank: int | None,
    joker_points: int,
) -> int:
    """What one card of ``face`` left out of melds costs under a point scheme."""
    if face >= SMALL_JOKER or joker_face(face, printed_jokers, wild_rank):
        return joker_points
    rank = rank_of(face)
    if points is PointScheme.GIN:
        return 1 if rank == 12 else min(rank + 2, 10)
    return 10 if rank >= 9 else rank + 2


@lru_cache(maxsize=256)
def _face_points(
    points: PointScheme, printed_jokers: bool, wild_rank: int | None, joker_points: int
) -> tuple[int, ...]:
    return tuple(face_cost(f, points, printed_jokers, wild_rank, joker_points)
                 for f in range(FACES_PER_DECK))


PRESETS: dict[str, MeldRules] = {"indian": MeldRules.indian(), "gin": MeldRules.gin()}


# --- the table config (the Game's options) ---------------------------------------

class Variant(StrEnum):
    """Which rummy the table plays: indian (13 cards, 2–6 players, points) or gin
    (10 cards, 2 players, knock or gin); each fixes its own meld rules."""

    INDIAN = "indian"  # 13-card points rummy, 2-6 players, two decks + 2 printed jokers, wild rank
    GIN = "gin"  # gin rummy, 2 players, one deck, 10 cards, knock / gin / lay-off


class Pool(IntEnum):
    """Indian match length: one deal, or pool rummy to 101 / 201 points."""

    SINGLE = 0  # one deal; each seat scores minus the points charged to it
    POOL_101 = 101
    POOL_201 = 201


class RummyConfig(GameConfig):
    """Settings of a rummy table (``variant`` picks indian or gin; documented in docs/rummy.md).

    Indian: ``pool`` (0 = one deal, 101 or 201 = pool rummy: a seat whose total reaches
    the limit is out, the last one standing wins), drop and wrong-declaration penalties.
    Gin: ``target`` (0 = one deal, else a match to that many points), the knock limit,
    whether an equal count undercuts the knocker, and the bonuses.
    """

    variant: Variant = Variant.INDIAN
    players: int = Field(default=2, ge=2, le=6, description=(
        "Players at the table: 2 to 6 for indian; gin is for exactly 2."))
    # indian
    pool: Pool = Pool.POOL_101
    first_drop: int = Field(default=20, ge=0, description="Points a drop before one's "
                            "first draw costs (25 in a 201 pool).")
    middle_drop: int = Field(default=40, ge=0, description="Points a later drop costs "
                             "(50 in a 201 pool).")
    wrong_declaration: int = Field(default=80, ge=0, description=(
        "Points charged to a player whose declaration is wrong (indian)."))
    # gin
    target: int = Field(default=100, ge=0, description=(
        "Gin match length: 0 plays one deal, "
        "else deals go on until a seat reaches this many points."))
    knock_limit: int = Field(default=10, ge=0, le=10, description=(
        "Most deadwood a player may knock with (gin)."))
    undercut_on_equal: bool = Field(default=True, description=(
        "A defender with as much deadwood as the knocker undercuts them (gin)."))
    gin_bonus: int = Field(default=25, ge=0, description=(
        "Bonus for going gin, on top of the defender's deadwood."))
    undercut_bonus: int = Field(default=25, ge=0, description=(
        "Bonus to a gin defender who undercuts the knocker, on top of the difference."))
    box_bonus: int = Field(default=25, ge=0, description=(
        "Points per deal won, added to each seat's total at the end of a gin match."))
    game_bonus: int = Field(default=100, ge=0, description=(
        "Bonus to the seat that reaches the target in a gin match."))

    @model_validator(mode="after")
    def _check_players(self) -> RummyConfig:
        if self.variant is Variant.GIN and self.players != 2:
            raise ValueError("gin rummy is for two players")
        return self

    @model_validator(mode="after")
    def _pool_201_drops(self) -> RummyConfig:
        # A 201 pool's drops cost 25 and 50 (20 and 40 in a 101 pool or one deal),
        # unless the table says otherwise; stored tables name theirs and keep them.
        if self.pool is Pool.POOL_201:
            for name, cost in (("first_drop", 25), ("middle_drop", 50)):
                if name not in self.model_fields_set:
                    object.__setattr__(self, name, cost)
        return self

    def meld_rules(self, wild_rank: int | None = None) -> MeldRules:
        """The meld rules of this variant (indian: with the deal's wild rank)."""
        return meld_rules_for(self.variant, wild_rank)


@lru_cache(maxsize=64)
def meld_rules_for(variant: Variant, wild_rank: int | None) -> MeldRules:
    """The meld rules of ``variant`` with ``wild_rank`` (indian), cached."""
    return MeldRules.indian(wild_rank) if variant is Variant.INDIAN else MeldRules.gin()
