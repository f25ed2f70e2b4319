"""Tractor table options: every house rule as an explicit option.

Defaults are those of the rules as docs/tractor.md states them ("The rules",
"Options"), which take rbtying/shengji's defaults where servers differ.  A bad option is
rejected when the table is created: ``Game.parse_config`` turns the pydantic
error into ``IllegalAction('bad_option', ...)`` naming the option.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Self

from pydantic import Field, field_validator, model_validator

from engine.cards import RANKS
from engine.game import GameConfig


class KittyMultiplier(StrEnum):
    """How the kitty's points are multiplied when the attackers win the last trick."""

    #: 2 × the size (in cards) of the largest unit of the last trick's winning play.
    DOUBLE_UNIT = "double_unit"
    #: 2 ** (size of that largest unit).
    POWER_UNIT = "power_unit"
    #: 2 × the number of cards in the last trick's lead.
    DOUBLE_CARDS = "double_cards"


class ThrowFailureUnit(StrEnum):
    """Which beatable unit a failed throw is reduced to."""

    #: The smallest unit (fewest cards, then lowest) that another hand can beat.
    SMALLEST = "smallest"
    #: The first beatable unit in the throw's template order (tractors, pairs, singles).
    FIRST_FOUND = "first_found"
    #: rbtying/shengji's: the first player after the thrower (in play order) who
    #: can beat a unit decides; of the units it can beat, the smallest (fewest
    #: cards, then lowest).
    FIRST_BEATER = "first_beater"


class TrickComparison(StrEnum):
    """How a conforming multi-unit play is compared with the current winner.

    Some servers call this the "throw evaluation" option.  A single unit
    compares the same way under every choice.
    """

    #: Every unit matched highest-to-highest must be strictly higher (any matching).
    ALL_UNITS = "all_units"
    #: Only the highest card of each play is compared.
    HIGHEST_CARD = "highest_card"
    #: Units compared largest first; the first difference decides.
    LARGEST_UNIT_FIRST = "largest_unit_first"


class TrickDrawPolicy(StrEnum):
    """What a follower must play when it cannot match the lead's format
    (docs/tractor.md, "Tuples and draw policies"; shengji's names)."""

    #: A longer tuple or a tractor is broken to supply pairs when asked.
    NO_PROTECTIONS = "no_protections"
    #: A tuple need not be broken to follow a narrower one (a triple for a pair).
    LONGER_TUPLES_PROTECTED = "longer_tuples_protected"
    #: Only a tractor lead draws tractors (a quadruple lead does not).
    ONLY_DRAW_TRACTOR_ON_TRACTOR = "only_draw_tractor_on_tractor"
    #: Both of the above.
    LONGER_TUPLES_PROTECTED_AND_ONLY_TRACTOR_ON_TRACTOR = (
        "longer_tuples_protected_and_only_draw_tractor_on_tractor")
    #: Follow suit only: the format draws nothing.
    NO_FORMAT_BASED_DRAW = "no_format_based_draw"


class BidPolicy(StrEnum):
    """Which declaration overrides another of as many cards (a longer one always does)."""

    #: Jokers beat suits (big over small); otherwise a longer declaration only.
    JOKER_OR_GREATER_LENGTH = "joker_or_greater_length"
    #: Also a higher suit (clubs < diamonds < hearts < spades) of two or more cards.
    JOKER_OR_HIGHER_SUIT = "joker_or_higher_suit"
    #: Only a longer declaration overrides.
    GREATER_LENGTH = "greater_length"


class JokerBidPolicy(StrEnum):
    """How many jokers declare no trump."""

    #: Two or more of one joker.
    BOTH_TWO_OR_MORE = "both_two_or_more"
    #: As many as there are decks, of either joker.
    BOTH_NUM_DECKS = "both_num_decks"
    #: Small jokers: as many as decks; big jokers: one fewer.
    SMALL_NUM_DECKS_BIG_ONE_LESS = "small_num_decks_big_one_less"


class BidReinforcement(StrEnum):
    """What a seat whose declaration stands (or stood) may add."""

    #: While its declaration is the standing one, only more copies of the same card.
    REINFORCE_WHILE_WINNING = "reinforce_while_winning"
    #: While standing, more copies of the same card or any stronger declaration.
    OVERTURN_OR_REINFORCE_WHILE_WINNING = "overturn_or_reinforce_while_winning"
    #: Once overridden, it may also bring its card up to as many copies as the
    #: standing declaration (unless that one is of jokers), which then stands.
    REINFORCE_WHILE_EQUIVALENT = "reinforce_while_equivalent"


