"""Contract bridge as text: the auction grid, contract, dummy, the trick, typed calls,
and the double-dummy analysis (a board's table and par; every card's score in a replay).

Pure drawing of the bridge ``view()``; the calls, the contract, vulnerability and board
results as the table reads them come in the frame's ``hints``.  Seats 0..3 are North,
East, South, West; the declarer plays the dummy's cards.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from clients.terminal.render import card_key, card_text, hand_line, trick_line, who

COMPASS = ("North", "East", "South", "West")
SIDES = ("North/South", "East/West")
_STRAIN = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT", "N": "NT"}
_CONTRACT = re.compile(r"^([1-7])(NT|N|C|D|H|S)(X{0,2})$")


def _contract_text(contract: Any) -> str:
    """A par contract of the analysis (``4S`` -> ``4♠``)."""
    m = _CONTRACT.match(str(contract))
    return f"{m.group(1)}{_STRAIN[m.group(2)]}{m.group(3)}" if m else str(contract)


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


def auction_lines(calls: Sequence[str], dealer: int) -> list[str]:
    """The auction (calls as read) as a grid under North, East, South, West (blank
    cells before the dealer)."""
    cells = [""] * dealer + list(calls)
    rows = ["  " + "".join(f"{n:<10}" for n in COMPASS).rstrip()]
    for start in range(0, len(cells), 4):
        rows.append("  " + "".join(f"{c:<10}" for c in cells[start : start + 4]).rstrip())
    return rows


def meaning_lines(
    calls: Sequence[str], explanations: Sequence[Any], dealer: int, names: Sequence[str],
    me: int | None,
) -> list[str]:
    """What each call but a pass means by the bidders' system (public: the table is
    told), one line each: ``  South 2♣ (alert): Stayman: 8+ HCP…; forcing``."""
    lines = []
    for i, (call, e) in enumerate(zip(calls, explanations, strict=False)):
        if call == "Pass" or not isinstance(e, dict):
            continue
        alert = " (alert)" if e.get("alert") else ""
        lines.append(f"  {who((dealer + i) % 4, names, me)} {call}{alert}: {e.get('meaning')}")
    return lines


def render_bridge(
    view: dict[str, Any],
    hints: dict[str, Any],
    names: Sequence[str],
    me: int | None,
    to_act: Sequence[int],
) -> list[str]:
    """The bridge table: board, auction, contract, tricks, dummy, the trick, your hand."""
    dealer = int(view.get("dealer") or 0)
    head = f"Board {view.get('board')}"
    if (view.get("boards") or 1) > 1:
        head += f" ({view.get('board_index')}/{view.get('boards')})"
    lines = [
        f"{head} · dealer {who(dealer, names, me)} · vulnerable: {hints.get('vulnerable')} · "
        f"{view.get('phase')}"
    ]
    if view.get("results"):
        lines.append(f"Score so far: NS {view.get('total_ns', 0):+d}")
    auction = hints.get("auction") or []
    if view.get("phase") == "auction" or auction:
        lines.append("Auction:")
        lines += auction_lines(auction, dealer)
        lines += meaning_lines(auction, hints.get("explanations") or [], dealer, names, me)
    if view.get("contract"):
        tricks = view.get("tricks") or {}
        dummy = view.get("dummy")
        won = f"NS {tricks.get('NS', 0)} – EW {tricks.get('EW', 0)}"
        lines.append(
            f"Contract: {hints.get('contract')} by {who(view.get('declarer'), names, me)} · "
            f"dummy {who(dummy, names, me)} · tricks {won}"
        )
        if view.get("last_trick"):
            lines.append(
                "Last trick: "
                + trick_line(view["last_trick"], int(view.get("last_leader") or 0), names, me)
            )
        trick = view.get("trick") or []
        leader = int(view.get("leader") or 0)
        lines.append("Trick:      " + (trick_line(trick, leader, names, me) if trick else "-"))
        if "dummy_hand" in view:
            lines.append(f"Dummy ({who(dummy, names, me)}): {hand_line(view['dummy_hand'])}")
    claim = view.get("claim")
    if claim:
        n, left = claim.get("tricks"), claim.get("remaining", "the")
        what = "concedes every" if n == 0 else f"claims {n} of the"
        lines.append(
            f"Claim: {who(claim.get('seat'), names, me)} {what} remaining {left} tricks"
        )
        if claim.get("hand"):
            lines.append(f"Faced:      {hand_line(claim['hand'])}")
        answer = [s for s in claim.get("answer") or [] if s not in (claim.get("accepted") or [])]
        if answer:
            lines.append("Answering:  " + ", ".join(who(s, names, me) for s in answer))
    if "hand" in view and view.get("phase") != "over":
        lines.append(f"Your hand:  {hand_line(view['hand'])}")
    for i, h in enumerate(view.get("hands") or []):
        lines.append(f"{who(i, names, me)}: {hand_line(h)}")
    lines += list(hints.get("results") or [])
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
        parts.append(f"{_contract_text(c.get('contract'))} by {by}, {c.get('tricks')} tricks")
    return f"Par: NS {score:+d} ({'; '.join(parts)})"


def play_analysis_lines(a: dict[str, Any]) -> list[str]:
    """A played card against every legal card: scores, the best, what it cost."""
    scores: dict[str, int] = a.get("scores") or {}
    seat = a.get("seat")
    side = SIDES[seat % 2] if isinstance(seat, int) else "?"
    played = a.get("played")
    cells = []
    for card in sorted(scores, key=card_key):
        mark = "*" if card == played else ""
        cells.append(f"{mark}{card_text(card)} {scores[card]}")
    return [
        f"  double dummy, tricks {side} take from here (* played): " + "  ".join(cells),
        f"  {a.get('verdict', '')}",
    ]
