"""Reading melds a player lays down, as card ids (what the Game validates).

A player declares groups of physical cards.  Printed jokers are always jokers;
a wild card may be itself or a joker, and the reading that helps the player
most is taken: a pure run, then a run, then a set, each with as few jokers as
possible.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.cards import SMALL_JOKER, face_of

from .grid import to_hand
from .melds import Arrangement, Kind, Meld, is_joker_face, meld_ok
from .options import MeldRules


class MeldError(ValueError):
    """A declared group that is not a meld, or cards that are not the player's."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def read_meld(cards: Sequence[int], rules: MeldRules) -> Meld | None:
    """The best reading of ``cards`` (ids) as one meld, or None if none is valid."""
    cards = list(cards)
    printed = [c for c in cards if face_of(c) >= SMALL_JOKER]
    if printed and not rules.printed_jokers:
        return None
    wild = [c for c in cards if face_of(c) < SMALL_JOKER and is_joker_face(face_of(c), rules)]
    plain = [c for c in cards if face_of(c) < SMALL_JOKER and c not in wild]
    best: tuple[tuple[int, int], Meld] | None = None
    for mask in range(1 << len(wild)):
        acting = [c for i, c in enumerate(wild) if mask >> i & 1]
        natural = sorted(plain + [c for c in wild if c not in acting], key=face_of)
        faces = tuple(face_of(c) for c in natural)
        jokers = len(printed) + len(acting)
        if len(set(faces)) != len(faces):
            continue
        for kind in (Kind.RUN, Kind.SET):
            if not meld_ok(kind, faces, jokers, rules):
                continue
            rank = (0 if kind is Kind.RUN and jokers == 0 else 1 if kind is Kind.RUN else 2, jokers)
            if best is None or rank < best[0]:
                meld = Meld(kind, faces, jokers, (*natural, *sorted(printed + acting)))
                best = (rank, meld)
    return None if best is None else best[1]


def arrange_groups(
    hand: Iterable[int], groups: Iterable[Sequence[int]], rules: MeldRules
) -> Arrangement:
    """The arrangement a player declares: each group must be a meld of their cards.

    Raises :class:`MeldError` (``not_your_card``, ``card_twice``, ``not_a_meld``).
    The cards in no group are the leftover.
    """
    own = set(to_hand(list(hand)).cards)
    used: set[int] = set()
    melds = []
    for group in groups:
        for c in group:
            if c not in own:
                raise MeldError("not_your_card", "a declared card is not in the hand")
            if c in used:
                raise MeldError("card_twice", "a card is declared twice")
            used.add(c)
        meld = read_meld(group, rules)
        if meld is None:
            raise MeldError("not_a_meld", "a declared group is not a valid meld")
        melds.append(meld)
    return Arrangement(tuple(melds), tuple(sorted(own - used)))


def lay_off(meld: Meld, card: int, rules: MeldRules) -> Meld | None:
    """``meld`` with ``card`` added (gin lay-off), or None if it does not fit.

    A wild card is tried as itself first, then as a joker.
    """
    f = face_of(card)
    if f < SMALL_JOKER and f not in meld.naturals:
        faces = tuple(sorted((*meld.naturals, f)))
        if meld_ok(meld.kind, faces, meld.jokers, rules):
            return Meld(meld.kind, faces, meld.jokers, (*meld.cards, card))
    if is_joker_face(f, rules) and meld_ok(meld.kind, meld.naturals, meld.jokers + 1, rules):
        return Meld(meld.kind, meld.naturals, meld.jokers + 1, (*meld.cards, card))
    return None