class BombPolicy(StrEnum):
    """Bombs: four or more copies of one card, played to a trick of as many cards
    (docs/tractor.md, "Bombs")."""

    NO_BOMBS = "no_bombs"
    #: A bomb beats any play that is not a bomb and may be played whatever was led.
    ALLOW_BOMBS = "allow_bombs"
    #: As above, but a bomb of another plain suit only when void in the led suit.
    ALLOW_BOMBS_SUIT_FOLLOWING = "allow_bombs_suit_following"


class FriendSelection(StrEnum):
    """Which cards the landlord may call as friends (Finding Friends)."""

    #: Any card that is not a trump.
    UNRESTRICTED = "unrestricted"
    #: Any card, trumps and jokers too.
    TRUMPS_INCLUDED = "trumps_included"
    #: Not a trump, nor the highest plain card (the ace; the king when aces are trump).
    HIGHEST_CARD_NOT_ALLOWED = "highest_card_not_allowed"
    #: Not a trump, nor a point card (5, 10, K; a king is allowed when aces are trump).
    POINT_CARD_NOT_ALLOWED = "point_card_not_allowed"


class MultipleJoin(StrEnum):
    """A called copy played by a seat already on the landlord's side (Finding Friends)."""

    #: The call is answered anyway (wasted): the side stays smaller.
    UNRESTRICTED = "unrestricted"
    #: The call stays open for the next copy played by a seat not yet on the side.
    NO_DOUBLE_JOIN = "no_double_join"


class FirstLandlord(StrEnum):
    """Who is the landlord of the first round (shengji's first-landlord policy)."""

    #: The seat whose declaration fixes trump.
    BY_WINNING_BID = "by_winning_bid"
    #: The first seat to declare, whatever overrode it (its declaration may not stand).
    BY_FIRST_BID = "by_first_bid"


class FirstLeader(StrEnum):
    """Who leads the first trick of a round (rbtying/shengji: always the landlord)."""

    #: The landlord.
    LANDLORD = "landlord"
    #: The last seat to bury the kitty: the landlord, or the last seat that took
    #: the kitty by an overbid (``kitty_theft``).
    EXCHANGER = "exchanger"
    #: The seat whose declaration fixed trump (the landlord when none did: the
    #: kitty was turned up, or the NT level).
    TRUMP_DECLARER = "trump_declarer"


class RankScope(StrEnum):
    """Whether levels are kept per partnership or per player: no choice in fact.
    Partners of the classic game always rise together, so a level per player is the
    partnership's; Finding Friends keeps one per seat whatever this says.  Kept so
    that tables stored with it load; offered to no new table."""

    PER_TEAM = "per_team"
    PER_PLAYER = "per_player"


class NoDeclarationPolicy(StrEnum):
    """What happens when nobody declares trump during the draw."""

    #: Turn the kitty's cards up one by one; the first rank card (else the
    #: highest card) fixes the trump suit.
    REVEAL_KITTY = "reveal_kitty"
    #: Shuffle and deal the round again.
    REDEAL = "redeal"


class BonusLevelPolicy(StrEnum):
    """Whether a Finding Friends landlord side that ended smaller than planned
    (a wasted or unanswered call) gets one more level when it holds."""

    NONE = "none"
    SMALLER_LANDLORD_TEAM = "smaller_landlord_team"


class AdvancementPolicy(StrEnum):
    """Which levels a seat must defend (win as landlord) to go up past.

    A seat whose level must be defended goes up past it only as the landlord
    side and only with the first level of that round's gain; otherwise its
    advance stops there (docs/tractor.md, "Level advancement").
    """

    #: Only the maximum rank must be defended.
    DEFEND_MAX = "defend_max"
    #: Nothing must be defended: passing the maximum on attack also wins.
    UNRESTRICTED = "unrestricted"
    #: The maximum rank and the point ranks (5, 10, K) must be defended.
    DEFEND_POINTS = "defend_points"


