"""The rule mechanism of a bidding system: how a rule matches an auction and a
hand and yields a call, and how an auction is read back into hand constraints.

Each :class:`Rule` has a *situation* (a test on the public auction only), the *call*
it makes there, and the hand *constraints* the call shows (HCP range, suit lengths,
balanced), plus an optional extra hand test for choices the constraints cannot
express (e.g. "longer major").  A bidder makes the call of the first rule, in
table order, whose situation holds, whose call is legal and whose constraints (and
extra test) its hand meets (:func:`choose`).

Partner and opponents read the auction by running the same table: for each call,
the first rule whose situation holds and whose call is the one made gives the
constraints that call showed (:func:`read`).  Because situations look only at the
public auction, every seat reads the same constraints.  The table itself, a
system's data, is ``natural.py``; the words its rules are written in,
``situations.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from rules.bridge.auction import PASS, Bid, Call, CallError, check_call, parse_call
from rules.bridge.system.hand import NOTHING, SUIT_LETTERS, Constraints, HandInfo

Calls = Sequence[tuple[int, Call]]
Known = tuple[Constraints, Constraints, Constraints, Constraints]


@dataclass(frozen=True)
class Ctx:
    """The public auction as seen by the seat about to call."""

    calls: tuple[tuple[int, Call], ...]
    seat: int
    known: tuple[Constraints, Constraints, Constraints, Constraints] = field(
        default=(NOTHING, NOTHING, NOTHING, NOTHING)
    )

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    def calls_of(self, seat: int) -> list[Call]:
        return [c for s, c in self.calls if s == seat]

    def ours(self) -> list[tuple[str, str]]:
        """Our side's non-pass calls in order, as ("me"|"pard", call text)."""
        return [
            ("me" if s == self.seat else "pard", _text(c))
            for s, c in self.calls
            if s % 2 == self.seat % 2 and c != PASS
        ]

    def theirs(self) -> list[Call]:
        return [c for s, c in self.calls if s % 2 != self.seat % 2 and c != PASS]

    @property
    def uncontested(self) -> bool:
        return not self.theirs()

    def seq(self, text: str) -> bool:
        """``seq("me:1NT pard:2C")``: our side's calls so far, opponents silent."""
        want = [tuple(part.split(":")) for part in text.split()]
        return self.uncontested and self.ours() == want

    @property
    def last_bid(self) -> tuple[int, Bid] | None:
        for s, c in reversed(self.calls):
            if isinstance(c, Bid):
                return s, c
        return None

    @property
    def opening(self) -> tuple[int, Bid] | None:
        for s, c in self.calls:
            if isinstance(c, Bid):
                return s, c
        return None

    def legal(self, call: Call) -> bool:
        try:
            check_call(list(self.calls), self.seat, call)
        except CallError:
            return False
        return True

    def cheapest(self, strain: int | str) -> Bid | None:
        """The lowest bid in ``strain`` (a suit number or "N") that is still legal."""
        letter = strain if isinstance(strain, str) else SUIT_LETTERS[strain]
        for level in range(1, 8):
            bid = Bid(level, letter)
            if self.legal(bid):
                return bid
        return None

    def partner_est(self) -> int:
        """Partner's HCP as the auction shows them: the bottom of the range plus one."""
        lo, hi = self.known[self.partner].hcp
        return min(lo + 1, hi)

    def partner_min(self, suit: int) -> int:
        return self.known[self.partner].min_len(suit)

    @property
    def i_have_bid(self) -> bool:
        return any(c != PASS for c in self.calls_of(self.seat))

    @property
    def partner_has_bid(self) -> bool:
        return any(c != PASS for c in self.calls_of(self.partner))


def _text(call: Call) -> str:
    return str(call) if isinstance(call, Bid) else call


Test = Callable[[Ctx], bool]
MakeCall = Callable[[Ctx], Call | None]
Shows = Callable[[Ctx], Constraints]
Extra = Callable[[Ctx, HandInfo], bool]


@dataclass(frozen=True)
class Rule:
    """One line of the system: in ``when``, call ``call`` with a hand that ``shows``."""

    name: str
    when: Test
    call: MakeCall
    shows: Shows
    extra: Extra | None = None
    # Partner may not pass (a new suit by responder, a transfer, Stayman, 2C).
    forcing: bool = False
    # None: alerted when artificial (see :func:`reading`); else as given.
    alert: bool | None = None


def const_call(text: str) -> MakeCall:
    """A call maker that always makes the call spelled ``text``."""
    call = parse_call(text)
    return lambda ctx: call


