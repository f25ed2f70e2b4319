"""Par: the result when both sides bid perfectly knowing the double-dummy table.

Model: a contract stands when the opponents prefer passing to every higher bid
(bids are compared in auction order 1C < 1D < ... < 7NT). A contract that goes
down is doubled; one that makes is not. Declarer takes the tricks the table
gives the better-placed partner. The dealer's side speaks first, which only
matters when both sides could open profitably (the "one who bids first wins"
ties of par)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache

from engine.dds.deal import SEAT_LETTERS, Seat, Strain

LEVELS = range(1, 8)
BID_STRAINS = (Strain.C, Strain.D, Strain.H, Strain.S, Strain.N)
STRAIN_LETTER = {Strain.C: "C", Strain.D: "D", Strain.H: "H", Strain.S: "S", Strain.N: "NT"}


class Vulnerability(Enum):
    """Which sides are vulnerable."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    ALL = "All"

    def side(self, side: int) -> bool:
        """Is side 0 (North-South) or 1 (East-West) vulnerable?"""
        return self is Vulnerability.ALL or self is (Vulnerability.NS, Vulnerability.EW)[side]

    @classmethod
    def parse(cls, text: str | Vulnerability) -> Vulnerability:
        """``None``/``-``/``Love``, ``NS``, ``EW``, ``All``/``Both`` (any case)."""
        if isinstance(text, Vulnerability):
            return text
        key = text.strip().upper().replace("-", "").replace("/", "")
        aliases = {"": cls.NONE, "NONE": cls.NONE, "LOVE": cls.NONE, "NS": cls.NS,
                   "EW": cls.EW, "ALL": cls.ALL, "BOTH": cls.ALL, "BOTHVUL": cls.ALL}
        if key not in aliases:
            raise ValueError(f"unknown vulnerability {text!r}; use None, NS, EW or All")
        return aliases[key]


def contract_score(level: int, strain: Strain, tricks: int, vulnerable: bool) -> int:
    """Duplicate score for declarer: made contracts undoubled, failed ones doubled."""
    need = level + 6
    if tricks < need:
        down = need - tricks
        if vulnerable:
            return -(200 + 300 * (down - 1))
        return -(100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0))
    per = 20 if strain in (Strain.C, Strain.D) else 30
    trick_score = per * level + (10 if strain == Strain.N else 0)
    score = trick_score + per * (tricks - need)
    score += (500 if vulnerable else 300) if trick_score >= 100 else 50
    if level == 6:
        score += 750 if vulnerable else 500
    elif level == 7:
        score += 1500 if vulnerable else 1000
    return score


@dataclass(frozen=True)
class ParContract:
    """One par contract: ``level``, ``strain``, the declarers that get the par
    result, whether it is doubled (a sacrifice), and the tricks taken."""

    level: int
    strain: Strain
    declarers: tuple[Seat, ...]
    doubled: bool
    tricks: int

    def __str__(self) -> str:
        seats = "".join(SEAT_LETTERS[s] for s in self.declarers)
        diff = self.tricks - self.level - 6
        result = "=" if diff == 0 else f"{diff:+d}"
        double = "x" if self.doubled else ""
        return f"{self.level}{STRAIN_LETTER[self.strain]}{double} {seats} {result}"


@dataclass(frozen=True)
class Par:
    """Par score for North-South (East-West's is its negative) and the contracts."""

    score: int
    contracts: tuple[ParContract, ...]

    def __str__(self) -> str:
        if not self.contracts:
            return "Par 0: passed out"
        return f"Par {self.score:+d}: " + ", ".join(str(c) for c in self.contracts)


def par(table: dict[str, dict[str, int]], vulnerability: str | Vulnerability,
        dealer: str | Seat = Seat.N) -> Par:
    """Par from a double-dummy table ``{strain: {declarer: tricks}}`` (as
    ``dd_table`` returns it)."""
    vul = Vulnerability.parse(vulnerability)
    first = dealer if isinstance(dealer, Seat) else Seat(SEAT_LETTERS.index(dealer.upper()[:1]))
    bids = [(level, st) for level in LEVELS for st in BID_STRAINS]
    tricks = [[max(table[st.name][SEAT_LETTERS[side]], table[st.name][SEAT_LETTERS[side + 2]])
               for st in BID_STRAINS] for side in (0, 1)]

    def score(side: int, b: int) -> int:
        level, st = bids[b]
        return contract_score(level, st, tricks[side][BID_STRAINS.index(st)], vul.side(side))

    @cache
    def value(side: int, b: int) -> int:
        """``side``'s result once it has bid ``b`` and the others are to speak."""
        best = score(side, b)
        for c in range(b + 1, len(bids)):
            best = min(best, -value(1 - side, c))
        return best

    def opening(side: int) -> int:
        return max(value(side, b) for b in range(len(bids)))

    d, o = first % 2, 1 - first % 2
    # Four chances to open (dealer's side, the others, dealer's partner, ...).
    r4 = max(0, opening(o))
    r3 = max(-r4, opening(d))
    r2 = max(-r3, opening(o))
    r1 = max(-r2, opening(d))
    ns = r1 if d == 0 else -r1
    if ns == 0 and all(value(s, b) < 0 for s in (0, 1) for b in range(len(bids))):
        return Par(0, ())
    # Contracts that stand against every overcall and score the par result;
    # per side and strain only the lowest such level.
    out = []
    for side in (0, 1):
        for st in BID_STRAINS:
            for level in LEVELS:
                b = bids.index((level, st))
                s = score(side, b)
                if (s if side == 0 else -s) != ns or value(side, b) != s:
                    continue
                t = tricks[side][BID_STRAINS.index(st)]
                decl = tuple(Seat(x) for x in (side, side + 2)
                             if table[st.name][SEAT_LETTERS[x]] == t)
                out.append(ParContract(level, st, decl, t < level + 6, t))
                break
    return Par(ns, tuple(out))
