"""Tractor (Sheng Ji) as text: the table, the hand in trump order, event lines, menu labels.

Pure formatting of the tractor ``view()`` and events (rules/tractor/game.py).  In the
classic game seats 0..3 are North, East, South, West and North/South and East/West
are partners; Finding Friends tables (5-8 seats) have no fixed sides, so the screen
names the landlord's side as the view reports it.  The trump order (which cards are
trumps, and how they rank) comes from :mod:`rules.tractor.order`, so the hand reads
the way the game compares cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.cards import (
    FACES_PER_DECK,
    RANKS,
    SUITS,
    CardParseError,
    card_ids,
    format_face,
    parse_face,
    parse_faces,
    pretty,
)
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.structure import get_structure, suit_of_play
from server.terminal.render import card_text, plural, who

COMPASS = ("North", "East", "South", "West")
# Natural suits in hand order (as render.hand_line): spades, hearts, clubs, diamonds.
_SUIT_LINE = (3, 2, 0, 1)
_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def rank_text(rank: Any) -> str:
    """``T`` -> ``10``; other rank letters unchanged."""
    return "10" if rank == "T" else str(rank)


def trump_text(suit: Any) -> str:
    """A view's ``trump_suit``: ``♥``, ``no trump``, or ``not fixed yet``."""
    if suit is None:
        return "not fixed yet"
    if suit == "NT":
        return "no trump"
    return _SYMBOL.get(str(suit), str(suit))


def teams(names: Sequence[str]) -> tuple[str, str]:
    """The two partnerships' names (``North/South``, ``East/West``)."""
    if len(names) == 4:
        return f"{names[0]}/{names[2]}", f"{names[1]}/{names[3]}"
    return "seats 1 and 3", "seats 2 and 4"


def _fixed_teams(view: dict[str, Any]) -> bool:
    """Whether the table has the classic fixed partnerships (not Finding Friends)."""
    return "landlord_side" not in view and len(view.get("hand_sizes") or [0] * 4) == 4


def _call_text(call: dict[str, Any]) -> str:
    """A friend call: ``the 1st A♠``."""
    nth = call.get("nth")
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(nth if isinstance(nth, int) else 0, "th")
    return f"the {nth}{suffix} {card_text(str(call.get('card')))}"


def cards_text(cards: Any) -> str:
    """Cards in the order given, with suit symbols."""
    if not isinstance(cards, list) or not cards:
        return "-"
    return " ".join(card_text(str(c)) for c in cards)


def _trump_of(rank: Any, suit: Any) -> Trump | None:
    """The rules' Trump for a view's rank letter and trump suit (None: unreadable)."""
    if not isinstance(rank, str) or rank not in RANKS:
        return None
    s = SUITS.index(suit) if isinstance(suit, str) and len(suit) == 1 and suit in SUITS else None
    return Trump(RANKS.index(rank), s)


def _ids(cards: Sequence[str]) -> list[int] | None:
    """Card ids for spellings (a face seen twice gets the second copy), or None."""
    try:
        return card_ids([str(c) for c in cards])
    except CardParseError:
        return None


def shape(cards: Sequence[str], trump: Trump | None) -> str:
    """What a play of several cards is: ``pair``, ``tractor of 3 pairs``, ``2 pairs + 1 single``.

    Empty for a single card, a mixed-suit follow, or when the trump is unknown.
    """
    ids = _ids(cards)
    if trump is None or ids is None or len(ids) < 2 or suit_of_play(ids, trump) is None:
        return ""
    template = get_structure(ids, trump).template
    if template.blocks == 1 and template.pairs == 1:
        return "pair"
    if template.blocks == 1 and template.tractors:
        return f"tractor of {template.tractors[0]} pairs"
    return template.describe()


def _is_throw(what: str) -> bool:
    """Whether a :func:`shape` names several units (a lead of them is a throw)."""
    return bool(what) and what != "pair" and not what.startswith("tractor")


