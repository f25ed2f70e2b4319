"""Hand histories are checked both ways (docs/poker.md, "PHH" and "PokerStars hand
histories"): a PHH hand whose ``finishing_stacks`` the rules do not give is refused,
an export reads back to the same game or is refused by name, PokerStars text names
each pot, and an imported hand's table shows its amounts in the file's money.

The real hands: ``WSOP`` is uoftcprg/phh-dataset, data/wsop/2019/42/3/00-01-07.phh
(the descriptive fields left out; the file leaves out p8's fold, which the rules
need, so ``'p8 f'`` is added after p7's raise).  ``SIDE_POT`` is
HHSmithy/PokerHandHistoryParser,
HandHistories.Parser.UnitTests/SampleHandHistories/PokerStars/CashGame/SidePot.txt
(its summary's seat lines left out)."""

from __future__ import annotations

import warnings
from decimal import Decimal
from typing import Any

import pytest

from engine.events import OMNISCIENT
from engine.formats import FormatError, GameRecord
from rules.poker.game import PokerGame
from rules.poker.hands import play_record
from rules.poker.phh import PHH, PhhError, read_phh
from rules.poker.stars import STARS, StarsError, read_stars

GAME = PokerGame()

WSOP = """\
variant = 'NT'
ante_trimming_status = true
antes = [0, 500000, 0, 0, 0, 0, 0, 0]
blinds_or_straddles = [250000, 500000, 0, 0, 0, 0, 0, 0]
min_bet = 500000
starting_stacks = [13050000, 9525000, 6675000, 5750000, 9150000, 6525000, 14100000, 7300000]
actions = ['d dh p1 QdJd', 'd dh p2 Ac7c', 'd dh p3 Qh3h', 'd dh p4 6s5c', 'd dh p5 Ad7s', \
'd dh p6 9c4c', 'd dh p7 3s3c', 'd dh p8 Td3d', 'p3 f', 'p4 f', 'p5 f', 'p6 f', \
'p7 cbr 1150000', 'p8 f', 'p1 cc', 'p2 cc', 'd db ThJc5h', 'p1 cc', 'p2 cc', 'p7 cc', \
'd db 6c', 'p1 cc', 'p2 cc', 'p7 cc', 'd db 8s', 'p1 cc', 'p2 cbr 2250000', 'p7 f', 'p1 cc', \
'p2 sm Ac7c', 'p1 sm QdJd']
players = ['Dan Matsuzuki', 'Rainer Kempe', 'Aristeidis Moschonas', 'Raghav Bansal', \
'Daniel Moravec', 'Stephen Ma', 'Adam Lamphere', 'Ashish Ahuja']
"""
# The file's own figures: the big-blind ante kept as dead money, whatever
# ante_trimming_status says.
FILES_STACKS = "[18100000, 5625000, 6675000, 5750000, 9150000, 6525000, 12950000, 7300000]"
# What the rules (and pokerkit) give with ante trimming: Kempe's ante, matched by
# nobody, comes back.
RULES_STACKS = [17600000, 6125000, 6675000, 5750000, 9150000, 6525000, 12950000, 7300000]

SIDE_POT = """\
PokerStars Game #84437728533:  Hold'em No Limit ($0.25/$0.50 USD) - 2012/08/08 3:56:44 ET
Table 'Irmela III 40-100 bb' 9-max Seat #3 is the button
Seat 1: keksb10 ($44.66 in chips)
Seat 2: MauA6pukocoB ($21.44 in chips)
Seat 3: neugaray ($23.53 in chips)
Seat 4: dunhill.1983 ($18.75 in chips)
Seat 5: efendi80 ($83.73 in chips)
Seat 6: Vlondril ($21.96 in chips)
Seat 7: hayabusa514 ($29.75 in chips)
Seat 8: Illusionate ($122.31 in chips)
Seat 9: Aiseki ($19.38 in chips)
dunhill.1983: posts small blind $0.25
efendi80: posts big blind $0.50
*** HOLE CARDS ***
Vlondril: calls $0.50
hayabusa514: calls $0.50
Illusionate: folds
Aiseki: folds
keksb10: folds
MauA6pukocoB: calls $0.50
neugaray: folds
dunhill.1983: raises $2.50 to $3
efendi80: folds
Vlondril: folds
hayabusa514: calls $2.50
MauA6pukocoB: calls $2.50
*** FLOP *** [Qd 6d 5d]
dunhill.1983: bets $5
hayabusa514: calls $5
MauA6pukocoB: raises $13.44 to $18.44 and is all-in
dunhill.1983: calls $10.75 and is all-in
hayabusa514: calls $13.44
*** TURN *** [Qd 6d 5d] [8h]
*** RIVER *** [Qd 6d 5d 8h] [7c]
*** SHOW DOWN ***
hayabusa514: shows [8d Jd] (a flush, Queen high)
MauA6pukocoB: shows [6h 6s] (three of a kind, Sixes)
hayabusa514 collected $5.38 from side pot
dunhill.1983: shows [Kc Ad] (high card Ace)
hayabusa514 collected $54.75 from main pot
*** SUMMARY ***
Total pot $62.63 Main pot $54.75. Side pot $5.38. | Rake $2.50
Board [Qd 6d 5d 8h 7c]
"""


