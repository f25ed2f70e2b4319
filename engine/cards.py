"""One card encoding for every game.

A *face* is what is printed on a card: 0..51 for the suited cards
(``suit * 13 + rank``) plus 52 for the small joker and 53 for the big joker.
A *card id* is one physical card: ``copy * 54 + face``.  Games dealt from two
decks (Tractor, Indian rummy) keep the copy index, so the two ace of spades
are distinct cards with distinct ids that print the same.

Suits are ordered clubs < diamonds < hearts < spades (bridge order); ranks run
2..A as 0..12.  The canonical spelling is rank + suit letter, upper case:
``AS``, ``TS``, ``2C``, and ``SJ`` / ``BJ`` for the small and big joker.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

SUITS: Final = "CDHS"
SUIT_SYMBOLS: Final = "♣♦♥♠"
RANKS: Final = "23456789TJQKA"
CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
FACES_PER_DECK: Final = 54
SMALL_JOKER: Final = 52
BIG_JOKER: Final = 53

_SUIT_ALIASES = {
    **{c: i for i, c in enumerate(SUITS)},
    **{c: i for i, c in enumerate(SUIT_SYMBOLS)},
    "♤": SPADES,
    "♡": HEARTS,
    "♢": DIAMONDS,
    "♧": CLUBS,
}
_RANK_ALIASES = {**{c: i for i, c in enumerate(RANKS)}, "10": 8, "1": 12}
_JOKERS = {"SJ": SMALL_JOKER, "BJ": BIG_JOKER, "LJ": SMALL_JOKER, "RJ": BIG_JOKER}


class CardParseError(ValueError):
    """A card spelling that no game accepts."""

    code = "bad_card"


def face(suit: int, rank: int) -> int:
    """The face of the suited card ``rank`` (0 = deuce .. 12 = ace) of ``suit``."""
    return suit * 13 + rank


def card_id(face_: int, copy: int = 0) -> int:
    """The id of physical copy ``copy`` of ``face_``."""
    return copy * FACES_PER_DECK + face_


def face_of(card: int) -> int:
    """The printed face of a card id."""
    return card % FACES_PER_DECK


def copy_of(card: int) -> int:
    """Which deck a card id came from (0 for single-deck games)."""
    return card // FACES_PER_DECK


def is_joker(card: int) -> bool:
    """True for either joker, whatever its copy."""
    return face_of(card) >= SMALL_JOKER


def suit_of(card: int) -> int:
    """Suit index 0..3 of a card id or face; jokers have no suit (raises)."""
    f = face_of(card)
    if f >= SMALL_JOKER:
        raise ValueError("jokers have no suit")
    return f // 13


def rank_of(card: int) -> int:
    """Rank index 0 (deuce) .. 12 (ace) of a card id or face; jokers raise."""
    f = face_of(card)
    if f >= SMALL_JOKER:
        raise ValueError("jokers have no rank")
    return f % 13


def parse_face(text: str) -> int:
    """Parse one card spelling into its face.

    Accepts ``AS``, ``As``, ``as``, ``A♠``, ``10S``, ``TS``, ``BJ`` and ``SJ``
    (also ``RJ``/``LJ``), with surrounding whitespace ignored.
    """
    s = text.strip()
    up = s.upper()
    if up in _JOKERS:
        return _JOKERS[up]
    if len(s) < 2:
        raise CardParseError(f"not a card: {text!r}")
    rank_text, suit_text = up[:-1], up[-1]
    if suit_text not in _SUIT_ALIASES:
        suit_text = s[-1]
    if rank_text not in _RANK_ALIASES or suit_text not in _SUIT_ALIASES or rank_text == "1":
        raise CardParseError(f"not a card: {text!r}")
    return face(_SUIT_ALIASES[suit_text], _RANK_ALIASES[rank_text])


def _spell(face_: int) -> str:
    if face_ == SMALL_JOKER:
        return "SJ"
    if face_ == BIG_JOKER:
        return "BJ"
    return RANKS[face_ % 13] + SUITS[face_ // 13]


# Views spell every card they show, for every viewer, after every action: a lookup.
_SPELLING = tuple(_spell(f) for f in range(FACES_PER_DECK))


def format_face(face_: int) -> str:
    """The canonical spelling of a face (``AS``, ``TS``, ``BJ``)."""
    if not 0 <= face_ < FACES_PER_DECK:
        raise ValueError(f"not a face: {face_}")
    return _SPELLING[face_]


def format_card(card: int) -> str:
    """The canonical spelling of a card id (copies print alike)."""
    return _SPELLING[card % FACES_PER_DECK]


def pretty(card: int) -> str:
    """A human spelling with suit symbols and ``10``: ``A♠``, ``10♥``, ``BJ``."""
    f = face_of(card)
    if f >= SMALL_JOKER:
        return format_face(f)
    r = RANKS[f % 13]
    return ("10" if r == "T" else r) + SUIT_SYMBOLS[f // 13]


def parse_faces(text: str | Iterable[str]) -> list[int]:
    """Parse several cards: a string separated by spaces/commas, or an iterable."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return [parse_face(t) for t in items]


def card_ids(text: str | Iterable[str]) -> list[int]:
    """Card ids for spellings, in order; each repeat of a face takes its next copy
    (``AS AS`` is both aces of spades).  Raises :class:`CardParseError`."""
    seen: dict[int, int] = {}
    out = []
    for f in parse_faces(text):
        out.append(card_id(f, seen.get(f, 0)))
        seen[f] = seen.get(f, 0) + 1
    return out


def deck(copies: int = 1, jokers: bool = False) -> list[int]:
    """Card ids of ``copies`` decks in a fixed order, with or without jokers."""
    faces = range(FACES_PER_DECK if jokers else SMALL_JOKER)
    # card_id inline: every deal builds a deck.
    return [c * FACES_PER_DECK + f for c in range(copies) for f in faces]
