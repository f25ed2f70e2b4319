"""Calls, their legality, the end of the auction and who declares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

STRAINS = "CDHSN"  # bidding order: clubs < diamonds < hearts < spades < notrump
STRAIN_NAMES = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "N": "NT"}


class CallError(ValueError):
    code = "bad_call"


@dataclass(frozen=True, order=True)
class Bid:
    level: int  # 1..7
    strain: str  # one of STRAINS

    # Cached on the instance (outside the compared fields): the legal calls look
    # at the last bid's rank after every call, and the ladder's bids are shared.
    @cached_property
    def rank(self) -> int:
        """Position in the bidding ladder, 1C = 0 .. 7NT = 34."""
        return (self.level - 1) * 5 + STRAINS.index(self.strain)

    def __str__(self) -> str:
        return f"{self.level}{'NT' if self.strain == 'N' else self.strain}"

    def pretty(self) -> str:
        """``1♣`` .. ``7NT``: for messages, where ``2C`` would read as a card."""
        return f"{self.level}{STRAIN_NAMES[self.strain]}"


# Every bid in ladder order (1C .. 7NT), built once: legal_calls slices it.
LADDER = tuple(Bid(r // 5 + 1, STRAINS[r % 5]) for r in range(35))

PASS, DOUBLE, REDOUBLE = "P", "X", "XX"
Call = Bid | str


def parse_call(text: str) -> Call:
    """``P``/``Pass``, ``X``/``Dbl``, ``XX``/``Rdbl``, or a bid like ``1NT``, ``3h``, ``4♠``."""
    t = text.strip().upper().replace("♣", "C").replace("♦", "D").replace("♥", "H")
    t = t.replace("♠", "S")
    if t in ("P", "PASS"):
        return PASS
    if t in ("X", "D", "DBL", "DOUBLE"):
        return DOUBLE
    if t in ("XX", "R", "RDBL", "REDOUBLE"):
        return REDOUBLE
    if len(t) >= 2 and t[0] in "1234567":
        strain = t[1:]
        if strain in ("NT", "N"):
            return Bid(int(t[0]), "N")
        if strain in ("C", "D", "H", "S"):
            return Bid(int(t[0]), strain)
    raise CallError(f"not a call: {text!r} (use 1C..7NT, P, X, XX)")


def format_call(call: Call) -> str:
    return str(call) if isinstance(call, Bid) else call


@dataclass(frozen=True)
class Contract:
    """The final contract: level, strain, 0/1/2 for undoubled/doubled/redoubled, declarer."""

    level: int
    strain: str
    doubled: int
    declarer: int

    def __str__(self) -> str:
        return f"{self.level}{'NT' if self.strain == 'N' else self.strain}" + "X" * self.doubled


def _last_bid(calls: Sequence[tuple[int, Call]]) -> tuple[int, Bid] | None:
    for seat, call in reversed(calls):
        if isinstance(call, Bid):
            return seat, call
    return None


def _last_non_pass(calls: Sequence[tuple[int, Call]]) -> tuple[int, Call] | None:
    for seat, call in reversed(calls):
        if call != PASS:
            return seat, call
    return None


def check_call(calls: Sequence[tuple[int, Call]], seat: int, call: Call) -> None:
    """Raise :class:`CallError` with a stable code unless ``seat`` may make ``call``.

    ``calls`` is the auction so far as (seat, call) pairs."""
    last = _last_bid(calls)
    if isinstance(call, Bid):
        if last is not None and call.rank <= last[1].rank:
            err = CallError(f"{call.pretty()} is insufficient over {last[1].pretty()}")
            err.code = "insufficient_bid"
            raise err
        return
    if call == PASS:
        return
    prev = _last_non_pass(calls)
    if call == DOUBLE:
        if prev is None or not isinstance(prev[1], Bid) or prev[0] % 2 == seat % 2:
            err = CallError("you may double only an opponent's undoubled bid")
            err.code = "bad_double"
            raise err
        return
    if prev is None or prev[1] != DOUBLE or prev[0] % 2 == seat % 2:
        err = CallError("you may redouble only an opponent's double of your side's bid")
        err.code = "bad_redouble"
        raise err


def call_options(calls: Sequence[tuple[int, Call]], seat: int) -> tuple[bool, bool, int]:
    """What ``seat`` may call now besides a pass, in one look back over the auction
    (check_call's rules without building its errors): (may double, may redouble,
    rank of the lowest bid allowed, 35 when none is)."""
    prev: tuple[int, Call] | None = None  # the last call that is not a pass
    first = 0
    for s, call in reversed(calls):
        if isinstance(call, Bid):  # the last bid comes at or after the last non-pass
            if prev is None:
                prev = (s, call)
            first = call.rank + 1
            break
        if prev is None and call != PASS:
            prev = (s, call)
    if prev is None or prev[0] % 2 == seat % 2:
        return False, False, first
    return isinstance(prev[1], Bid), prev[1] == DOUBLE, first


def legal_calls(calls: Sequence[tuple[int, Call]], seat: int) -> list[Call]:
    """Every call ``seat`` may make now."""
    double, redouble, first = call_options(calls, seat)
    out: list[Call] = [PASS]
    if double:
        out.append(DOUBLE)
    if redouble:
        out.append(REDOUBLE)
    out.extend(LADDER[first:])
    return out


def is_over(calls: Sequence[tuple[int, Call]]) -> bool:
    """Four passes to start, or three passes after any other call."""
    # Passes are strings: testing the type first keeps Bid's dataclass __eq__ out
    # of a check made after every call.
    n = len(calls)
    if n < 4:
        return False
    for i in range(n - 3, n):
        call = calls[i][1]
        if type(call) is not str or call != PASS:
            return False
    # Three passes last: over if these are four passes, or after any other call.
    return n == 4 or any(type(c) is not str or c != PASS for _, c in calls[: n - 3])


def final_contract(calls: Sequence[tuple[int, Call]]) -> Contract | None:
    """The contract of a finished auction (None when passed out). The declarer is the
    first player of the declaring side to name the final strain."""
    last = _last_bid(calls)
    if last is None:
        return None
    seat, bid = last
    doubled = 0
    for _, call in calls[calls.index((seat, bid)) + 1 :]:
        if call == DOUBLE:
            doubled = 1
        elif call == REDOUBLE:
            doubled = 2
    declarer = next(
        s for s, c in calls if isinstance(c, Bid) and c.strain == bid.strain and s % 2 == seat % 2
    )
    return Contract(bid.level, bid.strain, doubled, declarer)
