"""Tractor (Sheng Ji) in words: declarations, plays named by their shape (pair,
tractor, throw), tricks with the points they carry, rounds and levels; and for the
table, the viewer's hand in trump order with each card's points.

The trump order and the shapes come from the rules themselves (:mod:`rules.tractor.order`,
:mod:`rules.tractor.structure`), so the hand reads the way the game compares cards.
In the classic game seats 0..3 are North, East, South, West and North/South play
East/West; Finding Friends tables (5-8 seats) have no fixed sides.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from engine.cards import RANKS, SUITS, CardParseError, card_ids, face_of, format_face, parse_face
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
from rules.tractor.friends import callable_faces
from rules.tractor.options import FriendSelection
from rules.tractor.order import TRUMP, Trump, rank_index, tables
from rules.tractor.scoring import card_points
from rules.tractor.sides import after_rounds
from rules.tractor.structure import get_structure, suit_of_play
from rules.tractor.tuples import decompose, describe

COMPASS = ("North", "East", "South", "West")
# Natural suits in hand order: spades, hearts, clubs, diamonds (colours alternate).
_SUIT_LINE = (3, 2, 0, 1)
_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def rank_text(rank: Any) -> str:
    """``T`` -> ``10``; other rank letters unchanged."""
    return "10" if rank == "T" else str(rank)


def trump_text(suit: Any) -> str:
    """A ``trump_suit``: ``♥``, ``no trump``, or ``not fixed yet``."""
    if suit is None:
        return "not fixed yet"
    if suit == "NT":
        return "no trump"
    return _SYMBOL.get(str(suit), str(suit))


def ordinal(n: Any) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``..."""
    return f"{n}" + {1: "st", 2: "nd", 3: "rd"}.get(n if isinstance(n, int) else 0, "th")


def call_text(call: Mapping[str, Any]) -> str:
    """A friend call: ``the 1st A♠``."""
    return f"the {ordinal(call.get('nth'))} {card_text(call.get('card'))}"


def declaration_text(cards: Any) -> str:
    """``♥ with 2♥`` / ``no trump with SJ SJ``."""
    shown = cards if isinstance(cards, list) else []
    first = str(shown[0]) if shown else "?"
    suit = "no trump" if first in ("SJ", "BJ") else _SYMBOL.get(first[-1:], "?")
    return f"{suit} with {cards_text(shown)}"


def trump_of(rank: Any, suit: Any) -> Trump | None:
    """The rules' Trump for a view's rank letter and trump suit (None: unreadable)."""
    if not isinstance(rank, str) or (rank not in RANKS and rank != "NT"):
        return None
    s = SUITS.index(suit) if isinstance(suit, str) and len(suit) == 1 and suit in SUITS else None
    return Trump(rank_index(rank), None if rank == "NT" else s)


def pending_suit(view: Mapping[str, Any]) -> str | None:
    """The trump suit: the fixed one, else the winning declaration's (during the draw,
    what would be trump if nobody overrides it); None before any declaration."""
    suit = view.get("trump_suit")
    decls = view.get("declarations") or []
    if suit is None and decls:
        card = str((decls[-1].get("cards") or ["SJ"])[0])
        suit = "NT" if card in ("SJ", "BJ") else card[-1]
    return suit if isinstance(suit, str) else None


def _ids(cards: Sequence[Any]) -> list[int] | None:
    try:
        return card_ids([str(c) for c in cards])
    except CardParseError:
        return None


def shape(cards: Sequence[Any], trump: Trump | None, tuples: bool = False) -> str:
    """What a play of several cards is: ``pair``, ``tractor of 3 pairs``,
    ``2 pairs + 1 single``; empty for a single card, a mixed follow, or no trump known.
    ``tuples``: the table cuts plays into tuples (``triple``, ``tractor of 2 triples``)."""
    ids = _ids(cards)
    if trump is None or ids is None or len(ids) < 2 or suit_of_play(ids, trump) is None:
        return ""
    if tuples:
        return describe(decompose(ids, trump).shapes)
    template = get_structure(ids, trump, pairs_only=True).template
    if template.blocks == 1 and template.pairs == 1:
        return "pair"
    if template.blocks == 1 and template.tractors:
        return f"tractor of {template.tractors[0]} pairs"
    return template.describe()


