"""Real hand histories, one hand each, that the poker readers once refused or still
refuse (tests/data/poker_real, README.md there for the sources). Each test states what
the reader should do; one still refused is marked xfail(strict=True) naming the bug, so
it turns into a plain regression test (and the mark must go) when the reader is fixed."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from engine.formats import FormatError
from rules.poker.hands import play_record
from rules.poker.phh import read_phh
from rules.poker.stars import read_stars
from server.files import check_records

DATA = Path(__file__).parents[2] / "data" / "poker_real"


def stacks(record) -> list[Decimal]:
    played = play_record(record)
    unit = Decimal(10) ** -int(record.options["decimals"])
    return [played.final_stacks[s] * unit for s in played.hand.players]


def test_a_sitting_out_tournament_player_who_posts_is_dealt_in():
    (record,) = read_stars((DATA / "stars_sng_sitting_out_posts.txt").read_text())
    final = dict(zip(record.players, stacks(record), strict=True))
    assert final["puzzels6"] == 3676 - 50  # the ante, then a fold
    assert final["barao200"] == 22907 - 50 - 1320 - 1200 + 6340


def test_a_capped_no_limit_hand_is_read_or_refused_by_name():
    text = (DATA / "stars_cap_no_limit.txt").read_text()
    try:
        (record,) = read_stars(text)
    except FormatError as exc:
        assert "cap" in str(exc).lower()
    else:
        assert stacks(record) == [123, Decimal("298.81")]  # ilats wins the small blind


@pytest.mark.xfail(strict=True, reason=(
    "phh.py refuses starting_stacks of inf, which the PHH standard gives for stacks "
    "not known (every iPoker hand of the HandHQ dataset)"))
def test_unknown_stacks_written_inf_are_read():
    (record,) = read_phh((DATA / "phh_ipoker_unknown_stacks.phhs").read_text())
    (checked,) = check_records([record])
    assert checked.status == "finished"


@pytest.mark.xfail(strict=True, reason=(
    "phh.py refuses inf stacks, and then a history that stops before the hand is over, "
    "which the PHH standard allows ('a partial history that does not reach the "
    "terminal state'); it could be stored unfinished, as bridge records are"))
def test_a_partial_history_is_read_as_an_unfinished_hand():
    (record,) = read_phh((DATA / "phh_ipoker_partial_history.phhs").read_text())
    (checked,) = check_records([record])
    assert checked.status == "abandoned"

def test_a_negative_blind_is_a_post_as_pokerkit_reads_it():
    (record,) = read_phh((DATA / "phh_pokerstars_negative_post.phhs").read_text())
    # pokerkit's final stacks (HandHistory, each action replayed as written): the
    # post of 2 is live and p4's raise to 8 takes the blinds.
    assert stacks(record) == [Decimal("446.75"), Decimal("232.75"), 39, 123,
                              Decimal("113.45")]
