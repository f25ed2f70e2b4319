"""The natural bidding system's data: its table of rules, in priority order
(documented in docs/bridge_bidding.md).  ``rulebook.py`` says how a table is
bid and read; ``situations.py`` has the words the rules are written in."""

from __future__ import annotations

from collections.abc import Callable

from rules.bridge.auction import DOUBLE, STRAINS, Bid, Call
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
from rules.bridge.system.rulebook import Ctx, Rule, Shows, Test, rule
from rules.bridge.system.situations import (
    MAJORS,
    MINORS,
    advancing,
    after,
    bid_at,
    both,
    cheapest_in,
    first_bid_of,
    fixed,
    game_in,
    i_opened_one_suit_partner_responded,
    jump_in,
    length_at_least,
    my_suit,
    opening_seat,
    overcall_spot,
    partner_opened,
    partner_suit,
    shows_suit,
    their_suit,
)

RULES: list[Rule] = []


def _add(*rules: Rule) -> None:
    RULES.extend(rules)


# Openings.  12-21 HCP opens one of a suit: a five-card major (spades with 5-5),
# else the longer minor (diamonds with 4-4, clubs with 3-3).
_add(
    rule("2C strong", opening_seat, "2C", shows((22, 37)), forcing=True),
    rule("2NT opening", opening_seat, "2NT", shows((20, 21), balanced=True)),
    rule("1NT opening", opening_seat, "1NT", shows((15, 17), balanced=True)),
    rule("1S opening", opening_seat, "1S", shows((12, 21), S=5),
         lambda ctx, h: h.length(SPADES) >= h.length(HEARTS)),
    rule("1H opening", opening_seat, "1H", shows((12, 21), H=5, S=(0, 5))),
    rule("1D opening", opening_seat, "1D", shows((12, 21), D=3, H=(0, 4), S=(0, 4)),
         lambda ctx, h: h.length(DIAMONDS) > h.length(CLUBS)
         or h.length(DIAMONDS) == h.length(CLUBS) >= 4),
    rule("1C opening", opening_seat, "1C", shows((12, 21), C=3, H=(0, 4), S=(0, 4))),
)
for _s in (SPADES, HEARTS, DIAMONDS):
    _add(rule(f"weak 2{SUIT_LETTERS[_s]}", opening_seat, f"2{SUIT_LETTERS[_s]}",
              shows((5, 10), suits={SUIT_LETTERS[_s]: (6, 6)})))
for _s in (SPADES, HEARTS, DIAMONDS, CLUBS):
    _add(rule(f"preempt 3{SUIT_LETTERS[_s]}", opening_seat, f"3{SUIT_LETTERS[_s]}",
              shows((5, 10), suits={SUIT_LETTERS[_s]: 7})))
_add(rule("pass, no opening", opening_seat, "P", shows((0, 11))))

