"""Rummy (indian and gin) as text: the table, the hand and its best melds, event lines, menu.

Pure formatting of the rummy ``view()`` and events (rules/rummy/game.py).  Seats are
shown as ``Seat 1``.. like the rules' own summaries.  The hand's best arrangement
is worked out with the rules' own search (:func:`rules.rummy.scoring.best_of`), so
the melds and deadwood shown are the ones the game would score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import RANKS, CardParseError, card_ids, face_of, format_face, parse_face
from rules.rummy.melds import deadwood
from rules.rummy.options import MeldRules, Variant, meld_rules_for
from rules.rummy.scoring import best_of
from server.terminal.render import (
    MenuItem,
    card_key,
    card_text,
    hand_line,
    is_card,
    plural,
    who,
)

_HOW = {
    "gin": "gin",
    "knock": "knock",
    "undercut": "undercut",
    "declare": "declaration",
    "wrong_declaration": "wrong declaration",
    "drops": "the others dropped",
    "void": "void deal",
}
# The menu's order of action kinds: a turn reads top to bottom.
_MENU_ORDER = ("draw", "drop", "discard", "knock", "declare", "layoff", "done", "next_deal")


def cards_text(cards: Any) -> str:
    """Cards in the order given, with suit symbols."""
    if not isinstance(cards, list) or not cards:
        return "-"
    return " ".join(card_text(str(c)) for c in cards)


def groups_text(groups: Any) -> str:
    """Melds as ``[7♠ 8♠ 9♠] [K♣ K♦ K♥]``."""
    if not isinstance(groups, list) or not groups:
        return "-"
    return " ".join(f"[{cards_text(g)}]" for g in groups)


def _rules(view: dict[str, Any]) -> MeldRules:
    indian = view.get("variant") == Variant.INDIAN.value
    wild = view.get("wild_rank") if isinstance(view.get("wild_rank"), int) else None
    return meld_rules_for(Variant.INDIAN if indian else Variant.GIN, wild if indian else None)


def _ids(cards: Sequence[str]) -> tuple[int, ...] | None:
    """Sorted card ids for spellings (a face seen twice gets the other copy)."""
    try:
        return tuple(sorted(card_ids([str(c) for c in cards])))
    except CardParseError:
        return None


def _spell(ids: Sequence[int]) -> list[str]:
    return [format_face(face_of(c)) for c in ids]


def melds_line(hand: Sequence[str], view: dict[str, Any]) -> str | None:
    """``Melds: [..] [..] · deadwood 4♣ 9♦ (13 points)`` for the hand at its best."""
    ids = _ids(hand)
    if not ids:
        return None
    rules = _rules(view)
    arr = best_of(ids, rules)
    melds = " ".join(f"[{cards_text(_spell(m.cards))}]" for m in arr.melds)
    left = sorted(_spell(arr.leftover), key=card_key)
    dead = f"deadwood {cards_text(left)} ({plural(deadwood(arr.leftover, rules), 'point')})"
    return f"Melds: {melds or 'none'} · {dead}" if left else f"Melds: {melds} · no deadwood"


def _wild_text(view: dict[str, Any]) -> str:
    card = str(view.get("wild_card"))
    rank = view.get("wild_rank")
    what = RANKS[rank] if isinstance(rank, int) else "?"
    what = "10" if what == "T" else what
    joker = " (a joker was cut: aces are wild)" if card in ("SJ", "BJ") else ""
    return f"Wild card: {card_text(card)}{joker} — {what}s and printed jokers are wild"


def _scores_line(view: dict[str, Any], names: Sequence[str], me: int | None) -> str:
    points = view.get("points") or []
    seats = "  ".join(f"{who(i, names, me)} {p}" for i, p in enumerate(points))
    if view.get("variant") == "gin":
        target = view.get("target")
        goal = f"game to {target}" if target else "one deal"
        boxes = view.get("boxes") or []
        won = f" · deals won {' '.join(str(b) for b in boxes)}" if any(boxes) else ""
        return f"Score: {seats} ({goal}){won}"
    pool = view.get("pool")
    goal = f"pool {pool}: out at {pool}" if pool else "one deal"
    return f"Points: {seats} ({goal}; fewest wins)"


def _seat_line(view: dict[str, Any], seat: int, names: Sequence[str], me: int | None) -> str:
    """An opponent: cards held, cards known (taken from the pile), dropped/out."""
    sizes = view.get("hand_sizes") or []
    n = sizes[seat] if seat < len(sizes) else 0
    row = f"  {who(seat, names, me)}: {plural(n, 'card')}"
    known = view.get("known") or []
    if seat < len(known) and known[seat]:
        row += f", holds {cards_text(known[seat])} (taken from the pile)"
    if (view.get("eliminated") or [False] * (seat + 1))[seat]:
        row += " — out of the pool"
    elif (view.get("out") or [False] * (seat + 1))[seat]:
        row += " — dropped this deal"
    if seat == view.get("dealer"):
        row += "  [dealer]"
    return row


def render_rummy(
    view: dict[str, Any], names: Sequence[str], me: int | None, to_act: Sequence[int]
) -> list[str]:
    """The rummy table: variant, deal, scores, stock and pile, the others, your hand."""
    gin = view.get("variant") == "gin"
    phase = str(view.get("phase"))
    title = "Gin rummy" if gin else "Indian rummy"
    lines = [f"{title} · deal {view.get('deal')} · {phase.replace('_', ' ')}"]
    lines.append(_scores_line(view, names, me))
    if not gin and view.get("wild_card"):
        lines.append(_wild_text(view))
    pile = view.get("pile") or []
    top = card_text(str(pile[-1])) if pile else "-"
    below = " ".join(card_text(str(c)) for c in reversed(pile[-9:-1]))
    more = " …" if len(pile) > 9 else ""
    lines.append(
        f"Stock: {plural(view.get('stock_size'), 'card')} · discard pile: {top}"
        + (f"  (below: {below}{more})" if below else "")
    )
    for seat in range(len(view.get("hand_sizes") or [])):
        if seat != me:
            lines.append(_seat_line(view, seat, names, me))
    if gin and phase == "layoff":
        lines += _knock_lines(view, names, me)
    last = view.get("last_deal")
    if isinstance(last, dict) and phase in ("deal_over", "over"):
        lines.append("Deal result: " + deal_result_text(last, names, view))
    for i, h in enumerate(view.get("hands") or []):
        lines.append(f"{who(i, names, me)}: {hand_line(h)}")
    hand = view.get("hand")
    if isinstance(hand, list) and phase not in ("deal_over", "over"):
        lines.append(f"Your hand ({len(hand)}): {hand_line(hand)}")
        melds = melds_line(hand, view)
        if melds:
            lines.append("  " + melds)
    if to_act:
        lines.append("To act: " + ", ".join(who(s, names, me) for s in to_act))
    return lines


def _knock_lines(view: dict[str, Any], names: Sequence[str], me: int | None) -> list[str]:
    """Gin lay-off: the knocker's melds (numbered as the menu names them) and deadwood."""
    knocker = view.get("knocker")
    melds = view.get("table") or []
    used = sorted(str(c) for m in melds for c in m)
    rest = list(view.get("knocker_hand") or [])
    for c in used:
        if c in rest:
            rest.remove(c)
    numbered = "  ".join(f"{i + 1}) {cards_text(m)}" for i, m in enumerate(melds))
    return [
        f"{who(knocker, names, me)} knocked: melds {numbered}",
        f"  deadwood {cards_text(sorted(rest, key=card_key))} "
        f"({plural(view.get('knocker_deadwood'), 'point')})",
    ]