def hand_groups(cards: Sequence[str], trump: Trump | None) -> list[tuple[str, list[str]]]:
    """The hand as (label, cards) groups: trumps first (highest first), then each suit."""
    ids = _ids(cards)
    if trump is None or ids is None:
        return [("", [card_text(str(c)) for c in cards])] if cards else []
    t = tables(trump)
    groups: dict[int, list[int]] = {}
    for c in ids:
        groups.setdefault(t.suit[c % FACES_PER_DECK], []).append(c % FACES_PER_DECK)
    out: list[tuple[str, list[str]]] = []
    if TRUMP in groups:
        faces = sorted(groups[TRUMP], key=lambda f: (-t.phi[f], -f))
        out.append(("trumps", [pretty(f) for f in faces]))
    for s in _SUIT_LINE:
        if s in groups:
            faces = sorted(groups[s], key=lambda f: -t.phi[f])
            out.append((_SYMBOL[SUITS[s]], [pretty(f)[:-1] for f in faces]))
    return out


def hand_text(cards: Sequence[str], trump: Trump | None) -> str:
    """``trumps BJ 2♥ 2♥ A♥   ♠ A K 7   ♣ 9 9`` (or ``(empty)``)."""
    groups = hand_groups(cards, trump)
    if not groups:
        return "(empty)"
    return "   ".join((f"{label} " if label else "") + " ".join(cs) for label, cs in groups)


def _pending_trump(view: dict[str, Any]) -> Trump | None:
    """The trump to group a hand by: the fixed one, else the winning declaration's
    (during the draw, what would be trump if nobody overrides it)."""
    suit = view.get("trump_suit")
    decls = view.get("declarations") or []
    if suit is None and decls:
        card = str((decls[-1].get("cards") or ["SJ"])[0])
        suit = card[-1] if card not in ("SJ", "BJ") else "NT"
    return _trump_of(view.get("rank"), suit)


def declaration_text(cards: Any) -> str:
    """``♥ with 2♥`` / ``♥ with 2♥ 2♥`` / ``no trump with SJ SJ``."""
    shown = cards if isinstance(cards, list) else []
    first = str(shown[0]) if shown else "?"
    suit = "no trump" if first in ("SJ", "BJ") else _SYMBOL.get(first[-1:], "?")
    return f"{suit} with {cards_text(shown)}"


def _levels_text(view: dict[str, Any], names: Sequence[str]) -> str:
    levels = view.get("levels") or []
    a, b = teams(names)
    if (
        _fixed_teams(view)
        and len(levels) == 4
        and levels[0] == levels[2]
        and levels[1] == levels[3]
    ):
        text = f"{a} {rank_text(levels[0])} · {b} {rank_text(levels[1])}"
    else:
        text = " · ".join(f"{who(i, names, None)} {rank_text(v)}" for i, v in enumerate(levels))
    return f"Levels: {text} (first past {rank_text(view.get('max_rank', 'A'))} wins)"


def _trick_text(plays: Any, names: Sequence[str], me: int | None) -> str:
    if not isinstance(plays, list) or not plays:
        return "-"
    return " · ".join(
        f"{who(p.get('seat'), names, me)} {cards_text(p.get('cards'))}" for p in plays
    )


def _sizes_text(view: dict[str, Any], names: Sequence[str], me: int | None) -> str:
    sizes = view.get("hand_sizes") or []
    return "  ".join(f"{who(i, names, me)} {n}" for i, n in enumerate(sizes))


def _landlord_text(view: dict[str, Any], names: Sequence[str], me: int | None) -> str:
    landlord = view.get("landlord")
    if not isinstance(landlord, int):
        return "Landlord: the first declarer this round"
    if not _fixed_teams(view):
        side = view.get("landlord_side") or [landlord]
        line = f"Landlord: {who(landlord, names, me)}; side so far: " + ", ".join(
            who(s, names, me) for s in side
        )
        calls = view.get("calls") or []
        if calls:
            line += "; friends called: " + ", ".join(
                _call_text(c)
                + (f" ({who(c['seat'], names, me)})" if isinstance(c.get("seat"), int) else "")
                for c in calls
            )
        return line
    a, b = teams(names)
    side, attack = (a, b) if landlord % 2 == 0 else (b, a)
    return f"Landlord: {who(landlord, names, me)} ({side}); {attack} attack"