# Responses to 1NT (opponents silent): Jacoby transfers, Stayman, natural NT raises.
_NT = partner_opened("1NT")
_add(
    rule("transfer to spades", _NT, "2H", shows(S=5),
         lambda ctx, h: h.length(SPADES) >= h.length(HEARTS), forcing=True),
    rule("transfer to hearts", _NT, "2D", shows(H=5), forcing=True),
    rule("Stayman", _NT, "2C", shows((8, 37), H=(0, 4), S=(0, 4)),
         lambda ctx, h: h.length(HEARTS) == 4 or h.length(SPADES) == 4, forcing=True),
    rule("6NT over 1NT", _NT, "6NT", shows((18, 20), H=(0, 3), S=(0, 3))),
    rule("3NT over 1NT", _NT, "3NT", shows((10, 17), H=(0, 3), S=(0, 3))),
    rule("2NT invitation", _NT, "2NT", shows((8, 9), H=(0, 3), S=(0, 3))),
    rule("pass 1NT", _NT, "P", shows((0, 7), H=(0, 4), S=(0, 4))),
)
# Opener completes the transfer / answers Stayman.
_add(
    rule("complete transfer to hearts", after("me:1NT pard:2D"), "2H"),
    rule("complete transfer to spades", after("me:1NT pard:2H"), "2S"),
    rule("Stayman: four hearts", after("me:1NT pard:2C"), "2H", shows(H=4)),
    rule("Stayman: four spades", after("me:1NT pard:2C"), "2S", shows(S=4, H=(0, 3))),
    rule("Stayman: no major", after("me:1NT pard:2C"), "2D", shows(H=(0, 3), S=(0, 3))),
)
# Responder's second call after a transfer.
for _m, _t, _c in ((HEARTS, "2D", "2H"), (SPADES, "2H", "2S")):
    _L = SUIT_LETTERS[_m]
    _w = after(f"pard:1NT me:{_t} pard:{_c}")
    _add(
        rule(f"transfer then 4{_L}", _w, f"4{_L}", shows((10, 15), suits={_L: 6})),
        rule("transfer then 3NT", _w, "3NT", shows((10, 15), suits={_L: (5, 5)})),
        rule(f"transfer then 3{_L}", _w, f"3{_L}", shows((8, 9), suits={_L: 6})),
        rule("transfer then 2NT", _w, "2NT", shows((8, 9), suits={_L: (5, 5)})),
        rule("transfer then pass", _w, "P", shows((0, 7))),
    )
    # Opener places the contract.
    _add(
        rule(f"accept with {_L} support", after(f"me:1NT pard:{_t} me:{_c} pard:2NT"),
             f"4{_L}", shows((16, 17), suits={_L: 3})),
        rule(f"decline with {_L} support", after(f"me:1NT pard:{_t} me:{_c} pard:2NT"),
             f"3{_L}", shows((15, 15), suits={_L: 3})),
        rule("accept 2NT", after(f"me:1NT pard:{_t} me:{_c} pard:2NT"), "3NT",
             shows((16, 17), suits={_L: (2, 2)})),
        rule(f"choose 4{_L}", after(f"me:1NT pard:{_t} me:{_c} pard:3NT"), f"4{_L}",
             shows(suits={_L: 3})),
        rule(f"accept the invitation in {_L}",
             after(f"me:1NT pard:{_t} me:{_c} pard:3{_L}"), f"4{_L}", shows((16, 17))),
    )
# Responder after Stayman's answer.
for _m in MAJORS:
    _L = SUIT_LETTERS[_m]
    _w = after(f"pard:1NT me:2C pard:2{_L}")
    _add(
        rule(f"Stayman fit, game in {_L}", _w, f"4{_L}", shows((10, 15), suits={_L: 4})),
        rule(f"Stayman fit, invite in {_L}", _w, f"3{_L}", shows((8, 9), suits={_L: 4})),
    )
for _ans in ("2D", "2H", "2S"):
    _w = after(f"pard:1NT me:2C pard:{_ans}")
    _add(
        rule("Stayman, 6NT", _w, "6NT", shows((18, 20))),
        rule("Stayman, 3NT", _w, "3NT", shows((10, 17))),
        rule("Stayman, 2NT", _w, "2NT", shows((8, 9))),
    )
    # Responder's Stayman promised a major; opener with the other one raises it.
    _other = "S" if _ans == "2H" else None
    if _other:
        _add(
            rule("Stayman, other major game", after(f"me:1NT pard:2C me:{_ans} pard:3NT"),
                 "4S", shows(S=4)),
            rule("Stayman, other major max", after(f"me:1NT pard:2C me:{_ans} pard:2NT"),
                 "4S", shows((16, 17), S=4)),
            rule("Stayman, other major min", after(f"me:1NT pard:2C me:{_ans} pard:2NT"),
                 "3S", shows((15, 15), S=4)),
        )
    _add(
        rule("accept NT invitation", after(f"me:1NT pard:2C me:{_ans} pard:2NT"), "3NT",
             shows((16, 17))),
    )
