"""Board numbers fix the dealer and the vulnerability (the standard 16-board cycle)."""

from __future__ import annotations

from enum import StrEnum

SEATS = "NESW"


class Vulnerability(StrEnum):
    """Which sides are vulnerable; the values are PBN's spellings."""

    NONE = "None"
    NS = "NS"
    EW = "EW"
    BOTH = "All"

    @classmethod
    def parse(cls, text: str) -> Vulnerability:
        """``None``/``-``/``Love``, ``NS``, ``EW``, ``All``/``Both`` (any case)."""
        if isinstance(text, Vulnerability):
            return text
        key = text.strip().upper().replace("-", "").replace("/", "")
        if key not in _ALIASES:
            raise ValueError(f"unknown vulnerability {text!r}; use None, NS, EW or All")
        return _ALIASES[key]

    def is_vulnerable(self, seat: int) -> bool:
        """Whether the side of ``seat`` (0..3 = N E S W) is vulnerable."""
        if self is Vulnerability.BOTH:
            return True
        if self is Vulnerability.NONE:
            return False
        return (seat % 2 == 0) == (self is Vulnerability.NS)


_ALIASES = {
    "": Vulnerability.NONE,
    "NONE": Vulnerability.NONE,
    "LOVE": Vulnerability.NONE,
    "NS": Vulnerability.NS,
    "EW": Vulnerability.EW,
    "ALL": Vulnerability.BOTH,
    "BOTH": Vulnerability.BOTH,
}

# Boards 1..16; board n uses entry (n - 1) % 16.
_CYCLE = ["-", "N", "E", "B", "N", "E", "B", "-", "E", "B", "-", "N", "B", "-", "N", "E"]
_BY_LETTER = {
    "-": Vulnerability.NONE,
    "N": Vulnerability.NS,
    "E": Vulnerability.EW,
    "B": Vulnerability.BOTH,
}


def dealer(board: int) -> int:
    """Dealer seat of a board: N, E, S, W in turn from board 1."""
    return (board - 1) % 4


def vulnerability(board: int) -> Vulnerability:
    """Vulnerability of a board in the duplicate pattern."""
    return _BY_LETTER[_CYCLE[(board - 1) % 16]]