def render_tractor(
    view: dict[str, Any], names: Sequence[str], me: int | None, to_act: Sequence[int]
) -> list[str]:
    """The tractor table; compact during the draw (it is shown after every card)."""
    phase = str(view.get("phase"))
    head = f"Round {view.get('round')} · playing {rank_text(view.get('rank'))}s"
    trump = _pending_trump(view)
    decls = view.get("declarations") or []
    if phase == "draw":
        # The kitty stays in the stock.
        head += f" · {plural(view.get('stock_left'), 'card')} to draw"
        if view.get("drawer") is not None:
            head += f" · next to draw: {who(view['drawer'], names, me)}"
        lines = [head]
        if decls:
            chain = ", ".join(
                f"{who(d.get('seat'), names, me)} {cards_text(d.get('cards'))}" for d in decls
            )
            now = trump_text(_suit_of_decl(decls[-1]))
            lines.append(f"Declared: {chain}  (trump {now} so far)")
        else:
            lines.append("Declared: nothing yet")
        lines.append(_landlord_text(view, names, me))
    else:
        suit = view.get("trump_suit")
        trump_word = "no trump" if suit == "NT" else f"trump {trump_text(suit)}"
        lines = [f"{head} · {trump_word} · {phase.replace('_', ' ')}"]
        if isinstance(view.get("declarer"), int) and decls:
            lines[0] += (
                f" (declared by {who(view['declarer'], names, me)}: "
                f"{cards_text(decls[-1].get('cards'))})"
            )
        lines.append(_landlord_text(view, names, me))
        lines.append(_levels_text(view, names))
        lines += _play_lines(view, names, me)
    if "hand" in view and phase not in ("over", "round_over"):
        hand = view.get("hand") or []
        lines.append(f"Your hand ({len(hand)}): {hand_text(hand, trump)}")
    kitty = view.get("kitty")
    if isinstance(kitty, list) and kitty and phase == "play":
        lines.append(f"Kitty (buried, only you see it): {cards_text(kitty)}")
    if phase == "bury" and me is not None and view.get("landlord") == me:
        n = len(view.get("hand") or []) - min(view.get("hand_sizes") or [0])
        lines.append(
            f"Bury {plural(n, 'card')}: pick one of the menu or type them (e.g. 3c 4c 4d ...)"
        )
    for i, h in enumerate(view.get("hands") or []):
        lines.append(f"{who(i, names, me)}: {hand_text(h, trump)}")
    if to_act and phase != "draw":
        lines.append("To act: " + ", ".join(who(s, names, me) for s in to_act))
    return lines


def _suit_of_decl(decl: dict[str, Any]) -> str:
    card = str((decl.get("cards") or ["?"])[0])
    return "NT" if card in ("SJ", "BJ") else card[-1:]


def _play_lines(view: dict[str, Any], names: Sequence[str], me: int | None) -> list[str]:
    """Points, last trick, the trick and who is winning it, cards left; the round's end."""
    a, b = teams(names)
    landlord = view.get("landlord")
    fixed = _fixed_teams(view)
    attack = "the attackers"
    if fixed and isinstance(landlord, int):
        attack = b if landlord % 2 == 0 else a
    lines = [f"Points won by {attack}: {view.get('points', 0)}"]
    failed = view.get("failed_throws") or [0, 0]
    if fixed and len(failed) == 2 and any(failed):
        lines.append(f"Failed throws: {a} {failed[0]} · {b} {failed[1]}")
    if view.get("last_trick"):
        lines.append("Last trick: " + _trick_text(view["last_trick"], names, me))
    trick = view.get("trick") or []
    line = "Trick:      " + _trick_text(trick, names, me)
    if trick and isinstance(view.get("trick_winner"), int):
        line += f"  — {who(view['trick_winner'], names, me)} winning"
    lines.append(line)
    if isinstance(view.get("takeback"), int):
        lines.append(f"{who(view['takeback'], names, me)} may take back the last play")
    lines.append("Cards left: " + _sizes_text(view, names, me))
    ended = view.get("phase") in ("round_over", "over")
    results = view.get("results") or []
    if ended and results:
        lines.append(round_result_text(results[-1], names))
    kitty = view.get("kitty")
    if ended and isinstance(kitty, list) and kitty:
        lines.append(f"Kitty: {cards_text(kitty)}")
    return lines


