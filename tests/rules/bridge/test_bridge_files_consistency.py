"""A bridge file that disagrees with itself is refused, naming where, never stored as
something else (docs/formats.md, "PBN" and "LIN"): a result the play does not take,
cards after the play stopped or ended, a double the auction never made, a note that
is not there, a call after all pass."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.formats import FormatError, GameRecord
from rules.bridge import BridgeGame
from rules.bridge.game import LIN, PBN

GAME = BridgeGame()
DEAL = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
HEAD = f'[Board "1"]\n[Dealer "N"]\n[Vulnerable "None"]\n[Deal "{DEAL}"]\n'


def played_out() -> tuple[GameRecord, int]:
    """1D by North played to the end, each player's first legal card: the record and
    the declaring side's tricks."""
    (start,) = PBN.read(HEAD + '[Auction "N"]\n1D Pass Pass Pass\n')
    state = GAME.new(GAME.parse_config(start.options), 0)
    actions: list[tuple[int, dict[str, Any]]] = list(start.actions)
    for seat, action in actions:
        state, _ = GAME.act(state, seat, action)
    while state.phase.value == "play":
        seat = GAME.to_act(state)[0]
        action = next(a for a in GAME.legal(state, seat) if a["type"] == "play")
        actions.append((seat, action))
        state, _ = GAME.act(state, seat, action)
    record = GameRecord("bridge", start.options, 0, tuple(actions))
    return record, state.results[0].tricks


def refused(text: str, fmt: Any = PBN) -> FormatError:
    with pytest.raises(FormatError) as err:
        fmt.read(text)
    return err.value


def test_a_whole_play_reads_back_with_its_own_result():
    record, tricks = played_out()
    text = PBN.write([record])
    assert f'[Result "{tricks}"]' in text
    (again,) = PBN.read(text)
    assert again.actions == record.actions


def test_a_result_the_whole_play_did_not_take_is_refused():
    record, tricks = played_out()
    text = PBN.write([record]).replace(f'[Result "{tricks}"]', f'[Result "{tricks - 1}"]')
    err = refused(text)
    assert err.item == "board 1, Result"
    assert f"not the {tricks} tricks taken" in err.message


def test_a_lin_claim_after_the_last_trick_must_be_the_tricks_taken():
    record, tricks = played_out()
    text = LIN.write([record]).replace("pg||\n", f"mc|{tricks - 1}|pg||\n")
    assert f"mc|{tricks - 1}|" in text
    assert refused(text, LIN).item == "board 1, mc"
    (again,) = LIN.read(LIN.write([record]).replace("pg||\n", f"mc|{tricks}|pg||\n"))
    assert again.actions == record.actions


def test_a_row_after_the_thirteenth_trick_is_refused():
    record, _ = played_out()
    text = PBN.write([record]).replace("\n*", "\nH3 H9 HA H8\n*")
    err = refused(text)
    assert err.item == "board 1, Play" and "a card after the end of the play" in err.message


def test_cards_after_the_play_stopped_are_refused():
    """A '-' for the player on turn stops the play (a claim, or a record cut short):
    a card later in that trick or in a later row has no place in it."""
    record, _ = played_out()
    text = PBN.write([record])
    play = text[text.index('[Play "E"]'):]
    rows = play.splitlines()[1:14]
    # East leads the first trick and the record stops at its lead: the rest of the
    # trick was not played.
    at_lead = text.replace(rows[0], " ".join(["-", *rows[0].split()[1:]]))
    assert "a card after the end of the play" in refused(at_lead).message
    # The second trick left out whole, the third given.
    gap = text.replace(rows[1], "- - - -")
    err = refused(gap)
    assert err.item == "board 1, Play" and "a card after the end of the play" in err.message
    # Stopped for good there, it reads (a claim needs a Result; without one the
    # board stays where its record stops).
    unknown = re.sub(r'\[Result "\d+"\]', '[Result "?"]', text[: text.index(rows[1])])
    (cut,) = PBN.read(unknown)
    assert len([a for _, a in cut.actions if a["type"] == "play"]) == 4


def test_a_double_the_auction_never_made_is_refused():
    text = HEAD + '[Declarer "N"]\n[Contract "1DX"]\n[Auction "N"]\n1D Pass Pass Pass\n'
    err = refused(text)
    assert err.item == "board 1, Contract" and "not the Contract 1DX" in err.message
    # A double the Contract leaves out is the auction's (files that drop them).
    left_out = HEAD + '[Contract "1D"]\n[Auction "N"]\n1D X Pass Pass\nPass\n'
    assert PBN.read(left_out)


def test_a_note_that_is_not_there_is_refused():
    err = refused(HEAD + '[Auction "N"]\n1D =3= Pass Pass Pass\n')
    assert err.item == "board 1, Auction" and "=3=" in err.message and err.line == 6
    (record,) = PBN.read(HEAD + '[Auction "N"]\n1D =3= Pass Pass Pass\n[Note "3:natural"]\n')
    assert record.actions[0][1] == {"type": "call", "call": "1D", "alert": "natural"}


def test_a_call_after_all_pass_is_refused():
    err = refused(HEAD + '[Auction "N"]\n1D AP Pass\n')
    assert err.item == "board 1, Auction" and "after AP" in err.message
    (record,) = PBN.read(HEAD + '[Auction "N"]\n1D AP\n')
    assert [a["call"] for _, a in record.actions] == ["1D", "P", "P", "P"]


def test_a_board_passed_out_takes_no_tricks():
    err = refused(HEAD + '[Contract "Pass"]\n[Result "9"]\n[Auction "N"]\nAP\n')
    assert err.item == "board 1, Result" and "passed out" in err.message
    assert PBN.read(HEAD + '[Contract "Pass"]\n[Result "0"]\n[Auction "N"]\nAP\n')


def test_a_play_tag_naming_another_leader_says_so_where_the_cards_do_not_fit():
    record, _ = played_out()
    text = PBN.write([record]).replace('[Play "E"]', '[Play "W"]')
    err = refused(text)
    assert "the Play tag names West as the opening leader, not East" in err.message


def test_a_board_still_in_its_auction_is_written_with_empty_result_tags():
    (record,) = PBN.read(HEAD + '[Auction "N"]\n1D Pass\n')
    text = PBN.write([record])
    assert '[Declarer ""]\n[Contract ""]\n[Result ""]' in text
    (again,) = PBN.read(text)
    assert again.actions == record.actions