for _m in MAJORS:
    _L = SUIT_LETTERS[_m]
    _add(rule(f"accept {_L} invitation", after(f"me:1NT pard:2C me:2{_L} pard:3{_L}"),
              f"4{_L}", shows((16, 17))))
_add(rule("accept 1NT-2NT", after("me:1NT pard:2NT"), "3NT", shows((16, 17))))

# Responses to one of a suit (opponents silent).
for _o in (CLUBS, DIAMONDS, HEARTS, SPADES):
    _O = SUIT_LETTERS[_o]
    _w = partner_opened(f"1{_O}")
    if _o in MAJORS:
        _add(
            rule(f"game raise of 1{_O}", _w, f"4{_O}", shows((13, 17), suits={_O: 3})),
            rule(f"limit raise of 1{_O}", _w, f"3{_O}", shows((11, 12), suits={_O: 4})),
            rule(f"simple raise of 1{_O}", _w, f"2{_O}", shows((6, 10), suits={_O: 3})),
        )
    # New suits: majors at the one level up the line, lower suits at the two level.
    for _s in (HEARTS, SPADES) if _o != SPADES else ():
        if _s <= _o:
            continue
        _S = SUIT_LETTERS[_s]
        if _s == HEARTS:
            _add(rule("1H response", _w, "1H", shows((6, 37), H=4),
                      lambda ctx, h: h.length(HEARTS) > h.length(SPADES)
                      or h.length(HEARTS) == h.length(SPADES) == 4, forcing=True))
        else:
            _add(rule("1S response", _w, "1S", shows((6, 37), S=4), forcing=True))
    if _o == CLUBS:
        _add(rule("1D response", _w, "1D", shows((6, 37), D=4, H=(0, 3), S=(0, 3)),
                  forcing=True))
    for _s in (CLUBS, DIAMONDS, HEARTS):
        if _s < _o:
            _S = SUIT_LETTERS[_s]
            _add(rule(f"2{_S} response", _w, f"2{_S}",
                      shows((11, 37), suits={_S: 5 if _s == HEARTS else 4}), forcing=True))
    _nofit = {_O: (0, 2)} if _o in MAJORS else {"H": (0, 3), "S": (0, 3)}
    if _o in MINORS:
        _add(
            rule(f"limit raise of 1{_O}", _w, f"3{_O}", shows((11, 12), suits={_O: 5})),
            rule(f"simple raise of 1{_O}", _w, f"2{_O}", shows((6, 10), suits={_O: 5})),
        )
    _add(
        rule(f"3NT over 1{_O}", _w, "3NT", shows((13, 15), balanced=True, suits=_nofit)),
        rule(f"2NT over 1{_O}", _w, "2NT", shows((11, 12), balanced=True, suits=_nofit)),
        rule(f"1NT over 1{_O}", _w, "1NT", shows((6, 10))),
        rule(f"pass 1{_O}", _w, "P", shows((0, 5))),
    )


# Opener's rebid after a one-level suit opening and partner's response.
def _opened(ctx: Ctx) -> int | None:
    return my_suit(ctx)


def _responded(ctx: Ctx) -> Bid | None:
    return first_bid_of(ctx, ctx.partner)


def _responded_major(ctx: Ctx) -> int | None:
    b = _responded(ctx)
    if b is None or b.strain not in ("H", "S"):
        return None
    return STRAINS.index(b.strain)


def _partner_raised(ctx: Ctx) -> bool:
    b, m = _responded(ctx), _opened(ctx)
    return b is not None and m is not None and b.strain == SUIT_LETTERS[m]


_R = i_opened_one_suit_partner_responded


def _simple_raise(level: int) -> Test:
    def test(ctx: Ctx) -> bool:
        b = _responded(ctx)
        return _R(ctx) and _partner_raised(ctx) and b is not None and b.level == level

    return test


