"""What each viewer sees of a bridge table, the cards kept from them, and the
result of a session: the read-only side of rules/bridge/game.py."""

from __future__ import annotations

from engine.cards import format_face
from engine.events import JSON, OMNISCIENT, SPECTATOR
from engine.game import Result
from engine.presentation import plural
from rules.bridge.boards import SEATS
from rules.bridge.claims import claim_view
from rules.bridge.state import BridgeState, Phase


def next_player(state: BridgeState) -> int:
    """The seat whose card or call is next (may be the dummy)."""
    if state.phase is Phase.AUCTION:
        return (state.dealer + len(state.calls)) % 4
    return state.next_player


def board_view(state: BridgeState, viewer: int, to_act: tuple[int, ...]) -> JSON:
    """What ``viewer`` sees of ``state`` (BridgeGame.view); ``to_act`` is the game's."""
    contract = state.contract
    alerts = dict(state.alerts)
    out: JSON = {
        "game": "bridge",
        "board": state.board,
        "boards": state.config.boards,
        "board_index": state.index + 1,
        "dealer": state.dealer,
        "vulnerability": state.vulnerability.value,
        "phase": state.phase.value,
        "auction": [
            {"seat": s, "call": c, **({"alert": alerts[i]} if i in alerts else {})}
            for i, (s, c) in enumerate(state.calls)
        ],
        "contract": str(contract) if contract else None,
        "declarer": contract.declarer if contract else None,
        "dummy": state.dummy,
        "leader": state.leader,
        "trick": [format_face(c) for c in state.trick],
        "last_trick": [format_face(c) for c in state.last_trick],
        "last_leader": state.last_leader,
        # Every card played is seen by all four players as it is played; a
        # player may remember them, so the view carries them (bots need them).
        "played": [format_face(c) for c in state.played],
        "tricks": {"NS": state.tricks[0], "EW": state.tricks[1]},
        "hand_sizes": [len(h) for h in state.hands],
        "to_act": list(to_act),
        "next_player": next_player(state) if state.phase is not Phase.OVER else None,
        "claim": claim_view(state),
        "claim_rejected_at": state.rejected_at,
        "results": [
            {
                "board": r.board,
                "contract": r.contract,
                "declarer": r.declarer,
                "tricks": r.tricks,
                "score_ns": r.score_ns,
                "deal": r.deal,
            }
            for r in state.results
        ],
        "total_ns": sum(r.score_ns for r in state.results),
    }
    if viewer == OMNISCIENT:
        out["hands"] = [[format_face(c) for c in h] for h in state.hands]
    elif viewer != SPECTATOR and 0 <= viewer < 4:
        out["hand"] = [format_face(c) for c in state.hands[viewer]]
    if state.dummy_exposed and state.dummy is not None and state.phase is not Phase.OVER:
        out["dummy_hand"] = [format_face(c) for c in state.hands[state.dummy]]
    res = session_result(state)
    if res is not None:
        out["result"] = res.to_json()
    return out


def hidden_cards(state: BridgeState, viewer: int) -> frozenset[int]:
    """The faces ``viewer`` must not learn now (BridgeGame.secrets)."""
    if viewer == OMNISCIENT or state.phase is Phase.OVER:
        return frozenset()
    visible = {viewer} if 0 <= viewer < 4 else set()
    if state.dummy_exposed and state.dummy is not None:
        visible.add(state.dummy)
    if state.claim is not None:
        visible.add(state.claim.seat)  # faced while the claim is answered
    return frozenset(c for s, h in enumerate(state.hands) if s not in visible for c in h)


def session_result(state: BridgeState) -> Result | None:
    """None until the session is over; then its result (BridgeGame.result)."""
    if state.phase is not Phase.OVER:
        return None
    total = sum(r.score_ns for r in state.results)
    parts = []
    for r in state.results:
        if r.contract is None:
            parts.append(f"board {r.board}: passed out")
        else:
            assert r.declarer is not None and r.tricks is not None
            parts.append(
                f"board {r.board}: {r.contract} by {SEATS[r.declarer]}, "
                f"{plural(r.tricks, 'trick')}, NS {r.score_ns:+d}"
            )
    summary = "; ".join(parts) + (f"; total NS {total:+d}" if len(parts) > 1 else "")
    return Result(scores=(total, -total, total, -total), summary=summary)
