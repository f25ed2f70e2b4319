"""Contract bridge as text: auction grid, contract, dummy, the trick, event lines, calls,
and the double-dummy analysis (a board's table and par; every card's score in a replay).

Pure formatting of the bridge ``view()`` and events (rules/bridge/game.py).  Seats
0..3 are North, East, South, West; the declarer plays the dummy's cards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from server.terminal.render import card_key, card_text, hand_line, plural, who

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
    if not m:
        return text
    return f"{m.group(1)}{_STRAIN[m.group(2)]}{m.group(3)}"


def parse_call_input(text: str) -> str | None:
    """A typed call in the server's spelling (``1♣``/``1c`` -> ``1C``, ``pass`` -> ``P``)."""
    t = text.strip().upper().replace(" ", "")
    for sym, letter in (("♣", "C"), ("♦", "D"), ("♥", "H"), ("♠", "S")):
        t = t.replace(sym, letter)
    words = {"P": "P", "PASS": "P", "X": "X", "D": "X", "DBL": "X", "DOUBLE": "X"}
    words.update({"XX": "XX", "R": "XX", "RDBL": "XX", "REDOUBLE": "XX"})
    if t in words:
        return words[t]
    m = re.fullmatch(r"([1-7])(NT|N|C|D|H|S)", t)
    if m:
        return m.group(1) + ("NT" if m.group(2) in ("N", "NT") else m.group(2))
    return None


def contract_text(contract: Any, declarer: Any) -> str:
    """``4♠ by South``."""
    if contract is None:
        return "-"
    by = COMPASS[declarer] if isinstance(declarer, int) and 0 <= declarer < 4 else "?"
    return f"{call_text(contract)} by {by}"


def _level(contract: str) -> int:
    return int(contract[0]) if contract[:1].isdigit() else 0


def board_result_text(r: dict[str, Any]) -> str:
    """``Board 1: 4♠ by S made 10, NS +420`` (or ``down 2``, or passed out)."""
    if r.get("contract") is None:
        return f"Board {r.get('board')}: passed out, NS 0"
    contract, tricks = str(r["contract"]), r.get("tricks")
    declarer = r.get("declarer")
    seat = "NESW"[declarer] if isinstance(declarer, int) and 0 <= declarer < 4 else "?"
    need = _level(contract) + 6
    if not isinstance(tricks, int):
        outcome = "?"
    elif tricks >= need:
        outcome = f"made {tricks}"
    else:
        outcome = f"down {need - tricks}"
    score = r.get("score_ns", 0)
    return f"Board {r.get('board')}: {call_text(contract)} by {seat} {outcome}, NS {score:+d}"


