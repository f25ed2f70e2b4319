"""Bridge files other programs wrote, as they wrote them: short excerpts of public
files, each naming its source, that once read or wrote wrong (docs/formats.md)."""

from __future__ import annotations

from rules.bridge import BridgeGame
from rules.bridge.game import PBN

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


def test_double_dummy_tricks_list_the_declarers_north_south_east_west():
    """RealBridge (like BBO's exports) writes the 20 digits for declarers N, S, E,
    W, each in NT S H D C; ours are the same digits in the same order."""
    (record,) = PBN.read(REALBRIDGE)
    text = PBN.write([record])
    assert '[DoubleDummyTricks "77667775576677566775"]' in text
    assert '[OptimumScore "NS 90"]' in text
