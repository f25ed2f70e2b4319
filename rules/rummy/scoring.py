"""Rummy scoring: what a deal costs (indian) or earns (gin), and the match totals."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .combos import best
from .least import min_deadwood
from .melds import Arrangement, points_charged
from .options import MeldRules, RummyConfig


@lru_cache(maxsize=1 << 16)
def best_of(cards: tuple[int, ...], rules: MeldRules) -> Arrangement:
    """``best`` on a sorted tuple of card ids, cached (views, legal moves and bots
    ask about the same hands many times)."""
    return best(list(cards), rules)


def indian_charge(hand: Sequence[int], rules: MeldRules) -> int:
    """Points charged to a player who did not declare: the hand grouped at its best,
    leftover points if it holds the required runs, else every card, capped (80)."""
    return points_charged(best_of(tuple(sorted(hand)), rules), rules)


def gin_deadwood(hand: Sequence[int], rules: MeldRules) -> int:
    """The least deadwood of a gin hand."""
    return min_deadwood(hand, rules)


def gin_deal(
    knocker: int, knocker_dw: int, defender_dw: int, config: RummyConfig
) -> tuple[str, int, int]:
    """A knocked gin deal: (how, winning seat, points it wins).

    Gin (knocker deadwood 0): the difference plus the gin bonus.  The defender
    undercuts with less deadwood (with an equal count too when
    ``undercut_on_equal``): the difference plus the undercut bonus.  Otherwise the
    knocker wins the difference.
    """
    defender = 1 - knocker
    if knocker_dw == 0:
        return "gin", knocker, defender_dw + config.gin_bonus
    if defender_dw < knocker_dw or (defender_dw == knocker_dw and config.undercut_on_equal):
        return "undercut", defender, knocker_dw - defender_dw + config.undercut_bonus
    return "knock", knocker, defender_dw - knocker_dw


def gin_totals(points: Sequence[int], boxes: Sequence[int], config: RummyConfig) -> list[int]:
    """Match totals: points, plus ``box_bonus`` per deal won, plus ``game_bonus`` to
    the seat that reached the target."""
    totals = [p + b * config.box_bonus for p, b in zip(points, boxes, strict=True)]
    for seat, p in enumerate(points):
        if p >= config.target:
            totals[seat] += config.game_bonus
    return totals
