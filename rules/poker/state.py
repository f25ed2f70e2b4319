"""No-limit hold'em state: immutable values, so a rejected action changes nothing."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum

from rules.poker.options import PokerConfig
from rules.poker.scoring import Award

STREET_NAMES = ("preflop", "flop", "turn", "river")


class Street(IntEnum):
    PREFLOP = 0
    FLOP = 1
    TURN = 2
    RIVER = 3


class Phase(StrEnum):
    """``betting``: a hand is being played.  ``between``: the hand is over and seats
    that are sitting out (or busted) decide whether to buy chips and sit in.
    ``over``: the session has ended."""

    BETTING = "betting"
    BETWEEN = "between"
    OVER = "over"


@dataclass(frozen=True)
class HandState:
    """One hand.  Per-seat tuples have one entry per chair; ``players`` lists the
    seats dealt in from the first seat left of the button, the button last (the
    order PHH and pokerkit number players in)."""

    starting: tuple[int, ...]  # stacks when the hand was dealt, before antes and blinds
    number: int  # 1-based
    button: int
    small_blind_seat: int
    big_blind_seat: int
    players: tuple[int, ...]
    holes: tuple[tuple[int, ...], ...]  # () for seats not dealt in
    stub: tuple[int, ...]  # the undealt cards, in dealing order
    board: tuple[int, ...]
    street: Street
    bets: tuple[int, ...]  # this betting round
    contributed: tuple[int, ...]  # this hand: antes, blinds and bets
    folded: tuple[bool, ...]
    queue: tuple[int, ...]  # seats still to act this round; the first acts now
    acted: frozenset[int]  # acted since the last full bet or raise
    raise_size: int  # the largest bet or raise increment this round
    short_all_ins: tuple[int, ...]  # increments of consecutive short all-in raises
    aggressor: int | None  # who opened or last bet/raised this round
    done: bool = False
    shown: tuple[int, ...] = ()
    mucked: tuple[int, ...] = ()
    awards: tuple[Award, ...] = ()
    refunds: tuple[tuple[int, int], ...] = ()  # (seat, chips) of uncalled bets
    # (street, seat, "fold"/"check"/"call"/"bet"/"raise", chips called or total bet)
    history: tuple[tuple[int, int, str, int], ...] = ()
    # Antes posted as dead money (``ante_trimming`` off): per seat, () when none.
    dead: tuple[int, ...] = ()
    board2: tuple[int, ...] = ()  # the second run's board of a hand run twice
    raked: int = 0  # chips the house took from the pots
    aside: tuple[int, ...] = ()  # per seat, chips above a cap game's cap (option cap)

    @property
    def live(self) -> tuple[int, ...]:
        """Seats dealt in that have not folded, from the left of the button."""
        return tuple(s for s in self.players if not self.folded[s])

    @property
    def actor(self) -> int | None:
        return self.queue[0] if self.queue and not self.done else None


@dataclass(frozen=True)
class PokerState:
    config: PokerConfig
    seed: int
    phase: Phase
    stacks: tuple[int, ...]  # chips behind, not counting the current hand's bets
    bought_in: tuple[int, ...]  # chips each seat has brought to the table in total
    sitting_out: tuple[bool, ...]
    pending: tuple[int, ...]  # BETWEEN: seats still to decide, in seat order
    hands_played: int
    hand: HandState | None  # the hand in play, or the last one played
