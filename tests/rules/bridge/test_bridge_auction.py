"""The auction's legality rules, its end, and who declares (docs/rules/bridge.md)."""

import random

import pytest

from rules.bridge.auction import (
    DOUBLE,
    LADDER,
    PASS,
    REDOUBLE,
    Bid,
    Call,
    CallError,
    Contract,
    check_call,
    final_contract,
    format_call,
    is_over,
    legal_calls,
    parse_call,
)
from rules.bridge.boards import Vulnerability, dealer, vulnerability

N, E, S, W = range(4)


def auction(first: int, text: str) -> list:
    calls = []
    for i, t in enumerate(text.split()):
        calls.append(((first + i) % 4, parse_call(t)))
    return calls


@pytest.mark.parametrize(
    "text,call",
    [
        ("1nt", Bid(1, "N")),
        ("3♥", Bid(3, "H")),
        ("Pass", PASS),
        ("dbl", DOUBLE),
        ("XX", REDOUBLE),
        ("7N", Bid(7, "N")),
        ("2s", Bid(2, "S")),
    ],
)
def test_call_spellings(text, call):
    assert parse_call(text) == call


@pytest.mark.parametrize("bad", ["8C", "0S", "1Z", "", "pas", "1"])
def test_bad_calls(bad):
    with pytest.raises(CallError):
        parse_call(bad)


def test_a_bid_must_be_sufficient():
    """Rule: each bid must name more tricks, or the same number in a higher strain."""
    calls = auction(N, "1S")
    with pytest.raises(CallError) as err:
        check_call(calls, E, Bid(1, "H"))
    assert err.value.code == "insufficient_bid"
    with pytest.raises(CallError):
        check_call(calls, E, Bid(1, "S"))
    check_call(calls, E, Bid(1, "N"))
    check_call(calls, E, Bid(2, "C"))


def test_double_only_an_opponents_undoubled_bid():
    """Rule: double only the opponents' last contract bid, not already doubled."""
    with pytest.raises(CallError) as err:
        check_call([], N, DOUBLE)
    assert err.value.code == "bad_double"
    calls = auction(N, "1S")
    check_call(calls, E, DOUBLE)
    with pytest.raises(CallError):
        check_call(auction(N, "1S P"), S, DOUBLE)  # partner's bid
    check_call(auction(N, "1S P P"), W, DOUBLE)  # the balancing seat
    with pytest.raises(CallError):
        check_call(auction(N, "1S X"), S, DOUBLE)  # already doubled


def test_redouble_only_your_sides_doubled_contract():
    """Rule: redouble only when the opponents doubled your side's contract."""
    with pytest.raises(CallError) as err:
        check_call(auction(N, "1S"), E, REDOUBLE)
    assert err.value.code == "bad_redouble"
    check_call(auction(N, "1S X"), S, REDOUBLE)
    check_call(auction(N, "1S X P P"), N, REDOUBLE)
    with pytest.raises(CallError):
        check_call(auction(N, "1S X"), W, REDOUBLE)  # the doubler's side
    with pytest.raises(CallError):
        check_call(auction(N, "1S X XX"), W, REDOUBLE)


def test_legal_calls_enumerate_every_option():
    assert len(legal_calls([], N)) == 1 + 35
    after = legal_calls(auction(N, "7N"), E)
    assert after == [PASS, DOUBLE]
    assert REDOUBLE in legal_calls(auction(N, "1C X"), S)


@pytest.mark.parametrize(
    "text,over",
    [
        ("P P P", False),
        ("P P P P", True),
        ("1C P P", False),
        ("1C P P P", True),
        ("P 1C X P P", False),
        ("P 1C X P P P", True),
        ("P 1C X P P XX P P P", True),
        ("P P P 1S P P P", True),
    ],
)
def test_end_of_auction(text, over):
    """Rule: three passes after a call end the auction; four opening passes pass it out."""
    assert is_over(auction(N, text)) is over


def test_passed_out_board_has_no_contract():
    assert final_contract(auction(N, "P P P P")) is None


def test_declarer_is_first_of_the_side_to_name_the_strain():
    """Rule: the declarer is the first player of the declaring side who named the
    final strain — here South bid hearts first, North raised."""
    calls = auction(N, "1C P 1H P 4H P P P")
    assert final_contract(calls) == Contract(4, "H", 0, S)
    calls = auction(N, "1C 1S 2C 2S 3C 3S P P P")
    assert final_contract(calls) == Contract(3, "S", 0, E)


def test_doubles_and_redoubles_attach_to_the_last_bid():
    assert final_contract(auction(N, "1N X XX P P P")) == Contract(1, "N", 2, N)
    assert final_contract(auction(N, "1N X 2C P P P")) == Contract(2, "C", 0, S)
    assert str(final_contract(auction(N, "3N P P X P P P"))) == "3NTX"
    assert format_call(Bid(3, "N")) == "3NT"


@pytest.mark.parametrize(
    "board,dealer_seat,vul",
    [
        (1, N, "None"),
        (2, E, "NS"),
        (3, S, "EW"),
        (4, W, "All"),
        (5, N, "NS"),
        (6, E, "EW"),
        (7, S, "All"),
        (8, W, "None"),
        (9, N, "EW"),
        (10, E, "All"),
        (11, S, "None"),
        (12, W, "NS"),
        (13, N, "All"),
        (14, E, "None"),
        (15, S, "NS"),
        (16, W, "EW"),
        (17, N, "None"),
        (32, W, "EW"),
    ],
)
def test_board_number_fixes_dealer_and_vulnerability(board, dealer_seat, vul):
    assert dealer(board) == dealer_seat
    assert vulnerability(board) == Vulnerability(vul)


def test_vulnerability_per_side():
    assert Vulnerability.NS.is_vulnerable(N) and not Vulnerability.NS.is_vulnerable(E)
    assert Vulnerability.BOTH.is_vulnerable(W) and not Vulnerability.NONE.is_vulnerable(S)


def test_legal_calls_are_exactly_the_calls_check_call_accepts() -> None:
    """legal_calls (one look back, call_options) lists what check_call accepts,
    in pass, double, redouble, bid order, along many random auctions."""
    def accepted(calls: list[tuple[int, Call]], seat: int) -> list[Call]:
        out: list[Call] = []
        for call in (PASS, DOUBLE, REDOUBLE, *LADDER):
            try:
                check_call(calls, seat, call)
            except CallError:
                continue
            out.append(call)
        return out

    rng = random.Random(4)
    for _ in range(400):
        calls: list[tuple[int, Call]] = []
        seat = rng.randrange(4)
        while not is_over(calls):
            legal = legal_calls(calls, seat)
            assert legal == accepted(calls, seat)
            # Favour passes and doubles so auctions run long and redoubles happen.
            pick = rng.choice(legal[:3] if rng.random() < 0.6 else legal)
            calls.append((seat, pick))
            seat = (seat + 1) % 4


def test_is_over_on_every_short_sequence_of_pass_double_and_a_bid() -> None:
    """is_over (written for speed) against its definition, on every auction of up
    to seven calls made of pass, double and one bid (legal or not: a pure function)."""
    from itertools import product

    def definition(calls: list[tuple[int, Call]]) -> bool:
        if len(calls) == 4 and all(c == PASS for _, c in calls):
            return True
        return (len(calls) >= 4 and all(c == PASS for _, c in calls[-3:])
                and any(c != PASS for _, c in calls))

    for n in range(8):
        for seq in product((PASS, DOUBLE, Bid(1, "C")), repeat=n):
            calls = [(i % 4, c) for i, c in enumerate(seq)]
            assert is_over(calls) == definition(calls), seq
