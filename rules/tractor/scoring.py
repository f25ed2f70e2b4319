"""Points, the kitty bonus, the level change table and the next landlord.

docs/tractor.md, "Points, kitty, scoring": 5s count 5, 10s and Ks count
10 (200 points in two decks); only points won by the attacking team count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import SMALL_JOKER, face_of
from rules.tractor.options import KittyMultiplier
from rules.tractor.structure import Template

_FIVE, _TEN, _KING = 3, 8, 11  # rank indexes of 5, 10, K


def card_points(card: int) -> int:
    """Points of one card: 5 for a five, 10 for a ten or a king, else 0."""
    f = face_of(card)
    if f >= SMALL_JOKER:
        return 0
    rank = f % 13
    return 5 if rank == _FIVE else 10 if rank in (_TEN, _KING) else 0


def points(cards: Iterable[int]) -> int:
    """Total points of some cards."""
    return sum(card_points(c) for c in cards)


def kitty_multiplier(last_lead: Template, option: KittyMultiplier) -> int:
    """The factor on the kitty's points when the attackers win the last trick.

    The largest unit is measured in cards (single 1, pair 2, tractor 2L) in the
    last trick's template (every play that can win it has that template).
    """
    largest = 2 * last_lead.tractors[0] if last_lead.tractors else (
        2 if last_lead.pairs else 1)
    if option is KittyMultiplier.DOUBLE_UNIT:
        return 2 * largest
    if option is KittyMultiplier.POWER_UNIT:
        return 2**largest
    return 2 * last_lead.cards


def kitty_bonus(kitty: Iterable[int], last_lead: Template, option: KittyMultiplier) -> int:
    """Points the attackers add for the kitty when they win the last trick."""
    return points(kitty) * kitty_multiplier(last_lead, option)


def penalised(attacker_points: int, failed_throws_by_attackers: int,
              failed_throws_by_landlords: int, penalty: int) -> int:
    """Attacker points after failed-throw penalties.

    The penalty goes to the other side: an attacker's failed throw costs the
    attackers ``penalty``; a landlord's failed throw gives them ``penalty``.
    """
    return attacker_points + penalty * (failed_throws_by_landlords - failed_throws_by_attackers)


@dataclass(frozen=True)
class LevelChange:
    """Who holds (or takes) the landlord role next and how many levels they go up."""

    attackers_win: bool
    levels: int


def level_change(attacker_points: int, decks: int = 2) -> LevelChange:
    """The level table, for ``decks`` decks (two in the classic game).

    Two decks (docs/tractor.md, "Points, kitty, scoring"): p = 0 (or less,
    after penalties): landlords +3; 5-35: +2; 40-75: +1; 80-115: attackers
    become landlords, +0; 120-155: +1; 160-195: +2; each further 40: +1.  With more decks
    (Finding Friends) the 40-point step scales with the points in play,
    20 per deck (a fifth of each deck's 100), so the thresholds keep the
    same share of the total: three decks (300 points) step by 60.
    """
    step = 20 * decks
    p = attacker_points
    if p <= 0:
        return LevelChange(False, 3)
    if p < step:
        return LevelChange(False, 2)
    if p < 2 * step:
        return LevelChange(False, 1)
    return LevelChange(True, (p - 2 * step) // step)


def next_landlord(landlord: int, attackers_win: bool, seats: int = 4) -> int:
    """If the landlords held, the landlord's partner; else the next attacker after them."""
    return (landlord + (1 if attackers_win else seats // 2)) % seats


def next_landlord_friends(
    landlord: int, side: Iterable[int], attackers_win: bool, seats: int
) -> int:
    """Finding Friends' next landlord: the classic rule with the final sides.

    The classic rule (docs/tractor.md, "Points, kitty, scoring") passes the
    landlord seat to the landlord's partner when the landlords held, else to
    the first attacker after the landlord.  Here that is the first member of
    the landlord's side after the landlord in seat order (the landlord again
    if nobody joined), else the first seat after the landlord that is not on
    the side.  With
    fixed partnerships at four seats this is exactly the classic rule.
    """
    members = set(side)
    for k in range(1, seats + 1):
        s = (landlord + k) % seats
        if (s in members) != attackers_win:
            return s
    return landlord  # pragma: no cover - the landlord is always on the side


def advance(rank: int, levels: int, max_rank: int) -> tuple[int, bool]:
    """A side's new rank after going up ``levels``, and whether it passed ``max_rank``.

    Ranks are indexes (0 = deuce .. 12 = ace); passing the maximum wins the match,
    and the rank is then capped there.
    """
    new = rank + levels
    return min(new, max_rank), new > max_rank
