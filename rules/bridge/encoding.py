"""A bridge state encoded as JSON: every bit of it, what the final-state hash
covers (``Game.encode``).  Stored games replay to the hashes they were stored
with, so what an encoding leaves out or adds only when present is deliberate."""

from __future__ import annotations

from typing import Any

from engine.events import JSON
from rules.bridge.state import BridgeState, Claim


def encode_state(state: BridgeState, config: JSON) -> JSON:
    """``state`` as JSON, its table options encoded as ``config``."""
    out: JSON = {
        "config": config,
        "seed": state.seed,
        "index": state.index,
        "dealt": [list(h) for h in state.dealt],
        "hands": [list(h) for h in state.hands],
        "calls": [list(c) for c in state.calls],
        "phase": state.phase.value,
        "contract": str(state.contract) if state.contract else None,
        "declarer": state.contract.declarer if state.contract else None,
        "leader": state.leader,
        "trick": list(state.trick),
        "played": list(state.played),
        "tricks": list(state.tricks),
        "claim": _claim_json(state.claim) if state.claim else None,
        "results": [
            [
                r.board,
                r.deal,
                r.contract,
                r.declarer,
                r.tricks,
                r.score_ns,
                r.claimed,
                list(r.played),
                [list(c) for c in r.calls],
            ]
            for r in state.results
        ],
    }
    # Alerts came later: a state without them encodes (and hashes) as it did
    # before, so stored games replay to the hashes they had. ``rejected_at`` is
    # left out: a hint to bots (the log says where a claim was rejected), not part
    # of the position, and games stored before it existed rejected claims too.
    if state.alerts:
        out["alerts"] = [list(a) for a in state.alerts]
    return out


def _claim_json(claim: Claim) -> list[Any]:
    """A claim as encoded: the claimer, the tricks, who accepted; and who must
    accept only when that is not both of the claimer's opponents (a defender's
    claim), so a declarer's claim encodes as it did before defenders could claim."""
    out: list[Any] = [claim.seat, claim.tricks, sorted(claim.accepted)]
    if claim.needed != frozenset({(claim.seat + 1) % 4, (claim.seat + 3) % 4}):
        out.append(sorted(claim.needed))
    return out
