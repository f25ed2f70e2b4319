"""The deal and the draw: a round's stock, drawing, declaring trump, passing.

The seat to draw acts with ``draw``; any seat may declare trump at any time while
cards are drawn, out of turn, and nobody passes (options version 4; up to 3 every
seat that could declare was also to act, with ``declare`` or ``pass``, and a pass
declined the declarations the seat could make at that moment).  When the stock is
down to the kitty, seats that can still declare get a last word (declare or
pass); then the last declaration fixes trump and the landlord picks up the kitty
(or, nobody having declared, the ``no_declaration`` policy turns the kitty up or
redeals).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.cards import FACES_PER_DECK, SMALL_JOKER, SUITS, deck, format_card
from engine.errors import IllegalAction
from engine.events import Event, only
from engine.game import Action
from engine.rng import Rng
from rules.tractor.declarations import declaration_options, kitty_trump_suit, undeclined
from rules.tractor.memo import Memo
from rules.tractor.options import FirstLandlord, NoDeclarationPolicy, TractorConfig
from rules.tractor.order import NT_LEVEL, Trump, rank_name, suit_name
from rules.tractor.phases.base import PhaseRules, Step, TractorMove
from rules.tractor.phases.common import (
    display_trump,
    drawing,
    parse_cards,
    sort_hand,
    spell,
    take,
)
from rules.tractor.sides import sides_for
from rules.tractor.state import Declaration, Phase, RoundResult, TractorState


def new_round(
    config: TractorConfig,
    seed: int,
    round_no: int,
    *,
    levels: tuple[int, ...],
    landlord: int | None,
    starter: int,
    rounds_played: int,
    results: tuple[RoundResult, ...],
) -> TractorState:
    """A round dealt as a shuffled stock, ``starter`` to draw first."""
    # Each round (and each redeal) has its own stream: it depends only on (seed, number).
    stock = tuple(Rng(seed).fork(round_no).shuffled(deck(config.decks, jokers=True)))
    n = config.seats
    failed_throws, seat_points = sides_for(config).counters(n)
    return TractorState(
        config=config,
        seed=seed,
        round_no=round_no,
        rounds_played=rounds_played,
        levels=levels,
        landlord=landlord,
        starter=starter,
        phase=Phase.DRAW,
        stock=stock,
        hands=((),) * n,
        declined=(frozenset(),) * n,
        drawer=starter,
        results=results,
        failed_throws=failed_throws,
        seat_points=seat_points,
    )


def round_events(state: TractorState) -> list[Event]:
    """What starting ``state``'s round shows everyone."""
    return [
        Event(
            "deal",
            {
                "round": state.rounds_played + 1,
                "landlord": state.landlord,
                "starter": state.starter,
                "rank": rank_name(state.rank),
                "levels": [rank_name(v) for v in state.levels],
            },
        )
    ]


_TO_ACT = Memo(8)


def _can_take_back_bid(state: TractorState, seat: int) -> bool:
    """Option ``bid_takeback``: the seat whose declaration stands may withdraw it
    (in an overbid window, only a declaration made in that window)."""
    cur = state.current
    if state.overbid_mark is not None and len(state.declarations) <= state.overbid_mark:
        return False
    return state.config.bid_takeback and cur is not None and cur.seat == seat


def _declarations(state: TractorState, seat: int) -> list[Action]:
    """The ``declare`` actions ``seat`` can make now."""
    return [{"type": "declare", "cards": [format_card(f)] * n}
            for f, n in declaration_options(state, seat)]


def _open_declarations(state: TractorState) -> bool:
    """Version 4: while cards are drawn a seat declares when it wishes, out of turn,
    and nobody passes (a pass told everyone the seat could have declared)."""
    return state.config.version >= 4 and drawing(state)


def _drawing_seats(state: TractorState) -> tuple[int, ...]:
    if _open_declarations(state):
        return (state.drawer,)
    active = {s for s in range(state.seats) if undeclined(state, s)}
    if drawing(state):
        active.add(state.drawer)
    # A standing bid's takeback is optional (Draw.optional): the bidder is not to
    # act for it, or a bot with nothing else to do would take back and bid again
    # for ever.
    return tuple(sorted(active))


