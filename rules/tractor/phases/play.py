"""Tricks: leads (a lead of several units is a throw), follows, takebacks.

The landlord leads the first trick; a trick's winner leads the next.  A throw
that another hand can beat fails: only its forced unit is played and the
thrower's side pays the penalty at the end of the round.  With the option
``takeback_allowed`` the last player may withdraw (or keep) a play the next
player has not answered.  The last trick ends the round (``round_end.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.cards import FACES_PER_DECK
from engine.errors import IllegalAction
from engine.events import Event
from engine.game import Action
from rules.tractor.order import Trump, tables
from rules.tractor.phases.base import PhaseRules, Step, TractorMove
from rules.tractor.phases.common import (
    cards_in_hand,
    in_hand_order,
    reject_takeback,
    sample_rng,
    sort_hand,
    spell,
)
from rules.tractor.phases.round_end import decided, end_early, end_round
from rules.tractor.play_rules import PlayRules, play_rules
from rules.tractor.scoring import points
from rules.tractor.sides import sides_for
from rules.tractor.state import Play as PlayedCards
from rules.tractor.state import Takeback, TractorState
from rules.tractor.structure import Structure, get_structure
from rules.tractor.throws import resolve_throw


def _distinct(cards: Sequence[int]) -> list[int]:
    """One card per face, in order."""
    seen: set[int] = set()
    out: list[int] = []
    for c in cards:
        if c % FACES_PER_DECK not in seen:
            seen.add(c % FACES_PER_DECK)
            out.append(c)
    return out


def lead_choices(hand: Sequence[int], trump: Trump,
                 rules: PlayRules | None = None) -> list[tuple[int, ...]]:
    """A representative set of leads: every single and pair, every tractor the
    hand's pairs form (each run and its length-2 head), and one throw per suit
    (all its cards), so that random play meets throws that stand and fail.
    Under the tuple rules also every face's copies and the units its suit cuts into."""
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
        if rules is not None and rules.tuples:
            out += [tuple(ids) for ids in by_face.values() if len(ids) >= 3]
            out += [u.cards for u in rules.structure(cards, trump).units if len(u.cards) >= 3]
        if len(by_face) > 1:
            out.append(tuple(cards))
    return list(dict.fromkeys(out)) if rules is not None and rules.tuples else out


def _lead(state: TractorState) -> Structure:
    assert state.trump is not None
    return play_rules(state.config).structure(state.trick[0].cards, state.trump)


def play_choices(state: TractorState, seat: int) -> list[tuple[int, ...]]:
    """A representative set of legal plays for ``seat`` (every lead kind; a
    few follows, or every distinct card when the lead is a single)."""
    assert state.trump is not None
    hand = state.hands[seat]
    trump = state.trump
    t = tables(trump)
    rules = play_rules(state.config)
    if not state.trick:
        return lead_choices(hand, trump, rules)
    lead = _lead(state)
    if lead.size == 1:
        in_suit = [c for c in hand if t.suit[c % FACES_PER_DECK] == lead.suit] or list(hand)
        return list(dict.fromkeys((c,) for c in _distinct(in_suit)))
    rng = sample_rng(state)
    out = [rules.a_legal_follow(lead, hand, trump)]
    out += [rules.a_legal_follow(lead, hand, trump, rng) for _ in range(3)]
    return list(dict.fromkeys(tuple(sorted(p)) for p in out))


