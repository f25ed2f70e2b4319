"""Bridge files other programs wrote, as they wrote them: short excerpts of public
files, each naming its source, that once read wrong or were refused, and real files'
errors that must name the line, the board and the tag (docs/formats.md)."""

from __future__ import annotations

import pytest

from engine.formats import FormatError
from rules.bridge import BridgeGame
from rules.bridge.game import LIN, PBN

GAME = BridgeGame()


def replay(record):
    state = GAME.new(GAME.parse_config(record.options), record.seed)
    for seat, action in record.actions:
        state, _ = GAME.act(state, seat, action)
    return state


def alerts(record):
    return [a.get("alert") for _, a in record.actions if a["type"] == "call"]


# RealBridge's export of the 2021 online European qualifier, one table of board 11
# (dominicprice/endplay, tests/pbn/example2.pbn): "1: text" notes, a last play row
# with one card and blanks, and the double-dummy tags RealBridge computed.
REALBRIDGE = """\
% PBN 2.1
% EXPORT

[Event "2021 Online Qual: Open R2"]
[Site "RealBridge"]
[Date "2021.08.23"]
[Board "11"]
[West "Ilan Herbst#25333"]
[North "Marius Agica#46561"]
[East "Ophir Herbst#25334"]
[South "Alexandru Cristian Mugioiu#188540"]
[Dealer "S"]
[Vulnerable "None"]
[Deal "N:KT8.A96.A95.7542 Q5.KJ52.KQ874.T8 AJ92.874.JT6.AQ3 7643.QT3.32.KJ96"]
[Scoring "IMP"]
[Declarer "N"]
[Contract "1NT"]
[Result "8"]
[Auction "S"]
1C =1= Pass 1NT =2= Pass
Pass Pass
[Play "E"]
D4 DJ D3 D5
S5 S2 S3 SK
SQ SA S4 ST
D7 SJ S6 S8
H5 S9 S7 H6
D8 D6 D2 DA
C8 CQ CK C4
-  -  H3 -
*
[Note "1: 11-13,17-19 or clubs"]
[Note "2: 9-11, no 4cM"]
[Score "NS 120"]
[DoubleDummyTricks "77667775576677566775"]
[OptimumScore "NS +90"]
"""


def test_notes_are_read_without_the_space_after_the_colon():
    """`[Note "1: text"]` and `[Note "1:text "]` give the same alert, so a board
    exported to LIN (which trims its values) reads back with the same calls."""
    (record,) = PBN.read(REALBRIDGE)
    assert alerts(record)[:3] == ["11-13,17-19 or clubs", None, "9-11, no 4cM"]
    (again,) = LIN.read(LIN.write([record]))
    assert again.actions == record.actions
    assert replay(record).results[0].score_ns == 120  # the file's Score


def test_double_dummy_tricks_list_the_declarers_north_south_east_west():
    """RealBridge (like BBO's exports) writes the 20 digits for declarers N, S, E,
    W, each in NT S H D C; ours are the same digits in the same order."""
    (record,) = PBN.read(REALBRIDGE)
    text = PBN.write([record])
    assert '[DoubleDummyTricks "77667775576677566775"]' in text
    assert '[OptimumScore "NS 90"]' in text


# A BridgeComposer teaching file's board 2 (Rick-Wilson/pbn-to-pdf, "tests/fixtures/
# Precision 1C Auctions with Notes.pbn"): notes with BridgeComposer's suit symbols.
BRIDGECOMPOSER = """\
[Event "Precision 1C Opener Leveled by Responses x100"]
[Board "2"]
[Dealer "N"]
[Vulnerable "NS"]
[Deal "N:A82.AKT43.K53.AT KT53.J75.J987.62 J7.Q98.A64.KQ974 Q964.62.QT2.J853"]
[Auction "N"]
1C Pass 1NT =1= Pass
2C =2= Pass 2S =3= Pass
[Note "1:5+\\Cs, GF"]
[Note "2:waiting"]
[Note "3:5332, non-min; start with 1\\S with 5min 332 and 8-10"]
"""


def test_a_backslash_that_escapes_nothing_is_kept():
    r"""Only \" and \\ are escapes in a PBN string; BridgeComposer's \C (a club
    symbol) stays in the alert and goes back out as it came in."""
    (record,) = PBN.read(BRIDGECOMPOSER)
    assert alerts(record)[2] == "5+\\Cs, GF"
    assert alerts(record)[6].startswith("5332, non-min; start with 1\\S with")
    text = PBN.write([record])
    assert '[Note "1:5+\\Cs, GF"]' in text
    (again,) = PBN.read(text)
    assert again.actions == record.actions