class TractorConfig(GameConfig):
    """Settings of a Tractor (Sheng Ji) table.

    ``seats``: 4 in the classic game (fixed partnerships 0&2 vs 1&3); Finding
    Friends mode (``finding_friends``) needs 5 or more seats, where the
    landlord calls friend cards instead of having a fixed partner.
    ``throw_failure_penalty``: points the throwing side loses per failed throw.
    ``takeback_allowed``: off by default because an accepted action is durable
    the moment it is acknowledged (docs/architecture.md, "The table
    actor"); turning it on lets the last player to act withdraw a play
    before the next player acts.
    ``allow_reinforce``: a declarer may strengthen their own single
    declaration into a pair of the same card.
    ``max_rank``: the level a side must pass to win the match (A by default).
    ``rounds``: 0 (default) plays until a side passes ``max_rank``; N > 0 also
    ends the match after N scored rounds (the higher level wins; equal levels
    draw) -- for short casual tables and for tests.
    """

    #: 5: the rules of docs/tractor.md.  Tables stored under an older version
    #: replay as they were played and may not set the options added after it
    #: (:data:`ADDED_IN`): 1 before the house-rule options, 2 before
    #: ``kitty_theft`` and ``first_leader``, 3 before declarations were taken at
    #: any time during the draw (up to 3 a seat that could declare was to act, and
    #: its public pass told everyone so), 4 before two decks always kept the pair
    #: engine (a draw or bomb policy other than the default switched them to the
    #: tuple engine, which rules a few follows otherwise).
    version: int = Field(default=5, ge=1, le=5)
    seats: int = Field(default=4, ge=4, le=8, description=(
        "Players at the table: 4, or 5–8 with finding_friends."))
    finding_friends: bool = Field(default=False, description=(
        "Finding Friends mode for 5–8 seats: "
        "the landlord calls friend cards instead of having a fixed partner."))
    kitty_multiplier: KittyMultiplier = KittyMultiplier.DOUBLE_UNIT
    throw_failure_unit: ThrowFailureUnit = ThrowFailureUnit.SMALLEST
    throw_failure_penalty: int = Field(default=10, ge=0, le=200, description=(
        "Points the thrower's side pays the other side for each failed throw."))
    trick_comparison: TrickComparison = TrickComparison.ALL_UNITS
    rank_scope: RankScope = Field(default=RankScope.PER_TEAM,
                                  json_schema_extra={"stored_only": True})
    no_declaration: NoDeclarationPolicy = NoDeclarationPolicy.REVEAL_KITTY
    takeback_allowed: bool = Field(default=False, description=(
        "Lets a player take back a play that did not end the trick, until the next player acts."))
    allow_reinforce: bool = Field(default=True, description=(
        "Lets a declarer turn their own single declaration into a pair of the same card."))
    max_rank: str = Field(default="A", description=(
        "The level a side must pass to win the match: 3 to A (10 or T), or NT."))
    rounds: int = Field(default=0, ge=0, le=200, description=(
        "Ends the match after this many scored rounds, higher level winning "
        "(0 = play until a side passes max_rank)."))
    deck_count: int = Field(default=0, ge=0, le=4, description=(
        "Decks shuffled together, 2 to 4 (0 = 2, or seats // 2 with finding_friends)."))
    kitty_cards: int = Field(default=0, ge=0, le=40, description=(
        "Kitty size; must leave equal hands (0 = the smallest such kitty of 5 or more; "
        "8 classic)."))
    trick_draw_policy: TrickDrawPolicy = TrickDrawPolicy.NO_PROTECTIONS
    bomb_policy: BombPolicy = BombPolicy.NO_BOMBS
    friend_selection: FriendSelection = FriendSelection.UNRESTRICTED
    multiple_join: MultipleJoin = MultipleJoin.UNRESTRICTED
    friend_count: int = Field(default=0, ge=0, le=4, description=(
        "Friend cards the landlord calls (Finding Friends only): fewer than seats - 1; "
        "0 = seats // 2 - 1."))
    first_landlord: FirstLandlord = FirstLandlord.BY_WINNING_BID
    early_end: bool = Field(default=True, description=(
        "Lets the seat to lead end a round early once its result can no longer change."))
    bid_policy: BidPolicy = BidPolicy.JOKER_OR_GREATER_LENGTH
    joker_bid_policy: JokerBidPolicy = JokerBidPolicy.BOTH_TWO_OR_MORE
    bid_reinforcement: BidReinforcement = BidReinforcement.REINFORCE_WHILE_WINNING
    bid_takeback: bool = Field(default=False, description=(
        "Lets the seat whose declaration stands withdraw it during the draw."))
    score_step_per_deck: int = Field(default=20, ge=5, le=50, multiple_of=5, description=(
        "Points per level step for each deck, a multiple of 5 "
        "(20 makes 40-point steps with two decks)."))
    turnover_steps: int = Field(default=2, ge=1, le=8, description=(
        "Steps of points the attackers need to take over as landlords."))
    deadzone_steps: int = Field(default=1, ge=0, le=8, description=(
        "Steps above turnover in which the attackers take over without going up."))
    truncate_zero_crossing: bool = Field(default=True, description=(
        "Attacker scores below 5 give the landlords one more level (0 is +3, not +2, "
        "in two decks)."))
    bonus_level: BonusLevelPolicy = BonusLevelPolicy.SMALLER_LANDLORD_TEAM
    advancement: AdvancementPolicy = AdvancementPolicy.DEFEND_MAX
    defend_ranks: tuple[str, ...] = Field(default=(), description=(
        'More ranks a seat must win as landlord to go up past, e.g. ["5", "10", "J"].'))
    kitty_theft: bool = Field(default=False, description=(
        "After each burial any seat may override the standing declaration; the seat "
        "whose declaration then stands takes the kitty, its trump holds, and it buries "
        "in turn (rbtying/shengji's kitty theft)."))
    first_leader: FirstLeader = FirstLeader.LANDLORD

    @field_validator("max_rank")
    @classmethod
    def _known_rank(cls, value: str) -> str:
        rank = value.strip().upper()
        rank = "T" if rank == "10" else rank
        if rank == "NT":
            return rank  # play past A: a level where only the jokers are trump
        if len(rank) != 1 or rank not in RANKS or rank == "2":
            raise ValueError("must be one of 3..9, T, J, Q, K, A, NT")
        return rank

    @model_validator(mode="before")
    @classmethod
    def _legacy(cls, data: object) -> object:
        # A table stored under an older version keeps the rules it was played
        # under and may not set the options added after it.  Version 1 had no
        # bonus level and no rank to defend, and Finding Friends capped at
        # three decks of pairs.
        if not isinstance(data, dict) or data.get("version") not in (1, 2):
            return data
        version = data["version"]
        named = sorted(set(data) & set(absent_fields(version)))
        if named:
            raise ValueError(f"{named[0]}: not an option of version {version} "
                             f"(use version {VERSION})")
        if version == 2:
            return data
        return {**data, "bonus_level": BonusLevelPolicy.NONE,
                "advancement": AdvancementPolicy.UNRESTRICTED}

    @field_validator("defend_ranks", mode="before")
    @classmethod
    def _known_ranks(cls, value: object) -> tuple[str, ...]:
        if not isinstance(value, (list, tuple)):
            raise ValueError("must be a list of ranks (2..9, T, J, Q, K, A)")
        out: list[str] = []
        for v in value:
            rank = str(v).strip().upper()
            rank = "T" if rank == "10" else rank
            if len(rank) != 1 or rank not in RANKS:
                raise ValueError("must be a list of ranks (2..9, T, J, Q, K, A)")
            out.append(rank)
        return tuple(sorted(set(out), key=RANKS.index))

    @model_validator(mode="after")
    def _seats_match_mode(self) -> Self:
        # Fixed partnerships only work with four seats; Finding Friends is the
        # variant for larger tables.  Name the option that is wrong.
        if self.finding_friends and self.seats < 5:
            raise ValueError("seats: Finding Friends needs at least 5 seats")
        if not self.finding_friends and self.seats != 4:
            raise ValueError("seats: fixed partnerships need exactly 4 seats "
                             "(set finding_friends for larger tables)")
        if self.friend_count and (not self.finding_friends or self.friend_count >= self.seats - 1):
            raise ValueError("friend_count: Finding Friends only, fewer than seats - 1")
        if self.deck_count == 1:
            raise ValueError("deck_count: 2 to 4 decks (0 = by the seat count)")
        if self.kitty_cards and (self.decks * 54 - self.kitty_cards) % self.seats:
            raise ValueError(f"kitty_cards: {self.decks * 54 - self.kitty_cards} cards "
                             f"do not deal evenly to {self.seats} seats")
        return self

    @property
    def decks(self) -> int:
        """Decks shuffled together (see :func:`deal_sizes`)."""
        if self.version == 1:
            return min(3, deal_sizes(self.seats, self.finding_friends)[0])
        return deal_sizes(self.seats, self.finding_friends, self.deck_count, self.kitty_cards)[0]

    @property
    def kitty_size(self) -> int:
        """Cards in the kitty (see :func:`deal_sizes`)."""
        if self.version == 1:
            return deal_sizes(self.seats, self.finding_friends, self.decks)[1]
        return deal_sizes(self.seats, self.finding_friends, self.deck_count, self.kitty_cards)[1]

    @property
    def tuple_rules(self) -> bool:
        """Whether plays are cut into tuples of any width (rules/tractor/tuples.py):
        with three or more decks.  Two decks keep the classic pair engine, whose
        checks are polynomial (docs/tractor.md, "Following: the legality rule"):
        with no face held three times, the draw and bomb policies change nothing
        there (versions 2 to 4 switched engines on them all the same)."""
        if self.version == 1:
            return False
        if self.version <= 4:
            return (self.decks >= 3
                    or self.trick_draw_policy is not TrickDrawPolicy.NO_PROTECTIONS
                    or self.bomb_policy is not BombPolicy.NO_BOMBS)
        return self.decks >= 3

    def to_json(self) -> dict[str, object]:
        """The options as stored and shown (an older version's table without the
        options it did not have, so its stored form and state hash are unchanged)."""
        data = self.model_dump(mode="json")
        for name in absent_fields(self.version):
            data.pop(name, None)
        return data

    def view_json(self) -> dict[str, object]:
        """The options as the play-phase view carries them: every option but
        those added after version 2 on older tables (the views of version-1
        tables always listed the version-2 options; pinned replays keep them)."""
        data = self.model_dump(mode="json")
        if self.version < 3:
            for name in ADDED_IN[3]:
                data.pop(name, None)
        return data

    @property
    def friend_calls(self) -> int:
        """Friend cards the landlord calls in Finding Friends (0 otherwise).

        The landlord's side should end up half the table (rounded down), so
        the landlord calls one friend fewer than that: 1 at 5 seats, 2 at 6-7,
        3 at 8.
        """
        if not self.finding_friends:
            return 0
        return self.friend_count or self.seats // 2 - 1

    @property
    def defended_ranks(self) -> frozenset[int]:
        """Rank indexes a side must defend to go up past (``advancement`` and
        ``defend_ranks`` together)."""
        ranks = {RANKS.index(r) for r in self.defend_ranks}
        if self.advancement is not AdvancementPolicy.UNRESTRICTED:
            ranks.add(self.max_rank_index)
            if self.max_rank == "NT":
                ranks.add(RANKS.index("A"))  # shengji: A is defended on the way to NT
        if self.advancement is AdvancementPolicy.DEFEND_POINTS:
            ranks |= {RANKS.index(r) for r in ("5", "T", "K")}
        return frozenset(ranks)

    @property
    def max_rank_index(self) -> int:
        """``max_rank`` as a rank index (0 = deuce .. 12 = ace, 13 = NT)."""
        return 13 if self.max_rank == "NT" else RANKS.index(self.max_rank)