def stacks(record: GameRecord) -> list[int]:
    played = play_record(record)
    return [played.final_stacks[s] for s in played.hand.players]


# PHH finishing_stacks


def test_finishing_stacks_the_rules_do_not_give_are_refused_by_player_and_line():
    text = WSOP + f"finishing_stacks = {FILES_STACKS}\n"
    with pytest.raises(PhhError) as caught:
        read_phh(text)
    error = caught.value
    assert isinstance(error, FormatError) and error.code == "bad_phh"
    assert error.line == len(text.splitlines())  # the finishing_stacks line, the last
    message = str(error)
    assert "p1 (Dan Matsuzuki) 17600000 but the file says 18100000" in message
    assert "p2 (Rainer Kempe) 6125000 but the file says 5625000" in message
    assert "ante_trimming_status = false" in message  # what the file's figures are


def test_finishing_stacks_whose_chips_do_not_add_up_are_refused():
    wrong = "[1, 9525000, 6675000, 5750000, 9150000, 6525000, 14100000, 7300000]"
    with pytest.raises(PhhError, match=r"p1 \(Dan Matsuzuki\) 17600000 but the file says 1;"):
        read_phh(WSOP + f"finishing_stacks = {wrong}\n")
    with pytest.raises(PhhError, match="not the stacks of 8 players"):
        read_phh(WSOP + "finishing_stacks = [1, 2]\n")


def test_finishing_stacks_the_rules_give_are_read_and_written_from_the_replay():
    (record,) = read_phh(WSOP + f"finishing_stacks = {RULES_STACKS}\n")
    assert stacks(record) == RULES_STACKS
    assert "finishing_stacks" not in record.tags
    pokerkit = pytest.importorskip("pokerkit")
    warnings.simplefilter("ignore")
    assert list(list(pokerkit.HandHistory.loads(WSOP))[-1].stacks) == RULES_STACKS


def test_a_stored_finishing_stacks_tag_never_contradicts_the_written_replay():
    (record,) = read_phh(WSOP)
    stale = GameRecord(record.game, record.options, record.seed, record.actions,
                       record.players, record.title,
                       {**record.tags, "finishing_stacks": FILES_STACKS})
    text = PHH.write([stale])
    assert f"finishing_stacks = [{', '.join(map(str, RULES_STACKS))}]" in text
    assert stacks(read_phh(text)[0]) == RULES_STACKS


# exports read back or are refused


def test_a_trimmed_big_blind_ante_is_refused_as_pokerstars_text_by_name():
    (record,) = read_phh(WSOP)
    with pytest.raises(StarsError, match="ante trimming") as caught:
        STARS.write([record])
    assert "export it as PHH" in str(caught.value)
    assert read_phh(PHH.write([record])) == [record]  # PHH holds it


def _split_hand(odd_chip: str) -> GameRecord:
    """A hand played here at a raked table (5%, at most 1 chip a pot): three players
    put in 21 each and tie on a royal flush board; the 62 chips left after the rake
    split with two odd chips (22/20/20 to the first winner, 21/21/20 one each)."""
    options = {"seats": 3, "hands": 1, "starting_stack": 100, "button": 2,
               "rake_percent": 5, "rake_cap": 1, "odd_chip": odd_chip,
               "holes": ["2c3d", "4c5d", "6c7d"], "board": "AhKhQhJhTh"}
    config = GAME.parse_config(options)
    state, log = GAME.new(config, 7), []
    moves: list[tuple[int, dict[str, Any]]] = [
        (2, {"type": "raise", "to": 21}), (0, {"type": "call"}), (1, {"type": "call"})]
    moves += [(s, {"type": "check"}) for _ in range(3) for s in (0, 1, 2)]
    for seat, action in moves:
        move = GAME.validate(state, seat, action)
        state, _ = GAME.apply(state, seat, move)
        log.append((seat, dict(move.action)))
    assert state.hand is not None and state.hand.raked == 1
    return GameRecord("poker", GAME.config_json(config), 7, tuple(log), (), "", {})


@pytest.mark.parametrize(("odd_chip", "paid"), [("first_winner", [101, 99, 99]),
                                                ("one_each", [100, 100, 99])])