def is_throw(what: str) -> bool:
    """Whether a :func:`shape` names several units (led at once, that is a throw)."""
    return bool(what) and ("+" in what or "×" in what or what[0].isdigit())


def _tuples(view: JSON) -> bool:
    return bool((view.get("rules") or {}).get("tuples"))


def hand_groups(cards: Sequence[Any], trump: Trump | None) -> list[JSON]:
    """A hand as groups: trumps first, then ♠ ♥ ♣ ♦, each highest first, with each
    card's points (``{"label": "trumps", "cards": ["BJ", "2H"], "points": [0, 0]}``)."""
    faces = [_face(str(c)) for c in cards]
    if trump is None or any(f is None for f in faces):
        shown = [str(c) for c in cards]
        points = [card_points(f) if f is not None else 0 for f in faces]
        return [{"label": "", "cards": shown, "points": points}] if shown else []
    t = tables(trump)
    groups: dict[int, list[int]] = {}
    for f in faces:
        assert f is not None
        groups.setdefault(t.suit[f], []).append(f)
    out = []
    for suit in (TRUMP, *_SUIT_LINE):
        if suit in groups:
            ordered = sorted(groups[suit], key=lambda f: (-t.phi[f], -f))
            label = "trumps" if suit == TRUMP else _SYMBOL[SUITS[suit]]
            out.append(
                {
                    "label": label,
                    "cards": [format_face(f) for f in ordered],
                    "points": [card_points(f) for f in ordered],
                }
            )
    return out


@lru_cache(maxsize=256)
def _face(card: str) -> int | None:
    """The face a spelling names, or None (cached: a hand is spelled in every frame)."""
    try:
        return parse_face(card)
    except CardParseError:
        return None


def fixed_teams(view: Mapping[str, Any]) -> bool:
    """Whether the table has the classic fixed partnerships (not Finding Friends)."""
    return "landlord_side" not in view and len(view.get("hand_sizes") or [0] * 4) == 4


def teams(names: Sequence[str]) -> tuple[str, str]:
    """The two partnerships' names (``North/South``, ``East/West``)."""
    if len(names) == 4:
        return f"{names[0]}/{names[2]}", f"{names[1]}/{names[3]}"
    return "seats 1 and 3", "seats 2 and 4"


_SEATS_WIN = re.compile(r"\bseats ([0-9]+(?:, [0-9]+)*) win\b")
_SEAT = re.compile(r"\bseat ([0-9]+)\b")


