"""Showdown and awards as pure functions: who shows, who mucks, who wins each pot.

Hand strength is a Cactus Kev class number (smaller is stronger, equal ties).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rules.poker.options import OddChip
from rules.poker.pots import Pot, split


def showing_order(live: Sequence[int], order: Sequence[int], aggressor: int | None) -> list[int]:
    """Seats still in the hand in the order they show: the last aggressor of the final
    betting round first, else the first seat left of the button; then clockwise.
    ``order`` lists the seats dealt in from the first seat left of the button."""
    start = order.index(aggressor) if aggressor is not None and aggressor in live else 0
    rotated = [*order[start:], *order[:start]]
    return [s for s in rotated if s in live]


def showdown(
    pots: Sequence[Pot], ranks: Mapping[int, int], order: Sequence[int], muck_losers: bool
) -> tuple[list[int], list[int]]:
    """``(shown, mucked)`` seats.  Seats act in ``order``; with ``muck_losers`` a seat
    shows only if its hand wins or ties, against the hands already shown, at least one
    pot it is eligible for (so the first seat always shows), and mucks otherwise."""
    best: list[int | None] = [None] * len(pots)
    shown: list[int] = []
    mucked: list[int] = []
    for seat in order:
        mine = [i for i, p in enumerate(pots) if seat in p.eligible]
        could_win = any(best[i] is None or ranks[seat] <= best[i] for i in mine)  # type: ignore[operator]
        if muck_losers and not could_win:
            mucked.append(seat)
            continue
        shown.append(seat)
        for i in mine:
            b = best[i]
            best[i] = ranks[seat] if b is None else min(b, ranks[seat])
    return shown, mucked


@dataclass(frozen=True)
class Award:
    """One pot's outcome: its chips, winners (from the left of the button), shares."""

    pot: int
    amount: int
    winners: tuple[int, ...]
    shares: tuple[tuple[int, int], ...]  # (seat, chips)
    run: int = 1  # which run of the board (2: the second of a board run twice)


def award(
    pots: Sequence[Pot], ranks: Mapping[int, int], shown: Sequence[int], odd_chip: OddChip
) -> list[Award]:
    """Each pot to the best shown hand among its eligible seats; a pot nobody shown is
    eligible for goes to its only eligible seat (one player left), or is split among
    its eligible seats when none of their hands is known (an imported history that
    never shows them: pokerkit splits so too).  Adjacent pots won
    by the same players are split as one (so uneven splits leave at most one round
    of odd chips; pokerkit does the same), and ``Award.pot`` is the first of them."""
    groups: list[tuple[int, int, tuple[int, ...]]] = []  # (first pot, chips, winners)
    for i, pot in enumerate(pots):
        contenders = [s for s in pot.eligible if s in shown]
        if contenders:
            top = min(ranks[s] for s in contenders)
            winners = tuple(s for s in contenders if ranks[s] == top)
        else:
            winners = tuple(pot.eligible)
        if groups and groups[-1][2] == winners:
            first, chips, _ = groups[-1]
            groups[-1] = (first, chips + pot.amount, winners)
        else:
            groups.append((i, pot.amount, winners))
    return [
        Award(first, chips, winners, tuple(sorted(split(chips, winners, odd_chip).items())))
        for first, chips, winners in groups
    ]


def net_results(stacks: Sequence[int], bought_in: Sequence[int]) -> tuple[int, ...]:
    """Chips won (or lost, negative) per seat over the session."""
    return tuple(s - b for s, b in zip(stacks, bought_in, strict=True))