def test_a_raked_split_played_here_reads_back_from_both_formats(odd_chip: str, paid: list[int]):
    record = _split_hand(odd_chip)
    assert stacks(record) == paid
    phh = PHH.write([record])
    assert "_pot_rakes = [1]" in phh  # the stacks alone do not show this rake
    assert ('_odd_chip = "one_each"' in phh) == (odd_chip == "one_each")
    assert stacks(read_phh(phh)[0]) == paid
    assert stacks(read_stars(STARS.write([record]))[0]) == paid


def test_pokerstars_odd_chips_one_each_are_read_from_the_collected_lines():
    text = STARS.write([_split_hand("one_each")])
    assert "Seat 1 collected 21 from pot" in text and "Seat 3 collected 20 from pot" in text
    (record,) = read_stars(text)
    assert record.options["odd_chip"] == "one_each"


# PokerStars pots, and the file's money at the table


def test_pokerstars_text_names_the_main_and_side_pots_as_the_site_does():
    (record,) = read_stars(SIDE_POT)
    text = STARS.write([record])
    assert "hayabusa514 collected $5.38 from side pot\n" in text
    assert "hayabusa514 collected $54.75 from main pot\n" in text
    assert "Total pot $62.63 Main pot $54.75. Side pot $5.38. | Rake $2.50" in text
    assert text.index("from side pot") < text.index("from main pot")
    assert ("Seat 7: hayabusa514 showed [8d Jd] and won ($60.13) with a flush, Queen high"
            in text)
    (again,) = read_stars(text)
    assert stacks(again) == stacks(record)


def test_an_imported_hands_table_shows_every_amount_in_the_files_money():
    (record,) = read_stars(SIDE_POT)
    config = GAME.parse_config(record.options)
    state = GAME.new(config, record.seed)
    for seat, action in record.actions:
        state, _ = GAME.apply(state, seat, GAME.validate(state, seat, action))
    view = GAME.view(state, OMNISCIENT)
    hints = GAME.presentation.hints(view)
    winner = record.players.index("hayabusa514")
    assert hints["pot"] == "Pot 62.63 (main 57.25, side 5.38)"
    assert hints["rake"] == "2.50" and hints["won"] == [[winner, "60.13"]]
    assert hints["stacks"][winner] == "68.44"
    assert hints["blinds"] == "0.25/0.50"
    assert Decimal(hints["stacks"][winner]) - Decimal("29.75") == Decimal("38.69")
    # The result itself says the file's money (it said 3869 chips over 1 hands).
    assert view["result"]["summary"] == f"Seat {winner + 1} wins 38.69 over 1 hand"
    assert "result" not in hints
    plain = GAME.presentation.hints(GAME.view(GAME.new(GAME.parse_config({}), 1), OMNISCIENT))
    assert "stacks" not in plain  # tables in whole chips show the view's numbers


def test_a_phh_text_that_would_read_back_otherwise_is_refused(monkeypatch: pytest.MonkeyPatch):
    import rules.poker.phh as phh

    (record,) = read_phh(WSOP)
    real = phh.write_phh

    def wrong(hands: Any, keys: Any = ()) -> str:  # a writer that gets a stack wrong
        return real(hands, keys).replace("17600000", "17600001")

    monkeypatch.setattr(phh, "write_phh", wrong)
    with pytest.raises(PhhError, match="would not read back the same"):
        PHH.write([record])


def test_a_result_names_its_leaders_where_the_table_has_names():
    words = PokerGame().presentation
    won = {"summary": "Seat 3 wins 6.83 over 1 hand"}
    assert words.summary(won, ["a", "b", "GrindOrDie"]) == "GrindOrDie wins 6.83 over 1 hand"
    tied = {"summary": "Seats 1, 3 lead with 12 chips"}
    assert words.summary(tied, ["Ann", "Bob", "Cy"]) == "Ann, Cy lead with 12 chips"
    # A seat the table has no name for keeps its number.
    assert words.summary(won, ["a", "b", ""]) == "Seat 3 wins 6.83 over 1 hand"


def test_max_buy_in_is_checked_against_the_buy_ins_the_table_has():
    game = PokerGame()
    # stacks replace starting_stack: the cap is checked against them, not the unset 200.
    assert game.parse_config({"seats": 2, "stacks": [10, 10], "max_buy_in": 50}).max_buy_in == 50
    with pytest.raises(Exception, match="max_buy_in must be at least every buy-in"):
        game.parse_config({"seats": 2, "stacks": [10, 80], "max_buy_in": 50})


def test_an_action_carries_only_its_own_types_fields():
    from engine.errors import IllegalAction

    game = PokerGame()
    game.check_fields({"type": "raise", "to": 5})
    for wrong in ({"type": "all_in", "to": 5}, {"type": "raise", "to": 5, "extra": 1}):
        with pytest.raises(IllegalAction) as err:
            game.check_fields(wrong)
        assert err.value.code == "bad_action"
