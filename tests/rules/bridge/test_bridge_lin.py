"""LIN (Bridge Base Online) files in and out (rules/bridge/lin.py; docs/formats.md,
"LIN").  The two data files are hand records posted on the BBO forums: a vugraph
file of Komal's pairs tourney ("LIN file format structure", forum topic 19814,
2007; the second board as far as the post shows it) and one board of a player's
"myhands" record ("Where is the spec for LIN files?", topic 29156, 2008; its play
as far as the post shows it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.formats import FormatError, GameRecord
from rules.bridge import BridgeGame
from rules.bridge.game import LIN, PBN

GAME = BridgeGame()
read, write, read_pbn, write_pbn = LIN.read, LIN.write, PBN.read, PBN.write
DATA = Path(__file__).with_name("data")
VUGRAPH = (DATA / "bbo_forum_vugraph.lin").read_text()
MYHANDS = (DATA / "bbo_forum_myhands.lin").read_text()
BOARD_1 = ("md|3S269H2568QADTQC2T,S47AHJD3479C4567Q,S58QH479KDKAC38JA,|rh||ah|Board 1|"
           "sv|o|")


def replay(record: GameRecord):
    state = GAME.new(GAME.parse_config(record.options), record.seed)
    for seat, action in record.actions:
        state, _ = GAME.act(state, seat, action)
    return state


def test_a_vugraph_file_replays_with_its_claim_and_header_results():
    """Board 1 ends in a claim (mc|11|) after seven tricks; board 2's record stops
    after nine tricks and the header's result (rs: 4HS=) settles it."""
    one, two = read(VUGRAPH)
    assert GAME.result(replay(one)).summary == "board 1: 4H by N, 11 tricks, NS +450"
    assert GAME.result(replay(two)).summary == "board 2: 4H by S, 10 tricks, NS +620"
    # pn names South, West, North, East; the records name North, East, South, West.
    assert one.players == ("kontiki_", "scoob", "wlodawa", "Marion89")
    assert one.tags["Event"] == "#387 Pairs Komal's Tourney for all"
    assert one.options["dealer"] == "N" and two.options["dealer"] == "E"
    assert two.options["vulnerable"] == "NS"
    # The fourth hand (East), left out of md, is the cards left.
    assert one.options["deal"].split()[1] == "KJT3.T3.J8652.K9"


def test_vugraph_results_find_their_boards_from_vg_when_bn_is_missing():
    # vg names the first and last board (1 and 2); rs gives each one's open and
    # closed room results, which settle the play the record stops in.
    text = ("vg|Club Teams,Round 1,I,1,2,Home,0,Away,0|\nrs|3NN=,3NS+1|\n"
            "pn|hS,hW,hN,hE,cS,cW,cN,cE|pg||\n"
            "qx|o1|md|3SAKQ2HJ54DT9C8765,SJT98HAKQD876C432,S7654HT98DAKQCAKQ,|sv|o|"
            "mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|pc|H2|pc|H4|pc|HK|pc|H8|pg||\n"
            "qx|c1|md|3SAKQ2HJ54DT9C8765,SJT98HAKQD876C432,S7654HT98DAKQCAKQ,|sv|o|"
            "mb|p|mb|p|mb|1N|mb|p|mb|3N|mb|p|mb|p|mb|p|pc|D8|pc|DQ|pc|D2|pc|D9|pg||\n")
    open_room, closed_room = read(text)
    assert GAME.result(replay(open_room)).summary.startswith("board 1: 3NT by N, 9 tricks")
    assert GAME.result(replay(closed_room)).summary.startswith("board 1: 3NT by S, 10 tricks")
    # The real vugraph file read the same without its bn line.
    without_bn = "".join(line for line in VUGRAPH.splitlines(keepends=True)
                         if not line.startswith("bn|"))
    assert [r.actions for r in read(without_bn)] == [r.actions for r in read(VUGRAPH)]


def test_a_record_without_a_result_stops_where_it_stops():
    (board,) = read(MYHANDS)
    state = replay(board)
    assert state.phase.value == "play" and len(state.played) == 32
    assert str(state.contract) == "6H" and state.contract.declarer == 2  # South
    assert board.options["dealer"] == "W" and board.options["vulnerable"] == "EW"
    assert board.players == ("pottsca", "cevennes06", "bahir", "albertbeps")
    assert board.options["first_board"] == 384


def test_alerts_with_and_without_explanations():
    text = ("pn|s,w,n,e|" + BOARD_1 + "mb|1N!|an|15-17|mb|p|mb|2D!|mb|p|mb|3H|mb|p|"
            "mb|4H|mb|p|mb|p|mb|p|pg||")
    (record,) = read(text)
    calls = [a for _, a in record.actions]
    assert calls[0] == {"type": "call", "call": "1NT", "alert": "15-17"}
    assert calls[2] == {"type": "call", "call": "2D", "alert": ""}
    assert "alert" not in calls[1]
    (again,) = read(write([record]))
    assert again.actions == record.actions and again.players == record.players


def test_lin_and_pbn_carry_the_same_game():
    records = read(VUGRAPH)
    for fmt_write, fmt_read in ((write, read), (write_pbn, read_pbn)):
        again = fmt_read(fmt_write(records))
        assert [(r.options, r.actions, r.players) for r in again] == [
            (r.options, r.actions, r.players) for r in records]


