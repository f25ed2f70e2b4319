"""The words a bidding system's rules are written in: situations (tests on the
public auction), call makers (the call a rule makes, from the auction) and what
a call shows when that depends on the auction."""

from __future__ import annotations

from collections.abc import Callable

from rules.bridge.auction import DOUBLE, PASS, STRAINS, Bid, Call, parse_call
from rules.bridge.system.hand import (
    CLUBS,
    DIAMONDS,
    HEARTS,
    SPADES,
    SUIT_LETTERS,
    Constraints,
    HandInfo,
    shows,
)
from rules.bridge.system.rulebook import Ctx, Extra, MakeCall, Shows, Test, const_call

MAJORS = (SPADES, HEARTS)
MINORS = (DIAMONDS, CLUBS)

# ---------------------------------------------------------------- situations


def opening_seat(ctx: Ctx) -> bool:
    return ctx.opening is None


def partner_opened(text: str, contested: bool = False) -> Test:
    """Partner opened ``text``, I have not bid yet (opponents silent unless ``contested``)."""
    want = parse_call(text)

    def test(ctx: Ctx) -> bool:
        op = ctx.opening
        return (
            op is not None
            and op[0] == ctx.partner
            and op[1] == want
            and not ctx.i_have_bid
            and (contested or ctx.uncontested)
        )

    return test


def after(text: str) -> Test:
    return lambda ctx: ctx.seq(text)


def i_opened_one_suit_partner_responded(ctx: Ctx) -> bool:
    ours = ctx.ours()
    return (
        ctx.uncontested
        and len(ours) == 2
        and ours[0][0] == "me"
        and ours[1][0] == "pard"
        and ours[0][1] in ("1C", "1D", "1H", "1S")
        and ours[1][1] != DOUBLE
    )


def overcall_spot(ctx: Ctx) -> bool:
    """The opponents opened; our side has not bid (only passed)."""
    op = ctx.opening
    return op is not None and op[0] % 2 != ctx.seat % 2 and not ctx.ours()


def advancing(kind: str) -> Test:
    """Partner's only call was a ``kind`` ("double" or "suit" overcall) over their
    opening, and I have not bid yet."""

    def test(ctx: Ctx) -> bool:
        op = ctx.opening
        if op is None or op[0] % 2 == ctx.seat % 2 or ctx.i_have_bid:
            return False
        mine = [c for c in ctx.calls_of(ctx.partner) if c != PASS]
        if len(mine) != 1:
            return False
        if kind == "double":
            return mine[0] == DOUBLE
        return isinstance(mine[0], Bid) and mine[0].strain != "N"

    return test


def their_suit(ctx: Ctx) -> int | None:
    op = ctx.opening
    if op is None or op[1].strain == "N":
        return None
    return STRAINS.index(op[1].strain)


def partner_suit(ctx: Ctx) -> int | None:
    """The suit of partner's first suit bid."""
    for c in ctx.calls_of(ctx.partner):
        if isinstance(c, Bid) and c.strain != "N":
            return STRAINS.index(c.strain)
    return None


def my_suit(ctx: Ctx) -> int | None:
    for c in ctx.calls_of(ctx.seat):
        if isinstance(c, Bid) and c.strain != "N":
            return STRAINS.index(c.strain)
    return None


def first_bid_of(ctx: Ctx, seat: int) -> Bid | None:
    for c in ctx.calls_of(seat):
        if isinstance(c, Bid):
            return c
    return None


def both(*tests: Test) -> Test:
    return lambda ctx: all(t(ctx) for t in tests)


# -------------------------------------------------------------- call makers


def bid_at(level: int, strain: int | str) -> MakeCall:
    letter = strain if isinstance(strain, str) else SUIT_LETTERS[strain]
    return const_call(f"{level}{letter}")


def cheapest_in(strain_of: Callable[[Ctx], int | str | None], max_level: int = 7) -> MakeCall:
    def make(ctx: Ctx) -> Call | None:
        strain = strain_of(ctx)
        if strain is None:
            return None
        bid = ctx.cheapest(strain)
        return bid if bid is not None and bid.level <= max_level else None

    return make


def jump_in(strain_of: Callable[[Ctx], int | None], max_level: int = 4) -> MakeCall:
    def make(ctx: Ctx) -> Call | None:
        strain = strain_of(ctx)
        if strain is None:
            return None
        bid = ctx.cheapest(strain)
        if bid is None or bid.level + 1 > max_level:
            return None
        return Bid(bid.level + 1, bid.strain)

    return make


def game_in(strain_of: Callable[[Ctx], int | None]) -> MakeCall:
    """Four of a major (five of a minor) in the suit ``strain_of`` names."""

    def make(ctx: Ctx) -> Call | None:
        s = strain_of(ctx)
        if s is None:
            return None
        return Bid(4 if s in MAJORS else 5, SUIT_LETTERS[s])

    return make


def fixed(suit: int) -> Callable[[Ctx], int | None]:
    return lambda ctx: suit


def length_at_least(suit_of: Callable[[Ctx], int | None], n: int) -> Extra:
    def test(ctx: Ctx, hand: HandInfo) -> bool:
        s = suit_of(ctx)
        return s is not None and hand.length(s) >= n

    return test


def shows_suit(
    suit_of: Callable[[Ctx], int | None], hcp: tuple[int, int], n: int
) -> Shows:
    def make(ctx: Ctx) -> Constraints:
        s = suit_of(ctx)
        if s is None:
            return shows(hcp)
        return shows(hcp, suits={SUIT_LETTERS[s]: n})

    return make