def deal_result_text(r: dict[str, Any], names: Sequence[str], view: dict[str, Any]) -> str:
    """``Seat 1 wins 31 (gin)`` / ``Seat 2 declares; charged Seat 1 45``."""
    how = str(r.get("how"))
    winner = r.get("winner")
    points = r.get("points") or []
    if view.get("variant") == "gin" or how in ("gin", "knock", "undercut"):
        if winner is None:
            return _HOW.get(how, how)
        return f"{who(winner, names, None)} wins {max(points, default=0)} ({_HOW.get(how, how)})"
    charged = ", ".join(f"{who(i, names, None)} {p}" for i, p in enumerate(points) if p)
    head = f"{who(winner, names, None)} wins" if isinstance(winner, int) else _HOW.get(how, how)
    return f"{head} ({_HOW.get(how, how)}); charged {charged or 'nobody'}"


def rummy_event(event: dict[str, Any], names: Sequence[str], me: int | None) -> str | None:
    """One line for a rummy event (None for those the screen shows better)."""
    kind = event.get("kind")
    seat = event.get("seat")
    you = seat == me and seat is not None
    actor = "You" if you else who(seat, names, me)

    def verb(base: str) -> str:
        return base if you else base + ("es" if base.endswith("sh") else "s")

    if kind == "deal":
        line = (
            f"Deal {event.get('deal')} · {who(event.get('dealer'), names, me)} deals · "
            f"upcard {card_text(str(event.get('upcard')))}"
        )
        if event.get("wild_card"):
            line += f" · wild card {card_text(str(event['wild_card']))}"
        return line
    if kind == "hand":
        return f"You are dealt {plural(len(event.get('cards') or []), 'card')}" if you else None
    card = card_text(str(event.get("card")))
    if kind == "draw":
        if event.get("from") == "discard":
            return f"{actor} {verb('take')} {card} from the discard pile"
        if "card" in event:
            return f"{actor} {verb('draw')} {card} from the stock"
        # The drawer also gets this card-less copy's twin with the card: say it once.
        return None if you else f"{actor} draws from the stock"
    if kind == "reshuffle":
        return (
            "The stock ran out: the discard pile is shuffled into a new stock "
            f"({plural(event.get('cards'), 'card')})"
        )
    if kind == "discard":
        return f"{actor} {verb('discard')} {card}"
    if kind == "drop":
        return f"{actor} {verb('drop')} out of the deal ({plural(event.get('points'), 'point')})"
    if kind == "declare":
        head = f"{actor} {verb('declare')}, discarding {card}: "
        tail = "" if event.get("valid") else " — a wrong declaration!"
        return head + groups_text(event.get("groups")) + tail
    if kind == "knock":
        if event.get("gin"):
            return f"{actor} {'go' if you else 'goes'} gin, discarding {card}: " + groups_text(
                event.get("groups")
            )
        return (
            f"{actor} {verb('knock')} with {event.get('points')} deadwood, discarding {card}: "
            f"{groups_text(event.get('groups'))} · deadwood {cards_text(event.get('deadwood'))}"
        )
    if kind == "layoff":
        meld = event.get("meld")
        n = meld + 1 if isinstance(meld, int) else meld
        return f"{actor} {'lay' if you else 'lays'} off {card} on meld {n}"
    if kind == "deal_end":
        r = {"how": event.get("how"), "winner": event.get("winner"), "points": event.get("points")}
        totals = "  ".join(
            f"{who(i, names, me)} {t}" for i, t in enumerate(event.get("totals") or [])
        )
        how = str(event.get("how"))
        variant = "gin" if how in ("gin", "knock", "undercut") else ""
        return f"Deal over: {deal_result_text(r, names, {'variant': variant})} · totals {totals}"
    if kind == "game_over":
        return f"Game over: {event.get('summary')}"
    return None