def round_result_text(r: dict[str, Any], names: Sequence[str]) -> str:
    """``Attackers East/West 85 points: they take the table, up 0 levels; next landlord East``."""
    a, b = teams(names)
    landlord = r.get("landlord")
    side, attack = (a, b) if isinstance(landlord, int) and landlord % 2 == 0 else (b, a)
    pts = r.get("attacker_points", 0)
    bonus = f" (kitty bonus {r['kitty_bonus']})" if r.get("kitty_bonus") else ""
    up = r.get("levels_up", 0)
    if r.get("attackers_win"):
        outcome = f"{attack} take the table" + (f" and go up {up}" if up else "")
    else:
        outcome = f"{side} keep the table and go up {up}"
    return (
        f"Round result: {attack} scored {pts}{bonus}: {outcome}; "
        f"next landlord {who(r.get('next_landlord'), names, None)}"
    )


class TractorNarrator:
    """Event lines; remembers the trump and landlord (to name plays and trick points)
    and whether a trick is under way (a first play *leads*)."""

    def __init__(self) -> None:
        self.trump: Trump | None = None
        self.landlord: int | None = None
        self.in_trick = 0
        self.seats = 4
        self.fixed = True  # fixed partnerships (False: Finding Friends)

    def sync(self, view: dict[str, Any]) -> None:
        """Start from a snapshot (a resume may land mid-round or mid-trick)."""
        self.trump = _trump_of(view.get("rank"), view.get("trump_suit"))
        landlord = view.get("landlord")
        self.landlord = landlord if isinstance(landlord, int) else None
        trick = view.get("trick")
        self.in_trick = len(trick) if isinstance(trick, list) else 0
        self.seats = len(view.get("hand_sizes") or [0] * 4)
        self.fixed = _fixed_teams(view)

    def line(self, event: dict[str, Any], names: Sequence[str], me: int | None) -> str | None:
        kind = event.get("kind")
        seat = event.get("seat")
        you = seat == me and seat is not None
        actor = "You" if you else who(seat, names, me)
        if kind == "deal":
            return self._deal(event, names, me)
        if kind == "drawn":
            return f"You draw {card_text(str(event.get('card')))}" if you else None
        if kind == "draw":
            return None  # a hundred of them: the screen shows the stock going down
        if kind == "declare":
            verb = "declare" if you else "declares"
            return f"{actor} {verb} {declaration_text(event.get('cards'))}"
        if kind == "pass":
            return f"{actor} {'pass' if you else 'passes'} on declaring"
        if kind == "redeal":
            return "Nobody declared: the cards are shuffled and dealt again"
        if kind == "kitty_revealed":
            return (
                f"Nobody declared: the kitty is turned up ({cards_text(event.get('cards'))}), "
                f"trump {trump_text(event.get('suit'))}"
            )
        if kind == "trump":
            self.landlord = event.get("landlord")
            self.trump = _trump_of(event.get("rank"), event.get("suit"))
            return (
                f"Trump: {trump_text(event.get('suit'))} (playing {rank_text(event.get('rank'))}s)"
                f" · landlord {who(self.landlord, names, me)}"
            )
        if kind == "kitty":
            return f"You pick up the kitty: {cards_text(event.get('cards'))}" if you else None
        if kind == "buried":
            return f"{actor} {'bury' if you else 'buries'} {plural(event.get('count'), 'card')}"
        if kind == "throw_failed":
            return (
                f"Throw failed: {who(seat, names, me)} must play "
                f"{cards_text(event.get('forced'))} "
                f"(tried {plural(event.get('attempted'), 'card')}; "
                f"{plural(event.get('penalty'), 'point')} penalty)"
            )
        if kind == "play":
            return self._play(event, actor, you)
        if kind == "trick":
            return self._trick(event, names, me)
        if kind == "round_end":
            return self._round_end(event, names, me)
        if kind == "friends_called":
            calls = ", ".join(_call_text(c) for c in event.get("calls") or [])
            return f"{actor} {'call' if you else 'calls'} for friends: {calls}"
        if kind == "friend":
            found = f"{actor} {'are' if you else 'is'} a friend of the landlord"
            wasted = " (the landlord's own card: no friend)" if event.get("wasted") else ""
            call = {"card": event.get("card"), "nth": event.get("nth")}
            return f"{found}, playing {_call_text(call)}{wasted}"
        if kind == "takeback":
            return f"{actor} {'take' if you else 'takes'} back {cards_text(event.get('cards'))}"
        if kind == "confirm":
            return None
        if kind == "game_over":
            return f"Game over: {team_summary(str(event.get('summary')), names)}"
        return None

    def _deal(self, event: dict[str, Any], names: Sequence[str], me: int | None) -> str:
        self.in_trick = 0
        self.trump = None
        landlord = event.get("landlord")
        self.landlord = landlord if isinstance(landlord, int) else None
        lead = (
            f"landlord {who(landlord, names, me)}"
            if isinstance(landlord, int)
            else "the first declarer becomes landlord"
        )
        return (
            f"Round {event.get('round')} · playing {rank_text(event.get('rank'))}s · {lead} · "
            f"{who(event.get('starter'), names, me)} draws first"
        )

    def _play(self, event: dict[str, Any], actor: str, you: bool) -> str:
        cards = [str(c) for c in event.get("cards") or []]
        what = shape(cards, self.trump)
        leading = self.in_trick == 0
        self.in_trick = (self.in_trick + 1) % self.seats
        verb = "lead" if leading else "play"
        if leading and _is_throw(what):
            verb = "throw"  # several units led at once
        verb = verb if you else verb + "s"
        return f"{actor} {verb} {cards_text(cards)}" + (f" ({what})" if what else "")

    def _trick(self, event: dict[str, Any], names: Sequence[str], me: int | None) -> str:
        self.in_trick = 0
        winner = event.get("winner")
        won = event.get("points") or 0
        head = "You win" if winner == me else f"{who(winner, names, me)} wins"
        if not won:
            return f"{head} the trick"
        if not self.fixed:  # Finding Friends: sides are found during play
            attackers = event.get("attacker_points")
            return f"{head} the trick ({plural(won, 'point')}; attackers {attackers})"
        attacking = (
            isinstance(winner, int)
            and isinstance(self.landlord, int)
            and winner % 2 != self.landlord % 2
        )
        if attacking:
            in_all = event.get("attacker_points")
            return f"{head} the trick (+{plural(won, 'point')}, {in_all} in all)"
        return f"{head} the trick ({plural(won, 'point')} saved)"

    def _round_end(self, event: dict[str, Any], names: Sequence[str], me: int | None) -> str:
        a, b = teams(names)
        up_side = a if event.get("team_up") == 0 else b
        if "seats_up" in event:  # Finding Friends: the seats that gained
            up_side = ", ".join(who(s, names, me) for s in event.get("seats_up") or [])
        kitty = ""
        if event.get("kitty_bonus"):
            kitty = (
                f" (kitty {event.get('kitty_points')} × {event.get('kitty_multiplier')}"
                f" = {event.get('kitty_bonus')})"
            )
        levels = event.get("levels") or []
        if self.fixed and len(levels) == 4:
            now = f"{a} at {rank_text(levels[0])}, {b} at {rank_text(levels[1])}"
        else:
            now = ", ".join(f"{who(i, names, me)} {rank_text(v)}" for i, v in enumerate(levels))
        up = event.get("levels_up", 0)
        change = f"{up_side} go up {up}" if up else f"{up_side} take the table"
        if not event.get("attackers_win"):
            change = f"{up_side} keep the table and go up {up}"
        return (
            f"Round {event.get('round')} over: "
            f"attackers {plural(event.get('attacker_points'), 'point')}"
            f"{kitty}; {change} → {now}; kitty was {cards_text(event.get('kitty'))}"
        )


