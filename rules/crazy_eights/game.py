"""Crazy Eights as a :class:`engine.game.Game` (docs/rules/crazy_eights.md)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import SUITS, CardParseError, deck, face_of, format_card, parse_face, rank_of
from engine.cards import suit_of as _suit_of
from engine.errors import IllegalAction
from engine.events import JSON, OMNISCIENT, SPECTATOR, Event, Visibility, only
from engine.game import Action, Game, Move, Result
from engine.rng import Rng
from engine.values import evolve
from rules.crazy_eights.options import CrazyEightsConfig
from rules.crazy_eights.presentation import CrazyEightsPresentation
from rules.crazy_eights.scoring import EIGHT, hand_points
from rules.crazy_eights.state import CrazyEightsState

State = CrazyEightsState


def hand_size(seats: int) -> int:
    """Cards dealt to each player: seven with two players, else five ("The deal")."""
    return 7 if seats == 2 else 5


def _sorted(cards: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted(cards, key=lambda c: (_suit_of(c), rank_of(c))))


def _deal(config: CrazyEightsConfig, seed: int, hand_no: int, penalties: tuple[int, ...]) -> State:
    # Each hand has its own stream so a hand depends only on (seed, hand number).
    cards = Rng(seed).fork(hand_no).shuffled(deck())
    seats = config.seats
    dealer = hand_no % seats
    size = hand_size(seats)
    hands: list[list[int]] = [[] for _ in range(seats)]
    for i in range(size * seats):  # one at a time from the dealer's left
        hands[(dealer + 1 + i) % seats].append(cards[i])
    stock = cards[size * seats :][::-1]
    # An eight cannot start the pile: it goes back into the middle of the stock.
    while rank_of(stock[-1]) == EIGHT:
        stock.insert(len(stock) // 2, stock.pop())
    starter = stock.pop()
    return CrazyEightsState(
        config=config,
        seed=seed,
        hand_no=hand_no,
        dealer=dealer,
        hands=tuple(_sorted(h) for h in hands),
        stock=tuple(stock),
        pile=(starter,),
        suit=_suit_of(starter),
        turn=(dealer + 1) % seats,
        drawn=None,
        stuck=0,
        reshuffles=0,
        penalties=penalties,
    )


def _deal_events(state: State) -> list[Event]:
    events = [
        Event(
            "deal",
            {
                "hand": state.hand_no + 1,
                "dealer": state.dealer,
                "starter": format_card(state.pile[-1]),
            },
        )
    ]
    for seat, hand in enumerate(state.hands):
        events.append(
            Event("hand", {"seat": seat, "cards": [format_card(c) for c in hand]}, only(seat))
        )
    return events


def _others(seat: int, seats: int) -> Visibility:
    return Visibility(frozenset(s for s in range(seats) if s != seat))


def fits(state: State, card: int) -> bool:
    """Whether ``card`` may go on the pile: an eight, or the suit to match, or the
    top card's rank ("Playing")."""
    rank = rank_of(card)
    return rank == EIGHT or _suit_of(card) == state.suit or rank == rank_of(state.pile[-1])


def can_draw(state: State) -> bool:
    """Whether there is a card to draw: in the stock, or under the pile's top card."""
    return bool(state.stock) or len(state.pile) > 1


def _plays(card: int) -> list[Action]:
    spelled = format_card(card)
    if rank_of(card) == EIGHT:
        return [{"type": "play", "card": spelled, "suit": s} for s in SUITS]
    return [{"type": "play", "card": spelled}]


@dataclass(frozen=True)
class CrazyEightsMove(Move):
    """A checked action: ``kind`` play, draw or pass; a play's card and the suit it
    leaves to match."""

    kind: str
    card: int | None = None
    suit: int | None = None