def _const_shows(c: Constraints) -> Shows:
    return lambda ctx: c


def rule(
    name: str,
    when: Test,
    call: str | MakeCall,
    show: Constraints | Shows = NOTHING,
    extra: Extra | None = None,
    *,
    forcing: bool = False,
    alert: bool | None = None,
) -> Rule:
    """A rule; ``call`` may be spelled (``"1NT"``) and ``show`` a fixed ``Constraints``."""
    return Rule(
        name,
        when,
        const_call(call) if isinstance(call, str) else call,
        _const_shows(show) if isinstance(show, Constraints) else show,
        extra,
        forcing,
        alert,
    )


def matches(r: Rule, ctx: Ctx) -> Call | None:
    """The call ``r`` makes in ``ctx`` if its situation holds and the call is legal."""
    if not r.when(ctx):
        return None
    call = r.call(ctx)
    if call is None or not ctx.legal(call):
        return None
    return call


@dataclass(frozen=True)
class Reading:
    """How the system reads one call: the rule that explains it (None: no rule
    does, the call shows nothing), what it shows, and whether it is forcing or
    alerted."""

    rule: Rule | None
    shows: Constraints
    forcing: bool
    alert: bool


def _artificial(call: Call, seat: int, known: Sequence[Constraints]) -> bool:
    """A suit bid is natural when it promises three cards of the suit, or places the
    contract in a suit the partnership has shown seven of; anything else is artificial."""
    if not isinstance(call, Bid) or call.strain == "N":
        return False
    suit = SUIT_LETTERS.index(call.strain)
    mine, partner = known[seat].min_len(suit), known[(seat + 2) % 4].min_len(suit)
    return mine < 3 and mine + partner < 7


def read_call(
    calls: Calls, known: Known, seat: int, call: Call, table: Sequence[Rule]
) -> tuple[Known, Reading]:
    """``call`` by ``seat`` after ``calls`` (whose constraints are ``known``) as read
    by ``table``, and the constraints known after it."""
    ctx = Ctx(tuple(calls), seat, known)
    for r in table:
        if matches(r, ctx) == call:
            after = list(known)
            after[seat] = known[seat].meet(r.shows(ctx))
            now: Known = (after[0], after[1], after[2], after[3])
            alert = _artificial(call, seat, now) if r.alert is None else r.alert
            return now, Reading(r, r.shows(ctx), r.forcing, alert)
    return known, Reading(None, NOTHING, False, False)


def reading(calls: Calls, table: Sequence[Rule]) -> tuple[Known, list[Reading]]:
    """The constraints each seat's calls have shown, and each call as read, by ``table``."""
    known: Known = (NOTHING, NOTHING, NOTHING, NOTHING)
    out: list[Reading] = []
    for i, (seat, call) in enumerate(calls):
        known, found = read_call(calls[:i], known, seat, call, table)
        out.append(found)
    return known, out


def read(calls: Calls, table: Sequence[Rule]) -> Known:
    """The constraints each seat's calls have shown, reading the auction by ``table``."""
    return reading(calls, table)[0]


@dataclass(frozen=True)
class Choices:
    """What ``table`` bids for one seat at one point of an auction, hand by hand: the
    rules whose situation holds there, in table order, each with its call and the
    constraints that call shows.  The situation is public, so this is worked out once
    and then asked of any number of hands (a card-play sampler asks which call each
    sampled hand would have made)."""

    ctx: Ctx
    options: tuple[tuple[Rule, Call, Constraints], ...]
    fallback: Rule

    def pick(self, hand: HandInfo) -> tuple[Rule, Call]:
        """The first rule ``hand`` fits and its call (the fallback and a pass when none)."""
        for r, call, shown in self.options:
            if shown.admits(hand) and (r.extra is None or r.extra(self.ctx, hand)):
                return r, call
        return self.fallback, PASS


def choices(calls: Calls, seat: int, table: Sequence[Rule]) -> Choices:
    """The calls ``table`` makes for ``seat`` after ``calls``, by hand."""
    ctx = Ctx(tuple(calls), seat, read(calls, table))
    found = []
    for r in table:
        call = matches(r, ctx)
        if call is not None:
            found.append((r, call, r.shows(ctx)))
    return Choices(ctx, tuple(found), table[-1])


def choose(calls: Calls, seat: int, hand: HandInfo, table: Sequence[Rule]) -> tuple[Rule, Call]:
    """The rule of ``table`` that ``seat`` holding ``hand`` bids by now, and its call
    (the table's last rule and a pass when none fits)."""
    return choices(calls, seat, table).pick(hand)
