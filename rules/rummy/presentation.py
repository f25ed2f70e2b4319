"""Rummy (indian and gin) in words: draws, discards, declarations, knocks, lay-offs
and deal results; for the table, each hand grouped by its best melds, deadwood last.

The melds are the ones the view's ``arrangement`` names (the rules' own search);
deadwood points come from :mod:`rules.rummy.melds`, so a label's "deadwood 6" is
what the game would count.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from engine.cards import RANKS, CardParseError, card_ids, parse_face
from engine.presentation import (
    JSON,
    Presentation,
    capital,
    card_text,
    cards_text,
    plural,
    subject,
    verb,
    who,
)
from rules.rummy.melds import deadwood
from rules.rummy.options import MeldRules, Variant, meld_rules_for

_HOW = {
    "gin": "gin",
    "knock": "knock",
    "undercut": "undercut",
    "declare": "declaration",
    "wrong_declaration": "wrong declaration",
    "drops": "the others dropped",
    "void": "void deal",
}
_GIN_ENDS = ("gin", "knock", "undercut")
_POINTS = re.compile(r"points \[(-?[0-9]+(?:, -?[0-9]+)*)\]")
_SUIT_ORDER = {3: 0, 2: 1, 0: 2, 1: 3}  # spades, hearts, clubs, diamonds


def groups_text(groups: Any) -> str:
    """Melds as ``[7♠ 8♠ 9♠] [K♣ K♦ K♥]``."""
    if not isinstance(groups, list) or not groups:
        return "-"
    return " ".join(f"[{cards_text(g)}]" for g in groups)


def meld_rules(view: Mapping[str, Any]) -> MeldRules:
    """The meld rules a view's variant and wild rank make."""
    indian = view.get("variant") == Variant.INDIAN.value
    wild = view.get("wild_rank") if isinstance(view.get("wild_rank"), int) else None
    return meld_rules_for(Variant.INDIAN if indian else Variant.GIN, wild if indian else None)


