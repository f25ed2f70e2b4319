"""Duplicate bridge scoring, and comparing tables in IMPs and matchpoints."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from rules.bridge.auction import Contract


def _trick_value(strain: str, nth: int) -> int:
    """Points for the ``nth`` (1-based) odd trick in ``strain``, undoubled."""
    if strain == "N":
        return 40 if nth == 1 else 30
    return 20 if strain in "CD" else 30


def contract_score(contract: Contract, vulnerable: bool, tricks: int) -> int:
    """Duplicate score for the declaring side (negative when the contract fails).

    ``tricks`` is the number of tricks declarer's side took (0..13)."""
    level, strain, dbl = contract.level, contract.strain, contract.doubled
    needed = level + 6
    if tricks >= needed:
        mult = (1, 2, 4)[dbl]
        trick_points = sum(_trick_value(strain, i) for i in range(1, level + 1)) * mult
        score = trick_points
        score += (500 if vulnerable else 300) if trick_points >= 100 else 50
        if level == 6:
            score += 750 if vulnerable else 500
        elif level == 7:
            score += 1500 if vulnerable else 1000
        score += (0, 50, 100)[dbl]  # the insult
        over = tricks - needed
        if dbl == 0:
            score += over * _trick_value(strain, 2)
        else:
            score += over * (200 if vulnerable else 100) * dbl
        return score
    down = needed - tricks
    if dbl == 0:
        return -down * (100 if vulnerable else 50)
    if vulnerable:
        penalty = 200 + 300 * (down - 1)
    else:
        penalty = 100 + 200 * min(down - 1, 2) + 300 * max(down - 3, 0)
    return -penalty * dbl


# Upper bounds of each IMP step: a difference of 0-10 is 0 IMPs, 20-40 is 1, ...
_IMP_STEPS = (
    10,
    40,
    80,
    120,
    160,
    210,
    260,
    310,
    360,
    420,
    490,
    590,
    740,
    890,
    1090,
    1290,
    1490,
    1740,
    1990,
    2240,
    2490,
    2990,
    3490,
    3990,
)


def imps(difference: int) -> int:
    """IMPs for a score difference (sign kept)."""
    n = bisect_left(_IMP_STEPS, abs(difference))
    return n if difference >= 0 else -n


def matchpoints(scores: Sequence[int]) -> list[float]:
    """Matchpoints of each score on one board, from the same direction: one point
    for every score beaten, half a point for every tie (top = len(scores) - 1)."""
    return [
        sum(1.0 if s > o else 0.5 if s == o else 0.0 for j, o in enumerate(scores) if j != i)
        for i, s in enumerate(scores)
    ]