def team_summary(summary: str, names: Sequence[str]) -> str:
    """The rules' ``seats 0 and 2`` spelled as the table's team names."""
    a, b = teams(names)
    return summary.replace("seats 0 and 2", a).replace("seats 1 and 3", b)


def tractor_label(action: dict[str, Any], view: dict[str, Any]) -> str:
    """``draw (62 left)``, ``declare ♥ with 2♥``, ``5♠ 5♠ (pair)``, ``bury 3♣ 4♣ ...``."""
    kind = action.get("type")
    cards = [str(c) for c in action.get("cards") or []]
    if kind == "draw":
        left = view.get("stock_left")
        return f"draw ({left} left; 'draw all' draws on)" if isinstance(left, int) else "draw"
    if kind == "declare":
        # Only the holder of a single can own the other copy: a pair of the card
        # declared last is that declarer strengthening its own declaration.
        decls = view.get("declarations") or []
        last = decls[-1].get("cards") if decls else None
        reinforce = len(cards) == 2 and last == cards[:1]
        return f"{'reinforce to' if reinforce else 'declare'} {declaration_text(cards)}"
    if kind == "pass":
        return "pass (do not declare)"
    if kind == "play":
        what = shape(cards, _trump_of(view.get("rank"), view.get("trump_suit")))
        if what and _is_throw(what) and not view.get("trick"):
            what = "throw: " + what
        return cards_text(cards) + (f" ({what})" if what else "")
    if kind == "bury":
        return f"bury {cards_text(cards)}"
    if kind == "next_round":
        return "start the next round"
    if kind == "call":
        return "call " + ", ".join(_call_text(c) for c in action.get("calls") or [])
    if kind == "takeback":
        return "take back your play"
    if kind == "confirm":
        return "let the play stand"
    return str(kind).replace("_", " ")


