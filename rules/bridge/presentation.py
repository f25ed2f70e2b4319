"""Contract bridge in words: calls, the contract, plays (the declarer's from dummy),
tricks, claims and board results; the auction and vulnerability as the table shows them."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import SUIT_SYMBOLS, parse_face, pretty
from engine.presentation import (
    JSON,
    Presentation,
    card_text,
    is_card,
    plural,
    subject,
    verb,
    who,
)
from rules.bridge.system.explain import Explanation, explain_auction, explanation_of

COMPASS = ("North", "East", "South", "West")
SIDES = ("North/South", "East/West")
_STRAIN = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT", "N": "NT"}
_CALL_WORDS = {"P": "Pass", "X": "Double", "XX": "Redouble"}
_VULNERABLE = {"None": "none", "NS": "North/South", "EW": "East/West", "All": "both sides"}
_BID = re.compile(r"^([1-7])(NT|N|C|D|H|S)(X{0,2})$")


def call_text(call: Any) -> str:
    """``1C`` -> ``1♣``, ``3NT`` -> ``3NT``, ``P`` -> ``Pass``; contracts keep their X's."""
    text = str(call)
    if text in _CALL_WORDS:
        return _CALL_WORDS[text]
    m = _BID.match(text)
    return f"{m.group(1)}{_STRAIN[m.group(2)]}{m.group(3)}" if m else text


def contract_text(contract: Any, declarer: Any, names: Sequence[str] = COMPASS) -> str:
    """``4♠ by South``."""
    if contract is None:
        return "-"
    return f"{call_text(contract)} by {who(declarer, names, None)}"


def board_result_text(r: Mapping[str, Any]) -> str:
    """``Board 1: 4♠ by S made 10, NS +420`` (or ``down 2``, or passed out)."""
    if r.get("contract") is None:
        return f"Board {r.get('board')}: passed out, NS 0"
    contract, tricks = str(r["contract"]), r.get("tricks")
    declarer = r.get("declarer")
    seat = "NESW"[declarer] if isinstance(declarer, int) and 0 <= declarer < 4 else "?"
    need = (int(contract[0]) if contract[:1].isdigit() else 0) + 6
    if not isinstance(tricks, int):
        outcome = "?"
    elif tricks >= need:
        outcome = f"made {tricks}"
    else:
        outcome = f"down {need - tricks}"
    score = r.get("score_ns", 0)
    return f"Board {r.get('board')}: {call_text(contract)} by {seat} {outcome}, NS {score:+d}"


