"""Tractor (Sheng Ji) as a :class:`engine.game.Game`: a match of rounds.

The draw is modelled like rbtying/shengji: the seat to draw acts with
``draw``, and every seat that could declare trump now is also to act, with
``declare`` or ``pass`` (a pass declines the declarations the seat could make
at that moment; it is asked again only when a new one becomes possible).  When
the stock is down to the kitty, seats that can still declare get a last word;
then the last declaration fixes trump, the landlord picks up the kitty and
buries as many cards, and 25 tricks are played.  The kitty is seen by the
landlord alone until the round ends; ``secrets`` says so to the leak scanner.

Actions (JSON):

* ``{"type": "draw"}``
* ``{"type": "declare", "cards": ["2H"]}`` (a pair: ``["2H", "2H"]``; no trump:
  ``["SJ", "SJ"]`` or ``["BJ", "BJ"]``)
* ``{"type": "pass"}``
* ``{"type": "bury", "cards": [8 cards]}`` (the kitty's size)
* ``{"type": "call", "calls": [{"card": "AS", "nth": 1}, ...]}`` (Finding Friends)
* ``{"type": "play", "cards": [...]}`` (a lead of several units is a throw)
* ``{"type": "takeback"}`` / ``{"type": "confirm"}`` (option ``takeback_allowed``:
  the last player withdraws, or keeps, a play the next player has not answered)
* ``{"type": "next_round"}``

Finding Friends (``finding_friends``, 5-8 seats) deals ``config.decks`` decks
with a ``config.kitty_size`` kitty, adds a ``call`` phase after the burial and
keeps sides dynamic (``rules/tractor/friends.py``); docs/tractor.md has the
conventions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from engine.cards import (
    FACES_PER_DECK,
    RANKS,
    SMALL_JOKER,
    SUITS,
    CardParseError,
    deck,
    format_card,
    parse_face,
)
from engine.errors import IllegalAction
from engine.events import JSON, OMNISCIENT, SPECTATOR, Event, only
from engine.game import Action, Game, Result
from engine.rng import Rng
from rules.tractor.declarations import declaration_options, kitty_trump_suit, undeclined
from rules.tractor.friends import call_choices, calls_json, parse_calls, reveal
from rules.tractor.options import NoDeclarationPolicy, TractorConfig
from rules.tractor.order import Trump, tables
from rules.tractor.presentation import TractorPresentation
from rules.tractor.scoring import (
    advance,
    kitty_bonus,
    kitty_multiplier,
    level_change,
    next_landlord,
    next_landlord_friends,
    penalised,
    points,
)
from rules.tractor.state import (
    Declaration,
    Phase,
    Play,
    RoundResult,
    Takeback,
    TractorState,
    team,
)
from rules.tractor.structure import (
    Structure,
    a_legal_follow,
    check_follow,
    check_lead,
    get_structure,
)
from rules.tractor.throws import resolve_throw
from rules.tractor.tricks import trick_winner

TEAM_NAMES = ("seats 0 and 2", "seats 1 and 3")


# ----------------------------------------------------------------------------
# Small helpers


def _order_key(trump: Trump) -> Any:
    t = tables(trump)
    return lambda c: (t.suit[c % FACES_PER_DECK], t.phi[c % FACES_PER_DECK], c)


def sort_hand(cards: Sequence[int], trump: Trump) -> tuple[int, ...]:
    """A hand in display order: natural suits, then trumps, low to high."""
    return tuple(sorted(cards, key=_order_key(trump)))


_SPELLING = tuple(format_card(c) for c in range(3 * FACES_PER_DECK))  # up to 3 decks


def _cards(cards: Sequence[int]) -> list[str]:
    return [_SPELLING[c] for c in cards]


def _display_trump(state: TractorState) -> Trump:
    """The trump to sort and compare by (no trump while the draw is on)."""
    return state.trump if state.trump is not None else Trump(state.rank, None)


def _take(hand: Sequence[int], faces: Sequence[int]) -> tuple[int, ...] | None:
    """Card ids of ``hand`` printing ``faces`` (a face twice takes both copies)."""
    left = list(hand)
    out: list[int] = []
    for f in faces:
        c = next((c for c in left if c % FACES_PER_DECK == f), None)
        if c is None:
            return None
        left.remove(c)
        out.append(c)
    return tuple(out)


def _parse_cards(action: Mapping[str, Any]) -> list[int]:
    raw = action.get("cards")
    if isinstance(raw, str):
        raw = raw.replace(",", " ").split()
    if not isinstance(raw, list | tuple) or not all(isinstance(x, str) for x in raw):
        raise IllegalAction("bad_action", 'expected "cards": a list of cards')
    try:
        return [parse_face(x) for x in raw]
    except CardParseError as exc:
        raise IllegalAction("bad_card", str(exc)) from None


# ----------------------------------------------------------------------------
# Rounds


def _round(
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
    # Each round (and each redeal) has its own stream: it depends only on (seed, number).
    stock = tuple(Rng(seed).fork(round_no).shuffled(deck(config.decks, jokers=True)))
    n = config.seats
    friends = config.finding_friends
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
        # Finding Friends counts failed throws and trick points per seat: a
        # seat's side is only known at the end of the round.
        failed_throws=(0,) * n if friends else (0, 0),
        seat_points=(0,) * n if friends else (),
    )


def _round_events(state: TractorState) -> list[Event]:
    return [
        Event(
            "deal",
            {
                "round": state.rounds_played + 1,
                "landlord": state.landlord,
                "starter": state.starter,
                "rank": RANKS[state.rank],
                "levels": [RANKS[v] for v in state.levels],
            },
        )
    ]


class _Memo:
    """The last few results of a function of a state, by identity.

    A server or test asks ``to_act`` and ``secrets`` of one state many times
    in a row (every view, validation and scan); states are immutable, so the
    answer for the same object never changes.  Holding the state itself keeps
    ``id`` from being reused while the entry lives.
    """

    def __init__(self, size: int = 16) -> None:
        self.size = size
        self.entries: dict[tuple[int, int], tuple[TractorState, Any]] = {}

    def get(self, state: TractorState, arg: int, compute: Any) -> Any:
        key = (id(state), arg)
        hit = self.entries.get(key)
        if hit is not None and hit[0] is state:
            return hit[1]
        value = compute()
        if len(self.entries) >= self.size:
            self.entries.pop(next(iter(self.entries)))
        self.entries[key] = (state, value)
        return value


_TO_ACT = _Memo(8)
_FACES = _Memo(8)
_PUBLIC_VIEW = _Memo(8)
_SECRETS = _Memo(32)


def _face_sets(
    state: TractorState,
) -> tuple[list[set[int]], set[int], set[int], set[int]]:
    """Faces per hand, in the stock, in the kitty, and shown to everyone this round."""
    seats = [{c % FACES_PER_DECK for c in h} for h in state.hands]
    public = {d.face for d in state.declarations}
    # Called faces are named to everyone (the call does not say who holds
    # them), and so are cards played and then taken back.
    public.update(c.face for c in state.calls)
    public.update(c % FACES_PER_DECK for c in state.retracted)
    public.update(c % FACES_PER_DECK for c in state.kitty_revealed)
    public.update(c % FACES_PER_DECK for c in state.played)
    public.update(c % FACES_PER_DECK for p in state.trick for c in p.cards)
    return (seats, {c % FACES_PER_DECK for c in state.stock},
            {c % FACES_PER_DECK for c in state.kitty}, public)


def _drawing(state: TractorState) -> bool:
    return state.phase is Phase.DRAW and state.stock_left > 0


class TractorGame(Game[TractorState, TractorConfig]):
    name: ClassVar[str] = "tractor"
    title: ClassVar[str] = "Tractor (Sheng Ji)"
    config_model = TractorConfig
    presentation = TractorPresentation()

    def seat_count(self, config: TractorConfig) -> int:
        return config.seats

    def new(self, config: TractorConfig, seed: int) -> TractorState:
        return _round(config, seed, 0, levels=(0,) * config.seats, landlord=None, starter=0,
                      rounds_played=0, results=())

    def initial_events(self, state: TractorState) -> list[Event]:
        return _round_events(state)

    # whose turn

    def to_act(self, state: TractorState) -> tuple[int, ...]:
        """During the draw: the drawer and every seat with a declaration it has not
        passed on; then the landlord (burial), the seat to play, the next landlord."""
        if state.phase is Phase.DRAW:
            return _TO_ACT.get(state, 0, lambda: self._drawing_seats(state))
        return self._to_act(state)

    def to_act_visible(self, state: TractorState, viewer: int) -> tuple[int, ...]:
        """During the draw, who else could declare is their secret: each viewer
        sees the drawer, and itself if it may declare."""
        acting = self.to_act(state)
        if state.phase is not Phase.DRAW:
            return acting
        shown = {viewer} if viewer in acting else set()
        if _drawing(state):
            shown.add(state.drawer)
        return tuple(sorted(shown))

    def _drawing_seats(self, state: TractorState) -> tuple[int, ...]:
        active = {s for s in range(state.seats) if undeclined(state, s)}
        if _drawing(state):
            active.add(state.drawer)
        return tuple(sorted(active))

    def _to_act(self, state: TractorState) -> tuple[int, ...]:
        if state.phase in (Phase.BURY, Phase.CALL):
            assert state.landlord is not None
            return (state.landlord,)
        if state.phase is Phase.PLAY:
            if state.takeback is not None:
                # The next seat may play, or the last one take its play back.
                return tuple(sorted((state.to_move, state.takeback.seat)))
            return (state.to_move,)
        if state.phase is Phase.ROUND_OVER:
            return (state.results[-1].next_landlord,)
        return ()

    # legality

    def legal(self, state: TractorState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase is Phase.DRAW:
            decls: list[Action] = [
                {"type": "declare", "cards": [_face_str(f)] * n}
                for f, n in declaration_options(state, seat)
            ]
            if _drawing(state) and seat == state.drawer:
                return [{"type": "draw"}, *decls]
            return [*decls, {"type": "pass"}]
        if state.phase is Phase.BURY:
            return [{"type": "bury", "cards": _cards(c)} for c in self._bury_choices(state)]
        if state.phase is Phase.CALL:
            assert state.trump is not None
            choices = call_choices(state.hands[seat], state.trump, state.config.friend_calls,
                                   state.config.decks, self._rng(state))
            return [{"type": "call", "calls": calls_json(c)} for c in choices]
        if state.takeback is not None and seat == state.takeback.seat:
            # confirm first: a client or bot falling back on legal[0] keeps its play.
            return [{"type": "confirm"}, {"type": "takeback"}]
        if state.phase is Phase.PLAY:
            return [{"type": "play", "cards": _cards(c)} for c in self._play_choices(state, seat)]
        return [{"type": "next_round"}]

    def _rng(self, state: TractorState) -> Rng:
        """A stream for sampling representative actions, fixed by the position."""
        return Rng(state.seed).fork(state.round_no * 4096 + len(state.played)
                                    + 128 * len(state.trick))

    def _bury_choices(self, state: TractorState) -> list[tuple[int, ...]]:
        assert state.landlord is not None and state.trump is not None
        hand = state.hands[state.landlord]
        t = tables(state.trump)
        plain = sorted(hand, key=lambda c: (t.suit[c % FACES_PER_DECK] == 4,
                                            points([c]) > 0, t.phi[c % FACES_PER_DECK], c))
        rng = self._rng(state)
        n = state.config.kitty_size
        choices = [tuple(plain[:n])] + [tuple(rng.shuffled(hand)[:n]) for _ in range(3)]
        return list(dict.fromkeys(tuple(sorted(c)) for c in choices))

    def _play_choices(self, state: TractorState, seat: int) -> list[tuple[int, ...]]:
        assert state.trump is not None
        hand = state.hands[seat]
        trump = state.trump
        t = tables(trump)
        if not state.trick:
            return lead_choices(hand, trump)
        lead = self._lead(state)
        if lead.template.cards == 1:
            in_suit = [c for c in hand if t.suit[c % FACES_PER_DECK] == lead.suit] or list(hand)
            return list(dict.fromkeys((c,) for c in _distinct(in_suit)))
        rng = self._rng(state)
        out = [a_legal_follow(lead, hand, trump)]
        out += [a_legal_follow(lead, hand, trump, rng) for _ in range(3)]
        return list(dict.fromkeys(tuple(sorted(p)) for p in out))

    def _lead(self, state: TractorState) -> Structure:
        assert state.trump is not None
        return get_structure(state.trick[0].cards, state.trump)

    def validate(self, state: TractorState, seat: int, action: Action) -> Action:
        return self._check(state, seat, action)[0]

    def _check(
        self, state: TractorState, seat: int, action: Action
    ) -> tuple[Action, tuple[int, ...]]:
        """The canonical action and the card ids it names, or IllegalAction."""
        if state.phase is Phase.OVER:
            raise IllegalAction("game_over", "the match is over")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", "it is not your turn")
        kind = action.get("type")
        if state.phase is Phase.DRAW:
            return self._check_draw(state, seat, kind, action)
        if state.phase is Phase.ROUND_OVER:
            if kind != "next_round":
                raise IllegalAction("bad_action", 'the round is over: {"type": "next_round"}')
            return {"type": "next_round"}, ()
        assert state.trump is not None
        if state.phase is Phase.CALL:
            if kind != "call":
                raise IllegalAction("bad_action", 'expected {"type": "call", "calls": [...]}')
            calls = parse_calls(action, state.trump, state.config.friend_calls,
                                state.config.decks)
            return {"type": "call", "calls": calls_json(calls)}, ()
        if kind in ("takeback", "confirm"):
            if state.takeback is None or seat != state.takeback.seat:
                raise IllegalAction("nothing_to_take_back",
                                    "only the last player may take back or confirm a play, "
                                    "before the next player acts")
            return {"type": kind}, ()
        if state.takeback is not None and seat == state.takeback.seat:
            raise IllegalAction("bad_action", 'take your play back or keep it: '
                                '{"type": "takeback"} or {"type": "confirm"}')
        expected = "bury" if state.phase is Phase.BURY else "play"
        if kind != expected:
            raise IllegalAction("bad_action", f'expected {{"type": "{expected}", "cards": [...]}}')
        hand = state.hands[seat]
        cards = _take(hand, _parse_cards(action))
        if cards is None:
            raise IllegalAction("not_in_hand", "you can only use cards from your hand")
        if state.phase is Phase.BURY:
            if len(cards) != state.config.kitty_size:
                raise IllegalAction("wrong_count",
                                    f"bury exactly {state.config.kitty_size} cards")
        elif not state.trick:
            check_lead(cards, state.trump)
        else:
            check_follow(self._lead(state), hand, cards, state.trump)
        chosen = set(cards)
        canonical = [c for c in hand if c in chosen]
        return {"type": expected, "cards": _cards(canonical)}, tuple(canonical)

    def _check_draw(
        self, state: TractorState, seat: int, kind: Any, action: Action
    ) -> tuple[Action, tuple[int, ...]]:
        if kind == "draw":
            if not _drawing(state) or seat != state.drawer:
                raise IllegalAction("not_your_turn", "it is not your turn to draw")
            return {"type": "draw"}, ()
        if kind == "pass":
            if not undeclined(state, seat):
                raise IllegalAction("nothing_to_pass", "you have no declaration to pass on")
            return {"type": "pass"}, ()
        if kind != "declare":
            raise IllegalAction("bad_action", "during the draw: draw, declare or pass")
        faces = _parse_cards(action)
        if not faces or len(faces) > 2 or len(set(faces)) != 1:
            raise IllegalAction("bad_declaration", "declare one rank card or a pair of one card")
        f, n = faces[0], len(faces)
        options = declaration_options(state, seat)
        if (f, n) not in options:
            held = _take(state.hands[seat], faces) is not None
            if not held:
                raise IllegalAction("not_in_hand", "you can only show cards from your hand")
            raise IllegalAction(
                "weak_declaration",
                "a declaration must be a rank card and override the current one "
                "(single < pair < small-joker pair < big-joker pair)",
            )
        cards = _take(state.hands[seat], faces)
        assert cards is not None
        return {"type": "declare", "cards": [_face_str(f)] * n}, cards

    # transitions

    def apply(
        self, state: TractorState, seat: int, action: Action
    ) -> tuple[TractorState, list[Event]]:
        canonical, cards = self._check(state, seat, action)
        kind = canonical["type"]
        if kind == "takeback":
            return self._take_back(state)
        if state.takeback is not None:
            # Any other action closes the window: the next play, or a confirm.
            state = replace(state, takeback=None)
            if kind == "confirm":
                return state, [Event("confirm", {"seat": seat})]
        if kind == "call":
            return self._call(state, canonical)
        if kind == "draw":
            return self._draw(state)
        if kind == "declare":
            return self._declare(state, seat, cards)
        if kind == "pass":
            declined = list(state.declined)
            declined[seat] = declined[seat] | frozenset(declaration_options(state, seat))
            after = replace(state, declined=tuple(declined))
            return self._maybe_close(after, [Event("pass", {"seat": seat})])
        if kind == "bury":
            return self._bury(state, seat, cards)
        if kind == "play":
            return self._play(state, seat, cards)
        return self._next_round(state)

    def _draw(self, state: TractorState) -> tuple[TractorState, list[Event]]:
        seat = state.drawer
        card = state.stock[0]
        hands = list(state.hands)
        hands[seat] = sort_hand((*hands[seat], card), _display_trump(state))
        after = replace(state, stock=state.stock[1:], hands=tuple(hands),
                        drawer=(seat + 1) % state.seats)
        events = [
            Event("draw", {"seat": seat, "left": after.stock_left}),
            Event("drawn", {"seat": seat, "card": format_card(card)}, only(seat)),
        ]
        return self._maybe_close(after, events)

    def _declare(
        self, state: TractorState, seat: int, cards: tuple[int, ...]
    ) -> tuple[TractorState, list[Event]]:
        f = cards[0] % FACES_PER_DECK
        after = replace(state, declarations=(*state.declarations,
                                              Declaration(seat, f, len(cards))))
        suit = "NT" if f >= SMALL_JOKER else SUITS[f // 13]
        events = [Event("declare", {"seat": seat, "cards": _cards(cards), "suit": suit})]
        return self._maybe_close(after, events)

    def _maybe_close(
        self, state: TractorState, events: list[Event]
    ) -> tuple[TractorState, list[Event]]:
        """End the draw once the stock is down to the kitty and nobody can still declare."""
        if _drawing(state) or any(undeclined(state, s) for s in range(state.seats)):
            return state, events
        return self._fix_trump(state, events)

    def _fix_trump(
        self, state: TractorState, events: list[Event]
    ) -> tuple[TractorState, list[Event]]:
        kitty = state.stock
        cur = state.current
        revealed: tuple[int, ...] = ()
        if cur is not None:
            suit = None if cur.face >= SMALL_JOKER else cur.face // 13
            landlord = state.landlord if state.landlord is not None else cur.seat
        elif state.config.no_declaration is NoDeclarationPolicy.REDEAL:
            # The hands are thrown in unseen: the card just drawn (it could not
            # declare, or the draw would still be open) is not shown either.
            events = [e for e in events if e.kind != "drawn"]
            events.append(Event("redeal", {"reason": "nobody declared"}))
            nxt = _round(state.config, state.seed, state.round_no + 1, levels=state.levels,
                         landlord=state.landlord, starter=state.starter,
                         rounds_played=state.rounds_played, results=state.results)
            return nxt, events + _round_events(nxt)
        else:
            suit = kitty_trump_suit(kitty, state.rank)
            landlord = state.landlord if state.landlord is not None else state.starter
            revealed = kitty
            events.append(Event("kitty_revealed", {"cards": _cards(kitty),
                                                   "suit": SUITS[suit]}))
        trump = Trump(state.rank, suit)
        hands = list(state.hands)
        hands[landlord] = (*hands[landlord], *kitty)
        hands = [sort_hand(h, trump) for h in hands]
        events.append(Event("trump", {
            "landlord": landlord,
            "rank": RANKS[trump.rank],
            "suit": SUITS[suit] if suit is not None else "NT",
        }))
        events.append(Event("kitty", {"seat": landlord, "cards": _cards(kitty)}, only(landlord)))
        after = replace(state, stock=(), hands=tuple(hands), trump=trump, landlord=landlord,
                        phase=Phase.BURY, kitty=(), kitty_revealed=revealed, leader=landlord)
        return after, events

    def _bury(
        self, state: TractorState, seat: int, cards: tuple[int, ...]
    ) -> tuple[TractorState, list[Event]]:
        hands = list(state.hands)
        buried = set(cards)
        hands[seat] = tuple(c for c in hands[seat] if c not in buried)
        # Finding Friends: the landlord calls after burying, knowing the final hand.
        phase = Phase.CALL if state.config.finding_friends else Phase.PLAY
        after = replace(state, hands=tuple(hands), kitty=cards, phase=phase, leader=seat)
        return after, [Event("buried", {"seat": seat, "count": len(cards)})]

    def _call(
        self, state: TractorState, canonical: Action
    ) -> tuple[TractorState, list[Event]]:
        assert state.trump is not None and state.landlord is not None
        calls = parse_calls(canonical, state.trump, state.config.friend_calls,
                            state.config.decks)
        after = replace(state, calls=calls, called_by=(None,) * len(calls), phase=Phase.PLAY)
        return after, [Event("friends_called", {"seat": state.landlord,
                                                "calls": calls_json(calls)})]

    def _take_back(self, state: TractorState) -> tuple[TractorState, list[Event]]:
        """Undo the last play: the state is the one before it, except that the
        cards stay public (``retracted``) and the window is closed, so a
        takeback never reopens the previous player's window."""
        tb = state.takeback
        assert tb is not None and state.trump is not None
        hands = list(state.hands)
        hands[tb.seat] = sort_hand((*hands[tb.seat], *tb.cards), state.trump)
        after = replace(state, hands=tuple(hands), trick=state.trick[:-1], winning=tb.winning,
                        called_by=tb.called_by, points=tb.points, takeback=None,
                        retracted=(*state.retracted, *tb.cards))
        return after, [Event("takeback", {"seat": tb.seat, "cards": _cards(tb.cards)})]

    def _play(
        self, state: TractorState, seat: int, cards: tuple[int, ...]
    ) -> tuple[TractorState, list[Event]]:
        assert state.trump is not None and state.landlord is not None
        trump = state.trump
        events: list[Event] = []
        failed = state.failed_throws
        friends = state.config.finding_friends
        seats = state.seats
        throw_failed = False
        if not state.trick:
            lead = check_lead(cards, trump)
            others = [state.hands[s] for s in range(seats) if s != seat]
            outcome = resolve_throw(lead, others, trump, state.config.throw_failure_unit)
            if not outcome.stands:
                assert outcome.forced is not None
                forced = outcome.forced.cards
                events.append(Event("throw_failed", {
                    "seat": seat,
                    "attempted": len(cards),
                    "forced": _cards(sort_hand(forced, trump)),
                    "penalty": state.config.throw_failure_penalty,
                }))
                counts = list(failed)
                counts[seat if friends else team(seat)] += 1
                failed = tuple(counts)
                cards = tuple(c for c in cards if c in set(forced))
                throw_failed = True
        hands = list(state.hands)
        gone = set(cards)
        hands[seat] = tuple(c for c in hands[seat] if c not in gone)
        trick = (*state.trick, Play(seat, cards))
        events.append(Event("play", {"seat": seat, "cards": _cards(cards)}))
        called_by = state.called_by
        if friends:
            before = (*state.played, *(c for p in state.trick for c in p.cards))
            called_by = reveal(state.calls, state.called_by, before, seat, cards)
            for i, (was, now) in enumerate(zip(state.called_by, called_by, strict=True)):
                if was is None and now is not None:
                    events.append(Event("friend", {
                        "seat": now, "call": i, "card": _face_str(state.calls[i].face),
                        "nth": state.calls[i].nth, "wasted": now == state.landlord}))
        lead_s = get_structure(trick[0].cards, trump)
        idx = trick_winner(lead_s, [p.cards for p in trick], trump,
                           state.config.trick_comparison)
        winner = trick[idx].seat
        after = replace(state, hands=tuple(hands), trick=trick, failed_throws=failed,
                        winning=winner, called_by=called_by)
        if friends:
            after = replace(after, points=_attacker_points(after))
        if len(trick) < seats:
            if state.config.takeback_allowed and not throw_failed:
                # A failed throw is not taken back: its failure (and penalty) is public.
                after = replace(after, takeback=Takeback(seat, cards, state.winning,
                                                         state.called_by, state.points))
            return after, events
        won = points(c for p in trick for c in p.cards)
        if friends:
            seat_points = list(after.seat_points)
            seat_points[winner] += won
            after = replace(after, seat_points=tuple(seat_points))
            total = _attacker_points(after)
        else:
            attackers = team(winner) != team(state.landlord)
            total = state.points + (won if attackers else 0)
        events.append(Event("trick", {"winner": winner, "points": won,
                                      "attacker_points": total}))
        after = replace(after, trick=(), last_trick=trick, leader=winner, points=total,
                        winning=None,
                        played=(*state.played, *(c for p in trick for c in p.cards)))
        if any(hands):
            return after, events
        return self._end_round(after, winner, lead_s, events)

    def _end_round(
        self, state: TractorState, last_winner: int, last_lead: Structure, events: list[Event]
    ) -> tuple[TractorState, list[Event]]:
        assert state.landlord is not None and state.trump is not None
        config = state.config
        seats = state.seats
        # The sides as they stand now: in Finding Friends every call has been
        # played (or lies in the kitty and stays unanswered).
        landlords = state.landlord_side
        attackers = frozenset(range(seats)) - landlords
        landlord_team = team(state.landlord)
        attack = 1 - landlord_team
        bonus = 0
        multiplier = 0
        if last_winner in attackers:
            multiplier = kitty_multiplier(last_lead.template, config.kitty_multiplier)
            bonus = kitty_bonus(state.kitty, last_lead.template, config.kitty_multiplier)
        if config.finding_friends:
            failed_attack = sum(state.failed_throws[s] for s in attackers)
            failed_land = sum(state.failed_throws[s] for s in landlords)
        else:
            failed_attack = state.failed_throws[attack]
            failed_land = state.failed_throws[landlord_team]
        p = penalised(state.points + bonus, failed_attack, failed_land,
                      config.throw_failure_penalty)
        change = level_change(p, config.decks)
        winners = tuple(sorted(attackers if change.attackers_win else landlords))
        side = attack if change.attackers_win else landlord_team
        levels = list(state.levels)
        passed: list[int] = []
        for s in winners:
            levels[s], over = advance(levels[s], change.levels, config.max_rank_index)
            if over:
                passed.append(s)
        if config.finding_friends:
            nxt = next_landlord_friends(state.landlord, landlords, change.attackers_win, seats)
        else:
            nxt = next_landlord(state.landlord, change.attackers_win)
        result = RoundResult(
            landlord=state.landlord,
            rank=state.trump.rank,
            trump_suit=state.trump.suit,
            attacker_points=p,
            kitty_bonus=bonus,
            attackers_win=change.attackers_win,
            levels=change.levels,
            next_landlord=nxt,
            winners=winners,
        )
        rounds_played = state.rounds_played + 1
        events.append(Event("round_end", {
            "round": rounds_played,
            "kitty": _cards(state.kitty),
            "kitty_points": points(state.kitty),
            "kitty_multiplier": multiplier,
            "kitty_bonus": bonus,
            "trick_points": state.points,
            "failed_throws": list(state.failed_throws),
            "attacker_points": p,
            "attackers_win": change.attackers_win,
            "levels_up": change.levels,
            **({"seats_up": list(winners)} if config.finding_friends else {"team_up": side}),
            "levels": [RANKS[v] for v in levels],
            "next_landlord": nxt,
        }))
        limit = config.rounds and rounds_played >= config.rounds
        after = replace(state, levels=tuple(levels), results=(*state.results, result),
                        rounds_played=rounds_played, phase=Phase.ROUND_OVER)
        if not passed and not limit:
            return after, events
        if config.finding_friends:
            # Whoever passed the maximum rank wins; at the round limit the
            # highest level does (everyone level: a draw).
            top = max(levels)
            champions = tuple(passed) if passed else (
                () if min(levels) == top else tuple(s for s in range(seats) if levels[s] == top))
            final = replace(after, phase=Phase.OVER, champions=champions)
        else:
            if passed:
                winner: int | None = side
            else:
                a, b = levels[0], levels[1]
                winner = None if a == b else (0 if a > b else 1)
            final = replace(after, phase=Phase.OVER, winner=winner)
        res = self.result(final)
        assert res is not None
        events.append(Event("game_over", res.to_json()))
        return final, events

    def _next_round(self, state: TractorState) -> tuple[TractorState, list[Event]]:
        landlord = state.results[-1].next_landlord
        nxt = _round(state.config, state.seed, state.round_no + 1, levels=state.levels,
                     landlord=landlord, starter=landlord, rounds_played=state.rounds_played,
                     results=state.results)
        return nxt, _round_events(nxt)

    # views

    def view(self, state: TractorState, viewer: int) -> JSON:
        # The public part is the same for every viewer: built once per state and
        # shallow-copied (views are read-only JSON; nested lists are shared).
        out: JSON = dict(_PUBLIC_VIEW.get(state, 0, lambda: self._public_view(state)))
        out["to_act"] = list(self.to_act_visible(state, viewer))
        landlord = state.landlord
        shown_kitty = state.phase in (Phase.ROUND_OVER, Phase.OVER) or viewer == OMNISCIENT
        if viewer == OMNISCIENT:
            out["hands"] = [_cards(h) for h in state.hands]
        elif viewer != SPECTATOR and 0 <= viewer < state.seats:
            out["hand"] = _cards(state.hands[viewer])
            shown_kitty = shown_kitty or viewer == landlord
        if shown_kitty and state.phase is not Phase.DRAW:
            out["kitty"] = _cards(state.kitty)
        return out

    def _public_view(self, state: TractorState) -> JSON:
        trump = state.trump
        cur = state.current
        landlord = state.landlord
        out: JSON = {
            "game": self.name,
            "round": state.rounds_played + (0 if state.phase in (Phase.ROUND_OVER, Phase.OVER)
                                            else 1),
            "phase": state.phase.value,
            "levels": [RANKS[v] for v in state.levels],
            "max_rank": state.config.max_rank,
            "rank": RANKS[state.rank],
            "landlord": landlord,
            "trump_suit": None if trump is None else (
                "NT" if trump.suit is None else SUITS[trump.suit]),
            "declarations": [{"seat": d.seat, "cards": [_face_str(d.face)] * d.count}
                             for d in state.declarations],
            "declarer": cur.seat if cur else None,
            "hand_sizes": [len(h) for h in state.hands],
            "results": [
                {"landlord": r.landlord, "rank": RANKS[r.rank],
                 "trump_suit": "NT" if r.trump_suit is None else SUITS[r.trump_suit],
                 "attacker_points": r.attacker_points, "kitty_bonus": r.kitty_bonus,
                 "attackers_win": r.attackers_win, "levels_up": r.levels,
                 "next_landlord": r.next_landlord}
                for r in state.results
            ],
            "over": state.phase is Phase.OVER,
        }
        if state.phase is Phase.DRAW:
            # Only what the draw needs: views are sent (and scanned) on every card.
            out["starter"] = state.starter
            out["stock_left"] = state.stock_left
            out["drawer"] = state.drawer if _drawing(state) else None
        else:
            out.update({
                "kitty_size": len(state.kitty),
                "kitty_revealed": _cards(state.kitty_revealed),
                "leader": state.leader,
                "trick": [{"seat": p.seat, "cards": _cards(p.cards)} for p in state.trick],
                "trick_winner": state.winning,
                "played": _cards(state.played),
                "last_trick": [{"seat": p.seat, "cards": _cards(p.cards)}
                               for p in state.last_trick],
                "points": state.points,
                "failed_throws": list(state.failed_throws),
            })
            if state.config.finding_friends:
                out.update({
                    "decks": state.config.decks,
                    "friend_calls": state.config.friend_calls,
                    "calls": [{**c, "seat": by} for c, by in
                              zip(calls_json(state.calls), state.called_by, strict=True)],
                    "landlord_side": sorted(state.landlord_side),
                    "seat_points": list(state.seat_points),
                })
        if state.config.takeback_allowed:
            out["takeback"] = state.takeback.seat if state.takeback is not None else None
        res = self.result(state)
        if res is not None:
            out["result"] = res.to_json()
        return out

    def secrets(self, state: TractorState, viewer: int) -> frozenset[int]:
        if viewer == OMNISCIENT or state.phase in (Phase.ROUND_OVER, Phase.OVER):
            return frozenset()
        return _SECRETS.get(state, viewer, lambda: self._secrets(state, viewer))

    def _secrets(self, state: TractorState, viewer: int) -> frozenset[int]:
        seats, stock, kitty, public = _FACES.get(state, 0, lambda: _face_sets(state))
        hidden = set(stock)
        for s, faces in enumerate(seats):
            if s != viewer:
                hidden |= faces
        if viewer != state.landlord:
            hidden |= kitty
        # Faces shown to everyone (declared, turned up, played) are not secret,
        # and with two decks neither is a face the viewer holds itself.
        hidden -= public
        if 0 <= viewer < state.seats:
            hidden -= seats[viewer]
            if viewer == state.landlord:
                hidden -= kitty
        return frozenset(hidden)

    def result(self, state: TractorState) -> Result | None:
        if state.phase is not Phase.OVER:
            return None
        if state.config.finding_friends:
            return self._result_friends(state)
        # A seat's score is the levels its side gained over the match (uncapped,
        # so the side that passed the maximum rank scores more than one that
        # only reached it); with ``rounds=1`` that is the level gain of a round.
        gained = [0, 0]
        for r in state.results:
            side = (1 - team(r.landlord)) if r.attackers_win else team(r.landlord)
            gained[side] += r.levels
        scores = tuple(float(gained[team(s)]) for s in range(state.seats))
        levels = ", ".join(f"{TEAM_NAMES[t]} at {RANKS[state.levels[t]]}" for t in (0, 1))
        n = state.rounds_played
        after = f"after {n} round{'s' if n != 1 else ''}"
        if state.winner is None:
            summary = f"drawn {after}: {levels}"
        else:
            summary = f"{TEAM_NAMES[state.winner]} win {after}: {levels}"
        return Result(scores=scores, summary=summary)

    def _result_friends(self, state: TractorState) -> Result:
        # Sides change every round, so each seat scores the levels it gained
        # itself (uncapped, like the classic score).
        gained = [0] * state.seats
        for r in state.results:
            for s in r.winners:
                gained[s] += r.levels
        # Seats numbered from 1, as the table screens name them.
        levels = ", ".join(f"seat {s + 1} at {RANKS[v]}" for s, v in enumerate(state.levels))
        n = state.rounds_played
        after = f"after {n} round{'s' if n != 1 else ''}"
        if not state.champions:
            summary = f"drawn {after}: {levels}"
        else:
            who = ", ".join(str(s + 1) for s in state.champions)
            several = len(state.champions) > 1
            head = f"seats {who} win" if several else f"seat {who} wins"
            summary = f"{head} {after}: {levels}"
        return Result(scores=tuple(float(g) for g in gained), summary=summary)

    def encode(self, state: TractorState) -> JSON:
        trump = state.trump
        return {
            "config": self.config_json(state.config),
            "seed": state.seed,
            "round_no": state.round_no,
            "rounds_played": state.rounds_played,
            "levels": list(state.levels),
            "landlord": state.landlord,
            "starter": state.starter,
            "phase": state.phase.value,
            "stock": list(state.stock),
            "hands": [list(h) for h in state.hands],
            "drawer": state.drawer,
            "declarations": [[d.seat, d.face, d.count] for d in state.declarations],
            "declined": [sorted(map(list, d)) for d in state.declined],
            "trump": None if trump is None else [trump.rank, trump.suit],
            "kitty": list(state.kitty),
            "kitty_revealed": list(state.kitty_revealed),
            "leader": state.leader,
            "trick": [[p.seat, list(p.cards)] for p in state.trick],
            "winning": state.winning,
            "played": list(state.played),
            "last_trick": [[p.seat, list(p.cards)] for p in state.last_trick],
            "points": state.points,
            "failed_throws": list(state.failed_throws),
            "results": [
                [r.landlord, r.rank, r.trump_suit, r.attacker_points, r.kitty_bonus,
                 r.attackers_win, r.levels, r.next_landlord, list(r.winners)]
                for r in state.results
            ],
            "winner": state.winner,
            "calls": [[c.face, c.nth] for c in state.calls],
            "called_by": list(state.called_by),
            "seat_points": list(state.seat_points),
            "champions": list(state.champions),
            "takeback": None if (tb := state.takeback) is None else [
                tb.seat, list(tb.cards), tb.winning, list(tb.called_by), tb.points],
            "retracted": list(state.retracted),
        }


