"""Bridge state: immutable values."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from rules.bridge.auction import Contract
from rules.bridge.boards import Vulnerability
from rules.bridge.options import BridgeConfig

Hands = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class Phase(StrEnum):
    AUCTION = "auction"
    PLAY = "play"
    CLAIM = "claim"  # a player claimed; the players it is put to answer
    OVER = "over"


@dataclass(frozen=True)
class Claim:
    seat: int  # the claimer: the declarer or a defender
    tricks: int  # of the tricks still to play, for the claimer's side
    accepted: frozenset[int]  # answerers who accepted so far
    needed: frozenset[int] = frozenset()  # whose acceptance settles it (rules/bridge/claims.py)


@dataclass(frozen=True)
class BoardResult:
    """A finished board: enough to score it, compare it and export it to PBN."""

    board: int
    dealer: int
    vulnerability: Vulnerability
    deal: str  # PBN deal string of the board as dealt
    calls: tuple[tuple[int, str], ...]
    played: tuple[int, ...]  # faces in play order
    contract: str | None  # None: passed out
    declarer: int | None
    tricks: int | None  # declarer's side
    score_ns: int
    claimed: bool = False


@dataclass(frozen=True)
class BridgeState:
    config: BridgeConfig
    seed: int
    index: int  # 0-based board of the session
    board: int
    dealer: int
    vulnerability: Vulnerability
    dealt: Hands  # the hands as dealt (faces), for PBN and the solver
    hands: Hands  # what is left
    calls: tuple[tuple[int, str], ...]
    phase: Phase
    alerts: tuple[tuple[int, str], ...] = ()  # (index in calls, explanation) of alerted calls
    contract: Contract | None = None
    leader: int = 0
    trick: tuple[int, ...] = ()
    played: tuple[int, ...] = ()  # every card played this board, in order
    tricks: tuple[int, int] = (0, 0)  # NS, EW
    last_trick: tuple[int, ...] = ()
    last_leader: int = -1
    claim: Claim | None = None
    # How many cards had been played when a claim was last rejected (-1: none this
    # board); a bot does not claim again in the same position.
    rejected_at: int = -1
    results: tuple[BoardResult, ...] = ()

    @property
    def dummy(self) -> int | None:
        return None if self.contract is None else (self.contract.declarer + 2) % 4

    @property
    def next_player(self) -> int:
        return (self.leader + len(self.trick)) % 4

    @property
    def dummy_exposed(self) -> bool:
        return self.contract is not None and len(self.played) >= 1
