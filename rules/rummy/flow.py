"""The turn and the deal both rummy variants share.

A turn is two actions: draw (from the stock or the discard pile), then discard.
Each deal ends in a DEAL_OVER phase with every hand shown, so the reveal is a
state of its own and the next deal starts with an explicit ``next_deal``.
What a variant adds (dropping, declaring, knocking, lay-offs, how deals add up
to a match) comes from its :class:`rules.rummy.variant.VariantRules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.cards import (
    SMALL_JOKER,
    CardParseError,
    face_of,
    format_card,
    parse_face,
    rank_of,
)
from engine.errors import IllegalAction
from engine.events import JSON, SPECTATOR, Event, Visibility, only
from engine.game import Action
from engine.rng import Rng
from engine.values import evolve
from rules.rummy.melds import Arrangement, Meld
from rules.rummy.options import MeldRules, RummyConfig
from rules.rummy.state import DealOutcome, Phase, RummyState
from rules.rummy.variant import Step, VariantRules

ACE = 12


def rules_of(state: RummyState) -> MeldRules:
    """The meld rules in force in this deal (indian: with its wild rank)."""
    return state.config.meld_rules(wild_rank_of(state.wild_card))


def wild_rank_of(cut: int | None) -> int | None:
    """The wild rank a cut card makes: its rank; a printed joker makes aces wild."""
    if cut is None:
        return None
    return ACE if face_of(cut) >= SMALL_JOKER else rank_of(cut)


def sorted_cards(cards: Sequence[int]) -> tuple[int, ...]:
    """Cards in hand order: by face, then copy."""
    return tuple(sorted(cards, key=lambda c: (face_of(c), c)))


def spell(cards: Sequence[int]) -> list[str]:
    """Card ids as their canonical spellings."""
    return [format_card(c) for c in cards]


def _others(seat: int, seats: int) -> Visibility:
    """Every viewer but ``seat``, spectators included."""
    return Visibility(frozenset({*range(seats), SPECTATOR} - {seat}))


def deal(
    variant: VariantRules,
    config: RummyConfig,
    seed: int,
    deal_no: int,
    dealer: int,
    points: tuple[int, ...],
    eliminated: tuple[bool, ...],
    boxes: tuple[int, ...],
    last: DealOutcome | None = None,
) -> RummyState:
    """Deal number ``deal_no``: hands to the seats still in, the upcard turned."""
    # Each deal has its own stream, so a deal depends only on (seed, deal number).
    rng = Rng(seed).fork(deal_no)
    n = config.players
    cards = rng.shuffled(variant.deck)
    size = variant.hand_size
    hands: list[tuple[int, ...]] = [() for _ in range(n)]
    order = [(dealer + 1 + i) % n for i in range(n)]
    live = [s for s in order if not eliminated[s]]
    for i, s in enumerate(live):
        hands[s] = sorted_cards(cards[i * size : (i + 1) * size])
    rest = cards[len(live) * size :]
    wild = rest.pop() if variant.cuts_wild else None  # cut at random: face up, its rank wild
    upcard = rest.pop()
    return RummyState(
        config=config,
        seed=seed,
        deal_no=deal_no,
        dealer=dealer,
        phase=Phase.DRAW,
        turn=live[0],
        hands=tuple(hands),
        stock=tuple(rest),
        pile=(upcard,),
        wild_card=wild,
        taken=None,
        drawn=(False,) * n,
        out=eliminated,
        known=((),) * n,
        reshuffles=0,
        charges=(0,) * n,
        points=points,
        eliminated=eliminated,
        boxes=boxes,
        knocker=-1,
        table=(),
        knocker_deadwood=0,
        last=last,
    )


def deal_events(state: RummyState) -> list[Event]:
    """What a new deal shows: the upcard (and wild card) to all, each hand to its seat."""
    data: JSON = {
        "deal": state.deal_no + 1,
        "dealer": state.dealer,
        "upcard": format_card(state.pile[-1]),
    }
    if state.wild_card is not None:
        data["wild_card"] = format_card(state.wild_card)
    events = [Event("deal", data)]
    for seat, hand in enumerate(state.hands):
        if hand:
            events.append(Event("hand", {"seat": seat, "cards": spell(hand)}, only(seat)))
    return events


def next_seat(state: RummyState, seat: int, out: Sequence[bool]) -> int:
    """The next seat after ``seat`` that is not ``out``."""
    n = state.seats
    for k in range(1, n + 1):
        s = (seat + k) % n
        if not out[s]:
            return s
    return seat


def next_dealer(state: RummyState) -> int:
    """The deal passes to the left, skipping seats out of the pool."""
    return next_seat(state, state.dealer, state.eliminated)


def stock_available(state: RummyState) -> bool:
    """Whether a draw from the stock is possible (the pile can be reshuffled)."""
    return bool(state.stock) or len(state.pile) > 1


def take(hand: Sequence[int], face: int, exclude: Sequence[int] = ()) -> int | None:
    """A card of ``face`` in ``hand`` not in ``exclude`` (the lowest id)."""
    for c in sorted(hand):
        if face_of(c) == face and c not in exclude:
            return c
    return None


def face_arg(action: Action, key: str = "card") -> int:
    """The face an action names under ``key``, or IllegalAction."""
    value = action.get(key)
    if not isinstance(value, str):
        raise IllegalAction("bad_action", f"expected a card under {key!r}")
    try:
        return parse_face(value)
    except CardParseError as exc:
        raise IllegalAction("bad_card", str(exc)) from None


def groups_ids(
    hand: Sequence[int], groups: Any, exclude: Sequence[int]
) -> list[tuple[int, ...]]:
    """Map spelled groups onto distinct cards of ``hand`` (not the ones in ``exclude``)."""
    if not isinstance(groups, list) or not all(isinstance(g, list) for g in groups):
        raise IllegalAction("bad_action", "groups must be a list of lists of cards")
    used = list(exclude)
    out = []
    for g in groups:
        ids = []
        for text in g:
            if not isinstance(text, str):
                raise IllegalAction("bad_card", "a card must be spelled as a string")
            try:
                f = parse_face(text)
            except CardParseError as exc:
                raise IllegalAction("bad_card", str(exc)) from None
            c = take(hand, f, used)
            if c is None:
                raise IllegalAction("not_in_hand", "a grouped card is not in your hand")
            used.append(c)
            ids.append(c)
        out.append(tuple(ids))
    return out


def meld_cards(meld: Meld) -> tuple[int, ...]:
    """A meld's cards in hand order."""
    return sorted_cards(meld.cards)