def test_an_unknown_tag_with_a_backslash_in_it_is_written_back_as_it_was():
    """The PBN 2.1 reference verifier's own example (timheilman/bridge-pbn,
    spec/resource/reference_impl_tests/correct_21.pbn) has an OptimumPlayTable whose
    column format reads "S\\8R"; it is kept, and written back, with its backslashes."""
    text = ('[Board "16"]\n[Dealer "W"]\n[Vulnerable "EW"]\n'
            '[Deal "W:AJ9754.J62.K62.6 32..A954.AQJ9875 KQ86.KQT843.QJ.K T.A975.T873.T432"]\n'
            '[OptimumPlayTable "S\\8R;H\\8R;D\\8R;C\\8R"]\n'
            "KQ86    -       QJ      K\n")
    (record,) = PBN.read(text)
    assert record.tags["OptimumPlayTable"].splitlines()[0] == "S\\8R;H\\8R;D\\8R;C\\8R"
    assert '[OptimumPlayTable "S\\8R;H\\8R;D\\8R;C\\8R"]\nKQ86 - QJ K' in PBN.write([record])


# rpbridge.net's 2012 world championship final (dominicprice/endplay,
# tests/pbn/example3.pbn), board 2: each board's tags are written once, and the
# board's second table (the closed room) gives only its own contract, auction and play.
RPBRIDGE = """\
% PBN (c) 2021 rpbridge.net
[Date "2012.08.??"]
[Event "World Championship"]
[Board "2"]
[Dealer "E"]
[Vulnerable "NS"]
[Deal "W:J84.AK42.A5.KJ84 A32.965.KQ864.Q6 T65.Q83.JT72.975 KQ97.JT7.93.AT32"]
[Declarer "W"]
[Contract "1N"]
[Result "5"]
[Auction "E"]
1NT AP
[Play "N"]
D6 D7 D9 DA
S3 ST SQ S4
CQ C5 C2 C4
DQ D2 D3 D5
DK DT HJ H2
SA S5 S7 S8
S2 S6 SK SJ
C6 - S9 C8
*

[West "Zak"]
[North "Ahlesved"]
[East "Zaremba"]
[South "Petersson"]
[Declarer "W"]
[Contract "1N"]
[Result "6"]
[Auction "E"]
1NT AP
[Play "N"]
D6 DJ D3 D5
CQ C5 C2 CJ
D4 D2 D9 DA
H5 HQ H7 H4
H6 H3 HT HA
H9 H8 HJ HK
S2 S5 S7 H2
*
"""


def test_a_game_without_a_deal_is_the_previous_board_at_another_table():
    open_room, closed_room = PBN.read(RPBRIDGE)
    assert closed_room.options == open_room.options  # board 2, its deal, dealer, NS vul
    assert closed_room.players == ("Ahlesved", "Zaremba", "Petersson", "Zak")
    assert [replay(r).results[0].tricks for r in (open_room, closed_room)] == [5, 6]
    assert closed_room.title == "Board 2"


# The same file's boards 6 and 10 (open room): each auction written from its first bid
# (the passes before it left out) under an Auction tag that names the dealer; the
# Declarer tags and the play's first seat (the declarer's left) say who declared.
RPBRIDGE_PASSES = """\
[Board "6"]
[Dealer "E"]
[Vulnerable "EW"]
[Deal "W:T962.J6.AK83.AT8 K7.T53.Q764.J432 AQ8.9874.T52.K96 J543.AKQ2.J9.Q75"]
[Declarer "N"]
[Contract "1N"]
[Result "6"]
[Auction "E"]
1C Pass 1D Pass
1H Pass 1NT Pass
Pass X AP
[Play "E"]
C6 C7 CT CJ
D5 DJ DK D4
SQ S3 S9 S7
CK C5 C8 C2
C9 CQ CA C3
SA S4 S2 SK
S8 SJ S6 D6
H7 HA H6 H3
H9 HK HJ H5
D2 D9 DA D7
DT S5 ST HT
*

[Board "10"]
[Dealer "E"]
[Vulnerable "Both"]
[Deal "W:.AJ8.J865432.K93 A864.K52.AKQ7.AJ JT975.T93.T.Q865 KQ32.Q764.9.T742"]
[Declarer "N"]
[Contract "3N"]
[Result "9"]
[Auction "E"]
3D 3NT AP
[Play "E"]
DT D9 D6 DA
S5 SK D4 S4
H3 H4 H8 HK
H9 H6 HJ H5
HT H7 HA H2
C5 C2 DJ DK
S7 S2 - S6
*
"""


