"""Rummy as a :class:`engine.game.Game`: Indian points/pool rummy and gin rummy.

One game, ``rummy``, with ``variant`` choosing the rules (docs/rummy.md, "The
Game").  A turn is two actions: draw (stock or discard pile), then discard — or
finish: declare (indian) or knock (gin) while discarding.  Indian players may
drop instead of drawing; after a gin knock the defender lays off.  Each deal ends
in a DEAL_OVER phase with every hand shown, so the reveal is a state of its own
and the next deal starts with an explicit ``next_deal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace as _replace
from typing import Any, ClassVar

from engine.cards import (
    SMALL_JOKER,
    CardParseError,
    card_id,
    deck,
    face_of,
    format_card,
    parse_face,
    rank_of,
)
from engine.errors import IllegalAction
from engine.events import JSON, OMNISCIENT, SPECTATOR, Event, Visibility, only
from engine.game import Action, Game, Result
from engine.rng import Rng
from rules.rummy.groups import lay_off, read_meld
from rules.rummy.melds import Arrangement, Kind, Meld, counted_points, deadwood, declaration_ok
from rules.rummy.options import MeldRules, Pool, RummyConfig, Variant
from rules.rummy.presentation import RummyPresentation
from rules.rummy.scoring import best_of, gin_deadwood, gin_deal, gin_totals, indian_charge
from rules.rummy.state import DealOutcome, Phase, RummyState

HAND_SIZE = {Variant.INDIAN: 13, Variant.GIN: 10}
GIN_VOID_STOCK = 2  # gin: a deal with this many stock cards left after a discard is void
# Indian: two decks plus two printed jokers (one per deck).
INDIAN_DECK = (*deck(2), card_id(SMALL_JOKER, 0), card_id(SMALL_JOKER, 1))
ACE = 12


def rules_of(state: RummyState) -> MeldRules:
    """The meld rules in force in this deal (indian: with its wild rank)."""
    return state.config.meld_rules(wild_rank_of(state.wild_card))


def wild_rank_of(cut: int | None) -> int | None:
    """The wild rank a cut card makes: its rank; a printed joker makes aces wild."""
    if cut is None:
        return None
    return ACE if face_of(cut) >= SMALL_JOKER else rank_of(cut)


def _sorted(cards: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(cards, key=lambda c: (face_of(c), c)))


def _spell(cards: Sequence[int]) -> list[str]:
    return [format_card(c) for c in cards]


def _others(seat: int, seats: int) -> Visibility:
    """Every viewer but ``seat``, spectators included."""
    return Visibility(frozenset({*range(seats), SPECTATOR} - {seat}))


def _deal(
    config: RummyConfig,
    seed: int,
    deal_no: int,
    dealer: int,
    points: tuple[int, ...],
    eliminated: tuple[bool, ...],
    boxes: tuple[int, ...],
    last: DealOutcome | None = None,
) -> RummyState:
    # Each deal has its own stream, so a deal depends only on (seed, deal number).
    rng = Rng(seed).fork(deal_no)
    n = config.players
    indian = config.variant is Variant.INDIAN
    cards = rng.shuffled(INDIAN_DECK if indian else deck())
    size = HAND_SIZE[config.variant]
    hands: list[tuple[int, ...]] = [() for _ in range(n)]
    order = [(dealer + 1 + i) % n for i in range(n)]
    live = [s for s in order if not eliminated[s]]
    for i, s in enumerate(live):
        hands[s] = _sorted(cards[i * size : (i + 1) * size])
    rest = cards[len(live) * size :]
    wild = rest.pop() if indian else None  # cut at random: the deal's wild card, face up
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


def _deal_events(state: RummyState) -> list[Event]:
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
            events.append(Event("hand", {"seat": seat, "cards": _spell(hand)}, only(seat)))
    return events


def _next_seat(state: RummyState, seat: int, out: Sequence[bool]) -> int:
    n = state.seats
    for k in range(1, n + 1):
        s = (seat + k) % n
        if not out[s]:
            return s
    return seat


def _take(hand: Sequence[int], face: int, exclude: Sequence[int] = ()) -> int | None:
    """A card of ``face`` in ``hand`` not in ``exclude`` (the lowest id)."""
    for c in sorted(hand):
        if face_of(c) == face and c not in exclude:
            return c
    return None


def _face(action: Action, key: str = "card") -> int:
    value = action.get(key)
    if not isinstance(value, str):
        raise IllegalAction("bad_action", f"expected a card under {key!r}")
    try:
        return parse_face(value)
    except CardParseError as exc:
        raise IllegalAction("bad_card", str(exc)) from None


def _groups_ids(
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
            c = _take(hand, f, used)
            if c is None:
                raise IllegalAction("not_in_hand", "a grouped card is not in your hand")
            used.append(c)
            ids.append(c)
        out.append(tuple(ids))
    return out


def _spelled_groups(arr: Arrangement) -> list[list[str]]:
    return [_spell(_meld_cards(m)) for m in arr.melds]


def _meld_cards(meld: Meld) -> tuple[int, ...]:
    return _sorted(meld.cards)


def arrangement_json(hand: Sequence[int], rules: MeldRules) -> JSON:
    """A hand at its best, for views: clients show the rules' own grouping rather
    than search for one themselves.  ``wild``: the cards a meld uses as jokers;
    ``counted``: points charged before the cap; ``valid``: it may declare."""
    arr = best_of(tuple(sorted(hand)), rules)
    return {
        "melds": [
            {
                "kind": "run" if m.kind is Kind.RUN else "set",
                "cards": _spell(m.cards),
                "jokers": m.jokers,
                "wild": _spell(m.cards[len(m.naturals):]),
            }
            for m in arr.melds
        ],
        "leftover": _spell(arr.leftover),
        "deadwood": deadwood(arr.leftover, rules),
        "counted": counted_points(arr, rules),
        "valid": declaration_ok(arr, rules),
    }


class RummyGame(Game[RummyState, RummyConfig]):
    name: ClassVar[str] = "rummy"
    title: ClassVar[str] = "Rummy"
    config_model = RummyConfig
    presentation = RummyPresentation()

    def seat_count(self, config: RummyConfig) -> int:
        return config.players

    def new(self, config: RummyConfig, seed: int) -> RummyState:
        n = config.players
        return _deal(config, seed, 0, n - 1, (0,) * n, (False,) * n, (0,) * n)

    def initial_events(self, state: RummyState) -> list[Event]:
        return _deal_events(state)

    def to_act(self, state: RummyState) -> tuple[int, ...]:
        if state.phase is Phase.OVER:
            return ()
        if state.phase is Phase.DEAL_OVER:
            return (self._next_dealer(state),)
        return (state.turn,)

    def _next_dealer(self, state: RummyState) -> int:
        # The deal passes to the left, skipping seats out of the pool.
        return _next_seat(state, state.dealer, state.eliminated)

    # --- legal actions -----------------------------------------------------------

    def legal(self, state: RummyState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase is Phase.DEAL_OVER:
            return [{"type": "next_deal"}]
        if state.phase is Phase.DRAW:
            out: list[Action] = []
            if self._stock_available(state):
                out.append({"type": "draw", "from": "stock"})
            out.append({"type": "draw", "from": "discard"})
            if state.config.variant is Variant.INDIAN:
                out.append({"type": "drop"})
            return out
        if state.phase is Phase.LAYOFF:
            return [*self._layoffs(state), {"type": "done"}]
        return self._discards(state)

    def _stock_available(self, state: RummyState) -> bool:
        return bool(state.stock) or len(state.pile) > 1

    def _discards(self, state: RummyState) -> list[Action]:
        hand = state.hands[state.turn]
        faces = sorted({face_of(c) for c in hand})
        banned = self._banned_face(state)
        out: list[Action] = [
            {"type": "discard", "card": format_card(f)} for f in faces if f != banned
        ]
        rules = rules_of(state)
        if state.config.variant is Variant.INDIAN:
            decl = self._declaration(hand, rules)
            if decl is not None:
                throw, arr = decl
                out.append(
                    {"type": "declare", "card": format_card(throw), "groups": _spelled_groups(arr)}
                )
        else:
            # Leaving a card out of a hand's best arrangement costs at most its points,
            # so the 11-card deadwood bounds every knock from below: skip hopeless hands.
            floor = deadwood(best_of(tuple(sorted(hand)), rules).leftover, rules)
            points = rules.face_points
            for f in faces:
                if f == banned or floor - points[f] > state.config.knock_limit:
                    continue
                card = _take(hand, f)
                assert card is not None
                rest = tuple(sorted(c for c in hand if c != card))
                arr = best_of(rest, rules)
                if deadwood(arr.leftover, rules) <= state.config.knock_limit:
                    out.append(
                        {"type": "knock", "card": format_card(f), "groups": _spelled_groups(arr)}
                    )
        return out

    def _banned_face(self, state: RummyState) -> int | None:
        # Gin: the card just taken from the discard pile may not be thrown back this turn.
        if state.config.variant is Variant.GIN and state.taken is not None:
            return face_of(state.taken)
        return None

    def _declaration(
        self, hand: Sequence[int], rules: MeldRules
    ) -> tuple[int, Arrangement] | None:
        """A valid declaration of a 14-card hand: (card to discard, the 13 grouped)."""
        whole = best_of(tuple(sorted(hand)), rules)
        if not declaration_ok(whole, rules):
            return None
        candidates = list(whole.leftover) or sorted(hand)
        for card in candidates:
            rest = tuple(sorted(c for c in hand if c != card))
            arr = best_of(rest, rules)
            if declaration_ok(arr, rules) and not arr.leftover:
                return card, arr
        return None

    def _layoffs(self, state: RummyState) -> list[Action]:
        rules = rules_of(state)
        hand = state.hands[state.turn]
        out: list[Action] = []
        for f in sorted({face_of(c) for c in hand}):
            card = _take(hand, f)
            assert card is not None
            for i, meld in enumerate(state.table):
                m = read_meld(meld, rules)
                if m is not None and lay_off(m, card, rules) is not None:
                    out.append({"type": "layoff", "card": format_card(f), "meld": i})
        return out

    # --- validation --------------------------------------------------------------

    def validate(self, state: RummyState, seat: int, action: Action) -> Action:
        return self._check(state, seat, action)[0]

    def _check(self, state: RummyState, seat: int, action: Action) -> tuple[Action, Any]:
        """The canonical action and what it resolved to, or IllegalAction."""
        if state.phase is Phase.OVER:
            raise IllegalAction("game_over", "the match is over")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", f"seat {self.to_act(state)[0]} is to act")
        kind = action.get("type")
        indian = state.config.variant is Variant.INDIAN
        if state.phase is Phase.DEAL_OVER:
            if kind != "next_deal":
                raise IllegalAction("bad_action", 'the deal is over: {"type": "next_deal"}')
            return {"type": "next_deal"}, None
        if state.phase is Phase.DRAW:
            if kind == "drop" and indian:
                return {"type": "drop"}, None
            if kind != "draw":
                what = "draw or drop" if indian else "draw"
                raise IllegalAction("bad_action", f"you must {what} now")
            source = action.get("from")
            if source not in ("stock", "discard"):
                raise IllegalAction("bad_action", 'draw "from" must be "stock" or "discard"')
            if source == "stock" and not self._stock_available(state):
                raise IllegalAction("empty_stock", "the stock is empty")
            return {"type": "draw", "from": source}, None
        hand = state.hands[seat]
        if state.phase is Phase.LAYOFF:
            return self._check_layoff(state, hand, kind, action)
        # DISCARD
        finishing = "declare" if indian else "knock"
        if kind not in ("discard", finishing):
            raise IllegalAction("bad_action", f"you must discard or {finishing} now")
        f = _face(action)
        card = _take(hand, f)
        if card is None:
            raise IllegalAction("not_in_hand", "that card is not in your hand")
        if f == self._banned_face(state):
            raise IllegalAction(
                "just_taken", "you may not discard the card you took from the pile this turn"
            )
        canonical: dict[str, Any] = {"type": kind, "card": format_card(card)}
        if kind == "discard":
            return canonical, card
        rules = rules_of(state)
        rest = [c for c in hand if c != card]
        if "groups" in action:
            groups = _groups_ids(hand, action["groups"], [card])
        else:
            groups = [_meld_cards(m) for m in best_of(tuple(sorted(rest)), rules).melds]
        canonical["groups"] = [_spell(g) for g in groups]
        melds = [read_meld(g, rules) for g in groups]
        used = {c for g in groups for c in g}
        leftover = tuple(c for c in rest if c not in used)
        if indian:
            # Any show is allowed; a wrong one is the declarer's 80-point penalty.
            valid = None not in melds and declaration_ok(
                Arrangement(tuple(m for m in melds if m is not None), leftover), rules
            )
            return canonical, (card, valid)
        if None in melds:
            raise IllegalAction("not_a_meld", "a group you knocked with is not a meld")
        if deadwood(leftover, rules) > state.config.knock_limit:
            raise IllegalAction(
                "knock_too_high",
                f"you may knock with at most {state.config.knock_limit} points of deadwood",
            )
        return canonical, (card, tuple(groups), leftover)

    def _check_layoff(
        self, state: RummyState, hand: Sequence[int], kind: Any, action: Action
    ) -> tuple[Action, Any]:
        if kind == "done":
            return {"type": "done"}, None
        if kind != "layoff":
            raise IllegalAction("bad_action", "lay off a card or say done")
        f = _face(action)
        card = _take(hand, f)
        if card is None:
            raise IllegalAction("not_in_hand", "that card is not in your hand")
        index = action.get("meld")
        if not isinstance(index, int) or isinstance(index, bool) or not (
            0 <= index < len(state.table)
        ):
            raise IllegalAction("bad_meld", "meld must be the index of one of the knocker's melds")
        rules = rules_of(state)
        meld = read_meld(state.table[index], rules)
        if meld is None or lay_off(meld, card, rules) is None:
            raise IllegalAction("does_not_fit", "that card does not fit that meld")
        return {"type": "layoff", "card": format_card(card), "meld": index}, (card, index)

    # --- transitions -------------------------------------------------------------

    def apply(self, state: RummyState, seat: int, action: Action) -> tuple[RummyState, list[Event]]:
        canonical, arg = self._check(state, seat, action)
        kind = canonical["type"]
        if kind == "next_deal":
            return self._next_deal(state)
        if kind == "draw":
            return self._draw(state, seat, canonical["from"])
        if kind == "drop":
            return self._drop(state, seat)
        if kind == "discard":
            return self._discard(state, seat, arg)
        if kind == "declare":
            return self._declare(state, seat, canonical, *arg)
        if kind == "knock":
            return self._knock(state, seat, canonical, *arg)
        if kind == "layoff":
            card, index = arg
            table = list(state.table)
            table[index] = _sorted((*table[index], card))
            hands = list(state.hands)
            hands[seat] = tuple(c for c in hands[seat] if c != card)
            after = _replace(state, hands=tuple(hands), table=tuple(table))
            data = {"seat": seat, "card": format_card(card), "meld": index}
            return after, [Event("layoff", data)]
        assert kind == "done"
        return self._score_knock(state)

    def _draw(self, state: RummyState, seat: int, source: str) -> tuple[RummyState, list[Event]]:
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
        hands[seat] = _sorted((*hands[seat], card))
        drawn = list(state.drawn)
        drawn[seat] = True
        after = _replace(
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

    def _discard(self, state: RummyState, seat: int, card: int) -> tuple[RummyState, list[Event]]:
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        known = list(state.known)
        known[seat] = tuple(c for c in known[seat] if c != card)
        after = _replace(
            state,
            hands=tuple(hands),
            pile=(*state.pile, card),
            known=tuple(known),
            taken=None,
            phase=Phase.DRAW,
            turn=_next_seat(state, seat, state.out),
        )
        events = [Event("discard", {"seat": seat, "card": format_card(card)})]
        if state.config.variant is Variant.GIN and len(after.stock) <= GIN_VOID_STOCK:
            return self._end_deal(after, DealOutcome("void", None, (0, 0)), events)
        if (
            state.config.variant is Variant.INDIAN
            and not after.stock
            and len(after.pile) <= 1
        ):
            # Nothing left to draw from (cannot happen with two decks and six seats,
            # kept so the deal always ends): nobody is charged beyond drops.
            return self._end_deal(after, DealOutcome("void", None, after.charges), events)
        return after, events

    def _drop(self, state: RummyState, seat: int) -> tuple[RummyState, list[Event]]:
        cfg = state.config
        penalty = cfg.middle_drop if state.drawn[seat] else cfg.first_drop
        charges = list(state.charges)
        charges[seat] += penalty
        out = list(state.out)
        out[seat] = True
        after = _replace(
            state,
            charges=tuple(charges),
            out=tuple(out),
            turn=_next_seat(state, seat, out),
        )
        events = [Event("drop", {"seat": seat, "points": penalty})]
        live = [s for s in range(state.seats) if not out[s]]
        if len(live) == 1:
            return self._end_deal(after, DealOutcome("drops", live[0], after.charges), events)
        return after, events

    def _declare(
        self, state: RummyState, seat: int, canonical: Action, card: int, valid: bool
    ) -> tuple[RummyState, list[Event]]:
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        after = _replace(state, hands=tuple(hands), pile=(*state.pile, card), taken=None)
        charges = list(state.charges)
        rules = rules_of(state)
        if valid:
            for s in range(state.seats):
                if s != seat and not state.out[s]:
                    charges[s] += indian_charge(hands[s], rules)
            outcome = DealOutcome("declare", seat, tuple(charges))
        else:
            charges[seat] += state.config.wrong_declaration
            outcome = DealOutcome("wrong_declaration", None, tuple(charges))
        events = [
            Event(
                "declare",
                {"seat": seat, "card": canonical["card"], "groups": canonical["groups"],
                 "valid": valid},
            )
        ]
        return self._end_deal(after, outcome, events)

    def _knock(
        self,
        state: RummyState,
        seat: int,
        canonical: Action,
        card: int,
        groups: tuple[tuple[int, ...], ...],
        leftover: tuple[int, ...],
    ) -> tuple[RummyState, list[Event]]:
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        dead = deadwood(leftover, rules_of(state))
        after = _replace(
            state,
            hands=tuple(hands),
            pile=(*state.pile, card),
            taken=None,
            knocker=seat,
            table=tuple(_sorted(g) for g in groups),
            knocker_deadwood=dead,
            phase=Phase.LAYOFF,
            turn=1 - seat,
        )
        events = [
            Event(
                "knock",
                {"seat": seat, "card": canonical["card"], "groups": canonical["groups"],
                 "deadwood": _spell(leftover), "points": dead, "gin": dead == 0},
            )
        ]
        if dead == 0:  # gin: no lay-offs
            after, more = self._score_knock(after)
            events += more
        return after, events

    def _score_knock(self, state: RummyState) -> tuple[RummyState, list[Event]]:
        defender = 1 - state.knocker
        defender_dw = gin_deadwood(state.hands[defender], rules_of(state))
        how, winner, won = gin_deal(
            state.knocker, state.knocker_deadwood, defender_dw, state.config
        )
        points = [0, 0]
        points[winner] = won
        outcome = DealOutcome(how, winner, (points[0], points[1]))
        return self._end_deal(state, outcome, [])

    def _end_deal(
        self, state: RummyState, outcome: DealOutcome, events: list[Event]
    ) -> tuple[RummyState, list[Event]]:
        cfg = state.config
        points = tuple(p + d for p, d in zip(state.points, outcome.points, strict=True))
        eliminated = state.eliminated
        boxes = state.boxes
        if cfg.variant is Variant.INDIAN:
            over = cfg.pool is Pool.SINGLE
            if not over:
                eliminated = tuple(
                    e or p >= cfg.pool for e, p in zip(eliminated, points, strict=True)
                )
                over = sum(not e for e in eliminated) <= 1
        else:
            if outcome.winner is not None:
                boxes = tuple(b + (s == outcome.winner) for s, b in enumerate(boxes))
            over = cfg.target == 0 or max(points) >= cfg.target
        after = _replace(
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
                 "totals": list(points), "hands": [_spell(h) for h in state.hands]},
            ),
        ]
        if over:
            res = self.result(after)
            assert res is not None
            events.append(Event("game_over", res.to_json()))
        return after, events

    def _next_deal(self, state: RummyState) -> tuple[RummyState, list[Event]]:
        nxt = _deal(
            state.config,
            state.seed,
            state.deal_no + 1,
            self._next_dealer(state),
            state.points,
            state.eliminated,
            state.boxes,
            state.last,
        )
        return nxt, _deal_events(nxt)

    # --- views -------------------------------------------------------------------

    def view(self, state: RummyState, viewer: int) -> JSON:
        cfg = state.config
        rules = rules_of(state)
        out: JSON = {
            "game": self.name,
            "variant": cfg.variant.value,
            "deal": state.deal_no + 1,
            "dealer": state.dealer,
            "phase": state.phase.value,
            "turn": state.turn,
            "to_act": list(self.to_act(state)),
            "hand_sizes": [len(h) for h in state.hands],
            "stock_size": len(state.stock),
            "pile": _spell(state.pile),
            "taken": format_card(state.taken) if state.taken is not None else None,
            "known": [_spell(k) for k in state.known],
            "points": list(state.points),
            "over": state.over,
        }
        if cfg.variant is Variant.INDIAN:
            assert state.wild_card is not None
            out.update(
                wild_card=format_card(state.wild_card),
                wild_rank=rules.wild_rank,
                pool=int(cfg.pool),
                drawn=list(state.drawn),
                out=list(state.out),
                eliminated=list(state.eliminated),
                charges=list(state.charges),
            )
        else:
            out.update(
                knock_limit=cfg.knock_limit,
                target=cfg.target,
                boxes=list(state.boxes),
                knocker=state.knocker,
                table=[_spell(m) for m in state.table],
                knocker_deadwood=state.knocker_deadwood,
            )
            if state.phase is Phase.LAYOFF:
                out["knocker_hand"] = _spell(state.hands[state.knocker])
        if state.last is not None:
            out["last_deal"] = {
                "how": state.last.how,
                "winner": state.last.winner,
                "points": list(state.last.points),
            }
        if viewer == OMNISCIENT or state.phase in (Phase.DEAL_OVER, Phase.OVER):
            out["hands"] = [_spell(h) for h in state.hands]
            out["arrangements"] = [arrangement_json(h, rules) for h in state.hands]
        if 0 <= viewer < state.seats:
            out["hand"] = _spell(state.hands[viewer])
            out["arrangement"] = arrangement_json(state.hands[viewer], rules)
        res = self.result(state)
        if res is not None:
            out["result"] = res.to_json()
        return out

    def secrets(self, state: RummyState, viewer: int) -> frozenset[int]:
        if viewer == OMNISCIENT or state.phase in (Phase.DEAL_OVER, Phase.OVER):
            return frozenset()
        hidden = {face_of(c) for c in state.stock}
        for s, hand in enumerate(state.hands):
            if s == viewer or (state.phase is Phase.LAYOFF and s == state.knocker):
                continue
            hidden.update(face_of(c) for c in hand if c not in state.known[s])
        # Faces anyone can see are not secret, and with two decks neither is a face
        # the viewer holds itself.
        public = [*state.pile, *(c for k in state.known for c in k)]
        public += [c for m in state.table for c in m]
        if state.wild_card is not None:
            public.append(state.wild_card)
        if 0 <= viewer < state.seats:
            public += state.hands[viewer]
        hidden.difference_update(face_of(c) for c in public)
        return frozenset(hidden)

    def result(self, state: RummyState) -> Result | None:
        if not state.over:
            return None
        cfg = state.config
        # Summaries number seats from 1, as the table screens show them to people.
        if cfg.variant is Variant.INDIAN:
            scores = tuple(float(-p) for p in state.points)
            if cfg.pool is Pool.SINGLE:
                winner = state.last.winner if state.last else None
                who = f"Seat {winner + 1} wins the deal" if winner is not None else "no winner"
                return Result(scores, f"{who}; points {list(state.points)}")
            alive = [s for s in range(state.seats) if not state.eliminated[s]]
            return Result(scores, f"Seat {alive[0] + 1} wins the pool; points {list(state.points)}")
        if cfg.target == 0:
            scores = tuple(float(p) for p in state.points)
            last = state.last
            if last is None or last.winner is None:
                return Result(scores, "void deal")
            return Result(scores, f"Seat {last.winner + 1} wins {max(last.points)} ({last.how})")
        totals = gin_totals(state.points, state.boxes, cfg)
        winner = max(range(2), key=lambda s: state.points[s])
        return Result(
            tuple(float(t) for t in totals),
            f"Seat {winner + 1} wins the match {totals[0]}-{totals[1]}",
        )

    def encode(self, state: RummyState) -> JSON:
        last = state.last
        return {
            "config": self.config_json(state.config),
            "seed": state.seed,
            "deal_no": state.deal_no,
            "dealer": state.dealer,
            "phase": state.phase.value,
            "turn": state.turn,
            "hands": [list(h) for h in state.hands],
            "stock": list(state.stock),
            "pile": list(state.pile),
            "wild_card": state.wild_card,
            "taken": state.taken,
            "drawn": list(state.drawn),
            "out": list(state.out),
            "known": [list(k) for k in state.known],
            "reshuffles": state.reshuffles,
            "charges": list(state.charges),
            "points": list(state.points),
            "eliminated": list(state.eliminated),
            "boxes": list(state.boxes),
            "knocker": state.knocker,
            "table": [list(m) for m in state.table],
            "knocker_deadwood": state.knocker_deadwood,
            "last": None if last is None else [last.how, last.winner, list(last.points)],
            "over": state.over,
        }
