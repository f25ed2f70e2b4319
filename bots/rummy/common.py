"""What rummy bots read from a view: their hand as card ids, the meld rules, the top
of the pile and which cards are out of reach (seen in the pile or in other hands)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import SMALL_JOKER, parse_face
from engine.events import JSON
from engine.game import Action
from rules.rummy import Arrangement, MeldRules, deadwood, to_hand
from rules.rummy.options import Variant, meld_rules_for
from rules.rummy.scoring import best_of


@dataclass(frozen=True)
class Seen:
    """A bot's reading of the table."""

    variant: Variant
    rules: MeldRules
    hand: tuple[int, ...]  # card ids (copies numbered from the spellings)
    top: int | None  # face on top of the pile
    gone: tuple[int, ...]  # per face: copies the bot cannot draw any more (54 entries)
    copies: int  # copies of each face in the game's decks


def read_view(view: JSON, seat: int) -> Seen:
    variant = Variant(view["variant"])
    rules = meld_rules_for(variant, view.get("wild_rank"))
    hand = to_hand(view.get("hand", [])).cards
    gone = [0] * 54
    # Every card seen face up or known to be held stays out of the stock: the pile
    # (its whole history is on the view), cards others took from it, the cut card.
    seen = [*view.get("hand", []), *view.get("pile", [])]
    for seat_of_view, cards in enumerate(view.get("known", [])):
        if seat != seat_of_view:
            seen += cards
    if view.get("wild_card"):
        seen.append(view["wild_card"])
    for text in seen:
        gone[parse_face(text)] += 1
    pile = view.get("pile", [])
    return Seen(
        variant=variant,
        rules=rules,
        hand=tuple(sorted(hand)),
        top=parse_face(pile[-1]) if pile else None,
        gone=tuple(gone),
        copies=2 if variant is Variant.INDIAN else 1,
    )


def arrange(cards: Sequence[int], rules: MeldRules) -> Arrangement:
    """The best arrangement of ``cards`` (cached across decisions)."""
    return best_of(tuple(sorted(cards)), rules)


def dead(cards: Sequence[int], rules: MeldRules) -> int:
    return deadwood(arrange(cards, rules).leftover, rules)


def of_type(legal: Sequence[Action], kind: str) -> list[Action]:
    return [a for a in legal if a.get("type") == kind]


def is_joker(face: int, rules: MeldRules) -> bool:
    if face >= SMALL_JOKER:
        return rules.printed_jokers
    return rules.wild_rank is not None and face % 13 == rules.wild_rank


def add_face(hand: Sequence[int], face: int) -> tuple[int, ...]:
    """The hand with one more card of ``face`` (a fresh copy id)."""
    copy = 0
    while copy * 54 + face in hand:
        copy += 1
    return tuple(sorted((*hand, copy * 54 + face)))


def drop_face(hand: Sequence[int], face: int) -> tuple[int, ...]:
    """The hand without one card of ``face``."""
    out = list(hand)
    for c in out:
        if c % 54 == face:
            out.remove(c)
            break
    return tuple(out)
