"""A tractor state as JSON: every field, in the layout stored games were hashed in."""

from __future__ import annotations

from engine.events import JSON
from rules.tractor.state import TractorState


def encode(state: TractorState, config: JSON) -> JSON:
    """Every bit of ``state`` as JSON (``config``: the table's options as JSON)."""
    trump = state.trump
    out: JSON = {
        "config": config,
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
    if state.ended_under_way:  # only then: every other state hashes as it always did
        out["ended_under_way"] = True
    if state.config.version >= 3:
        # Fields of version 3; older tables hash as they always did.
        out["exchanger"] = state.exchanger
        out["overbid_mark"] = state.overbid_mark
    return out
