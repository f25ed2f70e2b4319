"""Duplicate scoring: the standard scoring table, row by row (docs/rules/bridge.md)."""

import pytest

from rules.bridge.auction import Contract
from rules.bridge.scoring import contract_score, imps, matchpoints


def score(contract: str, vul: bool, tricks: int) -> int:
    level, rest = int(contract[0]), contract[1:]
    dbl = rest.count("X")
    strain = rest.rstrip("X").replace("NT", "N")
    return contract_score(Contract(level, strain, dbl, 0), vul, tricks)


@pytest.mark.parametrize(
    "contract,vul,tricks,expected",
    [
        # Part scores: trick points + 50.
        ("1C", False, 7, 70),
        ("2D", True, 8, 90),
        ("1H", False, 7, 80),
        ("2S", False, 8, 110),
        ("1NT", False, 7, 90),
        ("2NT", True, 8, 120),
        # Overtricks undoubled score trick value.
        ("1C", False, 9, 110),
        ("1NT", False, 9, 150),
        ("2S", True, 10, 170),
        # Games: 300 not vulnerable, 500 vulnerable.
        ("3NT", False, 9, 400),
        ("3NT", True, 9, 600),
        ("4H", False, 10, 420),
        ("4S", True, 10, 620),
        ("5C", False, 11, 400),
        ("5D", True, 11, 600),
        ("4S", False, 11, 450),
        ("3NT", True, 10, 630),
        # Slams: small 500/750, grand 1000/1500, on top of the game bonus.
        ("6NT", False, 12, 990),
        ("6H", True, 12, 1430),
        ("6C", False, 12, 920),
        ("7NT", True, 13, 2220),
        ("7S", False, 13, 1510),
        ("7C", True, 13, 2140),
        # Doubled making: trick points x2, insult 50; overtricks 100/200.
        ("1CX", False, 7, 140),
        ("2HX", False, 8, 470),
        ("2HX", True, 8, 670),
        ("1NTX", False, 8, 280),
        ("1NTX", True, 8, 380),
        ("4SX", True, 11, 990),
        ("4SX", True, 12, 1190),
        ("3NTX", False, 9, 550),
        # Redoubled making: trick points x4, insult 100; overtricks 200/400.
        ("1CXX", False, 7, 230),
        ("1NTXX", True, 8, 1160),
        ("2SXX", False, 8, 640),
        ("7NTXX", True, 13, 2980),
        # Undertricks undoubled: 50 / 100 each.
        ("4S", False, 9, -50),
        ("4S", False, 6, -200),
        ("4S", True, 9, -100),
        ("7NT", True, 0, -1300),
        # Doubled not vulnerable: 100, 300, 500, 800, 1100 ...
        ("4SX", False, 9, -100),
        ("4SX", False, 8, -300),
        ("4SX", False, 7, -500),
        ("4SX", False, 6, -800),
        ("4SX", False, 5, -1100),
        ("7NTX", False, 0, -3500),
        # Doubled vulnerable: 200, 500, 800, 1100 ...
        ("4SX", True, 9, -200),
        ("4SX", True, 8, -500),
        ("4SX", True, 7, -800),
        ("4SX", True, 6, -1100),
        ("7NTX", True, 0, -3800),
        # Redoubled: twice doubled.
        ("4SXX", False, 9, -200),
        ("4SXX", False, 7, -1000),
        ("4SXX", True, 8, -1000),
        ("7NTXX", True, 0, -7600),
    ],
)
def test_duplicate_score_table(contract: str, vul: bool, tricks: int, expected: int) -> None:
    assert score(contract, vul, tricks) == expected


@pytest.mark.parametrize(
    "diff,expected",
    [
        (0, 0),
        (10, 0),
        (20, 1),
        (40, 1),
        (50, 2),
        (80, 2),
        (90, 3),
        (120, 3),
        (130, 4),
        (160, 4),
        (170, 5),
        (210, 5),
        (220, 6),
        (260, 6),
        (270, 7),
        (310, 7),
        (320, 8),
        (360, 8),
        (370, 9),
        (420, 9),
        (430, 10),
        (490, 10),
        (500, 11),
        (590, 11),
        (600, 12),
        (740, 12),
        (750, 13),
        (890, 13),
        (900, 14),
        (1090, 14),
        (1100, 15),
        (1290, 15),
        (1300, 16),
        (1490, 16),
        (1500, 17),
        (1740, 17),
        (1750, 18),
        (1990, 18),
        (2000, 19),
        (2240, 19),
        (2250, 20),
        (2490, 20),
        (2500, 21),
        (2990, 21),
        (3000, 22),
        (3490, 22),
        (3500, 23),
        (3990, 23),
        (4000, 24),
        (7600, 24),
        (-620, -12),
        (-50, -2),
    ],
)
def test_imp_scale(diff: int, expected: int) -> None:
    assert imps(diff) == expected


def test_matchpoints_one_per_score_beaten_half_per_tie() -> None:
    assert matchpoints([420, 450, 420, -50]) == [1.5, 3.0, 1.5, 0.0]
    assert matchpoints([100]) == [0.0]
