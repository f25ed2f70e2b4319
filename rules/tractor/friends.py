"""Finding Friends (找朋友): the landlord's friend calls and who they reveal.

The mode (five or more players; the landlord calls friend cards instead of
having a fixed partner) has conventions that differ between servers;
docs/tractor.md ("Finding Friends") records the ones chosen here (they follow
rbtying/shengji, the most played open-source server):

* after burying the kitty the landlord calls ``seats // 2 - 1`` cards, each
  as "the nth copy of a face" (n from 1 to the number of decks);
* a called face must be a non-trump card: which copy of a trump is played
  first depends on trump fights rather than on who holds it, and every house
  calls side-suit cards (aces most of all);
* copies are counted over every play of the round in play order, the
  landlord's own included; whoever plays the called copy joins the landlord's
  side, publicly; if that is the landlord, the call is wasted; a seat that
  fulfils a second call does not count twice (the side is just smaller).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import FACES_PER_DECK, SMALL_JOKER, CardParseError, format_face, parse_face
from engine.errors import IllegalAction
from engine.rng import Rng
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.state import FriendCall


def callable_faces(trump: Trump) -> list[int]:
    """Faces that may be called: every non-trump suited face."""
    suit = tables(trump).suit
    return [f for f in range(SMALL_JOKER) if suit[f] != TRUMP]


def parse_calls(action: Mapping[str, Any], trump: Trump, count: int,
                decks: int) -> tuple[FriendCall, ...]:
    """The calls of a ``{"type": "call", "calls": [{"card": "AS", "nth": 1}, ...]}``.

    Error messages never name a card: a rejected call must not hint at who
    holds what (the conformance suite scans them).
    """
    raw = action.get("calls")
    if not isinstance(raw, list | tuple) or not all(isinstance(x, Mapping) for x in raw):
        raise IllegalAction("bad_action", 'expected "calls": [{"card": ..., "nth": ...}, ...]')
    if len(raw) != count:
        raise IllegalAction("wrong_count", f"call exactly {count} friend card"
                            + ("s" if count != 1 else ""))
    allowed = set(callable_faces(trump))
    calls: list[FriendCall] = []
    for item in raw:
        card, nth = item.get("card"), item.get("nth", 1)
        if not isinstance(card, str):
            raise IllegalAction("bad_action", 'each call needs "card"')
        try:
            face = parse_face(card)
        except CardParseError:
            raise IllegalAction("bad_card", "a call must name a card") from None
        if isinstance(nth, bool) or not isinstance(nth, int) or not 1 <= nth <= decks:
            raise IllegalAction("bad_call", f'"nth" must be 1..{decks} (which copy played)')
        if face not in allowed:
            raise IllegalAction("bad_call", "a friend card must not be a trump")
        call = FriendCall(face, nth)
        if call in calls:
            raise IllegalAction("bad_call", "the same copy was called twice")
        calls.append(call)
    return tuple(calls)


def calls_json(calls: Sequence[FriendCall]) -> list[dict[str, Any]]:
    return [{"card": format_face(c.face), "nth": c.nth} for c in calls]


def call_choices(hand: Sequence[int], trump: Trump, count: int, decks: int,
                 rng: Rng) -> list[tuple[FriendCall, ...]]:
    """A representative set of calls for ``legal``: the first copy of the
    highest side-suit cards the landlord does not hold (the usual call), and
    a few random ones (any copy, held or not)."""
    t = tables(trump)
    held = {c % FACES_PER_DECK for c in hand}
    faces = sorted(callable_faces(trump), key=lambda f: (f in held, -t.phi[f], f))
    out = [tuple(FriendCall(f, 1) for f in faces[:count])]
    for _ in range(3):
        picks = rng.shuffled([FriendCall(f, n) for f in faces for n in range(1, decks + 1)])
        chosen: list[FriendCall] = []
        for call in picks:
            if call not in chosen:
                chosen.append(call)
            if len(chosen) == count:
                break
        out.append(tuple(chosen))
    return list(dict.fromkeys(out))


def reveal(calls: Sequence[FriendCall], called_by: Sequence[int | None],
           before: Sequence[int], seat: int, cards: Sequence[int]) -> tuple[int | None, ...]:
    """``called_by`` after ``seat`` plays ``cards``; ``before`` is every card
    played this round before them, in play order."""
    out = list(called_by)
    for i, call in enumerate(calls):
        if out[i] is not None:
            continue
        seen = sum(1 for c in before if c % FACES_PER_DECK == call.face)
        mine = sum(1 for c in cards if c % FACES_PER_DECK == call.face)
        if seen < call.nth <= seen + mine:
            out[i] = seat
    return tuple(out)
