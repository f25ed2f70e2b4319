"""Range shorthand (rules/poker/ranges.py): combos counted as in PokerStove."""

from __future__ import annotations

import pytest

from engine.cards import format_face
from rules.poker import RangeError, parse_range


def names(text: str) -> set[str]:
    return {"".join(format_face(f) for f in combo) for combo in parse_range(text).combos}


@pytest.mark.parametrize(
    ("text", "combos"),
    [
        ("QQ", 6),  # a pair: C(4, 2) suit choices
        ("QQ+", 18),  # QQ, KK, AA
        ("JJ-88", 24),  # 88, 99, TT, JJ
        ("88-JJ", 24),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("ATs+", 16),  # ATs, AJs, AQs, AKs
        ("T9s+", 4),  # "+" raises the lower card up to one below the higher: T9s only
        ("K9o+", 48),  # K9o, KTo, KJo, KQo
        ("A5s-A2s", 16),
        ("KQo-KTo", 36),
        ("AhKh", 1),
        ("QQ+,AKs,KQo,T9s+", 18 + 4 + 12 + 4),
        ("QQ+, KK, AA", 18),  # repeated combos count once
        ("random", 1326),
        ("aks", 4),
        ("10s9s", 1),
    ],
)
def test_combo_counts(text, combos):
    assert len(parse_range(text)) == combos


def test_which_combos():
    assert names("AKs") == {"AS" + "KS", "AH" + "KH", "AD" + "KD", "AC" + "KC"}
    assert names("ATs+") == names("ATs,AJs,AQs,AKs")
    assert names("JJ-88") == names("88,99,TT,JJ")
    assert names("AK") == names("AKs,AKo")
    assert names("AhKh") == {"AHKH"}
    assert all(hi // 13 != lo // 13 for hi, lo in parse_range("AKo").combos)  # offsuit


def test_combos_are_two_different_cards_higher_face_first():
    for hi, lo in parse_range("random").combos:
        assert hi > lo


@pytest.mark.parametrize(
    "text",
    ["", "AAs", "AK-QJ", "ZZ", "AhAh", "QQ+,", "AKx", "AKs-AQo", "A", "AKQ", "XhKh"],
)
def test_bad_ranges_are_refused(text):
    with pytest.raises(RangeError):
        parse_range(text)