@pytest.mark.parametrize(
    ("text", "item", "message"),
    [
        ("md|3S269H2568QADTQC2T,S2AHJD3479C4567Q,S58QH479KDKAC38JA,|ah|Board 5|",
         "board 5, md", "2S is dealt twice"),
        ("md|3S269AH2568QADTQC2T,S47HJD3479C4567Q,S58QH479KDKAC38JA,|ah|Board 5|",
         "board 5, md", "South holds 14 cards"),
        (BOARD_1 + "mb|1N|mb|1C|", "board 1, mb", "1C"),
        (BOARD_1 + "mb|1Q|", "board 1, mb", "not a call"),
        (BOARD_1 + "mb|1N|mb|p|mb|p|mb|p|pc|SA|", "board 1, pc", "not in your hand"),
        (BOARD_1 + "mb|1N|mb|p|mb|p|mb|p|mc|15|", "board 1, mc", "a number of tricks"),
        ("md|7S2,S3,S4,|", "board 1, md", "dealer digit"),
        ("ah|Board 2|mb|p|", "", "no board"),
    ],
)
def test_bad_records_say_where(text: str, item: str, message: str):
    with pytest.raises(FormatError) as err:
        read(text)
    assert err.value.item == item and message in err.value.message, str(err.value)
    assert err.value.code == "bad_file"


def test_a_file_that_is_not_lin():
    with pytest.raises(FormatError) as err:
        read("hello world")
    assert err.value.line == 1
    with pytest.raises(FormatError) as err:
        read("md|3S2,|\nx y|z|")
    assert err.value.line == 2


def test_the_format_is_listed_by_the_game():
    assert LIN in GAME.formats and LIN.suffixes == (".lin",)


def test_a_vugraph_header_names_both_rooms():
    """pn with eight names: the open room's South, West, North, East, then the
    closed room's; a board of qx|c..| takes the second four."""
    deal = "md|3S269H2568QADTQC2T,S47AHJD3479C4567Q,S58QH479KDKAC38JA,|"
    text = ("pn|s1,w1,n1,e1,s2,w2,n2,e2|\n"
            f"qx|o1|{deal}ah|Board 1|\nqx|c1|{deal}ah|Board 1|\n")
    open_room, closed_room = read(text)
    assert open_room.players == ("n1", "e1", "s1", "w1")
    assert closed_room.players == ("n2", "e2", "s2", "w2")


def test_each_line_s_players_name_the_board_on_that_line():
    """BBO writes one board a line, its ``pn`` before its ``md``: the names on a
    line belong to that line's board, not to the board before it."""
    other = MYHANDS.strip().replace("bahir,albertbeps,pottsca,cevennes06", "s2,w2,n2,e2")
    first, second = read("pn|s1,w1,n1,e1|st||" + BOARD_1 + "\n" + other + "\n")
    assert first.players == ("n1", "e1", "s1", "w1")
    assert second.players == ("n2", "e2", "s2", "w2")
    # What the writer writes reads back with each board's own players.
    assert [r.players for r in read(write([first, second]))] == [
        first.players, second.players]


def test_percent_comment_lines_are_skipped_and_errors_name_the_key_s_own_line():
    """PbnToLin heads its files with % lines, as PBN files have."""
    (board,) = read("% LIN File created by PbnToLin\n% \n" + BOARD_1)
    assert board.options["first_board"] == 1
    with pytest.raises(FormatError) as err:
        read("\n\nnot a key|x|\n" + BOARD_1)
    assert err.value.line == 3


def test_a_long_file_reads_every_board_and_names_the_line_of_an_error():
    line = MYHANDS.strip() + "\n"
    text = line * 300
    assert len(read(text)) == 300
    with pytest.raises(FormatError) as err:
        read(text + "md|3S2|\n")
    assert err.value.line == 301
    with pytest.raises(FormatError) as err:
        read(line + "pn|a,b,c,d|mb")
    assert "no value" in err.value.message and err.value.line == 2


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_any_played_board_round_trips_through_lin(seed: int, alert: bool):
    """A random board (claims by either side among its actions, alerts on the first
    call) written as LIN and read back: the same deal, auction, play and result."""
    from engine.rng import Rng

    config = GAME.parse_config({"claims": "defenders"})
    state, rng, log = GAME.new(config, seed), Rng(seed), []
    while state.phase.value != "over":
        seat = rng.choice(list(GAME.to_act(state)))
        action = dict(rng.choice(GAME.legal(state, seat)))
        if alert and not log and action["type"] == "call":
            action["alert"] = "a | b"
        state, _ = GAME.act(state, seat, action)
        log.append((seat, action))
    record = GameRecord("bridge", GAME.config_json(config), seed, tuple(log))
    (again,) = read(write([record]))
    before, after = state.results[0], replay(again).results[0]
    assert (after.deal, after.calls, after.played, after.contract, after.tricks,
            after.score_ns) == (before.deal, before.calls, before.played, before.contract,
                                before.tricks, before.score_ns)
    if alert:
        assert again.actions[0][1]["alert"] == "a / b"  # LIN has no escape for |
