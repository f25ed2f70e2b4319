"""What each viewer of a tractor table sees, and which faces are secret from it.

The kitty is seen by the seat holding it alone (the landlord, or the seat that
took it by an overbid) until the round ends; during the draw
the stock and the other hands are hidden, and so is who else could declare
(``to_act_visible``).  The public part of a view is the same for every viewer,
so it is built once per state.
"""

from __future__ import annotations

from engine.cards import FACES_PER_DECK, SUITS, format_card
from engine.events import JSON, OMNISCIENT, SPECTATOR
from rules.tractor.memo import Memo
from rules.tractor.order import rank_name
from rules.tractor.phases.common import drawing, spell
from rules.tractor.play_rules import play_rules
from rules.tractor.sides import match_result, sides_for
from rules.tractor.state import Phase, TractorState

_FACES = Memo(8)
_PUBLIC_VIEW = Memo(8)
_SECRETS = Memo(32)


def view(state: TractorState, viewer: int, name: str, to_act: tuple[int, ...]) -> JSON:
    """``viewer``'s view of the table of game ``name``; ``to_act`` as it may see it."""
    # The public part is the same for every viewer: built once per state and
    # shallow-copied (views are read-only JSON; nested lists are shared).
    out: JSON = dict(_PUBLIC_VIEW.get(state, 0, lambda: _public_view(state, name)))
    out["to_act"] = list(to_act)
    shown_kitty = state.phase in (Phase.ROUND_OVER, Phase.OVER) or viewer == OMNISCIENT
    if viewer == OMNISCIENT:
        out["hands"] = [spell(h) for h in state.hands]
    elif viewer != SPECTATOR and 0 <= viewer < state.seats:
        out["hand"] = spell(state.hands[viewer])
        shown_kitty = shown_kitty or viewer == state.kitty_holder
    if shown_kitty and state.phase is not Phase.DRAW:
        out["kitty"] = spell(state.kitty)
    return out


def _public_view(state: TractorState, name: str) -> JSON:
    trump = state.trump
    cur = state.current
    landlord = state.landlord
    out: JSON = {
        "game": name,
        # The round scored last once a round or the match is over, unless the match
        # was ended by agreement with a round under way (cards left to draw or in
        # hand): that round, unscored. At least 1.
        "round": max(1, state.rounds_played + (
            0 if state.phase in (Phase.ROUND_OVER, Phase.OVER) and not state.ended_under_way
            else 1)),
        "phase": state.phase.value,
        "levels": [rank_name(v) for v in state.levels],
        "max_rank": state.config.max_rank,
        "rank": rank_name(state.rank),
        "landlord": landlord,
        "trump_suit": None if trump is None else (
            "NT" if trump.suit is None else SUITS[trump.suit]),
        "declarations": [{"seat": d.seat, "cards": [format_card(d.face)] * d.count}
                         for d in state.declarations],
        "declarer": cur.seat if cur else None,
        "hand_sizes": [len(h) for h in state.hands],
        "results": [
            {"landlord": r.landlord, "rank": rank_name(r.rank),
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
        out["drawer"] = state.drawer if drawing(state) else None
    else:
        out.update({
            "kitty_size": len(state.kitty),
            "kitty_revealed": spell(state.kitty_revealed),
            "leader": state.leader,
            "trick": [{"seat": p.seat, "cards": spell(p.cards)} for p in state.trick],
            "trick_winner": state.winning,
            "played": spell(state.played),
            "last_trick": [{"seat": p.seat, "cards": spell(p.cards)}
                           for p in state.last_trick],
            "points": state.points,
            "failed_throws": list(state.failed_throws),
            # The table's house rules are public; a bot that simulates the rest
            # of the round plays by them (bots/tractor/montecarlo.py).
            "options": state.config.view_json(),
        })
        out.update(sides_for(state.config).public_view(state))
        if state.config.version >= 3:
            out["exchanger"] = state.kitty_holder  # who holds (or last buried) the kitty
    if state.config.version > 1:
        # The trick rules, so that a bot or client checks plays as the table does.
        out["rules"] = {**play_rules(state.config).to_json(), "decks": state.config.decks,
                        "friend_selection": state.config.friend_selection.value}
    if state.config.takeback_allowed:
        out["takeback"] = state.takeback.seat if state.takeback is not None else None
    res = match_result(state)
    if res is not None:
        out["result"] = res.to_json()
    return out


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


def secrets(state: TractorState, viewer: int) -> frozenset[int]:
    """Faces ``viewer`` must not learn now."""
    if viewer == OMNISCIENT or state.phase in (Phase.ROUND_OVER, Phase.OVER):
        return frozenset()
    return _SECRETS.get(state, viewer, lambda: _secrets(state, viewer))


def _secrets(state: TractorState, viewer: int) -> frozenset[int]:
    seats, stock, kitty, public = _FACES.get(state, 0, lambda: _face_sets(state))
    hidden = set(stock)
    for s, faces in enumerate(seats):
        if s != viewer:
            hidden |= faces
    holder = state.kitty_holder
    if viewer != holder:
        hidden |= kitty
    # Faces shown to everyone (declared, turned up, played) are not secret,
    # and with two decks neither is a face the viewer holds itself.
    hidden -= public
    if 0 <= viewer < state.seats:
        hidden -= seats[viewer]
        if viewer == holder:
            hidden -= kitty
    return frozenset(hidden)