def tractor_cards_input(text: str, menu: Sequence[Any]) -> dict[str, Any] | None:
    """Typed cards (``5s 5s``, ``3c 4c ...``) as a play or burial of exactly those cards.

    The server lists a representative subset of plays and burials, so cards the
    menu does not hold go to the server to judge; a menu entry with the same cards
    is picked as it is.  None when the text is no card list or no play is due.
    """
    kinds = {m.action.get("type") for m in menu} & {"play", "bury"}
    if len(kinds) != 1 or text.strip().isdigit():
        return None
    try:
        faces = sorted(parse_faces(text))
    except CardParseError:
        return None
    if not faces:
        return None
    for m in menu:
        cards = m.action.get("cards")
        if isinstance(cards, list) and sorted(parse_face(str(c)) for c in cards) == faces:
            return dict(m.action)
    return {"type": kinds.pop(), "cards": [format_face(f) for f in faces]}


AUTO_DRAW_WORDS = ("draw all", "draw on", "auto")


def declare_options(legal: Sequence[dict[str, Any]]) -> frozenset[str]:
    """The declarations on offer, as comparable keys (``2H 2H``)."""
    return frozenset(
        " ".join(str(c) for c in a.get("cards") or []) for a in legal if a.get("type") == "declare"
    )


def auto_draw_step(
    legal: Sequence[dict[str, Any]], view: dict[str, Any], accepted: frozenset[str]
) -> str:
    """What ``draw all`` does now: ``draw``; ``wait`` (another seat draws, and the
    declarations on offer are ones the player already let pass by); ``stop`` (a new
    declaration is possible, or the draw is over and the last word is the player's);
    ``off`` (the draw has ended).  The client only ever presses ``draw`` for the
    player: declaring and passing stay the player's decisions."""
    if view.get("phase") != "draw" or not legal:
        return "off"
    if not declare_options(legal) <= accepted:
        return "stop"
    if any(a.get("type") == "draw" for a in legal):
        return "draw"
    return "wait" if view.get("drawer") is not None else "stop"
