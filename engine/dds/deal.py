"""Deals for the solver: PBN parsing, seats, strains, and the mask form the C core reads."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum

from engine.cards import RANKS, face, format_face, parse_face

SEAT_LETTERS = "NESW"
# PBN writes a hand spades first; engine.cards numbers suits clubs first.
PBN_SUIT_ORDER = (3, 2, 1, 0)


class Seat(IntEnum):
    """Seats in playing order; North-South (0, 2) are one side."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def next(self) -> Seat:
        return Seat((self + 1) % 4)


class Strain(IntEnum):
    """Trump suit (numbered like engine.cards suits) or notrump."""

    C = 0
    D = 1
    H = 2
    S = 3
    N = 4


TABLE_STRAINS = (Strain.S, Strain.H, Strain.D, Strain.C, Strain.N)


class DealError(ValueError):
    """A deal, seat, strain or card sequence the solver cannot accept."""

    code = "bad_deal"


def parse_seat(text: str | Seat) -> Seat:
    """``N``/``E``/``S``/``W`` (any case) or a Seat."""
    if isinstance(text, Seat):
        return text
    key = text.strip().upper()[:1]
    if key not in SEAT_LETTERS or not key:
        raise DealError(f"unknown seat {text!r}; use N, E, S or W")
    return Seat(SEAT_LETTERS.index(key))


def parse_strain(text: str | Strain) -> Strain:
    """``S H D C N`` (``NT`` too, any case) or a Strain."""
    if isinstance(text, Strain):
        return text
    key = text.strip().upper()
    if key == "NT":
        key = "N"
    if key not in ("S", "H", "D", "C", "N"):
        raise DealError(f"unknown strain {text!r}; use S, H, D, C or N")
    return Strain[key]


@dataclass(frozen=True)
class Deal:
    """The cards each seat holds, as sorted tuples of faces (``suit * 13 + rank``).

    Hands may be shorter than 13 cards (endings) but must be disjoint."""

    hands: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]

    def masks(self) -> list[int]:
        """16 rank masks, ``[seat * 4 + suit]``, bit ``rank`` set when the card is held."""
        return rank_masks(self.hands)

    def holder(self, face_: int) -> Seat | None:
        """The seat holding ``face_``, if any."""
        for seat, hand in enumerate(self.hands):
            if face_ in hand:
                return Seat(seat)
        return None

    def to_pbn(self, first: Seat = Seat.N) -> str:
        """``N:AKQ2.J54.T9.8765 ...`` starting with ``first``."""
        parts = []
        for i in range(4):
            # Faces in descending order run spades to clubs, high to low within a
            # suit: one pass spells the hand (each board's result is written so).
            suits = ["", "", "", ""]
            for f in sorted(self.hands[(first + i) % 4], reverse=True):
                suits[f // 13] += RANKS[f % 13]
            parts.append(".".join(suits[s] for s in PBN_SUIT_ORDER))
        return f"{SEAT_LETTERS[first]}:" + " ".join(parts)


def rank_masks(hands: Sequence[Iterable[int]]) -> list[int]:
    """The solver's 16 rank masks of four hands of faces (N, E, S, W):
    ``[seat * 4 + suit]``, bit ``rank`` set when the card is held."""
    out = [0] * 16
    for seat, hand in enumerate(hands):
        for f in hand:
            out[seat * 4 + f // 13] |= 1 << (f % 13)
    return out


def make_deal(hands: Sequence[Iterable[int]]) -> Deal:
    """A Deal from four collections of faces (N, E, S, W); checks they are disjoint."""
    if len(hands) != 4:
        raise DealError("a deal has four hands")
    seen: set[int] = set()
    out = []
    for hand in hands:
        cards = tuple(sorted(hand))
        for f in cards:
            if not 0 <= f < 52:
                raise DealError(f"{f} is not a card of a bridge deck")
            if f in seen:
                raise DealError(f"{format_face(f)} is dealt twice")
            seen.add(f)
        out.append(cards)
    return Deal((out[0], out[1], out[2], out[3]))


def parse_pbn(text: str) -> Deal:
    """Parse a PBN deal: ``N:`` (the first hand's seat) then four hands clockwise,
    each ``spades.hearts.diamonds.clubs``; ``10`` is accepted for ``T``, ``-`` for a void."""
    text = text.strip()
    if len(text) < 2 or text[1] != ":":
        raise DealError(f"a PBN deal starts with the first seat and a colon: {text!r}")
    first = parse_seat(text[0])
    hand_texts = text[2:].split()
    if len(hand_texts) != 4:
        raise DealError(f"a PBN deal has four hands, got {len(hand_texts)}")
    hands: list[list[int]] = [[], [], [], []]
    for i, ht in enumerate(hand_texts):
        suits = ht.split(".")
        if len(suits) != 4:
            raise DealError(f"a PBN hand has four suits separated by dots: {ht!r}")
        seat = (first + i) % 4
        for s, st in zip(PBN_SUIT_ORDER, suits, strict=True):
            st = st.replace("10", "T")
            if st == "-":
                continue
            for ch in st:
                try:
                    f = parse_face(ch + "CDHS"[s])
                except ValueError as exc:
                    raise DealError(f"bad rank {ch!r} in {ht!r}") from exc
                hands[seat].append(f)
    return make_deal(hands)


def as_deal(deal: str | Deal) -> Deal:
    """Accept a PBN string or a Deal."""
    return deal if isinstance(deal, Deal) else parse_pbn(deal)


def card_face(card: str | int) -> int:
    """A suited card as a face, from ``AS``/``10h``/``♠A`` spellings or an int."""
    if isinstance(card, int):
        f = card
    else:
        try:
            f = parse_face(card)
        except ValueError as exc:
            raise DealError(f"unknown card {card!r}") from exc
    if not 0 <= f < 52:
        raise DealError(f"{card!r} is not a card of a bridge deck")
    return f


__all__ = [
    "TABLE_STRAINS",
    "Deal",
    "DealError",
    "Seat",
    "Strain",
    "as_deal",
    "card_face",
    "face",
    "make_deal",
    "parse_pbn",
    "parse_seat",
    "parse_strain",
]