class BridgeNarrator:
    """Event lines; remembers how many cards the current trick holds (a first card *leads*)
    and who declares (dummy's cards are played by the declarer)."""

    def __init__(self) -> None:
        self.in_trick = 0
        self.declarer: int | None = None

    def sync(self, view: dict[str, Any]) -> None:
        """Start from a snapshot (a resume may land in the middle of a trick)."""
        trick = view.get("trick")
        self.in_trick = len(trick) if isinstance(trick, list) else 0
        declarer = view.get("declarer")
        self.declarer = declarer if isinstance(declarer, int) and view.get("contract") else None

    def line(self, event: dict[str, Any], names: Sequence[str], me: int | None) -> str | None:
        kind = event.get("kind")
        seat = event.get("seat")
        you = seat == me
        actor = "You" if you else who(seat, names, me)
        if kind == "deal":
            self.in_trick, self.declarer = 0, None
            vul = _VULNERABLE.get(str(event.get("vulnerability")), event.get("vulnerability"))
            return (
                f"Board {event.get('board')} · dealer {who(event.get('dealer'), names, me)} · "
                f"vulnerable: {vul}"
            )
        if kind == "hand":
            return f"You are dealt {plural(len(event.get('cards') or []), 'card')}" if you else None
        if kind == "call":
            call = str(event.get("call"))
            if call == "P":
                return f"{actor} {'pass' if you else 'passes'}"
            if call in ("X", "XX"):
                word = "double" if call == "X" else "redouble"
                return f"{actor} {word if you else word + 's'}"
            return f"{actor} {'bid' if you else 'bids'} {call_text(call)}"
        if kind == "passed_out":
            return f"Board {event.get('board')} is passed out"
        if kind == "contract":
            declarer = event.get("declarer")
            self.declarer = declarer if isinstance(declarer, int) else None
            return f"Contract: {contract_text(event.get('contract'), event.get('declarer'))}"
        if kind == "play":
            verb = "lead" if self.in_trick == 0 else "play"
            self.in_trick = (self.in_trick + 1) % 4
            where = ""
            if self.declarer is not None and seat == (self.declarer + 2) % 4:
                # Dummy's card, chosen by the declarer: credit the one who chose it.
                you, where = self.declarer == me, " from dummy"
                actor = "You" if you else who(self.declarer, names, me)
            card = card_text(str(event.get("card")))
            return f"{actor} {verb if you else verb + 's'} {card}{where}"
        if kind == "dummy":
            return (
                f"Dummy ({who(seat, names, me)}) goes down: {hand_line(event.get('cards') or [])}"
            )
        if kind == "trick":
            self.in_trick = 0
            winner = event.get("winner")
            side = SIDES[winner % 2] if isinstance(winner, int) else "?"
            tricks = event.get("tricks") or [0, 0]
            return (
                f"{side} win the trick ({who(winner, names, me)})  NS {tricks[0]} – EW {tricks[1]}"
            )
        if kind == "claim":
            n = event.get("tricks")
            return f"{actor} {'claim' if you else 'claims'} {n} of the remaining tricks"
        if kind == "claim_answer":
            return f"{actor} {'accept' if you else 'accepts'} the claim"
        if kind == "claim_rejected":
            return f"{actor} {'reject' if you else 'rejects'} the claim; play goes on"
        if kind == "claim_accepted":
            by = "by the defenders" if event.get("by") == "defenders" else "(it holds double dummy)"
            return f"The claim is accepted {by}"
        if kind == "board_end":
            line = board_result_text(event)
            return line + f"  (total NS {event.get('total_ns', 0):+d})"
        if kind == "game_over":
            return f"Game over: {event.get('summary')}"
        return None


def bridge_label(action: dict[str, Any], view: dict[str, Any]) -> str:
    """``1♣``, ``Pass``, a card, ``claim 7 tricks``, ``accept claim``."""
    kind = action.get("type")
    if kind == "call":
        return call_text(action.get("call"))
    if kind == "play":
        return card_text(str(action.get("card")))
    if kind == "claim":
        return f"claim {action.get('tricks')}"
    return str(kind).replace("_", " ")


def auction_lines(auction: Sequence[dict[str, Any]], dealer: int) -> list[str]:
    """The auction as a grid under North, East, South, West (blank cells before the dealer)."""
    cells = [""] * dealer + [call_text(c.get("call")) for c in auction]
    rows = ["  " + "".join(f"{n:<10}" for n in COMPASS).rstrip()]
    for start in range(0, len(cells), 4):
        rows.append("  " + "".join(f"{c:<10}" for c in cells[start : start + 4]).rstrip())
    return rows


def _trick_line(cards: Sequence[str], leader: int, names: Sequence[str], me: int | None) -> str:
    return "  ".join(
        f"{who((leader + i) % 4, names, me)} {card_text(c)}" for i, c in enumerate(cards)
    )


