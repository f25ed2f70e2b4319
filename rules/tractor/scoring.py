"""Points, the kitty bonus, the level change table and the next landlord.

docs/tractor.md, "Points, kitty, scoring": 5s count 5, 10s and Ks count
10 (200 points in two decks); only points won by the attacking team count.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import SMALL_JOKER, face_of
from rules.tractor.options import KittyMultiplier, TractorConfig
from rules.tractor.structure import Structure, Template

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


def kitty_multiplier(last_lead: Template | Structure, option: KittyMultiplier) -> int:
    """The factor on the kitty's points when the attackers win the last trick.

    The largest unit is measured in cards (single 1, pair 2, triple 3, tractor
    of L pairs 2L) in the last trick's lead (every play that can win it has
    the lead's units).
    """
    if isinstance(last_lead, Structure):
        largest, cards = last_lead.largest_unit, last_lead.size
    else:
        largest = 2 * last_lead.tractors[0] if last_lead.tractors else (
            2 if last_lead.pairs else 1)
        cards = last_lead.cards
    if option is KittyMultiplier.DOUBLE_UNIT:
        return 2 * largest
    if option is KittyMultiplier.POWER_UNIT:
        return 2**largest
    return 2 * cards


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
    """Who holds (or takes) the landlord role next and how many levels they go up.

    ``bonus``: one of those levels is the smaller-landlord-team bonus.
    """

    attackers_win: bool
    levels: int
    bonus: bool = False


@dataclass(frozen=True)
class LevelTable:
    """The level table's shape (docs/tractor.md, "Points, kitty, scoring").

    ``step_per_deck``: points per step and deck (20: a 40-point step in two
    decks).  ``turnover_steps``: steps the attackers need to take the landlord
    role (2: 80 points in two decks).  ``deadzone_steps``: steps above that in
    which the attackers take over without going up (1).
    ``truncate_zero_crossing``: the window that holds zero runs from 5 - step
    to 0 and is worth one level more than 5..step (so 0 is +3, not +2).
    """

    step_per_deck: int = 20
    turnover_steps: int = 2
    deadzone_steps: int = 1
    truncate_zero_crossing: bool = True

    def change(self, attacker_points: int, decks: int = 2) -> LevelChange:
        """The levels for ``attacker_points`` (after the kitty bonus and penalties).

        The landlords hold below ``turnover_steps`` steps: one level for the
        step just below, one more for each step further down, and windows
        below the lowest keep going down a level per step, so points driven
        below zero by penalties are worth more levels (-40 in two decks: +4).
        At or above turnover the attackers take over: +0 in the dead zone, then
        one level per step.
        """
        s = self.step_per_deck * decks
        p = attacker_points
        turnover = self.turnover_steps * s
        if p < turnover:
            if self.truncate_zero_crossing:
                # Windows [t-1 .. t) steps give 1, 2, ... levels down to the
                # second step; then [5, s) and [5 - s, 5); below that, one
                # more level per step (rounded towards the bottom).
                if p >= s:
                    return LevelChange(False, self.turnover_steps - p // s)
                top = self.turnover_steps  # levels of the [5, s) window
                if p >= 5:
                    return LevelChange(False, top)
                # [5 - s, 5) is worth top + 1; each further s below one more.
                return LevelChange(False, top + 1 + (5 - 1 - p) // s)
            below = (turnover - 1 - p) // s  # whole steps under [turnover - s, turnover)
            return LevelChange(False, 1 + below)
        dead_end = turnover + self.deadzone_steps * s
        if p < dead_end:
            return LevelChange(True, 0)
        return LevelChange(True, 1 + (p - dead_end) // s)


def level_table(config: TractorConfig) -> LevelTable:
    """The level table a table's options describe."""
    return LevelTable(config.score_step_per_deck, config.turnover_steps,
                      config.deadzone_steps, config.truncate_zero_crossing)


def level_change(attacker_points: int, decks: int = 2,
                 table: LevelTable | None = None) -> LevelChange:
    """The level table, for ``decks`` decks (two in the classic game).

    Defaults (docs/tractor.md, "Points, kitty, scoring"), two decks: 0 (from
    -35 to 4): landlords +3; 5-35: +2; 40-75: +1; 80-115: attackers become
    landlords, +0; 120-155: +1; 160-195: +2; each further 40: +1; and below
    zero (penalties) each further 40 down: +1 for the landlords (-40: +4,
    -80: +5).  The step scales with the points in play, 20 per deck, so the
    thresholds keep the same share of the total: three decks step by 60.
    """
    return (table or LevelTable()).change(attacker_points, decks)


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


def advance(rank: int, levels: int, max_rank: int,
            defended: frozenset[int] = frozenset(), defending: bool = True,
            round_rank: int | None = None) -> tuple[int, bool]:
    """A seat's new rank after going up ``levels``, and whether it passed ``max_rank``.

    Ranks are indexes (0 = deuce .. 12 = ace, 13 = NT).  A rank in ``defended`` is
    gone past only by the landlord side (``defending``) and only with the
    first level of the round; the advance stops there otherwise (shengji's
    advancement policy).  Passing the maximum wins the match, and the rank is
    then capped there.
    """
    for step in range(levels):
        if rank in defended and (not defending or step > 0):
            return rank, False
        if rank == 13 and rank in defended and round_rank not in (None, 13):
            return rank, False  # past NT only by defending NT itself (shengji)
        if rank >= max_rank:
            return max_rank, True
        rank += 1
    return rank, False