def _new_suit_response(ctx: Ctx) -> bool:
    return _R(ctx) and not _partner_raised(ctx) and _responded_major(ctx) is not None


def _game_in_my_suit(ctx: Ctx) -> Call | None:
    m = _opened(ctx)
    return Bid(4, SUIT_LETTERS[m]) if m in MAJORS else Bid(3, "N")


def _invite_in_my_suit(ctx: Ctx) -> Call | None:
    m = _opened(ctx)
    return Bid(3, SUIT_LETTERS[m]) if m is not None else None


def _lower_suit(suit: int) -> Callable[[Ctx], int | None]:
    """``suit`` when it ranks below the suit I opened and partner has not bid it."""

    def pick(ctx: Ctx) -> int | None:
        m, b = _opened(ctx), _responded(ctx)
        if m is None or suit >= m or (b is not None and b.strain == SUIT_LETTERS[suit]):
            return None
        return suit

    return pick


_add(
    rule("game after a simple raise", _simple_raise(2), _game_in_my_suit, shows((19, 21))),
    rule("invite after a simple raise", _simple_raise(2), _invite_in_my_suit,
         shows((17, 18))),
    rule("accept a limit raise", _simple_raise(3), _game_in_my_suit, shows((14, 21))),
    rule("game raise of partner's major", _new_suit_response,
         lambda ctx: Bid(4, SUIT_LETTERS[_responded_major(ctx) or 0]),
         lambda ctx: shows((19, 21), suits={SUIT_LETTERS[_responded_major(ctx) or 0]: 4}),
         length_at_least(_responded_major, 4)),
    rule("jump raise of partner's major", _new_suit_response,
         jump_in(_responded_major, 3),
         lambda ctx: shows((16, 18), suits={SUIT_LETTERS[_responded_major(ctx) or 0]: 4}),
         length_at_least(_responded_major, 4)),
    rule("raise partner's major", _new_suit_response,
         cheapest_in(_responded_major, 2),
         lambda ctx: shows((12, 15), suits={SUIT_LETTERS[_responded_major(ctx) or 0]: 4}),
         length_at_least(_responded_major, 4)),
    rule("pass a raise", _simple_raise(2), "P", shows((12, 16))),
    rule("pass a limit raise", _simple_raise(3), "P", shows((12, 13))),
    rule("1S rebid", _R, cheapest_in(lambda ctx: SPADES, 1), shows((12, 21), S=4)),
    rule("1NT rebid", _R, cheapest_in(lambda ctx: "N", 1), shows((12, 14), balanced=True)),
    rule("pass 1NT response", both(_R, lambda ctx: str(_responded(ctx)) == "1NT"), "P",
         shows((12, 14), balanced=True)),
    rule("2NT rebid", _R, cheapest_in(lambda ctx: "N", 2), shows((18, 19), balanced=True)),
    rule("jump rebid of a six-card suit", _R, jump_in(_opened, 3),
         shows_suit(_opened, (16, 18), 6), length_at_least(_opened, 6)),
    rule("rebid a six-card suit", _R, cheapest_in(_opened, 2),
         shows_suit(_opened, (12, 15), 6), length_at_least(_opened, 6)),
    *[
        rule(f"second suit {SUIT_LETTERS[s]}", _R, cheapest_in(_lower_suit(s), 2),
             shows((12, 18), suits={SUIT_LETTERS[s]: 4}), length_at_least(_lower_suit(s), 4))
        for s in (HEARTS, DIAMONDS, CLUBS)
    ],
    rule("rebid the suit", _R, cheapest_in(_opened, 3), shows((12, 21))),
    rule("rebid 1NT anyway", _R, cheapest_in(lambda ctx: "N", 2), shows((12, 21))),
)