def _face_str(f: int) -> str:
    return format_card(f)


def _attacker_points(state: TractorState) -> int:
    """Finding Friends: trick points won by the seats not (yet) known to be on
    the landlord's side.  A friend's points count for the landlords even if
    won before the reveal (the sides are settled at the end of the round)."""
    side = state.landlord_side
    return sum(p for s, p in enumerate(state.seat_points) if s not in side)


def _distinct(cards: Sequence[int]) -> list[int]:
    """One card per face, in order."""
    seen: set[int] = set()
    out: list[int] = []
    for c in cards:
        if c % FACES_PER_DECK not in seen:
            seen.add(c % FACES_PER_DECK)
            out.append(c)
    return out


def lead_choices(hand: Sequence[int], trump: Trump) -> list[tuple[int, ...]]:
    """A representative set of leads: every single and pair, every tractor the
    hand's pairs form (each run and its length-2 head), and one throw per suit
    (all its cards), so that random play meets throws that stand and fail."""
    t = tables(trump)
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(t.suit[c % FACES_PER_DECK], []).append(c)
    out: list[tuple[int, ...]] = []
    for cards in by_suit.values():
        by_face: dict[int, list[int]] = {}
        for c in cards:
            by_face.setdefault(c % FACES_PER_DECK, []).append(c)
        out += [(ids[0],) for ids in by_face.values()]
        pairs = [tuple(ids[:2]) for ids in by_face.values() if len(ids) >= 2]
        out += pairs
        if len(pairs) >= 2:
            structure = get_structure([c for p in pairs for c in p], trump)
            for u in structure.units:
                if u.pairs >= 2:
                    out.append(u.cards)
                    if u.pairs > 2:
                        out.append(u.cards[:4])
        if len(by_face) > 1:
            out.append(tuple(cards))
    return out
