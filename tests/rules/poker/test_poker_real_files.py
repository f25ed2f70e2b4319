"""Real hand histories, one hand each, that the poker readers once refused or still
refuse (tests/data/poker_real, README.md there for the sources). Each test states what
the reader should do; one still refused is marked xfail(strict=True) naming the bug, so
it turns into a plain regression test (and the mark must go) when the reader is fixed."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from engine.events import OMNISCIENT
from engine.formats import FormatError
from rules.poker.hands import play_record, played_hands
from rules.poker.phh import PHH, read_phh
from rules.poker.stars import STARS, read_stars
from rules.registry import get_game
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


def test_unknown_stacks_written_inf_are_read():
    (record,) = read_phh((DATA / "phh_ipoker_unknown_stacks.phhs").read_text())
    (checked,) = check_records([record])
    assert checked.status == "finished"


def test_unknown_stacks_win_and_lose_what_pokerkit_says_and_no_stack_is_made_up():
    # PHH standard, "starting_stacks": inf where a stack is not known.  Each player's
    # net is real (pokerkit's payoffs); the stacks are not, so the view shows none,
    # nor does the HandHQ file's winnings of 0 become a rake of the whole pot.
    pokerkit = pytest.importorskip("pokerkit")
    text = (DATA / "phh_ipoker_unknown_stacks.phhs").read_text()
    (record,) = read_phh(text)
    played = play_record(record)
    net = [played.final_stacks[s] - played.hand.starting[s] for s in played.hand.players]
    (history,) = pokerkit.HandHistory.loads_all(text)
    assert net == list(list(history)[-1].payoffs) == [-1, -2, 0, 0, 3]
    assert "hand_rake" not in record.options and "pot_rakes" not in record.options
    game = get_game("poker")
    state = game.new(game.parse_config(record.options), record.seed)
    for seat, action in record.actions:
        state, _ = game.act(state, seat, action)
    view = game.view(state, OMNISCIENT)
    assert view["stacks"] == [None] * 5 and view["unknown_stacks"] == [0, 1, 2, 3, 4]
    assert view["bought_in"] == [None] * 5
    assert "wins 3 chips" in view["result"]["summary"]
    from clients.terminal.poker_text import render_poker  # the terminal's table

    rows = render_poker(view, {}, record.players, None, [])
    assert sum("stack     ?" in row for row in rows) == 5
    written = PHH.write([record])
    assert "starting_stacks = [inf, inf, inf, inf, inf]" in written
    assert "finishing_stacks = [inf, inf, inf, inf, inf]" in written
    assert [replace(r, title="") for r in read_phh(written)] == [replace(record, title="")]
    with pytest.raises(FormatError, match="not known") as err:
        STARS.write([record])
    assert err.value.code == "bad_hand_history"


def test_a_partial_history_is_read_as_an_unfinished_hand():
    (record,) = read_phh((DATA / "phh_ipoker_partial_history.phhs").read_text())
    (checked,) = check_records([record])
    assert checked.status == "abandoned"


def test_a_partial_history_is_written_as_far_as_it_goes():
    # PHH standard: a history may stop before the terminal state.  What each player
    # has put in so far is pokerkit's payoff of the same unfinished history; PHH
    # writes it back as it came, PokerStars text (finished hands only) refuses it.
    pokerkit = pytest.importorskip("pokerkit")
    text = (DATA / "phh_ipoker_partial_history.phhs").read_text()
    (record,) = read_phh(text)
    (played,) = played_hands(record, unfinished=True)
    assert not played.hand.done and played.final_stacks == ()
    (history,) = pokerkit.HandHistory.loads_all(text)
    assert [-c for c in played.hand.contributed] == list(list(history)[-1].payoffs)
    written = PHH.write([record])
    assert "'p1 cc', 'p2 cc', 'd db 4d']" in written.replace('"', "'")
    assert "finishing_stacks" not in written
    assert [replace(r, title="") for r in read_phh(written)] == [replace(record, title="")]
    with pytest.raises(FormatError, match="before it is over"):
        STARS.write([record])


def test_a_negative_blind_is_a_post_as_pokerkit_reads_it():
    (record,) = read_phh((DATA / "phh_pokerstars_negative_post.phhs").read_text())
    # pokerkit's final stacks (HandHistory, each action replayed as written): the
    # post of 2 is live and p4's raise to 8 takes the blinds.
    assert stacks(record) == [Decimal("446.75"), Decimal("232.75"), 39, 123,
                              Decimal("113.45")]
