"""The house's rake and a board run twice, as pure functions of the pots.

The table's rule (options ``rake_percent``, ``rake_cap``, ``no_flop_no_drop``) is
pokerkit's: every pot, main and side, pays its percentage rounded to the nearest chip
(a half to the even chip), at most the cap, and nothing when no flop was dealt with
no-flop-no-drop on.  A hand read from a history carries the exact rake the site took
(``hand_rake``), taken from the main pot first, then the side pots in order: what
PokerStars' summaries show (``Main pot $3007. Side pot $20. | Rake $3`` of a $3,010
main pot); or what it took from each pot (``pot_rakes``).  Percentages are read as
the decimal the option was written as, so the arithmetic is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from rules.poker.options import PokerConfig
from rules.poker.pots import Pot


def rake_of(amount: int, percent: float, cap: int | None) -> int:
    """The rake of one pot of ``amount`` chips."""
    share = Fraction(Decimal(repr(percent))) * amount / 100
    chips = round(share)  # Fraction rounds a half to the even integer
    return chips if cap is None else min(chips, cap)


def take_rake(
    pots: Sequence[Pot], config: PokerConfig, flop_dealt: bool
) -> tuple[list[Pot], int]:
    """The pots after the house's rake, and the chips it took."""
    if config.pot_rakes is not None:
        takes = [min(r, p.amount) for p, r in zip(pots, [*config.pot_rakes, *[0] * len(pots)],
                                                 strict=False)]
        return [Pot(p.amount - t, p.eligible) for p, t in zip(pots, takes, strict=True)], sum(takes)
    if config.hand_rake is not None:
        left = config.hand_rake
        out = []
        for pot in pots:
            take = min(left, pot.amount)
            left -= take
            out.append(Pot(pot.amount - take, pot.eligible))
        return out, config.hand_rake - left
    if not config.rake_percent or (config.no_flop_no_drop and not flop_dealt):
        return list(pots), 0
    takes = [rake_of(p.amount, config.rake_percent, config.rake_cap) for p in pots]
    return [Pot(p.amount - t, p.eligible) for p, t in zip(pots, takes, strict=True)], sum(takes)


def split_runs(pots: Sequence[Pot]) -> tuple[list[Pot], list[Pot]]:
    """Every pot halved between two runs of the board; the first run takes an odd
    chip (the site's histories show halves of each pot, as ``$1503.50`` twice)."""
    first = [Pot(p.amount - p.amount // 2, p.eligible) for p in pots]
    second = [Pot(p.amount // 2, p.eligible) for p in pots]
    return first, second