class CrazyEightsGame(Game[CrazyEightsState, CrazyEightsConfig]):
    name: ClassVar[str] = "crazy_eights"
    action_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "play": frozenset({"card", "suit"}),
        "draw": frozenset(),
        "pass": frozenset(),
    }
    title: ClassVar[str] = "Crazy Eights"
    config_model = CrazyEightsConfig
    # The cards left in every hand are shown when a hand ends.
    revealing_kinds = frozenset({"play", "hand_end"})
    move_type = CrazyEightsMove
    presentation = CrazyEightsPresentation()

    def seat_count(self, config: CrazyEightsConfig) -> int:
        return config.seats

    def new(self, config: CrazyEightsConfig, seed: int) -> State:
        return _deal(config, seed, 0, (0,) * config.seats)

    def initial_events(self, state: State) -> list[Event]:
        return _deal_events(state)

    def to_act(self, state: State) -> tuple[int, ...]:
        return () if state.over else (state.turn,)

    def legal(self, state: State, seat: int) -> list[Action]:
        if state.over or seat != state.turn:
            return []
        if state.drawn is not None:
            drawn = _plays(state.drawn) if fits(state, state.drawn) else []
            return [*drawn, {"type": "pass"}]
        out = [a for c in state.hands[seat] if fits(state, c) for a in _plays(c)]
        if can_draw(state):
            out.append({"type": "draw"})
        return out or [{"type": "pass"}]

    def validate(self, state: State, seat: int, action: Action) -> CrazyEightsMove:
        if state.over:
            raise IllegalAction("game_over", "the game is over")
        if seat != state.turn:
            raise IllegalAction("not_your_turn", f"seat {state.turn} is to play")
        kind = action.get("type")
        if kind == "play":
            card, suit = self._play(state, seat, action)
            canonical: dict[str, str] = {"type": "play", "card": format_card(card)}
            if rank_of(card) == EIGHT:
                canonical["suit"] = SUITS[suit]
            return CrazyEightsMove(canonical, seat, state, "play", card, suit)
        if kind == "draw" and set(action) == {"type"}:
            if state.drawn is not None:
                raise IllegalAction("already_drawn", "you have drawn: play the card drawn or pass")
            if not can_draw(state):
                raise IllegalAction("stock_empty", "there is no card left to draw")
            return CrazyEightsMove({"type": "draw"}, seat, state, "draw")
        if kind == "pass" and set(action) == {"type"}:
            if state.drawn is None and (
                can_draw(state) or any(fits(state, c) for c in state.hands[seat])
            ):
                raise IllegalAction(
                    "cannot_pass",
                    "you may pass only after drawing, or with nothing to play or draw",
                )
            return CrazyEightsMove({"type": "pass"}, seat, state, "pass")
        raise IllegalAction(
            "bad_action",
            'expected {"type": "play", "card": "<card>"}, {"type": "draw"} or {"type": "pass"}',
        )

    def _play(self, state: State, seat: int, action: Action) -> tuple[int, int]:
        text = action.get("card")
        if not isinstance(text, str) or not set(action) <= {"type", "card", "suit"}:
            raise IllegalAction("bad_action", 'expected {"type": "play", "card": "<card>"}')
        try:
            f = parse_face(text)
        except CardParseError as exc:
            raise IllegalAction("bad_card", str(exc)) from None
        card = next((c for c in state.hands[seat] if face_of(c) == f), None)
        if card is None:
            raise IllegalAction("not_in_hand", "that card is not in your hand")
        if state.drawn is not None and card != state.drawn:
            raise IllegalAction(
                "play_the_drawn_card", "after drawing you may play only the card drawn"
            )
        if not fits(state, card):
            raise IllegalAction(
                "does_not_match", "play a card of the suit or rank on the pile, or an eight"
            )
        named = action.get("suit")
        if rank_of(card) != EIGHT:
            if named is not None:
                raise IllegalAction("bad_action", "only an eight names a suit")
            return card, _suit_of(card)
        if not isinstance(named, str) or named.strip().upper() not in tuple(SUITS):
            raise IllegalAction(
                "name_a_suit", 'an eight names the suit to play next: "suit": C, D, H or S'
            )
        return card, SUITS.index(named.strip().upper())

    def perform(self, state: State, seat: int, move: CrazyEightsMove) -> tuple[State, list[Event]]:
        if move.kind == "draw":
            return self._draw(state, seat)
        if move.kind == "pass":
            stuck = 0 if state.drawn is not None else state.stuck + 1
            events = [Event("pass", {"seat": seat})]
            if stuck >= state.seats:  # nobody can play and nothing is left to draw
                return self._end_hand(state, None, events)
            after = evolve(state, turn=(seat + 1) % state.seats, drawn=None, stuck=stuck)
            return after, events
        assert move.card is not None and move.suit is not None
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != move.card)
        data: JSON = {"seat": seat, "card": format_card(move.card)}
        if rank_of(move.card) == EIGHT:
            data["suit"] = SUITS[move.suit]
        events = [Event("play", data)]
        after = evolve(
            state,
            hands=tuple(hands),
            pile=(*state.pile, move.card),
            suit=move.suit,
            turn=(seat + 1) % state.seats,
            drawn=None,
            stuck=0,
        )
        if not hands[seat]:
            return self._end_hand(after, seat, events)
        return after, events

    def _draw(self, state: State, seat: int) -> tuple[State, list[Event]]:
        events: list[Event] = []
        stock, pile, reshuffles = state.stock, state.pile, state.reshuffles
        if not stock:
            # The stock ran out: the pile but its top card is shuffled into a new stock.
            reshuffles += 1
            rng = Rng(state.seed).fork(state.hand_no).fork(reshuffles)
            stock, pile = tuple(rng.shuffled(pile[:-1])), pile[-1:]
            events.append(Event("reshuffle", {"cards": len(stock)}))
        card, stock = stock[-1], stock[:-1]
        events.append(Event("draw", {"seat": seat, "card": format_card(card)}, only(seat)))
        events.append(Event("draw", {"seat": seat}, _others(seat, state.seats)))
        hands = list(state.hands)
        hands[seat] = _sorted((*hands[seat], card))
        after = evolve(
            state,
            hands=tuple(hands),
            stock=stock,
            pile=pile,
            drawn=card,
            stuck=0,
            reshuffles=reshuffles,
        )
        return after, events

    def _end_hand(
        self, state: State, winner: int | None, events: list[Event]
    ) -> tuple[State, list[Event]]:
        points = tuple(hand_points(h) for h in state.hands)
        totals = tuple(t + p for t, p in zip(state.penalties, points, strict=True))
        events.append(
            Event(
                "hand_end",
                {
                    "winner": winner,
                    "points": list(points),
                    "penalties": list(totals),
                    "hands": [[format_card(c) for c in h] for h in state.hands],
                },
            )
        )
        config = state.config
        last = max(totals) >= config.target if config.target else state.hand_no + 1 >= config.hands
        if last:
            final = evolve(state, penalties=totals, drawn=None, over=True)
            events.append(Event("game_over", self.result(final).to_json()))  # type: ignore[union-attr]
            return final, events
        nxt = _deal(config, state.seed, state.hand_no + 1, totals)
        return nxt, events + _deal_events(nxt)

    def view(self, state: State, viewer: int) -> JSON:
        out: JSON = {
            "game": self.name,
            "hand_no": state.hand_no + 1,
            "hands_to_play": state.config.hands,
            "target": state.config.target,
            "dealer": state.dealer,
            "top": format_card(state.pile[-1]),
            "suit": SUITS[state.suit],
            "pile_size": len(state.pile),
            "stock_size": len(state.stock),
            "hand_sizes": [len(h) for h in state.hands],
            "penalties": list(state.penalties),
            "drawing": state.drawn is not None,
            "to_act": list(self.to_act(state)),
            "over": state.over,
        }
        if viewer == OMNISCIENT or state.over:
            out["hands"] = [[format_card(c) for c in h] for h in state.hands]
        if viewer != SPECTATOR and 0 <= viewer < state.seats:
            out["hand"] = [format_card(c) for c in state.hands[viewer]]
            if viewer == state.turn and state.drawn is not None:
                out["drawn"] = format_card(state.drawn)
        res = self.result(state)
        if res is not None:
            out["result"] = res.to_json()
        return out

    def result(self, state: State) -> Result | None:
        if not state.over:
            return None
        low = min(state.penalties)
        best = [s for s, p in enumerate(state.penalties) if p == low]
        who = " and ".join(f"Seat {s + 1}" for s in best)
        verb = "wins" if len(best) == 1 else "tie"
        summary = f"{who} {verb} with {low} penalty points"
        return Result(scores=tuple(float(-p) for p in state.penalties), summary=summary)

    def encode(self, state: State) -> JSON:
        return {
            "config": self.config_json(state.config),
            "seed": state.seed,
            "hand_no": state.hand_no,
            "dealer": state.dealer,
            "hands": [list(h) for h in state.hands],
            "stock": list(state.stock),
            "pile": list(state.pile),
            "suit": state.suit,
            "turn": state.turn,
            "drawn": state.drawn,
            "stuck": state.stuck,
            "reshuffles": state.reshuffles,
            "penalties": list(state.penalties),
            "over": state.over,
        }

    def secrets(self, state: State, viewer: int) -> frozenset[int]:
        if viewer == OMNISCIENT or state.over:
            return frozenset()
        hidden = [c for s, h in enumerate(state.hands) if s != viewer for c in h]
        return frozenset(face_of(c) for c in (*hidden, *state.stock))