class Draw(PhaseRules):
    """``DRAW``: draw, declare or pass, until trump is fixed."""

    def to_act(self, state: TractorState) -> tuple[int, ...]:
        """The drawer and every seat with a declaration it has not passed on."""
        return _TO_ACT.get(state, 0, lambda: _drawing_seats(state))

    def to_act_visible(self, state: TractorState, viewer: int) -> tuple[int, ...]:
        """Who else could declare is their secret: each viewer sees the drawer,
        and itself if it may declare."""
        acting = self.to_act(state)
        shown = {viewer} if viewer in acting else set()
        if drawing(state):
            shown.add(state.drawer)
        return tuple(sorted(shown))

    def legal(self, state: TractorState, seat: int) -> list[Action]:
        decls = _declarations(state, seat)
        if _can_take_back_bid(state, seat):
            decls.append({"type": "takeback_bid"})
        if drawing(state) and seat == state.drawer:
            return [{"type": "draw"}, *decls]
        if not undeclined(state, seat):
            return decls  # only the takeback: nothing to pass on
        return [*decls, {"type": "pass"}]

    def optional(self, state: TractorState, seat: int) -> list[Action]:
        """The standing bidder may take its bid back (option ``bid_takeback``); from
        version 4, while cards are drawn, any seat may declare what it can."""
        out = _declarations(state, seat) if _open_declarations(state) else []
        if _can_take_back_bid(state, seat):
            out.append({"type": "takeback_bid"})
        return out

    def open_to_all(self, state: TractorState, action: Action) -> bool:
        return _open_declarations(state) and action.get("type") in ("declare", "pass")

    def check(self, state: TractorState, seat: int, action: Action) -> TractorMove:
        kind: Any = action.get("type")
        if kind == "draw":
            if not drawing(state) or seat != state.drawer:
                raise IllegalAction("not_your_turn", "it is not your turn to draw")
            return TractorMove({"type": "draw"}, seat, state)
        if kind == "takeback_bid":
            if not _can_take_back_bid(state, seat):
                raise IllegalAction("nothing_to_take_back",
                                    "only the standing declaration's owner may withdraw it "
                                    "(option bid_takeback)")
            return TractorMove({"type": "takeback_bid"}, seat, state)
        if kind == "pass":
            if _open_declarations(state):
                raise IllegalAction("nothing_to_pass", "no pass while cards are drawn: "
                                    "declare when you wish")
            if not undeclined(state, seat):
                raise IllegalAction("nothing_to_pass", "you have no declaration to pass on")
            return TractorMove({"type": "pass"}, seat, state)
        if kind != "declare":
            raise IllegalAction("bad_action", "during the draw: draw, declare or pass"
                                if state.phase is Phase.DRAW else "declare or pass")
        faces = parse_cards(action)
        if not faces or len(faces) > state.config.decks or len(set(faces)) != 1:
            raise IllegalAction("bad_declaration",
                                "declare copies of one rank card (or jokers)")
        f, n = faces[0], len(faces)
        if (f, n) not in declaration_options(state, seat):
            if take(state.hands[seat], faces) is None:
                raise IllegalAction("not_in_hand", "you can only show cards from your hand")
            raise IllegalAction(
                "weak_declaration",
                "a declaration must be a rank card and override the current one "
                "(more copies, or as many of a stronger joker; see the bid options)",
            )
        cards = take(state.hands[seat], faces)
        assert cards is not None
        return TractorMove({"type": "declare", "cards": [format_card(f)] * n}, seat, state,
                           cards=cards)

    def apply(self, state: TractorState, seat: int, move: TractorMove) -> Step:
        kind = move.action["type"]
        if kind == "draw":
            return _maybe_close(*_draw(state))
        if kind == "declare":
            after, events = _declare(state, seat, move.cards)
        elif kind == "takeback_bid":
            after, events = _take_back_bid(state, seat)
        else:
            declined = list(state.declined)
            declined[seat] = declined[seat] | frozenset(declaration_options(state, seat))
            after = replace(state, declined=tuple(declined))
            # The seat's secret: only a seat that could declare passes.
            events = [Event("pass", {"seat": seat}, only(seat))]
        return self.settle(after, events)

    def settle(self, state: TractorState, events: list[Event]) -> Step:
        """After a declaration, a pass or a takeback: end the draw once the stock is
        down to the kitty and nobody can still declare."""
        return _maybe_close(state, events)


