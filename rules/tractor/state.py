"""Tractor state: immutable values, so a rejected action can never half-change one.

A match is a sequence of rounds.  Each round goes through the phases

* ``DRAW``: seats draw one card at a time from the stock (the drawer acts with
  ``draw``); any seat may declare trump at any moment, or ``pass`` on the
  declarations it could make now.  When the stock is down to the kitty, the
  seats that can still declare get a last word; then trump is fixed.
* ``BURY``: the landlord (or a seat that took the kitty by an overbid) holds
  the kitty and buries as many cards.
* ``OVERBID`` (option ``kitty_theft``): after a burial, any seat may override
  the standing declaration; the one whose declaration then stands takes the
  kitty (``BURY`` again, under its trump), else the round goes on.
* ``CALL`` (Finding Friends only): the landlord calls the friend cards.
* ``PLAY``: tricks, led by the landlord first.
* ``ROUND_OVER``: the kitty is shown and the round scored; the next landlord
  starts the next round (``next_round``).
* ``OVER``: a side passed the maximum rank (or the round limit was reached).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.tractor.options import TractorConfig
from rules.tractor.order import Trump

# The classic game's table (Finding Friends sizes come from the config).
SEATS = 4
KITTY = 8
HAND = 25

Hands = tuple[tuple[int, ...], ...]


def team(seat: int) -> int:
    """Partnership of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


class Phase(StrEnum):
    DRAW = "draw"
    BURY = "bury"
    OVERBID = "overbid"
    CALL = "call"
    PLAY = "play"
    ROUND_OVER = "round_over"
    OVER = "over"


@dataclass(frozen=True)
class Declaration:
    """Trump shown during the draw: ``count`` copies (1 or 2) of ``face``.

    A rank card fixes its suit; a joker pair (small < big) declares no trump.
    """

    seat: int
    face: int
    count: int


@dataclass(frozen=True)
class Play:
    """One seat's cards in a trick (for a failed throw: the forced unit only)."""

    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True)
class FriendCall:
    """A Finding Friends call: whoever plays the ``nth`` copy (1-based, counted
    over every play of the round, the landlord's included) of ``face`` joins
    the landlord's side."""

    face: int
    nth: int


@dataclass(frozen=True)
class Takeback:
    """What undoing the last play needs (the takeback window is open while set).

    The play did not complete its trick, so only the trick, the hand, the
    current winner, friend reveals and attacker points changed.
    """

    seat: int
    cards: tuple[int, ...]
    winning: int | None
    called_by: tuple[int | None, ...]
    points: int


@dataclass(frozen=True)
class RoundResult:
    """A finished round, as the match history keeps it."""

    landlord: int
    rank: int  # the round's current rank (0 = deuce)
    trump_suit: int | None
    attacker_points: int  # after kitty bonus and penalties
    kitty_bonus: int
    attackers_win: bool
    levels: int  # levels the winning side went up
    next_landlord: int
    winners: tuple[int, ...] = ()  # seats of the side that won the round (it went up)


@dataclass(frozen=True)
class TractorState:
    config: TractorConfig
    seed: int
    round_no: int  # 0-based; counts redeals too (each gets its own shuffle)
    rounds_played: int  # rounds scored so far
    levels: tuple[int, ...]  # rank index per seat (per team: partners always equal)
    landlord: int | None  # None in the first round until a declaration decides it
    starter: int  # who draws first this round
    phase: Phase
    stock: tuple[int, ...] = ()  # cards still to draw; the last KITTY form the kitty
    hands: Hands = ((), (), (), ())
    drawer: int = 0
    declarations: tuple[Declaration, ...] = ()
    declined: tuple[frozenset[tuple[int, int]], ...] = (frozenset(),) * SEATS
    trump: Trump | None = None
    kitty: tuple[int, ...] = ()  # after the draw: the kitty; after burial: buried cards
    kitty_revealed: tuple[int, ...] = ()  # the kitty as turned up by the no-declaration policy
    leader: int = 0
    trick: tuple[Play, ...] = ()
    winning: int | None = None  # seat winning the trick in progress
    played: tuple[int, ...] = ()  # every card played to finished tricks this round
    last_trick: tuple[Play, ...] = ()
    points: int = 0  # attacker points from tricks this round (before kitty and penalties)
    # Failed throws this round: per team (classic), per seat (Finding Friends,
    # where a seat's side is known only at the end of the round).
    failed_throws: tuple[int, ...] = (0, 0)
    results: tuple[RoundResult, ...] = ()
    winner: int | None = None  # winning team once the match is over (classic)
    # Finding Friends: the calls, the seat that played each called copy (None
    # until played; the landlord himself means the call was wasted), and the
    # trick points each seat won (attacker points depend on the final sides).
    calls: tuple[FriendCall, ...] = ()
    called_by: tuple[int | None, ...] = ()
    seat_points: tuple[int, ...] = ()
    champions: tuple[int, ...] = ()  # Finding Friends: seats that won the match
    takeback: Takeback | None = None  # the open takeback window, if any
    # Cards played and then taken back this round: everyone saw them.
    retracted: tuple[int, ...] = ()
    # Option ``kitty_theft``: the seat holding the kitty to bury (None: the
    # landlord), and the declarations standing when the open overbid window
    # opened (None: no window open).
    exchanger: int | None = None
    overbid_mark: int | None = None
    # The match ended by its players' agreement with a round under way (unscored).
    ended_under_way: bool = False

    @property
    def rank(self) -> int:
        """The round's current rank: the landlord's level (everyone's in round one)."""
        return self.levels[self.landlord if self.landlord is not None else self.starter]

    @property
    def kitty_holder(self) -> int | None:
        """The seat that holds (or last buried) the kitty: the landlord unless a
        seat took it by an overbid."""
        return self.exchanger if self.exchanger is not None else self.landlord

    @property
    def current(self) -> Declaration | None:
        return self.declarations[-1] if self.declarations else None

    @property
    def seats(self) -> int:
        return self.config.seats

    @property
    def to_move(self) -> int:
        """The seat to play next in the current trick."""
        return (self.leader + len(self.trick)) % self.config.seats

    @property
    def stock_left(self) -> int:
        """Cards still to be drawn before the kitty."""
        return max(0, len(self.stock) - self.config.kitty_size)

    @property
    def landlord_side(self) -> frozenset[int]:
        """The landlord's side as known now: the partner (classic), or the
        landlord and the friends revealed so far (Finding Friends)."""
        if self.landlord is None:
            return frozenset()
        if not self.config.finding_friends:
            return frozenset(s for s in range(SEATS) if team(s) == team(self.landlord))
        return frozenset({self.landlord, *(s for s in self.called_by if s is not None)})
