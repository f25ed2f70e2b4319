"""Hold'em starting-hand ranges in the usual shorthand ("QQ+,AKs,KQo,T9s+,A5s-A2s").

Tokens, separated by commas (spaces allowed), ranks ``23456789TJQKA`` (``10`` is read
as ``T``, rank letters in either case):

- ``QQ`` a pair (6 combos); ``QQ+`` that pair and every higher pair; ``JJ-88`` the
  pairs from 88 up to JJ.
- ``AKs`` suited (4 combos), ``AKo`` offsuit (12), ``AK`` both (16).
- ``ATs+`` raises the lower card up to one below the higher: ATs, AJs, AQs, AKs.
  This is the PokerStove/Equilab convention, so ``T9s+`` is T9s alone; write
  ``T9s,JTs,QJs`` for a run of connectors.
- ``A5s-A2s`` / ``KQo-KTo``: same higher card, lower card over the span, inclusive.
- ``AhKh``: one exact combo (any two card spellings written together).
- ``random`` (or ``*``): all 1,326 two-card combos.

A combo is a pair of engine faces, higher face first.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from engine.cards import RANKS, CardParseError, face, parse_face

Combo = tuple[int, int]
SUITS = range(4)


class RangeError(ValueError):
    """A range string that does not parse, or that leaves no hand."""

    code = "bad_range"


@dataclass(frozen=True)
class HandRange:
    """A parsed range: its text and its distinct combos."""

    text: str
    combos: tuple[Combo, ...]

    def __len__(self) -> int:
        return len(self.combos)


def parse_range(text: str) -> HandRange:
    """Parse a range string into its distinct two-card combos (see the module doc)."""
    combos: set[Combo] = set()
    tokens = [t.strip() for t in text.split(",")]
    if not any(tokens):
        raise RangeError("empty range")
    for token in tokens:
        if not token:
            raise RangeError(f"empty item in range {text!r}")
        combos.update(_token_combos(token))
    return HandRange(text=text, combos=tuple(sorted(combos, reverse=True)))


def _combo(f1: int, f2: int) -> Combo:
    return (f1, f2) if f1 > f2 else (f2, f1)


def _rank(ch: str, token: str) -> int:
    i = RANKS.find(ch.upper()) if ch else -1
    if i < 0:
        raise RangeError(f"bad rank {ch!r} in {token!r}")
    return i


def _pair(r: int) -> list[Combo]:
    return [_combo(face(s1, r), face(s2, r)) for s1, s2 in combinations(SUITS, 2)]


def _two_ranks(hi: int, lo: int, kind: str) -> list[Combo]:
    """Combos of two different ranks: kind 's' suited, 'o' offsuit, '' both."""
    out = []
    for s1 in SUITS:
        for s2 in SUITS:
            if (kind == "s" and s1 != s2) or (kind == "o" and s1 == s2):
                continue
            out.append(_combo(face(s1, hi), face(s2, lo)))
    return out


def _shape(part: str, token: str) -> tuple[int, int, str]:
    """(higher rank, lower rank, kind) of ``AK``, ``AKs``, ``AKo``, ``QQ``."""
    if len(part) not in (2, 3):
        raise RangeError(f"bad hand {part!r} in {token!r}")
    a, b = _rank(part[0], token), _rank(part[1], token)
    kind = part[2:].lower()
    if kind not in ("", "s", "o"):
        raise RangeError(f"bad suitedness {part[2:]!r} in {token!r}")
    if a == b and kind:
        raise RangeError(f"a pair is neither suited nor offsuit: {token!r}")
    return max(a, b), min(a, b), kind


def _shape_combos(hi: int, lo: int, kind: str) -> list[Combo]:
    return _pair(hi) if hi == lo else _two_ranks(hi, lo, kind)


def _token_combos(token: str) -> list[Combo]:
    raw = token.replace(" ", "").replace("10", "T")
    if raw.lower() in ("random", "*"):
        return [_combo(a, b) for a, b in combinations(range(52), 2)]
    exact = _exact_combo(raw)
    if exact is not None:
        return [exact]
    if raw.endswith("+"):
        hi, lo, kind = _shape(raw[:-1], token)
        if hi == lo:
            return [c for r in range(hi, 13) for c in _pair(r)]
        return [c for k in range(lo, hi) for c in _two_ranks(hi, k, kind)]
    if "-" in raw:
        left, _, right = raw.partition("-")
        h1, l1, k1 = _shape(left, token)
        h2, l2, k2 = _shape(right, token)
        if k1 != k2:
            raise RangeError(f"both ends of {token!r} must have the same suitedness")
        if h1 == l1 and h2 == l2:
            return [c for r in range(min(h1, h2), max(h1, h2) + 1) for c in _pair(r)]
        if h1 != h2 or h1 == l1 or h2 == l2:
            raise RangeError(f"{token!r}: a span keeps its higher card fixed")
        return [c for k in range(min(l1, l2), max(l1, l2) + 1) for c in _two_ranks(h1, k, k1)]
    return _shape_combos(*_shape(raw, token))


def _exact_combo(raw: str) -> Combo | None:
    """``AhKh`` as one combo, or None if the token is not two card spellings."""
    if len(raw) != 4 or raw[1].lower() not in "cdhs" or raw[3].lower() not in "cdhs":
        return None
    try:
        f1, f2 = parse_face(raw[:2]), parse_face(raw[2:])
    except CardParseError as err:
        raise RangeError(f"bad combo {raw!r}") from err
    if f1 == f2:
        raise RangeError(f"a combo needs two different cards: {raw!r}")
    return _combo(f1, f2)