def _draw(state: TractorState) -> Step:
    seat = state.drawer
    card = state.stock[0]
    hands = list(state.hands)
    hands[seat] = sort_hand((*hands[seat], card), display_trump(state))
    after = replace(state, stock=state.stock[1:], hands=tuple(hands),
                    drawer=(seat + 1) % state.seats)
    events = [
        Event("draw", {"seat": seat, "left": after.stock_left}),
        Event("drawn", {"seat": seat, "card": format_card(card)}, only(seat)),
    ]
    return after, events


def _declare(state: TractorState, seat: int, cards: tuple[int, ...]) -> Step:
    f = cards[0] % FACES_PER_DECK
    after = replace(state, declarations=(*state.declarations,
                                          Declaration(seat, f, len(cards))))
    suit = "NT" if f >= SMALL_JOKER else SUITS[f // 13]
    return after, [Event("declare", {"seat": seat, "cards": spell(cards), "suit": suit})]


def _take_back_bid(state: TractorState, seat: int) -> Step:
    """Withdraw the standing declaration: the one before it stands again.  The
    shown cards stay public (``retracted``): everyone saw them."""
    cur = state.current
    assert cur is not None
    after = replace(state, declarations=state.declarations[:-1],
                    retracted=(*state.retracted, *([cur.face] * cur.count)))
    return after, [Event("takeback_bid",
                         {"seat": seat, "cards": [format_card(cur.face)] * cur.count})]


def _maybe_close(state: TractorState, events: list[Event]) -> Step:
    """End the draw once the stock is down to the kitty and nobody can still declare."""
    if drawing(state) or any(undeclined(state, s) for s in range(state.seats)):
        return state, events
    return _fix_trump(state, events)


def _fix_trump(state: TractorState, events: list[Event]) -> Step:
    kitty = state.stock
    cur = state.current
    revealed: tuple[int, ...] = ()
    if state.rank == NT_LEVEL:
        # The NT level: no declaration, no trump suit (docs/tractor.md, "Level advancement").
        suit = None
        landlord = state.landlord if state.landlord is not None else state.starter
    elif cur is not None:
        suit = None if cur.face >= SMALL_JOKER else cur.face // 13
        first = (state.declarations[0].seat
                 if state.config.first_landlord is FirstLandlord.BY_FIRST_BID else cur.seat)
        landlord = state.landlord if state.landlord is not None else first
    elif state.config.no_declaration is NoDeclarationPolicy.REDEAL:
        # The hands are thrown in unseen: the card just drawn (it could not
        # declare, or the draw would still be open) is not shown either.
        events = [e for e in events if e.kind != "drawn"]
        events.append(Event("redeal", {"reason": "nobody declared"}))
        nxt = new_round(state.config, state.seed, state.round_no + 1, levels=state.levels,
                        landlord=state.landlord, starter=state.starter,
                        rounds_played=state.rounds_played, results=state.results)
        return nxt, events + round_events(nxt)
    else:
        suit = kitty_trump_suit(kitty, state.rank)
        landlord = state.landlord if state.landlord is not None else state.starter
        revealed = kitty
        events.append(Event("kitty_revealed", {"cards": spell(kitty), "suit": suit_name(suit)}))
    trump = Trump(state.rank, suit)
    hands = list(state.hands)
    hands[landlord] = (*hands[landlord], *kitty)
    hands = [sort_hand(h, trump) for h in hands]
    events.append(Event("trump", {
        "landlord": landlord,
        "rank": rank_name(trump.rank),
        "suit": suit_name(suit),
    }))
    events.append(Event("kitty", {"seat": landlord, "cards": spell(kitty)}, only(landlord)))
    after = replace(state, stock=(), hands=tuple(hands), trump=trump, landlord=landlord,
                    phase=Phase.BURY, kitty=(), kitty_revealed=revealed, leader=landlord)
    return after, events
