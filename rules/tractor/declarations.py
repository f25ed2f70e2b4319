"""Trump declarations during the draw (docs/tractor.md, "Dealing and declaring").

A declaration shows ``count`` copies of a card: a current-rank card of a suit
declares that suit; a pair of identical rank cards overrides a single; a pair
of jokers (small < big) declares no trump and overrides suit pairs.  When
nobody declares, the ``reveal_kitty`` policy turns the kitty up to fix trump.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import BIG_JOKER, FACES_PER_DECK, SMALL_JOKER
from rules.tractor.state import Phase, TractorState


def strength(face: int, count: int) -> int:
    """Declaration order: single rank card < pair < small-joker pair < big-joker pair."""
    if face == BIG_JOKER:
        return 4
    if face == SMALL_JOKER:
        return 3
    return count


def declaration_options(state: TractorState, seat: int) -> list[tuple[int, int]]:
    """(face, count) declarations ``seat`` may make now.

    Rule (docs/tractor.md, "Dealing and declaring"): a rank card of a
    suit declares it; a pair of identical rank cards overrides a single; a
    joker pair (small < big) declares no trump and overrides suit pairs.  The
    current declarer may only reinforce its single into a pair of the same
    card (option ``allow_reinforce``); nobody may override with an equal one.
    """
    if state.phase is not Phase.DRAW:
        return []
    counts: dict[int, int] = {}
    rank = state.rank
    for c in state.hands[seat]:
        f = c % FACES_PER_DECK
        if f >= SMALL_JOKER or f % 13 == rank:
            counts[f] = counts.get(f, 0) + 1
    if not counts:
        return []
    cur = state.current
    out: list[tuple[int, int]] = []
    for f in sorted(counts):
        for n in (1, 2):
            if n > counts[f] or (f >= SMALL_JOKER and n == 1):
                continue
            if cur is None:
                ok = True
            elif cur.seat == seat:
                ok = (state.config.allow_reinforce and cur.count == 1 and cur.face == f
                      and n == 2)
            else:
                ok = strength(f, n) > strength(cur.face, cur.count)
            if ok:
                out.append((f, n))
    return out


def undeclined(state: TractorState, seat: int) -> list[tuple[int, int]]:
    return [o for o in declaration_options(state, seat) if o not in state.declined[seat]]


def kitty_trump_suit(kitty: Sequence[int], rank: int) -> int:
    """The suit the turned-up kitty fixes when nobody declared (``reveal_kitty``).

    The kitty's cards are turned up in order: the first rank card fixes its
    suit; without one, the highest-ranked suited card (the first of equals).
    Jokers are skipped: they have no suit.
    """
    suited = [c % FACES_PER_DECK for c in kitty if c % FACES_PER_DECK < SMALL_JOKER]
    for f in suited:
        if f % 13 == rank:
            return f // 13
    best = max(suited, key=lambda f: (f % 13, -suited.index(f)))
    return best // 13