def suit_lines_text(cards: Sequence[str]) -> str:
    """A bridge hand by suit, spades first: ``♠ A K 7  ♥ Q 10  ♦ -  ♣ 2``."""
    by_suit: dict[int, list[int]] = {3: [], 2: [], 1: [], 0: []}
    for c in cards:
        if is_card(c) and parse_face(str(c)) < 52:
            f = parse_face(str(c))
            by_suit[f // 13].append(f)
    parts = []
    for s, faces in by_suit.items():
        ranks = " ".join(pretty(f)[:-1] for f in sorted(faces, reverse=True)) or "-"
        parts.append(f"{SUIT_SYMBOLS[s]} {ranks}")
    return "  ".join(parts)


def _meaning(view: JSON, seat: Any, call: str) -> str:
    """`` — 1NT opening: 15–17 HCP, balanced`` (`` (alert)`` first when artificial):
    what ``call`` by ``seat`` means after the view's auction; empty when unknown.
    The system is public, so every viewer reads the same meaning."""
    if not isinstance(seat, int):
        return ""
    return _said(explanation_of(view.get("auction") or [], seat, call))


def _said(e: Explanation | None) -> str:
    if e is None:
        return ""
    return (" (alert)" if e.alert else "") + f" — {e.meaning}"


class BridgePresentation(Presentation):
    """North, East, South, West; the declarer plays dummy's cards."""

    remembers = True  # a first card leads; dummy's cards are the declarer's

    def seat_names(self, count: int) -> list[str]:
        return list(COMPASS[:count])

    def action_label(self, view: JSON, action: Mapping[str, Any]) -> str:
        kind = action.get("type")
        if kind == "call":
            call = str(action.get("call"))
            return call_text(call) if call in _CALL_WORDS else f"Bid {call_text(call)}"
        if kind == "play":
            dummy = view.get("dummy")
            from_dummy = view.get("next_player") == dummy and dummy is not None
            return f"Play {card_text(action.get('card'))}" + (" from dummy" if from_dummy else "")
        if kind == "claim":
            if action.get("tricks") == 0:
                return "Concede all the remaining tricks"
            return f"Claim {plural(action.get('tricks'), 'more trick', 'more tricks')}"
        if kind == "accept_claim":
            return "Accept the claim"
        if kind == "reject_claim":
            return "Reject the claim"
        return super().action_label(view, action)

    def narrate(
        self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]
    ) -> str | None:
        kind = event.get("kind")
        seat = event.get("seat")
        actor, you = subject(seat, names, viewer)
        if kind == "deal":
            vul = _VULNERABLE.get(str(event.get("vulnerability")), event.get("vulnerability"))
            return (
                f"Board {event.get('board')} · dealer {who(event.get('dealer'), names, viewer)} · "
                f"vulnerable: {vul}"
            )
        if kind == "hand":
            return f"You are dealt {plural(len(event.get('cards') or []), 'card')}" if you else None
        if kind == "call":
            call = str(event.get("call"))
            alert = event.get("alert")
            note = "" if alert is None else f" (alert{': ' + str(alert) if alert else ''})"
            word = {"P": "pass", "X": "double", "XX": "redouble"}.get(call)
            # The caller's own explanation of an alert (a player's, a file's note)
            # comes first; else what the table's system says the call means.
            said = note or _meaning(view, seat, call)
            if word:
                return f"{actor} {verb(word, you)}{said}"
            return f"{actor} {verb('bid', you)} {call_text(call)}{said}"
        if kind == "passed_out":
            return f"Board {event.get('board')} is passed out"
        if kind == "contract":
            return f"Contract: {contract_text(event.get('contract'), event.get('declarer'), names)}"
        if kind == "play":
            return self._play(view, event, viewer, names)
        if kind == "dummy":
            shown = suit_lines_text(event.get("cards") or [])
            return f"Dummy ({who(seat, names, viewer)}) goes down: {shown}"
        if kind == "trick":
            winner = event.get("winner")
            side = SIDES[winner % 2] if isinstance(winner, int) else "?"
            tricks = event.get("tricks") or [0, 0]
            return (
                f"{side} win the trick ({who(winner, names, viewer)})  "
                f"NS {tricks[0]} – EW {tricks[1]}"
            )
        if kind == "claim":
            n, left = event.get("tricks"), event.get("remaining")
            of = f"of the remaining {left}" if isinstance(left, int) else "of the remaining tricks"
            if n == 0:
                return f"{actor} {verb('concede', you)} the remaining tricks"
            return f"{actor} {verb('claim', you)} {n} {of}"
        if kind == "claim_answer":
            return f"{actor} {verb('accept', you)} the claim"
        if kind == "claim_rejected":
            return f"{actor} {verb('reject', you)} the claim; play goes on"
        if kind == "claim_accepted":
            by = "(it holds double dummy)" if event.get("by") == "double_dummy" else "by all"
            return f"The claim is accepted {by}"
        if kind == "board_end":
            return board_result_text(event) + f"  (total NS {event.get('total_ns', 0):+d})"
        if kind == "game_over":
            return f"Game over: {event.get('summary')}"
        return None

    def _play(self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]) -> str:
        """``You lead A♠``, ``North plays 5♦ from dummy`` (the declarer chose it)."""
        seat = event.get("seat")
        trick = view.get("trick")
        word = "play" if isinstance(trick, list) and trick else "lead"
        declarer = view.get("declarer") if view.get("contract") else None
        where = ""
        if isinstance(declarer, int) and seat == (declarer + 2) % 4:
            # Dummy's card, chosen by the declarer: credit the one who chose it.
            seat, where = declarer, " from dummy"
        actor, you = subject(seat, names, viewer)
        return f"{actor} {verb(word, you)} {card_text(event.get('card'))}{where}"

    def advance(self, view: JSON, event: JSON) -> JSON:
        kind = event.get("kind")
        if kind == "deal":
            return {**view, "trick": [], "contract": None, "declarer": None, "auction": []}
        if kind == "call":
            call = {"seat": event.get("seat"), "call": event.get("call")}
            return {**view, "auction": [*(view.get("auction") or []), call]}
        if kind == "contract":
            return {**view, "contract": event.get("contract"), "declarer": event.get("declarer")}
        if kind == "play":
            return {**view, "trick": [*(view.get("trick") or []), event.get("card")]}
        if kind == "trick":
            return {**view, "trick": []}
        return view

    def hints(self, view: JSON) -> JSON:
        """Vulnerability in words and per side, the auction's calls and what each
        means in the bidding system, the contract (its call: who declares is the
        view's) and each ended board's result, as read."""
        vul = str(view.get("vulnerability"))
        auction = view.get("auction") or []
        explained = explain_auction(auction) or []
        return {
            "vulnerable": _VULNERABLE.get(vul, vul),
            "vulnerable_sides": [vul in ("NS", "All"), vul in ("EW", "All")],
            "auction": [call_text(c.get("call")) for c in auction],
            # (none where the auction does not read as one: zip stops there)
            "explanations": [_as_alerted(e.json(), c)
                             for e, c in zip(explained, auction, strict=False)],
            "contract": call_text(view["contract"]) if view.get("contract") else None,
            "results": [board_result_text(r) for r in view.get("results") or []],
        }


def _as_alerted(explained: JSON, call: Any) -> JSON:
    """A call alerted with words is explained by them: they are the players' own
    agreement (an imported record's notes, a human's alert), which the system's
    reading of the call need not be."""
    words = call.get("alert") if isinstance(call, Mapping) else None
    if isinstance(words, str) and words.strip():
        return {"meaning": f"alerted: {words.strip()}", "forcing": explained["forcing"],
                "alert": True}
    return explained
