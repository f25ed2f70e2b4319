"""Par: the result when both sides bid perfectly knowing the double-dummy table,
and the set of contracts that reach it, as DDS's dealer-aware par lists them.

The rules in words are in docs/rules/bridge.md, "Par". In short: the side that
can make the highest contract has primacy; each contract it could bid (its
highest making level in a strain, from the best-scoring one up) is checked for
a sacrifice the others would profit from; par is the better of the best
unsacrificed contract and the penalty of the sacrifice; the contracts listed
are every one of the winning kind that scores exactly par.

Contracts are numbered by their rank in the auction (1C = 0 .. 7NT = 34); a
strain's "top" for a side is the rank of the highest contract it makes there
(negative when it makes nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.bridge.auction import STRAINS, Contract
from rules.bridge.boards import SEATS, Vulnerability
from rules.bridge.scoring import contract_score

DDTable = Mapping[str, Mapping[str, int]]  # {strain: {declarer: tricks}}, as dd_table gives it
TOP_RANK = 34  # 7NT
IMPOSSIBLE = 99  # undertricks of a sacrifice above 7NT
GAME_LEVEL = {"C": 5, "D": 5, "H": 4, "S": 4, "N": 3}
# DDS lists par contracts notrump first, then spades down to clubs.
LISTING_ORDER = "NSHDC"


@dataclass(frozen=True)
class ParContract:
    """One par contract: ``level``, ``strain`` (``C D H S N``), the seats (0..3 =
    N E S W) that get the par result declaring it, whether it is doubled (a
    sacrifice), and the tricks declarer takes."""

    level: int
    strain: str
    declarers: tuple[int, ...]
    doubled: bool
    tricks: int

    @property
    def call(self) -> str:
        """``4S``, ``3NT``, ``5DX``: the contract as a bid, doubled or not."""
        name = "NT" if self.strain == "N" else self.strain
        return f"{self.level}{name}" + ("X" if self.doubled else "")

    def __str__(self) -> str:
        seats = "".join(SEATS[s] for s in self.declarers)
        diff = self.tricks - self.level - 6
        result = "=" if diff == 0 else f"{diff:+d}"
        name = "NT" if self.strain == "N" else self.strain
        return f"{self.level}{name}{'x' if self.doubled else ''} {seats} {result}"


@dataclass(frozen=True)
class Par:
    """Par score for North-South (East-West's is its negative) and the contracts
    that reach it (none when the board should be passed out)."""

    score: int
    contracts: tuple[ParContract, ...]

    def __str__(self) -> str:
        if not self.contracts:
            return "Par 0: passed out"
        return f"Par {self.score:+d}: " + ", ".join(str(c) for c in self.contracts)


@dataclass(frozen=True)
class _Candidate:
    """A contract the primacy side could bid: its highest making level in a strain."""

    rank: int
    strain: int  # index in STRAINS
    tricks: int
    score: int


def made_score(rank: int, vulnerable: bool) -> int:
    """Score of the contract of ``rank`` bid and made exactly, undoubled."""
    level, strain = rank // 5 + 1, STRAINS[rank % 5]
    return contract_score(Contract(level, strain, 0, 0), vulnerable, level + 6)


def penalty(down: int, vulnerable: bool) -> int:
    """What a doubled contract ``down`` tricks short gives the defenders."""
    if down <= 0:
        return 0
    return -contract_score(Contract(7, "N", 1, 0), vulnerable, 13 - down)


def par(table: DDTable, vulnerability: str | Vulnerability, dealer: str | int = 0) -> Par:
    """Par of a double-dummy table ``{strain: {declarer: tricks}}`` (strains
    ``S H D C N``, declarers ``N E S W``) for the board's ``vulnerability`` and
    ``dealer`` (a seat letter or 0..3), with DDS's set of par contracts."""
    vul = Vulnerability.parse(vulnerability)
    first = _seat(dealer)
    tricks = [[table[st][s] for s in SEATS] for st in STRAINS]
    order = [(first + i) % 4 for i in range(4)]
    side = _primacy(tricks, order)
    if side is None:
        return Par(0, ())
    other = 1 - side
    vul_other = vul.is_vulnerable(other)
    tops = [_top(tricks, other, k)[1] for k in range(5)]
    candidates = _candidates(tricks, side, vul.is_vulnerable(side))

    sacrificed: tuple[_Candidate, list[int]] | None = None
    worst = 0  # the most undertricks any profitable sacrifice costs
    # Safe candidates, each with target - down (negative): how many tricks more
    # than they can afford the others' cheapest sacrifice would cost them.
    bids: list[tuple[_Candidate, int]] = []
    for c in candidates:
        downs = _sacrifice_costs(tricks, side, c, tops, order)
        down = min(downs)
        target = _sacrifice_target(c.score, vul_other)
        if down <= target:
            worst = max(worst, down)
            if sacrificed is None:
                sacrificed = (c, downs)
        else:
            bids.append((c, target - down))

    best = max((c.score for c, _ in bids), default=0)
    if sacrificed is None or best > penalty(worst, vul_other):
        listed = [_bid(tricks, side, c, gap) for c, gap in bids if c.score == best]
        score = best
    else:
        c, downs = sacrificed
        score = penalty(worst, vul_other)
        listed = (_sacrifices(tricks, side, c, downs, worst, tops, order)
                  if min(downs) == worst else [])
    listed.sort(key=lambda pc: LISTING_ORDER.index(pc.strain))
    return Par(score if side == 0 else -score, tuple(listed))


def _seat(dealer: str | int) -> int:
    if isinstance(dealer, int) and 0 <= dealer < 4:
        return dealer
    key = dealer.strip().upper()[:1] if isinstance(dealer, str) else ""
    if not key or key not in SEATS:
        raise ValueError(f"unknown dealer {dealer!r}; use N, E, S or W")
    return SEATS.index(key)


def _top(tricks: list[list[int]], side: int, k: int) -> tuple[int, int]:
    """The side's tricks in strain ``k`` (its better declarer's) and its top rank there."""
    best = max(tricks[k][side], tricks[k][side + 2])
    return best, 5 * (best - 7) + k


def _primacy(tricks: list[list[int]], order: list[int]) -> int | None:
    """The side that can make the highest contract; when both make the same one,
    the side of the first seat from the dealer that makes it. None: nobody makes
    anything."""
    highest = [max((r for b, r in (_top(tricks, s, k) for k in range(5)) if b >= 7), default=-1)
               for s in (0, 1)]
    if highest[0] != highest[1]:
        return 0 if highest[0] > highest[1] else 1
    if highest[0] < 0:
        return None
    k = highest[0] % 5
    need = highest[0] // 5 + 7
    return next(seat % 2 for seat in order if tricks[k][seat] == need)


def _candidates(tricks: list[list[int]], side: int, vulnerable: bool) -> list[_Candidate]:
    """The side's top contract in each strain where it makes something, highest
    first, down to the lowest of those that score the most."""
    made = []
    for k in range(5):
        best, rank = _top(tricks, side, k)
        if best >= 7:
            made.append(_Candidate(rank, k, best, made_score(rank, vulnerable)))
    dearest = max(c.score for c in made)
    floor = min(c.rank for c in made if c.score == dearest)
    return sorted((c for c in made if c.rank >= floor), key=lambda c: -c.rank)


def _sacrifice_target(score: int, vulnerable: bool) -> int:
    """The most undertricks doubled that cost less than ``score``."""
    down = 0
    while down < 13 and penalty(down + 1, vulnerable) < score:
        down += 1
    return down


def _sacrifice_costs(tricks: list[list[int]], side: int, c: _Candidate, tops: list[int],
                     order: list[int]) -> list[int]:
    """For each strain, the undertricks of the others' cheapest sacrifice over ``c``.

    In another strain they bid the lowest contract above ``c``. In ``c``'s own
    strain they bid it at the same level if they speak before any primacy seat
    that makes it, one level higher after; each of their seats is counted with
    its own tricks."""
    downs = []
    for e in range(5):
        if e == c.strain:
            down, outbid = IMPOSSIBLE, 0
            for seat in order:
                if seat % 2 == side:
                    outbid |= tricks[e][seat] == c.tricks
                else:
                    down = min(down, c.tricks - tricks[e][seat] + outbid)
        else:
            # Levels above their top (zero or less: they outbid ``c`` and make).
            down = -((tops[e] - c.rank) // 5)
        downs.append(IMPOSSIBLE if tops[e] + 5 * down > TOP_RANK else down)
    return downs


def _declarers(tricks: list[list[int]], side: int, k: int) -> tuple[int, ...]:
    best = max(tricks[k][side], tricks[k][side + 2])
    return tuple(s for s in (side, side + 2) if tricks[k][s] == best)


def _bid(tricks: list[list[int]], side: int, c: _Candidate, margin: int) -> ParContract:
    """``c`` as listed: lowered, with overtricks, as far as a sacrifice (a trick
    cheaper for each level lower) still does not pay, but never below the lowest
    level that keeps its bonus (part score, game, slam)."""
    rank = c.rank
    if margin < -1:
        level = rank // 5 + 1
        strain = STRAINS[c.strain]
        bonus = level if level >= 6 else GAME_LEVEL[strain] if level >= GAME_LEVEL[strain] else 1
        rank = max(rank + 5 * (margin + 1), (bonus - 1) * 5 + c.strain)
    return ParContract(rank // 5 + 1, STRAINS[c.strain], _declarers(tricks, side, c.strain),
                       False, c.tricks)


def _sacrifices(tricks: list[list[int]], side: int, c: _Candidate, downs: list[int],
                down: int, tops: list[int], order: list[int]) -> list[ParContract]:
    """The others' sacrifices over ``c`` that cost exactly ``down``."""
    other = 1 - side
    out = []
    for e, d in enumerate(downs):
        if d != down:
            continue
        if e != c.strain:
            rank = tops[e] + 5 * down
            best = max(tricks[e][other], tricks[e][other + 2])
            out.append(ParContract(rank // 5 + 1, STRAINS[e], _declarers(tricks, other, e),
                                   True, best))
            continue
        # Own strain: the seats whose turn lets them sacrifice at this cost, each
        # at the level its turn allows (the lower one when they differ).
        hits: list[tuple[int, int]] = []
        outbid = 0
        for seat in order:
            if seat % 2 == side:
                outbid |= tricks[e][seat] == c.tricks
            elif c.tricks - tricks[e][seat] + outbid == down:
                hits.append((c.rank + 5 * outbid, seat))
        if len(hits) == 2 and hits[0][0] == hits[1][0]:
            seats = _declarers(tricks, other, e)
        else:
            hits.sort()
            seats = (hits[0][1],)
        rank = hits[0][0]
        out.append(ParContract(rank // 5 + 1, STRAINS[e], seats, True, tricks[e][seats[0]]))
    return out
