"""Whist as a :class:`engine.game.Game`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine.cards import CardParseError, deck, face_of, format_card, parse_face, suit_of
from engine.errors import IllegalAction
from engine.events import JSON, OMNISCIENT, SPECTATOR, Event, only
from engine.game import Action, Game, Move, Result
from engine.rng import Rng
from engine.tricks import follows_suit, playable, winning_index
from engine.values import evolve
from rules.whist.options import WhistConfig
from rules.whist.presentation import WhistPresentation
from rules.whist.scoring import deal_points
from rules.whist.state import SEATS, WhistState, team

_HAND_ORDER = {s: i for i, s in enumerate((3, 2, 0, 1))}  # spades, hearts, clubs, diamonds


def _sort_hand(cards: list[int]) -> tuple[int, ...]:
    return tuple(sorted(cards, key=lambda c: (_HAND_ORDER[suit_of(c)], -face_of(c))))


def _deal(config: WhistConfig, seed: int, deal_no: int, score: tuple[int, int]) -> WhistState:
    # Each deal has its own stream so a deal depends only on (seed, deal number).
    rng = Rng(seed).fork(deal_no)
    cards = rng.shuffled(deck())
    dealer = deal_no % SEATS
    # Dealt one at a time from the dealer's left, so the dealer gets the last card.
    hands = [cards[i::SEATS] for i in range(SEATS)]  # hands[i]: seat (dealer + 1 + i) % 4
    by_seat: list[list[int]] = [[] for _ in range(SEATS)]
    for i, h in enumerate(hands):
        by_seat[(dealer + 1 + i) % SEATS] = h
    return WhistState(
        config=config,
        seed=seed,
        deal_no=deal_no,
        dealer=dealer,
        hands=tuple(_sort_hand(h) for h in by_seat),
        trump_card=cards[-1],
        leader=(dealer + 1) % SEATS,
        trick=(),
        last_trick=(),
        last_leader=-1,
        tricks=(0, 0),
        score=score,
    )


def _deal_events(state: WhistState) -> list[Event]:
    events = [
        Event(
            "deal",
            {
                "deal": state.deal_no + 1,
                "dealer": state.dealer,
                "trump": format_card(state.trump_card),
            },
        )
    ]
    for seat, hand in enumerate(state.hands):
        events.append(
            Event("hand", {"seat": seat, "cards": [format_card(c) for c in hand]}, only(seat))
        )
    return events


@dataclass(frozen=True)
class WhistMove(Move):
    """A checked play: the card id it names."""

    card: int


class WhistGame(Game[WhistState, WhistConfig]):
    name: ClassVar[str] = "whist"
    action_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "play": frozenset({"card"}),
    }
    title: ClassVar[str] = "Whist"
    config_model = WhistConfig
    move_type = WhistMove
    presentation = WhistPresentation()

    def seat_count(self, config: WhistConfig) -> int:
        return SEATS

    def new(self, config: WhistConfig, seed: int) -> WhistState:
        return _deal(config, seed, 0, (0, 0))

    def initial_events(self, state: WhistState) -> list[Event]:
        """The events of the opening deal (the server sends them with the first view)."""
        return _deal_events(state)

    def to_act(self, state: WhistState) -> tuple[int, ...]:
        return () if state.over else (state.to_move,)

    def _led_suit(self, state: WhistState) -> int | None:
        return suit_of(state.trick[0]) if state.trick else None

    def legal(self, state: WhistState, seat: int) -> list[Action]:
        if state.over or seat != state.to_move:
            return []
        cards = playable(state.hands[seat], self._led_suit(state))
        return [{"type": "play", "card": format_card(c)} for c in cards]

    def validate(self, state: WhistState, seat: int, action: Action) -> WhistMove:
        card = self._card(state, seat, action)
        canonical = {"type": "play", "card": format_card(card)}  # AS, as every game logs it
        return WhistMove(canonical, seat, state, card)

    def _card(self, state: WhistState, seat: int, action: Action) -> int:
        if state.over:
            raise IllegalAction("game_over", "the match is over")
        if seat != state.to_move:
            raise IllegalAction("not_your_turn", f"seat {state.to_move} is to play")
        if action.get("type") != "play" or not isinstance(action.get("card"), str):
            raise IllegalAction("bad_action", 'expected {"type": "play", "card": "<card>"}')
        try:
            f = parse_face(action["card"])
        except CardParseError as exc:
            raise IllegalAction("bad_card", str(exc)) from None
        hand = state.hands[seat]
        card = next((c for c in hand if face_of(c) == f), None)
        if card is None:
            raise IllegalAction("not_in_hand", "that card is not in your hand")
        if not follows_suit(card, hand, self._led_suit(state)):
            raise IllegalAction("must_follow_suit", "you must follow the suit led")
        return card

    def perform(
        self, state: WhistState, seat: int, move: WhistMove
    ) -> tuple[WhistState, list[Event]]:
        card = move.card
        hands = list(state.hands)
        hands[seat] = tuple(c for c in hands[seat] if c != card)
        trick = (*state.trick, card)
        events = [Event("play", {"seat": seat, "card": format_card(card)})]
        if len(trick) < SEATS:
            return evolve(state, hands=tuple(hands), trick=trick), events
        trump = suit_of(state.trump_card)
        winner = (state.leader + winning_index(trick, trump)) % SEATS
        tricks = list(state.tricks)
        tricks[team(winner)] += 1
        events.append(Event("trick", {"winner": winner, "tricks": list(tricks)}))
        after = evolve(
            state,
            hands=tuple(hands),
            trick=(),
            last_trick=trick,
            last_leader=state.leader,
            leader=winner,
            tricks=(tricks[0], tricks[1]),
        )
        if any(hands):
            return after, events
        points = deal_points(after.tricks)
        score = (state.score[0] + points[0], state.score[1] + points[1])
        events.append(Event("deal_end", {"points": list(points), "score": list(score)}))
        if state.deal_no + 1 >= state.config.deals:
            final = evolve(after, score=score, over=True)
            events.append(Event("game_over", self.result(final).to_json()))  # type: ignore[union-attr]
            return final, events
        nxt = _deal(state.config, state.seed, state.deal_no + 1, score)
        return nxt, events + _deal_events(nxt)

    def view(self, state: WhistState, viewer: int) -> JSON:
        return self.views(state, (viewer,))[viewer]

    def views(self, state: WhistState, viewers: Iterable[int]) -> dict[int, JSON]:
        # Everything but the hands is public: built once for a whole broadcast.
        public = self._public_view(state)
        res = self.result(state)
        ended = {"result": res.to_json()} if res is not None else {}
        out: dict[int, JSON] = {}
        for viewer in viewers:
            view = dict(public)
            if viewer == OMNISCIENT:
                view["hands"] = [[format_card(c) for c in h] for h in state.hands]
            elif viewer != SPECTATOR and 0 <= viewer < SEATS:
                view["hand"] = [format_card(c) for c in state.hands[viewer]]
            out[viewer] = view | ended if ended else view
        return out

    def _public_view(self, state: WhistState) -> JSON:
        return {
            "game": self.name,
            "deal": state.deal_no + 1,
            "deals": state.config.deals,
            "dealer": state.dealer,
            "trump": format_card(state.trump_card),
            "leader": state.leader,
            "trick": [format_card(c) for c in state.trick],
            "last_trick": [format_card(c) for c in state.last_trick],
            "last_leader": state.last_leader,
            "hand_sizes": [len(h) for h in state.hands],
            "tricks": list(state.tricks),
            "score": list(state.score),
            "to_act": list(self.to_act(state)),
            "over": state.over,
        }

    def result(self, state: WhistState) -> Result | None:
        if not state.over:
            return None
        a, b = state.score
        summary = (
            "drawn"
            if a == b
            else f"{'North/South' if a > b else 'East/West'} win {max(a, b)}-{min(a, b)}"
        )
        return Result(scores=(a, b, a, b), summary=summary)

    def encode(self, state: WhistState) -> JSON:
        return {
            "config": self.config_json(state.config),
            "seed": state.seed,
            "deal_no": state.deal_no,
            "dealer": state.dealer,
            "hands": [list(h) for h in state.hands],
            "trump_card": state.trump_card,
            "leader": state.leader,
            "trick": list(state.trick),
            "last_trick": list(state.last_trick),
            "last_leader": state.last_leader,
            "tricks": list(state.tricks),
            "score": list(state.score),
            "over": state.over,
        }

    def secrets(self, state: WhistState, viewer: int) -> frozenset[int]:
        if viewer == OMNISCIENT:
            return frozenset()
        # The turned-up trump card is public even while the dealer still holds it.
        return frozenset(
            face_of(c)
            for s, h in enumerate(state.hands)
            if s != viewer
            for c in h
            if c != state.trump_card
        )
