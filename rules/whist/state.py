"""Whist state: immutable, so a rejected action can never half-change it."""

from __future__ import annotations

from dataclasses import dataclass

from rules.whist.options import WhistConfig

SEATS = 4


def team(seat: int) -> int:
    """Partnership of a seat: 0 for seats 0 and 2, 1 for seats 1 and 3."""
    return seat % 2


@dataclass(frozen=True)
class WhistState:
    config: WhistConfig
    seed: int
    deal_no: int  # 0-based
    dealer: int
    hands: tuple[tuple[int, ...], ...]
    trump_card: int  # the dealer's last card, turned up for all to see
    leader: int
    trick: tuple[int, ...]  # cards played to the current trick, from the leader on
    last_trick: tuple[int, ...]  # the previous trick, from its leader on
    last_leader: int
    tricks: tuple[int, int]  # tricks won this deal per partnership
    score: tuple[int, int]  # match points per partnership
    over: bool = False

    @property
    def to_move(self) -> int:
        return (self.leader + len(self.trick)) % SEATS