def _hand_key(card: str) -> tuple[int, int]:
    f = parse_face(card)
    return (4, -f) if f >= 52 else (_SUIT_ORDER[f // 13], -(f % 13))


def hand_sorted(cards: Sequence[Any]) -> list[str]:
    """Cards in hand order: spades, hearts, clubs, diamonds, high to low; jokers last."""
    return sorted((str(c) for c in cards), key=_hand_key)


def _meld_order(meld: Mapping[str, Any]) -> list[str]:
    """A run in rank order (aces high after a king), a set by suit; jokers last."""
    wild = [str(c) for c in meld.get("wild") or []]
    natural = [str(c) for c in meld.get("cards") or []]
    for c in wild:
        if c in natural:
            natural.remove(c)
    if meld.get("kind") != "run":
        return [*hand_sorted(natural), *wild]
    king = any(c[0] == "K" for c in natural)

    def position(card: str) -> int:
        rank = parse_face(card) % 13
        return (13 if king else 0) if rank == 12 else rank + 1

    return [*sorted(natural, key=position), *wild]


def arrangement_groups(arr: Mapping[str, Any], note: str = "") -> list[JSON]:
    """An arrangement as display groups: runs (pure first), sets, then deadwood
    with its points (``{"label": "pure run", "cards": [...], "wild": [], "meld": true}``)."""
    melds = [m for m in arr.get("melds") or [] if isinstance(m, Mapping)]
    runs = sorted((m for m in melds if m.get("kind") == "run"), key=lambda m: m.get("jokers", 0))
    sets = [m for m in melds if m.get("kind") != "run"]
    out: list[JSON] = []
    for m in [*runs, *sets]:
        label = ("run" if m.get("jokers") else "pure run") if m.get("kind") == "run" else "set"
        wild = [str(c) for c in m.get("wild") or []]
        out.append({"label": label, "cards": _meld_order(m), "wild": wild, "meld": True})
    left = [str(c) for c in arr.get("leftover") or []]
    if left:
        label = f"deadwood · {arr.get('deadwood', 0)}{note}"
        out.append({"label": label, "cards": hand_sorted(left), "wild": [], "meld": False})
    return out


def deal_result_text(r: Mapping[str, Any], names: Sequence[str], gin: bool) -> str:
    """``Seat 1 wins 31 (gin)`` / ``Seat 2 wins (declaration); charged Seat 1 45``."""
    how = str(r.get("how"))
    word = _HOW.get(how, how)
    winner = r.get("winner")
    points = r.get("points") or []
    if gin or how in _GIN_ENDS:
        if winner is None:
            return word
        return f"{who(winner, names, None)} wins {max(points, default=0)} ({word})"
    charged = ", ".join(f"{who(i, names, None)} {p}" for i, p in enumerate(points) if p)
    head = f"{who(winner, names, None)} wins ({word})" if isinstance(winner, int) else word
    return f"{head}; charged {charged or 'nobody'}"


class RummyPresentation(Presentation):
    """Seats are numbered from 1, like the rules' own summaries."""

    # labels

    def action_label(self, view: JSON, action: Mapping[str, Any]) -> str:
        kind = action.get("type")
        card = card_text(action.get("card")) if "card" in action else ""
        if kind == "draw":
            if action.get("from") == "discard":
                pile = view.get("pile") or []
                top = card_text(pile[-1]) if pile else "the top card"
                return f"Take {top} from the discard pile"
            return "Draw from the stock"
        if kind == "discard":
            return f"Discard {card}"
        if kind == "knock":
            dead = self._knock_deadwood(view, action)
            if dead == 0:
                return f"Gin! discard {card}"
            return f"Knock with {card}" + (f" (deadwood {dead})" if dead is not None else "")
        if kind == "declare":
            return f"Declare, discarding {card}"
        if kind == "layoff":
            melds = view.get("table") or []
            i = action.get("meld")
            on = cards_text(melds[i]) if isinstance(i, int) and 0 <= i < len(melds) else f"meld {i}"
            return f"Lay off {card} on {on}"
        if kind == "done":
            return "Done laying off"
        if kind == "drop":
            return "Drop out of the deal"
        if kind == "next_deal":
            return "Deal the next hand"
        return capital(str(kind).replace("_", " "))

    def _knock_deadwood(self, view: JSON, action: Mapping[str, Any]) -> int | None:
        """Points the knocker keeps out of the action's melds (hand less discard and groups)."""
        rest = [str(c) for c in view.get("hand") or []]
        grouped = [str(action.get("card"))] + [
            str(c) for g in action.get("groups") or [] for c in g
        ]
        for c in grouped:
            if c not in rest:
                return None
            rest.remove(c)
        try:
            ids = card_ids(rest)
        except CardParseError:
            return None
        return deadwood(ids, meld_rules(view))

    # narration

    def narrate(
        self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]
    ) -> str | None:
        kind = event.get("kind")
        actor, you = subject(event.get("seat"), names, viewer)
        card = card_text(event.get("card"))
        if kind == "deal":
            line = (
                f"Deal {event.get('deal')} · {who(event.get('dealer'), names, viewer)} deals · "
                f"upcard {card_text(event.get('upcard'))}"
            )
            if event.get("wild_card"):
                line += f" · wild card {card_text(event['wild_card'])}"
            return line
        if kind == "hand":
            return f"You are dealt {plural(len(event.get('cards') or []), 'card')}" if you else None
        if kind == "draw":
            if event.get("from") == "discard":
                return f"{actor} {verb('take', you)} {card} from the discard pile"
            if "card" in event:
                return f"{actor} {verb('draw', you)} {card} from the stock"
            # The drawer (and a viewer of every hand) also sees this card-less
            # event's twin with the card: say it once.
            twin = you or (viewer is not None and viewer < -1)
            return None if twin else f"{actor} draws from the stock"
        if kind == "reshuffle":
            return (
                "The stock ran out: the discard pile is shuffled into a new stock "
                f"({plural(event.get('cards'), 'card')})"
            )
        if kind == "discard":
            return f"{actor} {verb('discard', you)} {card}"
        if kind == "drop":
            lost = plural(event.get("points"), "point")
            return f"{actor} {verb('drop', you)} out of the deal ({lost})"
        if kind == "declare":
            tail = "" if event.get("valid") else " — a wrong declaration!"
            groups = groups_text(event.get("groups"))
            return f"{actor} {verb('declare', you)}, discarding {card}: {groups}{tail}"
        if kind == "knock":
            groups = groups_text(event.get("groups"))
            if event.get("gin"):
                return f"{actor} {'go' if you else 'goes'} gin, discarding {card}: {groups}"
            return (
                f"{actor} {verb('knock', you)} with {event.get('points')} deadwood, "
                f"discarding {card}: {groups} · deadwood {cards_text(event.get('deadwood'))}"
            )
        if kind == "layoff":
            meld = event.get("meld")
            n = meld + 1 if isinstance(meld, int) else meld
            return f"{actor} {verb('lay', you)} off {card} on meld {n}"
        if kind == "deal_end":
            gin = str(event.get("how")) in _GIN_ENDS
            totals = "  ".join(
                f"{who(i, names, viewer)} {t}" for i, t in enumerate(event.get("totals") or [])
            )
            return f"Deal over: {deal_result_text(event, names, gin)} · totals {totals}"
        if kind == "game_over":
            return f"Game over: {self.summary(event, names)}"
        return None

    def summary(self, result: Mapping[str, Any], names: Sequence[str]) -> str:
        """The rules' ``points [144, 20]`` (stored so) as ``points: Seat 1 144, ...``."""
        text = str(result.get("summary") or "")
        found = _POINTS.search(text)
        if found is None:
            return text
        points = found.group(1).split(", ")
        if len(points) != len(names):
            return text
        said = ", ".join(f"{name} {p}" for name, p in zip(names, points, strict=True))
        return f"{text[:found.start()]}points: {said}{text[found.end():]}"

    # hints

    def hints(self, view: JSON) -> JSON:
        """Each hand shown, grouped by its best melds with deadwood last; the viewer's
        hand summed up; the wild card, the knock to lay off on, the deal's result."""
        gin = view.get("variant") == "gin"
        names = self.seat_names(len(view.get("hand_sizes") or []))
        out: JSON = {}
        arr = view.get("arrangement")
        if isinstance(arr, Mapping):
            hand = view.get("hand") or []
            note = " (before your discard)" if gin and len(hand) > 10 else ""
            out["hand"] = arrangement_groups(arr, note)
            out["summary"] = self._summary(arr, gin)
        arrs = view.get("arrangements")
        if isinstance(arrs, list):
            out["hands"] = [arrangement_groups(a) if isinstance(a, Mapping) else [] for a in arrs]
        if not gin and view.get("wild_card"):
            out["wild"] = self._wild_text(view)
        if gin and view.get("phase") == "layoff":
            out["knock"] = self._knock_text(view, names)
        last = view.get("last_deal")
        if isinstance(last, Mapping) and view.get("phase") in ("deal_over", "over"):
            out["deal_result"] = "Deal result: " + deal_result_text(last, names, gin)
        return out

    def _summary(self, arr: Mapping[str, Any], gin: bool) -> str:
        if gin:
            return "" if arr.get("leftover") else "gin: no deadwood"
        melds = list(arr.get("melds") or [])
        runs = [m for m in melds if m.get("kind") == "run"]
        pure = sum(1 for m in runs if not m.get("jokers"))
        ready = " · ready to declare" if arr.get("valid") else ""
        charged = min(int(arr.get("counted") or 0), 80)
        return (
            f"{plural(len(melds), 'meld')} ({plural(len(runs), 'run')}, {pure} pure) · "
            f"would be charged {charged}{ready}"
        )

    def _wild_text(self, view: JSON) -> str:
        card = str(view.get("wild_card"))
        rank = view.get("wild_rank")
        what = RANKS[rank] if isinstance(rank, int) and 0 <= rank < 13 else "?"
        what = "10" if what == "T" else what
        joker = " (a joker was cut: aces are wild)" if card in ("SJ", "BJ") else ""
        return f"Wild card: {card_text(card)}{joker} — {what}s and printed jokers are wild"

    def _knock_text(self, view: JSON, names: Sequence[str]) -> str:
        """``Seat 1 knocked with 6 deadwood (4♣ 2♦): melds 1) 7♠ 8♠ 9♠  2) K♣ K♦ K♥``."""
        melds = view.get("table") or []
        rest = [str(c) for c in view.get("knocker_hand") or []]
        for c in (str(c) for m in melds for c in m):
            if c in rest:
                rest.remove(c)
        numbered = "  ".join(f"{i + 1}) {cards_text(m)}" for i, m in enumerate(melds))
        dead = f" ({cards_text(hand_sorted(rest))})" if rest else ""
        return (
            f"{who(view.get('knocker'), names, None)} knocked with "
            f"{view.get('knocker_deadwood')} deadwood{dead}: melds {numbered}"
        )
