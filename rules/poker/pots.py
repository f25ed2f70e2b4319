"""Pots as pure functions of what each player put in: side pots and splits.

Contributions are per seat for the whole hand (antes, blinds and bets).  A pot is
formed at every distinct contribution level of a player still in the hand; each
player, folded or not, pays into a pot up to that level, and the players still in the
hand who reached it are eligible.  Adjacent pots with the same eligible players merge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.poker.options import OddChip


@dataclass(frozen=True)
class Pot:
    """Chips in one pot and the seats that can win it (from the left of the button)."""

    amount: int
    eligible: tuple[int, ...]


def build_pots(
    contributed: Sequence[int],
    live: Sequence[bool],
    order: Sequence[int],
    dead: Sequence[int] = (),
) -> list[Pot]:
    """Main pot first, then side pots.  ``order`` lists the seats dealt in, from the
    first seat left of the button; ``live[s]`` is false once seat ``s`` folded.
    ``dead`` (per seat, part of ``contributed``) is money every player still in can
    win whatever they paid: dead antes go to the main pot (pokerkit's pots when ante
    trimming is off)."""
    if any(dead):
        alive = [c - d for c, d in zip(contributed, dead, strict=True)]
        below = build_pots(alive, live, order) if any(alive) else []
        money = sum(dead)
        if not below:
            return [Pot(money, tuple(s for s in order if live[s]))]
        return [Pot(below[0].amount + money, below[0].eligible), *below[1:]]
    levels = sorted({contributed[s] for s in order if live[s]})
    pots: list[Pot] = []
    previous = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, previous) for c in contributed)
        eligible = tuple(s for s in order if live[s] and contributed[s] >= level)
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        elif amount or not pots:
            pots.append(Pot(amount, eligible))
        previous = level
    # Folded money above the top live level cannot arise once uncalled bets are
    # returned; should it, it stays with the last pot so no chip is ever lost.
    rest = sum(c - min(c, previous) for c in contributed)
    if rest:
        last = pots[-1]
        pots[-1] = Pot(last.amount + rest, last.eligible)
    return [p for p in pots if p.amount] or pots[:1]


def split(amount: int, winners: Sequence[int], odd_chip: OddChip) -> dict[int, int]:
    """Divide ``amount`` evenly among ``winners`` (listed from the first seat left of
    the button); the chips left over go by the ``odd_chip`` rule."""
    share, left = divmod(amount, len(winners))
    out = {s: share for s in winners}
    if odd_chip is OddChip.FIRST_WINNER:
        out[winners[0]] += left
    else:
        for s in winners[:left]:
            out[s] += 1
    return out


def uncalled(bets: Sequence[int]) -> tuple[int, int] | None:
    """``(seat, chips)`` of the part of the largest bet of a betting round that nobody
    matched (returned to its owner), or None."""
    if not bets:
        return None
    top = max(bets)
    holders = [s for s, b in enumerate(bets) if b == top]
    if len(holders) != 1:
        return None
    second = max((b for s, b in enumerate(bets) if s != holders[0]), default=0)
    return (holders[0], top - second) if top > second else None