class TractorPresentation(Presentation):
    """Four seats by the compass, Finding Friends tables by number."""

    remembers = True  # a first card leads; tricks are scored by the landlord's side

    def seat_names(self, count: int) -> list[str]:
        return list(COMPASS) if count == 4 else super().seat_names(count)

    def summary(self, result: Mapping[str, Any], names: Sequence[str]) -> str:
        """The rules' ``seats 0 and 2`` spelled as the table's team names, and
        Finding Friends' ``seat 4`` (numbered from 1) as the seat's name."""
        a, b = teams(names)
        text = str(result.get("summary") or "")
        text = text.replace("seats 0 and 2", a).replace("seats 1 and 3", b)

        def name(number: str) -> str:
            k = int(number)
            return names[k - 1] if 0 < k <= len(names) else f"seat {number}"

        text = _SEATS_WIN.sub(
            lambda m: ", ".join(name(k) for k in m.group(1).split(", ")) + " win", text)
        return _SEAT.sub(lambda m: name(m.group(1)), text)

    # labels

    def action_label(self, view: JSON, action: Mapping[str, Any]) -> str:
        kind = action.get("type")
        cards = [str(c) for c in action.get("cards") or []]
        if kind == "draw":
            left = view.get("stock_left")
            return f"Draw ({left} left)" if isinstance(left, int) else "Draw"
        if kind == "declare":
            # Only the holder of a single can own the other copy: a pair of the card
            # declared last is that declarer strengthening its own declaration.
            decls = view.get("declarations") or []
            last = decls[-1].get("cards") if decls else None
            reinforce = len(cards) == 2 and last == cards[:1]
            word = "Reinforce to" if reinforce else "Declare"
            steal = " (take the kitty)" if view.get("phase") == "overbid" else ""
            return f"{word} {declaration_text(cards)}{steal}"
        if kind == "pass":
            return "Pass (do not declare)"
        if kind == "play":
            what = shape(cards, trump_of(view.get("rank"), view.get("trump_suit")), _tuples(view))
            if is_throw(what) and not view.get("trick"):
                what = "throw: " + what
            return f"Play {cards_text(cards)}" + (f" ({what})" if what else "")
        if kind == "bury":
            return f"Bury {cards_text(cards)}"
        if kind == "next_round":
            return "Start the next round"
        if kind == "call":
            calls = [c for c in action.get("calls") or [] if isinstance(c, Mapping)]
            return "Call " + ", ".join(call_text(c) for c in calls)
        if kind == "takeback":
            return "Take back your play"
        if kind == "takeback_bid":
            return "Withdraw your declaration"
        if kind == "end_round":
            return "End the round now (its result is decided)"
        if kind == "end_match":
            return "End the match (agreed by the players)"
        if kind == "confirm":
            return "Let the play stand"
        return capital(str(kind).replace("_", " "))

    # narration

    def narrate(
        self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]
    ) -> str | None:
        kind = event.get("kind")
        seat = event.get("seat")
        actor, you = subject(seat, names, viewer)
        if kind == "deal":
            landlord = event.get("landlord")
            lead = (
                f"landlord {who(landlord, names, viewer)}"
                if isinstance(landlord, int)
                # Whose declaration makes the landlord is a house rule
                # (first_landlord), which the draw's view does not carry.
                else "the declarations decide the landlord"
            )
            return (
                f"Round {event.get('round')} · playing {rank_text(event.get('rank'))}s · {lead} · "
                f"{who(event.get('starter'), names, viewer)} draws first"
            )
        if kind == "drawn":
            return f"You draw {card_text(event.get('card'))}" if you else None
        if kind in ("draw", "confirm"):
            return None  # a hundred draws: the table shows the stock going down
        if kind == "declare":
            return f"{actor} {verb('declare', you)} {declaration_text(event.get('cards'))}"
        if kind == "pass":
            return f"{actor} {verb('pass', you)} on declaring"
        if kind == "redeal":
            return "Nobody declared: the cards are shuffled and dealt again"
        if kind == "kitty_revealed":
            return (
                f"Nobody declared: the kitty is turned up ({cards_text(event.get('cards'))}), "
                f"trump {trump_text(event.get('suit'))}"
            )
        if kind == "trump":
            return (
                f"Trump: {trump_text(event.get('suit'))} "
                f"(playing {rank_text(event.get('rank'))}s)"
                f" · landlord {who(event.get('landlord'), names, viewer)}"
            )
        if kind == "kitty":
            return f"You pick up the kitty: {cards_text(event.get('cards'))}" if you else None
        if kind == "kitty_taken":
            return (f"{actor} {verb('overbid', you)} and {verb('take', you)} the kitty "
                    f"from {who(event.get('from'), names, viewer)}: trump "
                    f"{trump_text(event.get('suit'))}")
        if kind == "buried":
            return f"{actor} {verb('bury', you)} {plural(event.get('count'), 'card')}"
        if kind == "throw_failed":
            return (
                f"Throw failed: {who(seat, names, viewer)} must play "
                f"{cards_text(event.get('forced'))} "
                f"(tried {plural(event.get('attempted'), 'card')}; "
                f"{plural(event.get('penalty'), 'point')} penalty)"
            )
        if kind == "play":
            cards = [str(c) for c in event.get("cards") or []]
            what = shape(cards, trump_of(view.get("rank"), view.get("trump_suit")), _tuples(view))
            leading = not view.get("trick")
            word = "throw" if leading and is_throw(what) else "lead" if leading else "play"
            return f"{actor} {verb(word, you)} {cards_text(cards)}" + (f" ({what})" if what else "")
        if kind == "trick":
            return self._trick(view, event, viewer, names)
        if kind == "round_end":
            return self._round_end(view, event, viewer, names)
        if kind == "friends_called":
            calls = ", ".join(call_text(c) for c in event.get("calls") or [])
            return f"{actor} {verb('call', you)} for friends: {calls}"
        if kind == "friend":
            found = f"{actor} {'are' if you else 'is'} a friend of the landlord"
            wasted = " (the landlord's own card: no friend)" if event.get("wasted") else ""
            return f"{found}, playing {call_text(event)}{wasted}"
        if kind == "takeback":
            return f"{actor} {verb('take', you)} back {cards_text(event.get('cards'))}"
        if kind == "round_ended_early":
            return "The round ends early: its result can no longer change"
        if kind == "match_ended":
            return (f"The players agree to end the match "
                    f"{after_rounds(int(event.get('rounds') or 0))}: the levels stand as "
                    "they are")
        if kind == "takeback_bid":
            return (f"{actor} {verb('withdraw', you)} the declaration "
                    f"{declaration_text(event.get('cards'))}")
        if kind == "game_over":
            return f"Game over: {self.summary(event, names)}"
        return None

    def _trick(self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]) -> str:
        winner = event.get("winner")
        won = event.get("points") or 0
        head = "You win" if winner == viewer else f"{who(winner, names, viewer)} wins"
        if not won:
            return f"{head} the trick"
        in_all = event.get("attacker_points")
        if not fixed_teams(view):  # Finding Friends: sides are found during play
            return f"{head} the trick ({plural(won, 'point')}; attackers {in_all})"
        landlord = view.get("landlord")
        if isinstance(winner, int) and isinstance(landlord, int) and winner % 2 != landlord % 2:
            return f"{head} the trick (+{plural(won, 'point')}, {in_all} in all)"
        return f"{head} the trick ({plural(won, 'point')} saved)"

    def _round_end(self, view: JSON, event: JSON, viewer: int | None, names: Sequence[str]) -> str:
        a, b = teams(names)
        up_side = a if event.get("team_up") == 0 else b
        if "seats_up" in event:  # Finding Friends: the seats that gained
            up_side = ", ".join(who(s, names, viewer) for s in event.get("seats_up") or [])
        kitty = ""
        if event.get("kitty_bonus"):
            kitty = (
                f" (kitty {event.get('kitty_points')} × {event.get('kitty_multiplier')}"
                f" = {event.get('kitty_bonus')})"
            )
        levels = event.get("levels") or []
        if fixed_teams(view) and len(levels) == 4:
            now = f"{a} at {rank_text(levels[0])}, {b} at {rank_text(levels[1])}"
        else:
            now = ", ".join(f"{who(i, names, viewer)} {rank_text(v)}" for i, v in enumerate(levels))
        up = event.get("levels_up", 0)
        change = f"{up_side} go up {up}" if up else f"{up_side} take the table"
        if not event.get("attackers_win"):
            change = f"{up_side} keep the table and go up {up}"
        return (
            f"Round {event.get('round')} over: "
            f"attackers {plural(event.get('attacker_points'), 'point')}"
            f"{kitty}; {change} → {now}; kitty was {cards_text(event.get('kitty'))}"
        )

    def advance(self, view: JSON, event: JSON) -> JSON:
        kind = event.get("kind")
        if kind == "deal":
            return {
                **view,
                "rank": event.get("rank"),
                "trump_suit": None,
                "landlord": event.get("landlord"),
                "trick": [],
            }
        if kind == "trump":
            return {
                **view,
                "rank": event.get("rank"),
                "trump_suit": event.get("suit"),
                "landlord": event.get("landlord"),
            }
        if kind == "play":
            play = {"seat": event.get("seat"), "cards": event.get("cards")}
            return {**view, "trick": [*(view.get("trick") or []), play]}
        if kind == "takeback":
            return {**view, "trick": list(view.get("trick") or [])[:-1]}
        if kind == "trick":
            return {**view, "trick": []}
        return view

    # hints

    def hints(self, view: JSON) -> JSON:
        """The trump (fixed or pending), the viewer's hand (and every hand shown) in
        trump order with points, the group that follows the suit led, the cards a
        friend call may name, the sides, the last round's and the game's result in words."""
        suit = pending_suit(view)
        trump = trump_of(view.get("rank"), suit)
        names = self.seat_names(len(view.get("hand_sizes") or []))
        out: JSON = {
            "trump": {"rank": view.get("rank"), "suit": suit, "text": trump_text(suit)},
            "follow": self._follow(view, trump),
            "teams": list(teams(names)) if fixed_teams(view) else None,
            "landlord": self._landlord_text(view, names),
        }
        if isinstance(view.get("hand"), list):
            out["hand"] = hand_groups(view["hand"], trump)
        if isinstance(view.get("hands"), list):
            out["hands"] = [hand_groups(h, trump) for h in view["hands"]]
        if view.get("phase") == "call" and trump is not None:
            policy = FriendSelection((view.get("rules") or {}).get(
                "friend_selection", FriendSelection.UNRESTRICTED))
            allowed = set(callable_faces(trump, policy))
            out["callable"] = [
                format_face(s * 13 + r)
                for s in _SUIT_LINE
                for r in range(12, -1, -1)
                if s * 13 + r in allowed
            ]
        results = view.get("results") or []
        # Not the round before's, over a round the match ended under way.
        if (view.get("phase") in ("round_over", "over") and results
                and len(results) >= int(view.get("round") or 0)):
            out["round_result"] = self.round_result_text(results[-1], view, names)
        if isinstance(view.get("result"), Mapping):
            out["result"] = self.summary(view["result"], names)
        return out

    def _follow(self, view: JSON, trump: Trump | None) -> str | None:
        """The hand group of the suit led to the trick on the table (None: no trick)."""
        trick = view.get("trick") or []
        if not trick or trump is None:
            return None
        led = _ids((trick[0].get("cards") or [])[:1])
        if not led:
            return None
        suit = tables(trump).suit[face_of(led[0])]
        return "trumps" if suit == TRUMP else _SYMBOL[SUITS[suit]]

    def _landlord_text(self, view: JSON, names: Sequence[str]) -> str:
        landlord = view.get("landlord")
        if not isinstance(landlord, int):
            return "Landlord: decided by this round's declarations"
        if not fixed_teams(view):
            side = view.get("landlord_side") or [landlord]
            return f"Landlord: {who(landlord, names, None)}; side so far: " + ", ".join(
                who(s, names, None) for s in side
            )
        a, b = teams(names)
        side, attack = (a, b) if landlord % 2 == 0 else (b, a)
        return f"Landlord: {who(landlord, names, None)} ({side}); {attack} attack"

    def round_result_text(self, r: Mapping[str, Any], view: JSON, names: Sequence[str]) -> str:
        """``Round result: East/West scored 85: they take the table; next landlord East``."""
        up = r.get("levels_up", 0)
        bonus = f" (kitty bonus {r['kitty_bonus']})" if r.get("kitty_bonus") else ""
        if fixed_teams(view):
            a, b = teams(names)
            landlord = r.get("landlord")
            side, attack = (a, b) if isinstance(landlord, int) and landlord % 2 == 0 else (b, a)
            keeps = f"{side} keep the table and go up {up}"
        else:
            attack, keeps = "the attackers", f"the landlord's side keeps the table and goes up {up}"
        took = f"{attack} take the table" + (f" and go up {up}" if up else "")
        outcome = took if r.get("attackers_win") else keeps
        return (
            f"Round result: {attack} scored {r.get('attacker_points', 0)}{bonus}: {outcome}; "
            f"next landlord {who(r.get('next_landlord'), names, None)}"
        )