def rummy_label(action: dict[str, Any], view: dict[str, Any]) -> str:
    """``draw from the stock``, ``take 7♣ from the discard pile``, ``discard K♣``,
    ``knock with 7♠ (deadwood 6)``, ``lay off 5♥ on 2♥ 3♥ 4♥``..."""
    kind = action.get("type")
    card = card_text(str(action.get("card"))) if "card" in action else ""
    if kind == "draw":
        if action.get("from") == "discard":
            pile = view.get("pile") or []
            top = card_text(str(pile[-1])) if pile else "the top card"
            return f"take {top} from the discard pile"
        return "draw from the stock"
    if kind == "discard":
        return f"discard {card}"
    if kind == "knock":
        dead = _knock_deadwood(action, view)
        if dead == 0:
            return f"gin! discard {card}"
        return f"knock with {card}" + (f" (deadwood {dead})" if dead is not None else "")
    if kind == "declare":
        return f"declare, discarding {card}"
    if kind == "layoff":
        melds = view.get("table") or []
        i = action.get("meld")
        on = cards_text(melds[i]) if isinstance(i, int) and 0 <= i < len(melds) else f"meld {i}"
        return f"lay off {card} on {on}"
    if kind == "done":
        return "done laying off"
    if kind == "drop":
        return "drop out of the deal"
    if kind == "next_deal":
        return "deal the next hand"
    return str(kind).replace("_", " ")


def _knock_deadwood(action: dict[str, Any], view: dict[str, Any]) -> int | None:
    """Points the knocker keeps out of the action's melds (hand less discard and groups)."""
    rest = [str(c) for c in view.get("hand") or []]
    grouped = [str(action.get("card"))] + [str(c) for g in action.get("groups") or [] for c in g]
    for c in grouped:
        if c not in rest:
            return None
        rest.remove(c)
    ids = _ids(rest)
    return None if ids is None else deadwood(ids, _rules(view))


def rummy_menu(legal: Sequence[dict[str, Any]], view: dict[str, Any]) -> list[MenuItem]:
    """The menu in turn order (draw, drop, discards in hand order, finish, lay-offs)."""

    def key(a: dict[str, Any]) -> tuple[int, tuple[int, int]]:
        kind = str(a.get("type"))
        rank = _MENU_ORDER.index(kind) if kind in _MENU_ORDER else len(_MENU_ORDER)
        card = a.get("card")
        return (rank, card_key(str(card)) if is_card(card) else (0, 0))

    ordered = sorted(enumerate(legal), key=lambda ia: (key(ia[1]), ia[0]))
    return [MenuItem(rummy_label(a, view), dict(a)) for _, a in ordered]


def rummy_card_input(text: str, menu: Sequence[MenuItem]) -> dict[str, Any] | None:
    """A typed single card is a discard of it (a knock/declare with the same card
    needs its menu number or label), or a lay-off when only one meld takes it."""
    try:
        f = parse_face(text.strip())
    except CardParseError:
        return None
    for kind in ("discard", "layoff"):
        hits = [
            m.action
            for m in menu
            if m.action.get("type") == kind
            and is_card(m.action.get("card"))
            and parse_face(str(m.action["card"])) == f
        ]
        if len(hits) == 1:
            return hits[0]
    return None
