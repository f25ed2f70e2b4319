"""Trump declarations during the draw (docs/tractor.md, "Dealing and declaring").

A declaration shows ``count`` copies of a card: a current-rank card of a suit
declares that suit; a pair of identical rank cards overrides a single; a pair
of jokers (small < big) declares no trump and overrides suit pairs.  When
nobody declares, the ``reveal_kitty`` policy turns the kitty up to fix trump.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import BIG_JOKER, FACES_PER_DECK, SMALL_JOKER
from rules.tractor.options import BidPolicy, BidReinforcement, JokerBidPolicy, TractorConfig
from rules.tractor.order import NT_LEVEL
from rules.tractor.state import Declaration, Phase, TractorState


def strength(face: int, count: int) -> int:
    """Two-deck declaration order: single rank card < pair < small-joker pair < big-joker pair."""
    if face == BIG_JOKER:
        return 4
    if face == SMALL_JOKER:
        return 3
    return count


def _overrides(face: int, count: int, cur: Declaration, policy: BidPolicy) -> bool:
    """Whether declaring ``count`` × ``face`` overrides the standing declaration
    (rbtying/shengji's bid policies): more cards always do; as many cards do
    with a stronger joker, or (``joker_or_higher_suit``) a higher suit of two
    or more cards."""
    if count != cur.count:
        return count > cur.count
    if policy is BidPolicy.GREATER_LENGTH:
        return False
    if face >= SMALL_JOKER or cur.face >= SMALL_JOKER:
        return face > cur.face and face >= SMALL_JOKER  # big > small > any suit
    return (policy is BidPolicy.JOKER_OR_HIGHER_SUIT and count > 1
            and face // 13 > cur.face // 13)


def _joker_count_ok(face: int, count: int, config: TractorConfig) -> bool:
    policy, decks = config.joker_bid_policy, config.decks
    if policy is JokerBidPolicy.BOTH_TWO_OR_MORE:
        return count >= 2
    if policy is JokerBidPolicy.BOTH_NUM_DECKS or face == SMALL_JOKER:
        return count >= decks
    return count >= decks - 1


def declaration_options(state: TractorState, seat: int) -> list[tuple[int, int]]:
    """(face, count) declarations ``seat`` may make now.

    Rule (docs/tractor.md, "Dealing and declaring"): rank cards of a suit
    declare it, jokers declare no trump; a declaration must override the
    standing one (``bid_policy``: more cards, or as many of a stronger joker,
    or of a higher suit); the seat whose declaration stands may only add
    copies of its card (``bid_reinforcement``, ``allow_reinforce``).
    """
    if state.phase not in (Phase.DRAW, Phase.OVERBID) or state.rank == NT_LEVEL:
        return []  # at the NT level only the jokers are trump: nothing to declare
    counts: dict[int, int] = {}
    rank = state.rank
    for c in state.hands[seat]:
        f = c % FACES_PER_DECK
        if f >= SMALL_JOKER or f % 13 == rank:
            counts[f] = counts.get(f, 0) + 1
    if not counts:
        return []
    config = state.config
    # Version-1 tables declared singles and pairs only.
    most = 2 if config.version == 1 else config.decks
    cur = state.current
    mine = next((d for d in reversed(state.declarations) if d.seat == seat), None)
    reinforcing = config.bid_reinforcement
    if (cur is not None and cur.seat == seat
            and reinforcing is not BidReinforcement.OVERTURN_OR_REINFORCE_WHILE_WINNING):
        # Standing: only more copies of the same card.
        if not config.allow_reinforce:
            return []
        return [(cur.face, n) for n in range(cur.count + 1, min(counts.get(cur.face, 0), most) + 1)]
    out: list[tuple[int, int]] = []
    for f in sorted(counts):
        for n in range(1, min(counts[f], most) + 1):
            if f >= SMALL_JOKER and not _joker_count_ok(f, n, config):
                continue
            if cur is None or _overrides(f, n, cur, config.bid_policy):
                out.append((f, n))
    if (reinforcing is BidReinforcement.REINFORCE_WHILE_EQUIVALENT and mine is not None
            and cur is not None and cur.seat != seat and cur.face < SMALL_JOKER
            and counts.get(mine.face, 0) >= cur.count and cur.count <= most
            and (mine.face, cur.count) not in out):
        out.append((mine.face, cur.count))
    # Never a declaration the seat has made already: a reinforcement adds cards.
    # Else two seats could take turns for ever (a higher suit, then the other's
    # equivalent reinforcement, then the higher suit again...).
    made = {(d.face, d.count) for d in state.declarations if d.seat == seat}
    return [o for o in out if o not in made]


def undeclined(state: TractorState, seat: int) -> list[tuple[int, int]]:
    return [o for o in declaration_options(state, seat) if o not in state.declined[seat]]


def kitty_trump_suit(kitty: Sequence[int], rank: int) -> int | None:
    """The suit the turned-up kitty fixes when nobody declared (``reveal_kitty``).

    The kitty's cards are turned up in order: the first rank card fixes its
    suit; without one, the highest-ranked suited card (the first of equals).
    Jokers are skipped: they have no suit; a kitty of jokers only (three or more
    decks, or a small kitty) fixes none, and the round is played at no trump.
    """
    suited = [c % FACES_PER_DECK for c in kitty if c % FACES_PER_DECK < SMALL_JOKER]
    if not suited:
        return None
    for f in suited:
        if f % 13 == rank:
            return f // 13
    best = max(suited, key=lambda f: (f % 13, -suited.index(f)))
    return best // 13