def spelled_groups(arr: Arrangement) -> list[list[str]]:
    """An arrangement's melds as spelled groups (the ``groups`` of an action)."""
    return [spell(meld_cards(m)) for m in arr.melds]


def draw(state: RummyState, seat: int, source: str) -> Step:
    """``seat`` draws from the ``stock`` or the ``discard`` pile."""
    events: list[Event] = []
    stock, pile, reshuffles = state.stock, state.pile, state.reshuffles
    known = list(state.known)
    if source == "discard":
        card, pile = pile[-1], pile[:-1]
        taken: int | None = card
        known[seat] = (*known[seat], card)
        data = {"seat": seat, "from": "discard", "card": format_card(card)}
        events.append(Event("draw", data))
    else:
        if not stock:
            # The stock ran out: the pile but its top card is shuffled into a new stock.
            reshuffles += 1
            rng = Rng(state.seed).fork(state.deal_no).fork(reshuffles)
            stock, pile = tuple(rng.shuffled(pile[:-1])), pile[-1:]
            events.append(Event("reshuffle", {"cards": len(stock)}))
        card, stock = stock[-1], stock[:-1]
        taken = None
        data = {"seat": seat, "from": "stock", "card": format_card(card)}
        events.append(Event("draw", data, only(seat)))
        hidden = {"seat": seat, "from": "stock"}
        events.append(Event("draw", hidden, _others(seat, state.seats)))
    hands = list(state.hands)
    hands[seat] = sorted_cards((*hands[seat], card))
    drawn = list(state.drawn)
    drawn[seat] = True
    after = evolve(
        state,
        phase=Phase.DISCARD,
        hands=tuple(hands),
        stock=stock,
        pile=pile,
        taken=taken,
        known=tuple(known),
        drawn=tuple(drawn),
        reshuffles=reshuffles,
    )
    return after, events


def discard(variant: VariantRules, state: RummyState, seat: int, card: int) -> Step:
    """``seat`` discards ``card``; the turn passes (unless the deal is void)."""
    hands = list(state.hands)
    hands[seat] = tuple(c for c in hands[seat] if c != card)
    known = list(state.known)
    known[seat] = tuple(c for c in known[seat] if c != card)
    after = evolve(
        state,
        hands=tuple(hands),
        pile=(*state.pile, card),
        known=tuple(known),
        taken=None,
        phase=Phase.DRAW,
        turn=next_seat(state, seat, state.out),
    )
    events = [Event("discard", {"seat": seat, "card": format_card(card)})]
    return variant.after_discard(after, events)


def end_deal(
    variant: VariantRules, state: RummyState, outcome: DealOutcome, events: list[Event]
) -> Step:
    """Score a finished deal: hands shown, totals added, the match over or not."""
    points = tuple(p + d for p, d in zip(state.points, outcome.points, strict=True))
    eliminated, boxes, over = variant.standings(state, points, outcome)
    after = replace(
        state,
        phase=Phase.OVER if over else Phase.DEAL_OVER,
        points=points,
        eliminated=eliminated,
        boxes=boxes,
        last=outcome,
        over=over,
    )
    events = [
        *events,
        Event(
            "deal_end",
            {"how": outcome.how, "winner": outcome.winner, "points": list(outcome.points),
             "totals": list(points), "hands": [spell(h) for h in state.hands]},
        ),
    ]
    if over:
        events.append(Event("game_over", variant.result(after).to_json()))
    return after, events


def next_deal(variant: VariantRules, state: RummyState) -> Step:
    """The next deal, dealt by the next dealer."""
    nxt = deal(
        variant,
        state.config,
        state.seed,
        state.deal_no + 1,
        next_dealer(state),
        state.points,
        state.eliminated,
        state.boxes,
        state.last,
    )
    return nxt, deal_events(nxt)