class Play(PhaseRules):
    """``PLAY``: the seat to move plays; the last player may take a play back."""

    def to_act(self, state: TractorState) -> tuple[int, ...]:
        if state.takeback is not None:
            # The next seat may play, or the last one take its play back.
            return tuple(sorted((state.to_move, state.takeback.seat)))
        return (state.to_move,)

    def legal(self, state: TractorState, seat: int) -> list[Action]:
        if state.takeback is not None and seat == state.takeback.seat:
            # confirm first: a client or bot falling back on legal[0] keeps its play.
            return [{"type": "confirm"}, {"type": "takeback"}]
        plays: list[Action] = [{"type": "play", "cards": spell(c)}
                               for c in play_choices(state, seat)]
        if state.config.early_end and state.config.version > 1 and decided(state):
            plays.append({"type": "end_round"})
        return plays

    def check(self, state: TractorState, seat: int, action: Action) -> TractorMove:
        assert state.trump is not None
        kind = action.get("type")
        reject_takeback(state, seat, kind)
        if kind in ("takeback", "confirm"):
            return TractorMove({"type": kind}, seat, state)
        if kind == "end_round":
            if not (state.config.early_end and state.config.version > 1):
                raise IllegalAction("bad_action",
                                    "ending a round early is off (option early_end)")
            if not decided(state):
                raise IllegalAction("not_decided", "the round can end early only between "
                                    "tricks, once its result cannot change")
            return TractorMove({"type": "end_round"}, seat, state)
        cards = cards_in_hand(state, seat, action, "play")
        hand = state.hands[seat]
        canonical = in_hand_order(hand, cards)
        lead = None
        rules = play_rules(state.config)
        if not state.trick:
            lead = rules.check_lead(canonical, state.trump)
        else:
            rules.check_follow(_lead(state), hand, cards, state.trump)
        return TractorMove({"type": "play", "cards": spell(canonical)}, seat, state,
                           cards=canonical, lead=lead)

    def apply(self, state: TractorState, seat: int, move: TractorMove) -> Step:
        kind = move.action["type"]
        if kind == "takeback":
            return _take_back(state)
        if kind == "end_round":
            return end_early(state)
        if state.takeback is not None:
            # Any other action closes the window: the next play, or a confirm.
            state = replace(state, takeback=None)
            if kind == "confirm":
                return state, [Event("confirm", {"seat": seat})]
        return _play(state, seat, move.cards, move.lead)


def _take_back(state: TractorState) -> Step:
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
    return after, [Event("takeback", {"seat": tb.seat, "cards": spell(tb.cards)})]


def _play(state: TractorState, seat: int, cards: tuple[int, ...],
          lead: Structure | None) -> Step:
    """Play checked ``cards``; ``lead`` is their decomposition when they lead."""
    assert state.trump is not None and state.landlord is not None
    trump = state.trump
    sides = sides_for(state.config)
    events: list[Event] = []
    failed = state.failed_throws
    seats = state.seats
    throw_failed = False
    rules = play_rules(state.config)
    if lead is not None:
        others = [state.hands[(seat + k) % seats] for k in range(1, seats)]  # play order
        outcome = resolve_throw(lead, others, trump, state.config.throw_failure_unit,
                                rules.can_beat)
        if not outcome.stands:
            assert outcome.forced is not None
            forced = outcome.forced.cards
            events.append(Event("throw_failed", {
                "seat": seat,
                "attempted": len(cards),
                "forced": spell(sort_hand(forced, trump)),
                "penalty": state.config.throw_failure_penalty,
            }))
            counts = list(failed)
            counts[sides.throw_slot(seat)] += 1
            failed = tuple(counts)
            cards = tuple(c for c in cards if c in set(forced))
            throw_failed = True
    hands = list(state.hands)
    gone = set(cards)
    hands[seat] = tuple(c for c in hands[seat] if c not in gone)
    trick = (*state.trick, PlayedCards(seat, cards))
    events.append(Event("play", {"seat": seat, "cards": spell(cards)}))
    lead_s = rules.structure(trick[0].cards, trump)
    idx = rules.winner(lead_s, [p.cards for p in trick], trump)
    winner = trick[idx].seat
    after = replace(state, hands=tuple(hands), trick=trick, failed_throws=failed,
                    winning=winner)
    after, revealed = sides.played(state, after, seat, cards)
    events += revealed
    if len(trick) < seats:
        if state.config.takeback_allowed and not throw_failed:
            # A failed throw is not taken back: its failure (and penalty) is public.
            after = replace(after, takeback=Takeback(seat, cards, state.winning,
                                                     state.called_by, state.points))
        return after, events
    won = points(c for p in trick for c in p.cards)
    after, total = sides.trick_won(state, after, winner, won)
    events.append(Event("trick", {"winner": winner, "points": won,
                                  "attacker_points": total}))
    after = replace(after, trick=(), last_trick=trick, leader=winner, points=total,
                    winning=None,
                    played=(*state.played, *(c for p in trick for c in p.cards)))
    if any(hands):
        return after, events
    return end_round(after, winner, lead_s, events)
