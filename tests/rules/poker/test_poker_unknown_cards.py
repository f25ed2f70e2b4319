"""Showdowns whose hands a history never shows (PHH's ``????``, a PokerStars hand
the file does not show): read, never refused for it nor crashing, and paid as the
file says when it says (its finishing stacks, winnings or collected lines), else as
pokerkit (the PHH standard's reference implementation) pays them; and files with
empty names."""

from __future__ import annotations

import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from rules.poker.hands import play_record
from rules.poker.phh import PHH, read_phh
from rules.poker.stars import STARS, read_stars

DATA = Path(__file__).parent / "data"
# Heads-up, both hands unknown, checked down to the showdown (PHH standard,
# "actions": ``d dh p1 ????`` deals cards nobody saw; no ``sm`` shows them).
CHECKED_DOWN = """\
variant = 'NT'
antes = 0
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [100, 100]
actions = ['d dh p1 ????', 'd dh p2 ????', 'p2 cc', 'p1 cc', 'd db AhKhQh', 'p1 cc', 'p2 cc',
           'd db 2c', 'p1 cc', 'p2 cc', 'd db 3d', 'p1 cc', 'p2 cc']
"""


def finals(text: str) -> list[int]:
    (record,) = read_phh(text)
    played = play_record(record)
    return [played.final_stacks[s] for s in played.hand.players]


@pytest.mark.parametrize(
    ("said", "stacks"),
    [
        ("finishing_stacks = [98, 102]", [98, 102]),  # p2's unseen hand won
        ("winnings = [0, 4]", [98, 102]),  # the same, as HandHQ's files say it
        ("winnings = [2, 2]", [100, 100]),  # a split of two unseen hands
        ("finishing_stacks = [98, 101]", [98, 101]),  # p2 won, and the site raked 1
    ],
)
def test_the_files_figures_say_who_won_a_showdown_it_never_shows(said: str, stacks: list[int]):
    text = CHECKED_DOWN + said + "\n"
    assert finals(text) == stacks
    (record,) = read_phh(text)
    assert read_phh(PHH.write([record])) == [replace(record, title="")]


def test_without_figures_unseen_hands_split_as_pokerkit_splits_them():
    pokerkit = pytest.importorskip("pokerkit")
    warnings.simplefilter("ignore")
    side_pot = """\
variant = 'NT'
antes = 0
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 50, 20]
actions = ['p3 cbr 20', 'p1 cc', 'p2 cbr 50', 'p1 cc', 'd db AhKhQh', 'd db 2c', 'd db 3d']
"""
    one_shown = side_pot.replace("'d db 3d']", "'d db 3d', 'p3 sm 7s8d']")
    for text in (CHECKED_DOWN, side_pot, one_shown):
        want = [int(v) for v in list(pokerkit.HandHistory.loads(text))[-1].stacks]
        assert finals(text) == want, text


def test_a_pokerstars_winner_whose_cards_the_file_does_not_show_is_read():
    text = (DATA / "stars_cash.txt").read_text()
    text = text.replace("a.b.c: shows [Kh Kd] (a pair of Kings)\n", "").replace(
        "showed [Kh Kd] and won ($6.13) with a pair of Kings", "won ($6.13)"
    )
    first = read_stars(text)[0]
    assert first.options["showdown_winners"] == [0]  # a.b.c, p1 (the small blind)
    played = play_record(first)
    assert played.final_stacks[0] == 613  # 6.13 collected, as the file says
    again = read_stars(STARS.write([first]))[0]
    assert play_record(again).final_stacks == played.final_stacks


def test_pokerstars_cards_only_partly_known_are_unknown():
    text = (DATA / "stars_cash.txt").read_text()
    text = text.replace("GrindOrDie: shows [Ac Qd] (a pair of Queens)", "GrindOrDie: shows [Ac ??]")
    text = text.replace("Dealt to GrindOrDie [Ac Qd]", "Dealt to GrindOrDie [?? ??]")
    text = text.replace("showed [Ac Qd] and lost with a pair of Queens", "showed [Ac ??] and lost")
    first = read_stars(text)[0]
    assert first.options["holes"][1] == ""  # GrindOrDie, p2 (the button)
    assert play_record(first).final_stacks[0] == 613


def test_empty_table_event_and_section_names_are_read():
    phh = "[\"\"]\n" + CHECKED_DOWN + "table = \"\"\nevent = \"\"\n"
    (record,) = read_phh(phh)
    assert record.title == "" and record.tags["table"] == '""'
    stars = read_stars(STARS.write([record]))[0]
    assert stars.tags["table"] == '""'
    assert "\ntable = \"\"\n" in PHH.write([stars])
    text = (DATA / "stars_cash.txt").read_text().replace("Table 'Aludra IV'", "Table ''")
    assert read_stars(text)[0].tags["table"] == '""'
