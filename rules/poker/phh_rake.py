"""The rake a PHH hand's ``finishing_stacks`` imply.

PHH has no rake field: its specification says the finishing stacks may show "the
rake applied in the end" and that ``winnings`` are post-rake.  A hand whose replay
pays more than its finishing stacks (or, without them, its winnings) show, with no
player ahead of the replay, was raked; the reader tries the rake as one amount
taken from the main pot first (a site's summary) and then pot by pot (pokerkit
rakes each pot on its own), and keeps the one that gives the file's stacks exactly
(rules/poker/rake.py).  Figures that would rake every pot whole are not a rake
(the HandHQ iPoker hands write 0 for every player's winnings): the hand is kept
unraked.
"""

from __future__ import annotations

from typing import Any

from rules.poker.amounts import AmountError, parse_amount, to_chips
from rules.poker.hands import PlayedHand
from rules.poker.pots import split


def file_stacks(said: str | None, decimals: int) -> list[int] | None:
    """A ``finishing_stacks`` (or ``winnings``) field's text as chips (None: absent,
    or not whole amounts of the hand's unit)."""
    if said is None:
        return None
    try:
        values = [parse_amount(v.strip()) for v in said.strip("[]").split(",") if v.strip()]
        return [to_chips(v, decimals) for v in values]
    except AmountError:
        return None


def finishing_chips(said: str, decimals: int) -> list[int | None] | None:
    """A ``finishing_stacks`` text as chips, ``None`` for ``inf`` (a stack not
    known); None when it is not that."""
    out: list[int | None] = []
    for entry in (v.strip() for v in said.strip("[]").split(",") if v.strip()):
        chips = None if entry in ("inf", "+inf") else file_stacks(entry, decimals)
        if chips is None and entry not in ("inf", "+inf"):
            return None
        out += chips or [None]
    return out


def stacks_from_winnings(played: PlayedHand, winnings: list[int] | None) -> list[int] | None:
    """The stacks a ``winnings`` field (what each player collected, after the rake)
    implies: the replay's stacks less what the replay paid beyond it."""
    hand = played.hand
    order = list(hand.players)
    if winnings is None or len(winnings) != len(order):
        return None
    paid = dict.fromkeys(order, 0)
    for a in hand.awards:
        for seat, chips in a.shares:
            paid[seat] += chips
    return [played.final_stacks[s] - paid[s] + winnings[i] for i, s in enumerate(order)]


def rake_options(played: PlayedHand, finishing: list[int] | None) -> list[dict[str, Any]]:
    """The table options that could explain ``finishing`` (per player, p1 first) as
    the replay's stacks less a rake: none when the file shows no rake."""
    hand = played.hand
    order = list(hand.players)
    if finishing is None or len(finishing) != len(order):
        return []
    short = {s: played.final_stacks[s] - finishing[i] for i, s in enumerate(order)}
    if any(v < 0 for v in short.values()) or not any(short.values()):
        return []
    if sum(short.values()) >= sum(a.amount for a in hand.awards):
        # No rake takes every pot whole: these figures are no stacks (the HandHQ
        # iPoker hands write winnings of 0 for a pot someone won).
        return []
    out: list[dict[str, Any]] = [{"hand_rake": sum(short.values())}]
    if hand.board2:
        return out  # pot by pot is pokerkit's rule, and pokerkit runs a board once
    rakes = _per_pot(played, short)
    if rakes is not None:
        out.append({"pot_rakes": rakes})
    return out


def _per_pot(played: PlayedHand, short: dict[int, int]) -> list[int] | None:
    """Each pot's rake, from what each winner got less than the replay: an award
    with a winner who won nothing else is settled first (the rake that takes just
    that winner's shortfall, split as the table splits), until all are."""
    hand, odd_chip = played.hand, played.config.odd_chip
    rakes = [0] * (max((a.pot for a in hand.awards), default=0) + 1)
    left = dict(short)
    pending = list(hand.awards)
    while pending:
        for a in pending:
            others = [s for b in pending if b is not a for s in b.winners]
            only = [s for s in a.winners if s not in others]
            if only:
                break
        else:
            return None
        base = dict(a.shares)
        seat = only[0]
        lo, hi = 0, a.amount  # the least rake that costs ``seat`` its shortfall
        while lo < hi:
            mid = (lo + hi) // 2
            lost = base[seat] - split(a.amount - mid, a.winners, odd_chip)[seat]
            lo, hi = (mid + 1, hi) if lost < left[seat] else (lo, mid)
        shares = split(a.amount - lo, a.winners, odd_chip)
        for winner in a.winners:
            left[winner] -= base[winner] - shares[winner]
        rakes[a.pot] += lo
        pending.remove(a)
    return rakes if not any(left.values()) else None


def unknown_winners(played: PlayedHand, finishing: list[int] | None) -> list[int]:
    """The chairs still in at the showdown whose cards are unknown and to whom the
    file's stacks pay something (the replay lets no unknown hand win): winners the
    table could not see (the ``showdown_winners`` option)."""
    hand = played.hand
    order = list(hand.players)
    if finishing is None or len(finishing) != len(order) or len(hand.live) < 2:
        return []
    paid = dict.fromkeys(order, 0)
    for a in hand.awards:
        for seat, chips in a.shares:
            paid[seat] += chips
    return [s for i, s in enumerate(order) if s in hand.live and not hand.holes[s]
            and finishing[i] > played.final_stacks[s] - paid[s]]