def render_bridge(
    view: dict[str, Any], names: Sequence[str], me: int | None, to_act: Sequence[int]
) -> list[str]:
    """The bridge table: board, auction, contract, tricks, dummy, the trick, your hand."""
    dealer = int(view.get("dealer") or 0)
    vul = _VULNERABLE.get(str(view.get("vulnerability")), view.get("vulnerability"))
    head = f"Board {view.get('board')}"
    if (view.get("boards") or 1) > 1:
        head += f" ({view.get('board_index')}/{view.get('boards')})"
    lines = [f"{head} · dealer {who(dealer, names, me)} · vulnerable: {vul} · {view.get('phase')}"]
    if view.get("results"):
        lines.append(f"Score so far: NS {view.get('total_ns', 0):+d}")
    auction = view.get("auction") or []
    if view.get("phase") == "auction" or auction:
        lines.append("Auction:")
        lines += auction_lines(auction, dealer)
    contract = view.get("contract")
    if contract:
        tricks = view.get("tricks") or {}
        dummy = view.get("dummy")
        won = f"NS {tricks.get('NS', 0)} – EW {tricks.get('EW', 0)}"
        lines.append(
            f"Contract: {call_text(contract)} by {who(view.get('declarer'), names, me)} · "
            f"dummy {who(dummy, names, me)} · tricks {won}"
        )
        if view.get("last_trick"):
            lines.append(
                "Last trick: "
                + _trick_line(view["last_trick"], int(view.get("last_leader") or 0), names, me)
            )
        trick = view.get("trick") or []
        leader = int(view.get("leader") or 0)
        lines.append("Trick:      " + (_trick_line(trick, leader, names, me) if trick else "-"))
        if "dummy_hand" in view:
            lines.append(f"Dummy ({who(dummy, names, me)}): {hand_line(view['dummy_hand'])}")
    claim = view.get("claim")
    if claim:
        lines.append(
            f"Claim: {who(claim.get('seat'), names, me)} claims {claim.get('tricks')} "
            "of the remaining tricks"
        )
    if "hand" in view and view.get("phase") != "over":
        lines.append(f"Your hand:  {hand_line(view['hand'])}")
    for i, h in enumerate(view.get("hands") or []):
        lines.append(f"{who(i, names, me)}: {hand_line(h)}")
    for r in view.get("results") or []:
        lines.append(board_result_text(r))
    if to_act:
        nxt = view.get("next_player")
        text = ", ".join(who(s, names, me) for s in to_act)
        if isinstance(nxt, int) and nxt == view.get("dummy") and nxt not in to_act:
            text += f" (for dummy {who(nxt, names, me)})"
        lines.append("To act:     " + text)
    return lines


_TABLE_STRAINS = ("N", "S", "H", "D", "C")  # columns: notrump first, then spades down


def analysis_lines(a: dict[str, Any]) -> list[str]:
    """A board's double-dummy table (tricks per declarer and strain) and its par."""
    table = a.get("dd_table") or {}
    lines = [f"Double dummy, board {a.get('board')} (tricks for each declarer):"]
    lines.append("  " + " " * 7 + "".join(f"{_STRAIN[st]:>4}" for st in _TABLE_STRAINS))
    for i, seat in enumerate("NESW"):
        row = "".join(f"{table.get(st, {}).get(seat, '?'):>4}" for st in _TABLE_STRAINS)
        lines.append(f"  {COMPASS[i]:<7}{row}")
    lines.append(par_text(a.get("par") or {}))
    return lines


def par_text(p: dict[str, Any]) -> str:
    """``Par: NS +620 (4♠ by N/S, 10 tricks)``; ``Par: 0 (passed out)``."""
    contracts = p.get("contracts") or []
    score = int(p.get("score_ns") or 0)
    if not contracts:
        return "Par: 0 (passed out)"
    parts = []
    for c in contracts:
        by = "/".join(str(c.get("declarers") or "?"))
        parts.append(f"{call_text(c.get('contract'))} by {by}, {c.get('tricks')} tricks")
    return f"Par: NS {score:+d} ({'; '.join(parts)})"


def play_analysis_lines(a: dict[str, Any]) -> list[str]:
    """A played card against every legal card: scores, the best, what it cost."""
    scores: dict[str, int] = a.get("scores") or {}
    seat = a.get("seat")
    side = SIDES[seat % 2] if isinstance(seat, int) else "?"
    played, best, cost = a.get("played"), int(a.get("best") or 0), int(a.get("cost") or 0)
    cells = []
    for card in sorted(scores, key=card_key):
        mark = "*" if card == played else ""
        cells.append(f"{mark}{card_text(card)} {scores[card]}")
    lines = [
        f"  double dummy, tricks {side} take from here (* played): " + "  ".join(cells),
    ]
    if cost:
        best_cards = [card_text(c) for c in sorted(scores, key=card_key) if scores[c] == best]
        lines.append(
            f"  {card_text(str(played))} cost {plural(cost, 'trick')}: "
            f"{best - cost} instead of {best} "
            f"(best: {' '.join(best_cards)})"
        )
    else:
        lines.append(f"  {card_text(str(played))} was a best play ({plural(best, 'trick')})")
    return lines