VERSION = 5
"""The config version new tables get."""

ADDED_IN: dict[int, tuple[str, ...]] = {
    2: ("deck_count", "kitty_cards", "trick_draw_policy", "bomb_policy", "bid_policy",
        "joker_bid_policy", "first_landlord", "early_end", "friend_selection", "multiple_join",
        "friend_count",
        "bid_reinforcement", "bid_takeback", "score_step_per_deck", "turnover_steps",
        "deadzone_steps", "truncate_zero_crossing", "bonus_level", "advancement",
        "defend_ranks"),
    3: ("kitty_theft", "first_leader"),
    4: (),  # no option: the draw takes declarations at any time, without passes
    5: (),  # no option: two decks always keep the pair engine
}
"""The options each config version added."""

LEGACY_FIELDS = ADDED_IN[2]
"""Options a version-1 table does not have (added with version 2)."""


def absent_fields(version: int) -> tuple[str, ...]:
    """The options a table of ``version`` does not have (added after it)."""
    return tuple(name for v, names in ADDED_IN.items() if v > version for name in names)


def deal_sizes(seats: int, finding_friends: bool, deck_count: int = 0,
               kitty_cards: int = 0) -> tuple[int, int]:
    """(decks, kitty size) for a table.

    The classic game: two decks, an 8-card kitty (docs/tractor.md, "Players and
    cards").  Finding Friends: half a deck per seat (``seats // 2`` decks, as on
    rbtying/shengji: 4 decks at 8 seats, with triples and quadruples as units).
    ``deck_count`` (2..4) replaces that number.  The kitty is ``kitty_cards``
    when given (it must leave equal hands), else the smallest one of at least 5
    cards that leaves equal hands (8 in the classic game): 5 seats 2 decks kitty
    8 (20 each), 6 seats 3 decks kitty 6 (26 each), 7 seats kitty 8 (22 each),
    8 seats 4 decks kitty 8 (26 each).
    """
    decks = deck_count or (seats // 2 if finding_friends else 2)
    if kitty_cards:
        return decks, kitty_cards
    if not finding_friends and decks == 2:
        return 2, 8
    kitty = (decks * 54) % seats
    while kitty < 5:
        kitty += seats
    return decks, kitty
