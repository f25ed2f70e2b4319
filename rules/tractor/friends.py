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
from rules.tractor.options import FriendSelection
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.state import FriendCall

_ACE, _KING, _POINT_RANKS = 12, 11, (3, 8, 11)  # rank indexes: A, K; 5, 10, K


def callable_faces(trump: Trump,
                   policy: FriendSelection = FriendSelection.UNRESTRICTED) -> list[int]:
    """Faces that may be called under ``policy`` (rbtying/shengji's friend
    selection policies; by default every non-trump suited face)."""
    if policy is FriendSelection.TRUMPS_INCLUDED:
        return list(range(FACES_PER_DECK))
    suit = tables(trump).suit
    faces = [f for f in range(SMALL_JOKER) if suit[f] != TRUMP]
    if policy is FriendSelection.HIGHEST_CARD_NOT_ALLOWED:
        highest = _KING if trump.rank == _ACE else _ACE
        faces = [f for f in faces if f % 13 != highest]
    elif policy is FriendSelection.POINT_CARD_NOT_ALLOWED:
        # With aces trump the king is the top plain card, not a point card to hunt.
        faces = [f for f in faces if f % 13 not in _POINT_RANKS
                 or (trump.rank == _ACE and f % 13 == _KING)]
    return faces


def parse_calls(action: Mapping[str, Any], trump: Trump, count: int,
                decks: int, policy: FriendSelection = FriendSelection.UNRESTRICTED
                ) -> tuple[FriendCall, ...]:
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
    allowed = set(callable_faces(trump, policy))
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
            raise IllegalAction("bad_call", "that card may not be called "
                                "(a trump, or excluded by the friend_selection option)")
        call = FriendCall(face, nth)
        if call in calls:
            raise IllegalAction("bad_call", "the same copy was called twice")
        calls.append(call)
    return tuple(calls)


def calls_json(calls: Sequence[FriendCall]) -> list[dict[str, Any]]:
    return [{"card": format_face(c.face), "nth": c.nth} for c in calls]


def call_choices(hand: Sequence[int], trump: Trump, count: int, decks: int,
                 rng: Rng, policy: FriendSelection = FriendSelection.UNRESTRICTED
                 ) -> list[tuple[FriendCall, ...]]:
    """A representative set of calls for ``legal``: the first copy of the
    highest side-suit cards the landlord does not hold (the usual call), and
    a few random ones (any copy, held or not)."""
    t = tables(trump)
    held = {c % FACES_PER_DECK for c in hand}
    faces = sorted(callable_faces(trump, policy), key=lambda f: (f in held, -t.phi[f], f))
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
           before: Sequence[int], seat: int, cards: Sequence[int],
           side: frozenset[int] | None = None) -> tuple[int | None, ...]:
    """``called_by`` after ``seat`` plays ``cards``; ``before`` is every card
    played this round before them, in play order.

    ``side`` (option ``multiple_join`` = ``no_double_join``): the landlord's
    side as it stands; a called copy played by one of its seats leaves the
    call open for the next copy played by a seat not on it."""
    out = list(called_by)
    for i, call in enumerate(calls):
        if out[i] is not None:
            continue
        seen = sum(1 for c in before if c % FACES_PER_DECK == call.face)
        mine = sum(1 for c in cards if c % FACES_PER_DECK == call.face)
        if side is None:
            if seen < call.nth <= seen + mine:
                out[i] = seat
        elif mine and call.nth <= seen + mine and seat not in side:
            out[i] = seat
            side = side | {seat}
    return tuple(out)
