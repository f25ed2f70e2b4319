"""No-limit hold'em table options: every house rule explicit, with its default."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field, model_validator

from engine.cards import CardParseError, face_of, format_face, parse_face
from engine.game import GameConfig

# The options an imported hand sets (docs/poker.md, "Imported hands"); a table
# created without them stores the same JSON as before they existed.
HAND_FIELDS = (
    "antes",
    "blinds_or_straddles",
    "min_bet",
    "ante_trimming",
    "stacks",
    "button",
    "holes",
    "board",
    "decimals",
    "hand_rake",
    "pot_rakes",
    "board2",
    "unknown_stacks",
    "showdown_winners",
)
# Table options added later; left out of the stored JSON while at their defaults,
# so tables made before them keep the JSON (and state hash) they always had.
LATER_FIELDS = ("rake_percent", "rake_cap", "no_flop_no_drop", "run_twice", "cap")


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
    - ``rake_percent`` (0..100, default 0), ``rake_cap`` (chips, default none),
      ``no_flop_no_drop`` (default off): the house takes this percentage of every
      pot (main and side pots each), rounded to the nearest chip (a half to the even
      chip), at most ``rake_cap`` chips a pot, and nothing from a hand that ended
      before the flop when ``no_flop_no_drop`` is on (pokerkit's rake).
    - ``cap`` (chips, default none): cap no-limit; no player puts more than this
      into one hand (antes, blinds and bets): the chips above it sit out the hand,
      and a player who reaches the cap is all-in for the hand.
    - ``run_twice`` (default off): when no more betting can happen before the river
      (every player still in but one is all-in), the rest of the board is dealt
      twice and every pot is split between the two runs, each half won on its own
      board (the first run takes an odd chip).

    What a hand history fixes (docs/poker.md, "Imported hands"); all optional:

    - ``antes`` / ``blinds_or_straddles``: what each position posts, listed as PHH
      lists them (from the first seat left of the button; heads-up the list is read
      small blind first); missing positions post nothing.  Unset: ``ante`` from
      everyone, and the two blinds.  A negative ``blinds_or_straddles`` entry is a
      post of its size by a player who has just sat down (pokerkit's notation): a
      live bet like a blind that never moves the first to act as a straddle does.
    - ``min_bet`` (default: the big blind): the smallest bet and raise increment.
    - ``ante_trimming`` (default on): antes count as contributions to the pots and
      an ante nobody matched is returned; off, antes are dead money in the main pot
      (PHH's ``ante_trimming_status``).
    - ``stacks``: each chair's buy-in (instead of ``starting_stack``).
    - ``button``: the first hand's button chair (instead of one drawn from the seed).
    - ``holes`` / ``board``: the cards of a one-hand table, per chair (``"AsKd"``,
      ``""`` when unknown; such a hand cannot win a showdown) and the board cards.
    - ``decimals`` (0..8, default 0): chips are units of 10**-decimals of the
      file's currency; only files and labels use it.
    - ``hand_rake``: the chips a history says the house took from its hand, taken
      from the main pot first, then the side pots in order (instead of the
      percentage rule); ``pot_rakes``: the chips taken from each pot, main pot first
      (a history whose stacks show each pot raked on its own, as pokerkit rakes).
    - ``board2``: a hand run twice, the second run's own cards (the cards it does
      not name come from the shuffle).
    - ``unknown_stacks``: the chairs whose stacks the history does not know (PHH's
      ``inf``); their ``stacks`` entry is only a stack large enough to cover every
      bet of the hand, so it and the stack after the hand are not shown (the view
      has ``null`` for them) nor written as real: only what they won or lost is.
    - ``showdown_winners``: the chairs whose cards the history does not show but
      whose payouts say they won at the showdown; their hands beat every known hand
      and tie with each other (the reader keeps this only when the replay then pays
      what the history says).
    """

    seats: int = Field(default=6, ge=2, le=10, description="Chairs at the table.")
    small_blind: int = Field(default=1, ge=0, description=(
        "Small blind posted each hand; must not exceed the big blind."))
    big_blind: int = Field(default=2, ge=1, description=(
        "Big blind posted each hand; also the smallest bet unless min_bet is set."))
    ante: int = Field(default=0, ge=0, description=(
        "Chips every player dealt in pays into the pot each hand (0 = no ante)."))
    starting_stack: int = Field(default=200, ge=1, description=(
        "Chips each seat buys in for (stacks overrides it chair by chair)."))
    max_buy_in: int | None = Field(default=None, ge=1, description=(
        "Most chips a rebuy may bring a stack up to (default: starting_stack); "
        "at least every buy-in."))
    rebuys: bool = Field(default=True, description=(
        "Lets a busted or sitting-out player buy chips between hands; off, "
        "a busted player is out."))
    hands: int = Field(default=20, ge=1, le=100_000, description=(
        "Hands the session lasts; it ends sooner if fewer than two players can be dealt in."))
    muck_losers: bool = Field(default=True, description=(
        "At showdown, hands that cannot win are mucked unseen; off, every hand still in is shown."))
    odd_chip: OddChip = OddChip.ONE_EACH
    antes: tuple[int, ...] | None = Field(default=None, max_length=10, description=(
        "Ante of each position, listed as a PHH hand history lists them (unset: "
        "ante from everyone)."))
    blinds_or_straddles: tuple[int, ...] | None = Field(default=None, max_length=10, description=(
        "Post of each position as PHH lists them (unset: the two blinds); "
        "a negative entry is a new player's post."))
    min_bet: int | None = Field(default=None, ge=1, description=(
        "Smallest bet and raise increment (default: the big blind)."))
    ante_trimming: bool = Field(default=True, description=(
        "Antes count toward the pots and an unmatched ante is returned; off, "
        "antes are dead money."))
    stacks: tuple[int, ...] | None = Field(default=None, description=(
        "Each chair's buy-in, one per seat, instead of starting_stack."))
    button: int | None = Field(default=None, ge=0, description=(
        "Chair that holds the button on the first hand (default: drawn at random)."))
    holes: tuple[str, ...] | None = Field(default=None, description=(
        "Fixed hole cards of a one-hand table, per chair (e.g. AsKd, or empty if unknown)."))
    board: str | None = Field(default=None, description=(
        "Fixed board cards of a one-hand table (up to five, e.g. AhKd7c)."))
    decimals: int = Field(default=0, ge=0, le=8, description=(
        "Chips are units of 10^-decimals of the currency; only files and labels use it."))
    rake_percent: float = Field(default=0, ge=0, le=100, description=(
        "Percentage the house takes from every pot, main and side pots alike."))
    rake_cap: int | None = Field(default=None, ge=0, description=(
        "Most chips the house rakes from one pot (default: no cap)."))
    no_flop_no_drop: bool = Field(default=False, description=(
        "Takes no rake from a hand that ends before the flop."))
    run_twice: bool = Field(default=False, description=(
        "When no more betting can happen before the river, "
        "the rest of the board is dealt twice and each pot split."))
    cap: int | None = Field(default=None, ge=1, description=(
        "Most chips a player puts into one hand, antes and blinds included (cap no-limit; "
        "default: none)."))
    hand_rake: int | None = Field(default=None, ge=0, description=(
        "Chips an imported hand's history says the house took, from the main pot first "
        "(one-hand tables)."))
    pot_rakes: tuple[int, ...] | None = Field(default=None, max_length=10, description=(
        "Chips raked from each pot of an imported hand, main pot first (one-hand tables)."))
    board2: str | None = Field(default=None, description=(
        "Cards of the second run's board for a one-hand table with run_twice."))
    unknown_stacks: tuple[int, ...] | None = Field(default=None, max_length=10, description=(
        "Chairs of an imported hand whose stacks its history does not know; "
        "their stacks are not shown."))
    showdown_winners: tuple[int, ...] | None = Field(default=None, max_length=10, description=(
        "Chairs of an imported hand that won the showdown without their cards being shown."))

    @model_validator(mode="after")
    def _consistent(self) -> PokerConfig:
        if self.small_blind > self.big_blind:
            raise ValueError("small_blind must not exceed big_blind")
        # Each chair's buy-in: ``stacks`` where given, else the starting stack.
        buy_ins = self.stacks or (self.starting_stack,)
        if self.max_buy_in is not None and self.max_buy_in < max(buy_ins):
            raise ValueError("max_buy_in must be at least every buy-in (starting_stack, "
                             "or each of stacks)")
        if any(v < 0 for v in self.antes or ()):
            raise ValueError("antes must not be negative")
        if self.stacks is not None and (
            len(self.stacks) != self.seats or any(v < 0 for v in self.stacks)
        ):
            raise ValueError("stacks: one non-negative stack per seat")
        if self.button is not None and self.button >= self.seats:
            raise ValueError("button must be a seat")
        if self.holes is not None or self.board is not None or self.board2 is not None:
            self._check_deal()
        if (self.hand_rake is not None or self.pot_rakes is not None) and self.hands != 1:
            raise ValueError("hand_rake and pot_rakes are a one-hand table's rake")
        if self.unknown_stacks is not None:
            if self.hands != 1 or self.stacks is None:
                raise ValueError("unknown_stacks are a one-hand table's, with its stacks")
            if any(not 0 <= c < self.seats for c in self.unknown_stacks):
                raise ValueError("unknown_stacks: chairs of the table")
        if self.showdown_winners is not None:
            if self.hands != 1:
                raise ValueError("showdown_winners are a one-hand table's")
            if any(not 0 <= c < self.seats for c in self.showdown_winners):
                raise ValueError("showdown_winners: chairs of the table")
        if any(r < 0 for r in self.pot_rakes or ()):
            raise ValueError("pot_rakes must not be negative")
        return self

    def _check_deal(self) -> None:
        if self.hands != 1:
            raise ValueError("a fixed deal (holes, board) is for one hand")
        holes = self.holes or ("",) * self.seats
        if len(holes) != self.seats:
            raise ValueError("holes: one entry per seat")
        cards: list[int] = []
        for text in holes:
            got = spell_cards(text)
            if len(got) not in (0, 2):
                raise ValueError(f"holes: two cards or none, not {text!r}")
            cards += got
        board = spell_cards(self.board or "")
        if len(board) > 5:
            raise ValueError("board: at most five cards")
        second = spell_cards(self.board2 or "")
        if second and not self.run_twice:
            raise ValueError("board2 is the second run of a table with run_twice")
        if len(second) > 5:
            raise ValueError("board2: at most five cards")
        dealt = cards + board + second
        if len(set(dealt)) != len(dealt):
            raise ValueError("a card is dealt twice")

    @property
    def min_raise(self) -> int:
        """The smallest bet, and the smallest raise increment."""
        return self.big_blind if self.min_bet is None else self.min_bet

    def posts(self, n: int) -> tuple[list[int], list[int]]:
        """(antes, blinds) each of ``n`` players dealt in posts, by player (from the
        first seat left of the button).  PHH lists them by position; heads-up the
        small blind's position (the button) comes first, hence the reversal."""
        antes = [self.ante] * n if self.antes is None else _fit(self.antes, n)
        blinds = (
            _fit((self.small_blind, self.big_blind), n)
            if self.blinds_or_straddles is None
            else [abs(b) for b in _fit(self.blinds_or_straddles, n)]
        )
        if n == 2:
            antes.reverse()
            blinds.reverse()
        return antes, blinds

    def new_player_posts(self, n: int) -> list[bool]:
        """Which of ``n`` players (as :meth:`posts` orders them) post as a player
        who has just sat down: a negative ``blinds_or_straddles`` entry."""
        posts = [b < 0 for b in _fit(self.blinds_or_straddles or (), n)]
        if n == 2:
            posts.reverse()
        return posts

    @property
    def buy_in_cap(self) -> int:
        """The most chips a stack may be topped up to by a rebuy."""
        return self.starting_stack if self.max_buy_in is None else self.max_buy_in


def _fit(values: tuple[int, ...], n: int) -> list[int]:
    return [*values[:n], *[0] * (n - len(values))]


def card_spelling(card: int) -> str:
    """A card as hand histories write it (``As``, ``Td``): :func:`spell_cards`' inverse."""
    text = format_face(face_of(card))
    return text[0] + text[1].lower()


def spell_cards(text: str) -> list[int]:
    """Card faces of a run of two-letter spellings (``"AsKd"``); ``""`` or only
    ``?`` is no cards.  Raises ValueError on anything else."""
    if not text or set(text) == {"?"}:
        return []
    if len(text) % 2:
        raise ValueError(f"bad cards {text!r}")
    try:
        return [parse_face(text[i : i + 2]) for i in range(0, len(text), 2)]
    except CardParseError as exc:
        raise ValueError(str(exc)) from None
