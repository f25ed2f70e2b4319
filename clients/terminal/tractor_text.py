"""Tractor (Sheng Ji) as text: the table, compact during the draw, the hand in trump
order; typed card lists and ``draw all``.

Pure drawing of the tractor ``view()``.  Everything that takes the rules to work out —
the trump, the hand in trump order, the sides, the round's result in words — comes in
the frame's ``hints`` (rules/tractor/presentation.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from clients.terminal.render import card_text, plural, who
from engine.cards import CardParseError, format_face, parse_face, parse_faces


def rank_text(rank: Any) -> str:
    """``T`` -> ``10``; other rank letters unchanged."""
    return "10" if rank == "T" else str(rank)


def cards_text(cards: Any) -> str:
    """Cards in the order given, with suit symbols."""
    if not isinstance(cards, list) or not cards:
        return "-"
    return " ".join(card_text(str(c)) for c in cards)


def hand_text(groups: Any) -> str:
    """Hint groups as one line: ``trumps BJ 2♥ A♥   ♠ A K 7   ♣ 9 9``."""
    parts = []
    for g in groups if isinstance(groups, list) else []:
        label = str(g.get("label") or "")
        cards = [card_text(str(c)) for c in g.get("cards") or []]
        if label not in ("", "trumps"):
            cards = [c[:-1] for c in cards]  # the suit is the group's label
        parts.append((f"{label} " if label else "") + " ".join(cards))
    return "   ".join(parts) if parts else "(empty)"


def _levels_text(view: dict[str, Any], hints: dict[str, Any], names: Sequence[str]) -> str:
    levels = view.get("levels") or []
    teams = hints.get("teams")
    if teams and len(levels) == 4 and levels[0] == levels[2] and levels[1] == levels[3]:
        text = f"{teams[0]} {rank_text(levels[0])} · {teams[1]} {rank_text(levels[1])}"
    else:
        text = " · ".join(f"{who(i, names, None)} {rank_text(v)}" for i, v in enumerate(levels))
    return f"Levels: {text} (first past {rank_text(view.get('max_rank', 'A'))} wins)"


def _trick_text(plays: Any, names: Sequence[str], me: int | None) -> str:
    if not isinstance(plays, list) or not plays:
        return "-"
    return " · ".join(
        f"{who(p.get('seat'), names, me)} {cards_text(p.get('cards'))}" for p in plays
    )


def _friends_text(view: dict[str, Any], names: Sequence[str], me: int | None) -> str:
    calls = view.get("calls") or []
    return ", ".join(
        f"the {c.get('nth')}{_suffix(c.get('nth'))} {card_text(str(c.get('card')))}"
        + (f" ({who(c['seat'], names, me)})" if isinstance(c.get("seat"), int) else "")
        for c in calls
    )


def _suffix(n: Any) -> str:
    return {1: "st", 2: "nd", 3: "rd"}.get(n if isinstance(n, int) else 0, "th")


def render_tractor(
    view: dict[str, Any],
    hints: dict[str, Any],
    names: Sequence[str],
    me: int | None,
    to_act: Sequence[int],
) -> list[str]:
    """The tractor table; compact during the draw (it is shown after every card)."""
    phase = str(view.get("phase"))
    head = f"Round {view.get('round')} · playing {rank_text(view.get('rank'))}s"
    trump = (hints.get("trump") or {}).get("text", "not fixed yet")
    decls = view.get("declarations") or []
    landlord = str(hints.get("landlord") or "")
    if view.get("calls"):
        landlord += "; friends called: " + _friends_text(view, names, me)
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
            lines.append(f"Declared: {chain}  (trump {trump} so far)")
        else:
            lines.append("Declared: nothing yet")
        lines.append(landlord)
        if me is not None and view.get("drawer") == me:
            lines.append("(type 'draw all' to draw on until you can declare something new)")
    else:
        trump_word = "no trump" if trump == "no trump" else f"trump {trump}"
        lines = [f"{head} · {trump_word} · {phase.replace('_', ' ')}"]
        if isinstance(view.get("declarer"), int) and decls:
            lines[0] += (
                f" (declared by {who(view['declarer'], names, me)}: "
                f"{cards_text(decls[-1].get('cards'))})"
            )
        lines.append(landlord)
        lines.append(_levels_text(view, hints, names))
        lines += _play_lines(view, hints, names, me)
    if "hand" in hints and phase not in ("over", "round_over"):
        lines.append(f"Your hand ({len(view.get('hand') or [])}): {hand_text(hints['hand'])}")
    kitty = view.get("kitty")
    if isinstance(kitty, list) and kitty and phase == "play":
        lines.append(f"Kitty (buried, only you see it): {cards_text(kitty)}")
    if phase == "overbid":
        lines.append("The kitty is buried: a declaration that overrides the standing one "
                     "takes it (or pass)")
    holder = view.get("exchanger", view.get("landlord"))
    if phase == "bury" and me is not None and holder == me:
        n = len(view.get("hand") or []) - min(view.get("hand_sizes") or [0])
        lines.append(
            f"Bury {plural(n, 'card')}: pick one of the menu or type them (e.g. 3c 4c 4d ...)"
        )
    for i, groups in enumerate(hints.get("hands") or []):
        lines.append(f"{who(i, names, me)}: {hand_text(groups)}")
    if to_act and phase != "draw":
        lines.append("To act: " + ", ".join(who(s, names, me) for s in to_act))
    return lines


def _play_lines(
    view: dict[str, Any], hints: dict[str, Any], names: Sequence[str], me: int | None
) -> list[str]:
    """Points, last trick, the trick and who is winning it, cards left; the round's end."""
    teams = hints.get("teams")
    landlord = view.get("landlord")
    attack = "the attackers"
    if teams and isinstance(landlord, int):
        attack = teams[1] if landlord % 2 == 0 else teams[0]
    lines = [f"Points won by {attack}: {view.get('points', 0)}"]
    failed = view.get("failed_throws") or [0, 0]
    if teams and len(failed) == 2 and any(failed):
        lines.append(f"Failed throws: {teams[0]} {failed[0]} · {teams[1]} {failed[1]}")
    if view.get("last_trick"):
        lines.append("Last trick: " + _trick_text(view["last_trick"], names, me))
    trick = view.get("trick") or []
    line = "Trick:      " + _trick_text(trick, names, me)
    if trick and isinstance(view.get("trick_winner"), int):
        line += f"  — {who(view['trick_winner'], names, me)} winning"
    lines.append(line)
    if isinstance(view.get("takeback"), int):
        lines.append(f"{who(view['takeback'], names, me)} may take back the last play")
    sizes = view.get("hand_sizes") or []
    lines.append(
        "Cards left: " + "  ".join(f"{who(i, names, me)} {n}" for i, n in enumerate(sizes))
    )
    ended = view.get("phase") in ("round_over", "over")
    if ended and hints.get("round_result"):
        lines.append(str(hints["round_result"]))
    kitty = view.get("kitty")
    if ended and isinstance(kitty, list) and kitty:
        lines.append(f"Kitty: {cards_text(kitty)}")
    return lines


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