# Competition: overcalls, 1NT overcall, takeout double, and advancing them.
def _suit_overcall(suit: int) -> Rule:
    letter = SUIT_LETTERS[suit]

    def make(ctx: Ctx) -> Call | None:
        bid = ctx.cheapest(suit)
        return bid if bid is not None and bid.level <= 2 and their_suit(ctx) != suit else None

    def show(ctx: Ctx) -> Constraints:
        b = ctx.cheapest(suit)
        lo = 8 if b is not None and b.level == 1 else 11
        return shows((lo, 17), suits={letter: 5 if lo == 8 else 6})

    return rule(f"{letter} overcall", overcall_spot, make, show)


def _takeout_shows(ctx: Ctx) -> Constraints:
    t = their_suit(ctx)
    if t is None:
        return shows((16, 37))
    bounds: dict[str, tuple[int, int]] = {SUIT_LETTERS[t]: (0, 2)}
    for s in range(4):
        if s != t:
            bounds[SUIT_LETTERS[s]] = (3, 13)
    return shows((12, 37), suits=bounds)


def _low_enough_to_double(ctx: Ctx) -> bool:
    last = ctx.last_bid
    return last is not None and last[1].level <= 2 and last[0] % 2 != ctx.seat % 2


_add(
    rule("1NT overcall", both(overcall_spot, lambda ctx: ctx.legal(Bid(1, "N"))), "1NT",
         shows((15, 18), balanced=True)),
    rule("takeout double", both(overcall_spot, _low_enough_to_double), "X", _takeout_shows),
    *[_suit_overcall(s) for s in (SPADES, HEARTS, DIAMONDS, CLUBS)],
)


def _unbid_suits(ctx: Ctx) -> list[int]:
    t = their_suit(ctx)
    return [s for s in (SPADES, HEARTS, DIAMONDS, CLUBS) if s != t]


def _advance_suit(n: int) -> list[Rule]:
    out = []
    for s in (SPADES, HEARTS, DIAMONDS, CLUBS):
        letter = SUIT_LETTERS[s]

        def suit(ctx: Ctx, s: int = s) -> int | None:
            return s if s in _unbid_suits(ctx) else None

        def longest(ctx: Ctx, h: HandInfo, s: int = s) -> bool:
            others = [h.length(o) for o in _unbid_suits(ctx)]
            return h.length(s) == max(others)

        if n == 12:
            if s in MAJORS:
                out.append(rule(f"game in {letter} after the double", advancing("double"),
                                game_in(suit), shows((12, 37), suits={letter: 5}), longest))
            continue
        if n == 9:
            out.append(rule(f"jump in {letter} after the double", advancing("double"),
                            jump_in(suit, 3), shows((9, 11), suits={letter: 4}), longest))
        else:
            out.append(rule(f"{letter} after the double", advancing("double"),
                            cheapest_in(suit, 3), shows((0, 8), suits={letter: 3}), longest))
    return out


_add(
    *_advance_suit(12),
    rule("3NT after the double", advancing("double"), cheapest_in(lambda ctx: "N", 3),
         shows((12, 37))),
    *_advance_suit(9),
    *_advance_suit(0),
    rule("game raise of the overcall", advancing("suit"),
         lambda ctx: Bid(4, SUIT_LETTERS[partner_suit(ctx) or 0])
         if partner_suit(ctx) in MAJORS else None,
         lambda ctx: shows((14, 37), suits={SUIT_LETTERS[partner_suit(ctx) or 0]: 3})),
    rule("raise the overcall", advancing("suit"), cheapest_in(partner_suit, 3),
         lambda ctx: shows((8, 13), suits={SUIT_LETTERS[partner_suit(ctx) or 0]: 3})),
)


# Contested responses to partner's one-level opening.
def _partner_opened_suit(ctx: Ctx) -> bool:
    op = ctx.opening
    return (
        op is not None
        and op[0] == ctx.partner
        and op[1].level == 1
        and op[1].strain != "N"
        and not ctx.i_have_bid
        and not ctx.uncontested
    )