def test_an_auction_written_from_its_first_bid_gets_its_passes_back():
    expected = [(0, 1, 6), (0, 2, 9)]  # declarer, passes put back, tricks: as the tags say
    records = PBN.read(RPBRIDGE_PASSES)
    for record, (declarer, passes, tricks) in zip(records, expected, strict=True):
        state = replay(record)
        (result,) = state.results
        assert (result.declarer, result.tricks) == (declarer, tricks)
        calls = [a["call"] for _, a in record.actions if a["type"] == "call"]
        assert calls[:passes] == ["P"] * passes and calls[passes] != "P"
        assert record.actions[len(calls)][0] == (declarer + 1) % 4  # the opening lead
    # Board 2 of the excerpt above: West opened 1NT after two passes.
    open_room, _ = PBN.read(RPBRIDGE)
    assert replay(open_room).results[0].declarer == 3


def test_a_contract_or_declarer_its_auction_does_not_reach_is_refused():
    board = ('[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n'
             '[Deal "N:AKQ2.J54.T9.8765 JT98.AKQ.876.432 7654.T98.AKQ.AKQ 3.7632.J5432.JT9"]\n'
             '[Declarer "{declarer}"]\n[Contract "{contract}"]\n[Result "10"]\n'
             '[Auction "N"]\n1NT Pass 3NT AP\n')
    with pytest.raises(FormatError) as err:
        PBN.read(board.format(declarer="N", contract="4S"))
    assert (err.value.line, err.value.item) == (6, "board 1, Contract")
    assert "the auction ends in 3NT by North, not the Contract 4S" in str(err.value)
    # Passes left out before 1NT would make South the declarer, but with no play
    # to say whose left led, the file's two statements are not mended.
    with pytest.raises(FormatError) as err:
        PBN.read(board.format(declarer="S", contract="3NT"))
    assert (err.value.line, err.value.item) == (5, "board 1, Declarer")
    assert "not played by Declarer S" in str(err.value)
    # PBN's "^": the file itself says the declarer is not the auction's.
    (record,) = PBN.read(board.format(declarer="^S", contract="3NT"))
    assert replay(record).results[0].declarer == 0


def test_a_game_without_a_deal_and_no_board_before_it_is_still_refused():
    text = RPBRIDGE[RPBRIDGE.index('[West "Zak"]'):]
    with pytest.raises(FormatError, match="has no Deal"):
        PBN.read(text)


@pytest.mark.parametrize(
    ("text", "line", "item", "message"),
    [
        # rpbridge's board 1 (the same file): its third trick is written in play
        # order from East, not in the Play tag's seat columns, so East is given
        # the queen of clubs North holds.
        ("[Board \"1\"]\n[Dealer \"N\"]\n[Vulnerable \"None\"]\n"
         "[Deal \"W:.AQJ85.986.JT973 A8643.97642.Q.Q8 KT9.K3.K75.AK652 QJ752.T.AJT432.4\"]\n"
         "[Declarer \"E\"]\n[Contract \"5C\"]\n[Result \"12\"]\n[Auction \"N\"]\n"
         "1NT X XX 4H\nX 4S 4NT X\n5C AP\n[Play \"S\"]\n"
         "SQ C3 S3 S9\nC4 C7 C8 CK\nCA D2 C9 CQ\n*\n",
         15, "board 1, Play", "CQ by East: that card is not in your hand"),
        # The BridgeComposer file's board 15: an auction that turns into prose.
        ("[Board \"15\"]\n[Dealer \"N\"]\n[Vulnerable \"NS\"]\n"
         "[Deal \"N:K82.AK85.AKQT4.6 JT9754.T6.9.J942 6.QJ72.J762.KQT3 AQ3.943.853.A875\"]\n"
         "[Auction \"N\"]\n1C Pass 2H Pass\n2S Pass 2NT Pass\nrelay to 4H or\n",
         8, "board 15, Auction", "not a call: 'relay'"),
        # Its board 18: two passes more after the auction is over.
        ("[Board \"18\"]\n[Dealer \"N\"]\n[Vulnerable \"NS\"]\n"
         "[Deal \"N:KQ8432.AJ2.A32.A JT9.763.KT54.953 A.Q954.QJ98.KQ82 765.KT8.76.JT764\"]\n"
         "[Auction \"N\"]\n1C Pass 2H Pass\n2S Pass 3D Pass\n4C Pass 4D Pass\n"
         "4NT Pass P? Pass\nPass Pass\n",
         10, "board 18, Auction", "a call after the end of the auction"),
    ],
)
def test_real_files_that_break_the_rules_are_refused_naming_where(
    text: str, line: int, item: str, message: str
):
    with pytest.raises(FormatError) as err:
        PBN.read(text)
    assert (err.value.line, err.value.item) == (line, item)
    assert message in str(err.value)
