"""Par (rules/bridge/par.py) on hand-made tables, one rule each; every expected
answer is DDS's (DealerPar), and test_bridge_par_dds.py checks the rest
against DDS on thousands of tables."""

from __future__ import annotations

import pytest

from rules.bridge.boards import Vulnerability
from rules.bridge.par import par

SIX = [6, 6, 6, 6]  # nobody makes anything in this strain


def table(s: list[int], h: list[int], d: list[int], c: list[int],
          n: list[int]) -> dict[str, dict[str, int]]:
    """Rows S H D C NT of tricks by declarer N E S W."""
    return {st: dict(zip("NESW", row, strict=True))
            for st, row in zip("SHDCN", (s, h, d, c, n), strict=True)}


@pytest.mark.parametrize(
    ("rows", "vul", "dealer", "expected"),
    [
        # 1S+2 is not par: East-West's 2H one down doubled (-100) beats -140.
        # Over 2S their 3H costs 300, so 2S+1 stands.
        ((
            [9, 3, 9, 3], [6, 7, 6, 7], [8, 5, 8, 5], [7, 5, 7, 5], [7, 5, 7, 5]
        ), "None", "N", "Par +140: 2S NS +1"),
        # The sacrifice must outbid 3D: 3H doubled one down; not 2C or 1NT.
        ((
            [5, 8, 5, 8], [8, 5, 8, 5], [4, 9, 4, 9], [7, 6, 6, 6], [6, 7, 6, 7]
        ), "None", "N", "Par -100: 3Hx NS -1"),
        # A sacrifice in the contract's own strain by the one seat whose turn
        # comes before North's: East bids 2NT at the same level.
        ((
            [6, 7, 6, 6], [6, 7, 7, 7], [8, 7, 7, 6], [6, 7, 6, 8], [8, 7, 7, 5]
        ), "None", "E", "Par +100: 2NTx E -1, 3Cx W -1"),
        # A part score nobody can compete against is listed at the lowest safe
        # level with its overtricks; a game keeps its game level.
        ((SIX, SIX, SIX, [10, 3, 10, 3], SIX), "None", "N", "Par +130: 2C NS +2"),
        ((SIX, SIX, SIX, [11, 2, 11, 2], SIX), "NS", "N", "Par +600: 5C NS ="),
        # 4NT (430) scores more than 5C (400); listed as 3NT+1.
        ((SIX, SIX, SIX, [11, 2, 10, 2], [10, 3, 10, 3]), "None", "S", "Par +430: 3NT NS +1"),
        # Both sides make 1NT: the first seat from the dealer that can bid it wins.
        ((SIX, SIX, SIX, SIX, [7, 7, 7, 7]), "None", "N", "Par +90: 1NT NS ="),
        ((SIX, SIX, SIX, SIX, [7, 7, 7, 7]), "None", "E", "Par -90: 1NT EW ="),
        ((SIX, SIX, SIX, SIX, [6, 7, 7, 7]), "None", "N", "Par -90: 1NT EW ="),
        # Declarers: only the partner who takes the most tricks.
        (([10, 3, 9, 3], SIX, SIX, SIX, SIX), "None", "N", "Par +420: 4S N ="),
        # The sacrifice's price depends on the sacrificers' vulnerability.
        (([10, 3, 10, 3], [3, 10, 3, 10], SIX, SIX, SIX), "None", "N", "Par +100: 5Hx EW -1"),
        (([10, 3, 10, 3], [3, 10, 3, 10], SIX, SIX, SIX), "EW", "N", "Par +200: 5Hx EW -1"),
        ((SIX, SIX, SIX, SIX, SIX), "All", "N", "Par 0: passed out"),
    ],
)
def test_par_follows_dds(rows: tuple[list[int], ...], vul: str, dealer: str,
                         expected: str) -> None:
    assert str(par(table(*rows), vul, dealer)) == expected


def test_contract_fields() -> None:
    """The fields behind the text: doubled sacrifices, the tricks declarer takes."""
    result = par(table([6, 7, 6, 6], [6, 7, 7, 7], [8, 7, 7, 6], [6, 7, 6, 8],
                       [8, 7, 7, 5]), Vulnerability.NONE, 1)
    assert result.score == 100
    nt, clubs = result.contracts
    assert (nt.call, nt.declarers, nt.doubled, nt.tricks) == ("2NTX", (1,), True, 7)
    assert (clubs.call, clubs.declarers, clubs.doubled, clubs.tricks) == ("3CX", (3,), True, 8)
    grand = par(table(SIX, SIX, SIX, SIX, [13, 0, 13, 0]), "NS")
    assert grand.score == 2220 and [c.call for c in grand.contracts] == ["7NT"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("None", Vulnerability.NONE), ("-", Vulnerability.NONE), ("love", Vulnerability.NONE),
     ("ns", Vulnerability.NS), ("E-W", Vulnerability.EW), ("Both", Vulnerability.BOTH),
     ("All", Vulnerability.BOTH)],
)
def test_vulnerability_spellings(text: str, expected: Vulnerability) -> None:
    assert Vulnerability.parse(text) is expected


def test_unknown_vulnerability_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown vulnerability"):
        Vulnerability.parse("North")