_add(
    rule("contested raise", _partner_opened_suit, cheapest_in(partner_suit, 3),
         lambda ctx: shows((6, 12), suits={SUIT_LETTERS[partner_suit(ctx) or 0]: 3})),
    *[
        rule(f"contested {SUIT_LETTERS[s]}", _partner_opened_suit, cheapest_in(fixed(s), 2),
             shows((10, 37), suits={SUIT_LETTERS[s]: 5}))
        for s in (SPADES, HEARTS, DIAMONDS, CLUBS)
    ],
)


# The captain: with partner's hand described, place the contract from the combined
# strength (partner's shown minimum plus one) and the known fit (eight cards).
def _captain(ctx: Ctx) -> bool:
    return ctx.partner_has_bid


def _need(total: int) -> Shows:
    return lambda ctx: shows((max(0, total - ctx.partner_est()), 37))


def _fit_rule(name: str, level: int, suit: int, total: int) -> Rule:
    letter = SUIT_LETTERS[suit]

    def show(ctx: Ctx) -> Constraints:
        need = max(0, total - ctx.partner_est())
        return shows((need, 37), suits={letter: max(0, 8 - ctx.partner_min(suit))})

    def when(ctx: Ctx) -> bool:
        # Only a suit partner has shown (three or more), so we never invent a fit.
        return _captain(ctx) and ctx.partner_min(suit) >= 3

    return rule(name, when, bid_at(level, suit), show)


_add(
    rule("6NT", both(_captain, lambda ctx: ctx.partner_est() >= 12), "6NT",
         _need(33), lambda ctx, h: h.balanced),
    *[_fit_rule(f"6{SUIT_LETTERS[s]} slam", 6, s, 33) for s in MAJORS],
    *[_fit_rule(f"4{SUIT_LETTERS[s]} game", 4, s, 25) for s in MAJORS],
    rule("3NT game", _captain, "3NT", _need(25)),
    *[_fit_rule(f"5{SUIT_LETTERS[s]} game", 5, s, 28) for s in MINORS],
)


def _compete_rule(suit: int) -> Rule:
    letter = SUIT_LETTERS[suit]

    def when(ctx: Ctx) -> bool:
        last = ctx.last_bid
        return (
            _captain(ctx)
            and not ctx.uncontested
            and last is not None
            and last[0] % 2 != ctx.seat % 2
            and ctx.partner_min(suit) >= 3
        )

    def make(ctx: Ctx) -> Call | None:
        # The law of total tricks: compete to the level of our trumps minus six.
        bid = ctx.cheapest(suit)
        if bid is None:
            return None
        return bid if bid.level <= 2 else None

    def show(ctx: Ctx) -> Constraints:
        return shows((6, 37), suits={letter: max(0, 8 - ctx.partner_min(suit))})

    return rule(f"compete in {letter}", when, make, show)


def _penalty_need(ctx: Ctx) -> int:
    last = ctx.last_bid
    level = last[1].level if last else 1
    return {1: 26, 2: 24, 3: 22, 4: 20, 5: 16}.get(level, 12)


def _their_bid_last(ctx: Ctx) -> bool:
    last = ctx.last_bid
    return last is not None and last[0] % 2 != ctx.seat % 2 and ctx.legal(DOUBLE)


_add(
    *[_compete_rule(s) for s in (SPADES, HEARTS, DIAMONDS, CLUBS)],
    rule("rebid a six-card suit, weak", both(_captain, lambda ctx: my_suit(ctx) is not None),
         cheapest_in(my_suit, 2), shows_suit(my_suit, (0, 10), 6), length_at_least(my_suit, 6)),
    rule("penalty double", _their_bid_last, "X",
         lambda ctx: shows((max(0, _penalty_need(ctx) - ctx.partner_est()), 37))),
    rule("pass", lambda ctx: True, "P"),
)
