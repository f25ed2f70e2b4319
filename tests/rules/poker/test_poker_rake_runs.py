"""The rake and boards run twice (docs/poker.md, "Table rules (no-limit hold'em)"): the
table's options, hands read from PokerStars and PHH histories with a rake or two
runs, and pokerkit as the reference for the rake (test-only dependency)."""

from __future__ import annotations

import warnings
from functools import partial
from pathlib import Path

import pytest

from engine.cards import deck, format_card
from engine.rng import Rng
from rules.poker.game import PokerGame
from rules.poker.hands import play_record
from rules.poker.options import PokerConfig
from rules.poker.phh import PHH, from_phh, read_phh, to_phh
from rules.poker.phh_rake import file_stacks
from rules.poker.pots import Pot
from rules.poker.rake import rake_of, split_runs, take_rake
from rules.poker.stars import STARS, StarsError, read_stars
from tests.conformance import check_game

pokerkit = pytest.importorskip("pokerkit")
DATA = Path(__file__).parent / "data"
GAME = PokerGame()


def test_a_pots_rake_rounds_half_to_even_and_stops_at_the_cap():
    assert rake_of(100, 5, None) == 5
    assert rake_of(10, 5, None) == 0  # 0.5 rounds to the even chip, as pokerkit's round
    assert rake_of(30, 5, None) == 2  # 1.5 rounds to 2
    assert rake_of(1000, 5, 30) == 30
    assert rake_of(333, 2.5, None) == 8  # 8.325, read as the decimal 2.5 exactly


def test_a_sites_rake_comes_off_the_main_pot_then_each_pot_is_halved_per_run():
    # The summary of a published PokerStars hand run twice (an Omaha hand of the
    # sample histories of HHSmithy/PokerHandHistoryParser, RunItTwiceTests/
    # RunItTwice1.txt): "Total pot $3030 Main pot $3007. Side pot $20. | Rake $3",
    # each run then paying $1503.50 of the main pot and $10 of the side pot.
    pots = [Pot(301000, (2, 3)), Pot(2000, (2,))]
    config = PokerConfig(hands=1, hand_rake=300)
    raked, took = take_rake(pots, config, flop_dealt=True)
    assert took == 300 and [p.amount for p in raked] == [300700, 2000]
    first, second = split_runs(raked)
    assert [p.amount for p in first] == [150350, 1000] == [p.amount for p in second]
    assert [p.amount for p in split_runs([Pot(7, (0, 1))])[0]] == [4]  # odd chip: run 1


def test_no_flop_no_drop_and_the_percentage_rule_per_pot():
    config = PokerConfig(rake_percent=10, rake_cap=3, no_flop_no_drop=True)
    pots = [Pot(100, (0, 1)), Pot(20, (1,))]
    assert take_rake(pots, config, flop_dealt=False) == (pots, 0)
    raked, took = take_rake(pots, config, flop_dealt=True)
    assert took == 5 and [p.amount for p in raked] == [97, 18]  # each pot capped at 3


def test_the_published_run_twice_hand_reads_replays_and_round_trips():
    # tests/rules/poker/data/stars_run_twice.txt is the published sample history
    # RunItTwiceTests/RunItTwice2.txt of HHSmithy/PokerHandHistoryParser: a $2/$4
    # cap no-limit hold'em hand, both players all-in at the $80 cap before the flop,
    # the board run twice, $2.80 rake, every run split between two equal hands.
    text = (DATA / "stars_run_twice.txt").read_text()
    (record,) = read_stars(text)
    options = record.options
    assert options["cap"] == 8000 and options["hand_rake"] == 280
    assert options["run_twice"] is True and options["board2"] == "6s8h6hTd6c"
    played = play_record(record)
    hand = played.hand
    assert [format_card(c) for c in hand.board] == ["QD", "QS", "4H", "TS", "7S"]
    assert [format_card(c) for c in hand.board2] == ["6S", "8H", "6H", "TD", "6C"]
    assert hand.raked == 280 and [a.run for a in hand.awards] == [1, 2]
    finals = {record.players[s]: played.final_stacks[s] for s in hand.players}
    # $433.06 - $80 + 2 x $40.30; $156.39 - $80 + 2 x $40.30; the big blind's $4 gone.
    assert finals["Gamz11"] == 43366 and finals["Garnerus"] == 15699
    assert finals["bobloblaw87"] == 9894 and finals["willybeer22"] == 38596
    # Through the game itself (a stored game replays so), then out and back in.
    state = GAME.new(GAME.parse_config(options), record.seed)
    for seat, action in record.actions:
        state, _ = GAME.act(state, seat, action)
    assert GAME.result(state) is not None and state.stacks == played.final_stacks
    written = STARS.write([record])
    assert "*** SECOND RIVER *** [6s 8h 6h Td] [6c]" in written
    # As the site writes it (the file above): a whole amount without its cents.
    assert "Total pot $164 | Rake $2.80" in written and "Hand was run twice" in written
    # Each run's outcome in the summary, as the site writes it (the file's lines).
    for line in text.splitlines():
        if " showed [" in line:
            assert line in written.splitlines(), line
    (again,) = read_stars(written)
    assert (again.options, again.actions) == (record.options, record.actions)
    phh = PHH.write([record])
    assert '_board2 = "6s8h6hTd6c"' in phh
    (back,) = read_phh(phh)
    assert back.options == record.options and back.actions == record.actions


def test_a_run_twice_hand_of_another_game_is_refused_by_name():
    text = (DATA / "stars_run_twice.txt").read_text().replace(
        "Hold'em No Limit ($2/$4", "Omaha Pot Limit ($2/$4")
    with pytest.raises(StarsError, match="only no-limit hold'em"):
        read_stars(text)


def random_hand(seed: int, options: dict[str, object]) -> tuple[object, object]:
    """A finished one-hand game of random play under ``options``."""
    rng = Rng(seed)
    config = GAME.parse_config({"seats": 2 + rng.below(5), "hands": 1,
                                "starting_stack": 20 + rng.below(120), **options})
    state = GAME.new(config, seed)
    while GAME.to_act(state):
        seat = GAME.to_act(state)[0]
        legal = [a for a in GAME.legal(state, seat) if a["type"] != "sit_out"]
        # All-ins often, so boards are run out (and run twice).
        allin = [a for a in legal if a["type"] in ("raise", "bet", "call")]
        state, _ = GAME.act(state, seat, rng.choice(allin if allin and rng.below(2) else legal))
    return state, config


def test_the_table_runs_the_board_twice_and_conserves_every_chip():
    twice = 0
    for seed in range(200):
        state, config = random_hand(seed, {"run_twice": True, "rake_percent": 5})
        hand = state.hand
        assert sum(state.stacks) + hand.raked == sum(config.stacks or
                                                     [config.starting_stack] * config.seats)
        if hand.board2:
            twice += 1
            common = next(i for i, (a, b) in enumerate(zip(hand.board, hand.board2,
                                                            strict=True)) if a != b)
            assert set(hand.board[common:]).isdisjoint(hand.board2[common:])
            assert {a.run for a in hand.awards} == {1, 2}
            by_run = [sum(a.amount for a in hand.awards if a.run == r) for r in (1, 2)]
            assert 0 <= by_run[0] - by_run[1] <= len(hand.awards)  # halves, odd chips to run 1
    assert twice > 20


def test_rake_and_run_twice_tables_conform():
    check_game(GAME, GAME.parse_config({"seats": 3, "hands": 3, "run_twice": True,
                                        "rake_percent": 5, "rake_cap": 4}), range(30))
    check_game(GAME, GAME.parse_config({"seats": 2, "hands": 1, "cap": 30}), range(30))


def test_table_rake_matches_pokerkit():
    """Our table's rake (rake_percent, rake_cap, no_flop_no_drop) against pokerkit's
    rake function over the same hands: the hand exported to PHH, replayed by pokerkit
    with the same rake, ends with the same stacks.  Percentages that are exact in
    binary, so pokerkit's float product rounds as our exact one does.  Hands that
    end in a showdown only: when everyone else folds pokerkit hands the winner's
    bet of the last round back before it rakes (docs/decisions.md, on the rake)."""
    warnings.simplefilter("ignore")
    raked = 0
    for seed in range(400):
        rng = Rng(seed)
        percent = rng.choice([6.25, 12.5, 25.0, 3.125])
        cap = rng.choice([None, 1, 3, 10])
        nfnd = rng.below(2) == 1
        options = {"rake_percent": percent, "rake_cap": cap, "no_flop_no_drop": nfnd}
        state, config = random_hand(seed, options)
        if len(state.hand.live) < 2:
            continue
        text = to_phh(state.hand, config)
        rake = partial(pokerkit.utilities.rake, percentage=percent / 100,
                       cap=float("inf") if cap is None else cap, no_flop_no_drop=nfnd)
        history = pokerkit.HandHistory.loads(text, rake=rake)
        final = list(history)[-1]
        assert list(final.stacks) == [state.stacks[s] for s in state.hand.players], text
        raked += state.hand.raked > 0
    assert raked > 100


def _pk(cards: list[int]) -> str:
    return "".join(format_card(c)[0] + format_card(c)[1].lower() for c in cards)


def test_pokerkit_raked_hands_read_to_pokerkits_stacks():
    """PHH has no rake field; a hand pokerkit played with a rake shows it in its
    finishing stacks, and our import finds the rake that gives exactly those."""
    warnings.simplefilter("ignore")
    a = pokerkit.Automation
    automations = (a.ANTE_POSTING, a.BET_COLLECTION, a.BLIND_OR_STRADDLE_POSTING,
                   a.CARD_BURNING, a.HOLE_CARDS_SHOWING_OR_MUCKING, a.HAND_KILLING,
                   a.CHIPS_PUSHING, a.CHIPS_PULLING)
    raked = 0
    for seed in range(150):
        rng = Rng(seed)
        n = 2 + rng.below(6)
        stacks = tuple(10 + rng.below(300) for _ in range(n))
        rake = partial(pokerkit.utilities.rake, percentage=rng.choice([0.0625, 0.125]),
                       cap=rng.choice([2, 5, float("inf")]))
        game = pokerkit.NoLimitTexasHoldem(automations, False, 0, (1, 2), 2, rake=rake)
        state = game(stacks, n)
        cards = rng.shuffled(deck())
        for i in range(n):
            state.deal_hole(_pk(cards[2 * i : 2 * i + 2]))
        board, dealt = cards[2 * n : 2 * n + 5], 0
        while state.status:
            if state.can_deal_board():
                k = 3 if dealt == 0 else 1
                state.deal_board(_pk(board[dealt : dealt + k]))
                dealt += k
            elif state.actor_index is not None:
                choice = rng.below(4)
                if choice == 0 and state.can_fold() and state.checking_or_calling_amount:
                    state.fold()
                elif choice == 1 and state.can_complete_bet_or_raise_to():
                    lo = state.min_completion_betting_or_raising_to_amount
                    hi = state.max_completion_betting_or_raising_to_amount
                    state.complete_bet_or_raise_to(lo + rng.below(hi - lo + 1))
                else:
                    state.check_or_call()
            else:
                break
        text = pokerkit.HandHistory.from_game_state(
            game, state, finishing_stacks=list(state.stacks)).dumps()
        hand = from_phh(text)
        assert list(hand.final_stacks) == list(state.stacks), text
        raked += sum(state.stacks) < sum(stacks)
    assert raked > 50


def test_the_runs_and_the_rake_are_told_in_words():
    (record,) = read_stars((DATA / "stars_run_twice.txt").read_text())
    state = GAME.new(GAME.parse_config(record.options), record.seed)
    names = list(record.players)
    lines = []
    for seat, action in record.actions:
        state, events = GAME.act(state, seat, action)
        view = GAME.view(state, -1)
        lines += [GAME.presentation.narrate(view, e.to_json(), -1, names) for e in events]
    assert "Second run, flop: 6♠ 8♥ 6♥" in lines, lines
    assert "The house takes 2.80 rake" in lines, lines
    assert "Gamz11 wins 40.30; Garnerus wins 40.30 (second run)" in lines, lines
    view = GAME.view(state, -1)
    assert view["board2"] == ["6S", "8H", "6H", "TD", "6C"] and view["rake"] == 280


@pytest.mark.parametrize("fmt", [PHH, STARS])
def test_raked_run_twice_and_cap_hands_played_here_export_and_read_back(fmt: object):
    """A hand of a table with a rake, two runs or a cap, written in either format and
    read back, replays to the same stacks (PHH finds the rake from the stacks, the
    PokerStars text says it).  The tables split odd chips as imports do (the files
    do not say how: docs/decisions.md, on imported hands' odd chips)."""
    from engine.formats import GameRecord

    raked = twice = 0
    for seed in range(30):
        rng = Rng(seed)
        options = {"rake_percent": rng.choice([0, 5, 7.5]), "rake_cap": rng.choice([None, 3]),
                   "run_twice": rng.below(2) == 1, "cap": rng.choice([None, 40])}
        config = GAME.parse_config({"seats": 2 + rng.below(5), "hands": 1, **options,
                                    "starting_stack": 20 + rng.below(120),
                                    "odd_chip": "first_winner"})
        state, log = GAME.new(config, seed), []
        while GAME.to_act(state):
            seat = GAME.to_act(state)[0]
            legal = [a for a in GAME.legal(state, seat) if a["type"] != "sit_out"]
            allin = [a for a in legal if a["type"] in ("raise", "bet", "call")]
            move = GAME.validate(state, seat, rng.choice(allin if allin and rng.below(2)
                                                         else legal))
            state, _ = GAME.apply(state, seat, move)
            log.append((seat, dict(move.action)))
        record = GameRecord("poker", GAME.config_json(config), seed, tuple(log), (), "", {})
        (back,) = fmt.read(fmt.write([record]))  # type: ignore[attr-defined]
        played = play_record(back)
        hand = state.hand
        assert [played.final_stacks[s] for s in played.hand.players] == [
            state.stacks[s] for s in hand.players]
        raked += hand.raked > 0
        twice += bool(hand.board2)
    assert raked > 10 and twice > 3


def test_published_phh_hands_with_winnings_after_rake():
    """tests/rules/poker/data/handhq_abs_100nl.phhs holds hands [1], [3] and [9] of the
    published PHH dataset (uoftcprg/phh-dataset, data/handhq/ABS-2009-07-01_2009-07-23_
    100NLH_OBFU/1/abs NLH handhq_1-OBFUSCATED.phhs: Absolute Poker, $0.50/$1).  They
    have no finishing stacks; their ``winnings`` are after the rake, as the PHH
    specification has them, and the reader finds the rake from those."""
    records = read_phh((DATA / "handhq_abs_100nl.phhs").read_text())
    played = [play_record(r) for r in records]
    # [1]: no flop, no rake: the raiser collects $2 (the big blind's $1 and its own).
    assert "hand_rake" not in records[0].options and played[0].hand.raked == 0
    # [3]: a $17 pot, $15.65 collected: $1.35 raked.  [9]: $15 with the antes, $13.75.
    assert [records[1].options["hand_rake"], records[2].options["hand_rake"]] == [135, 125]
    for record, hand in zip(records, played, strict=True):
        paid = [sum(c for a in hand.hand.awards for s, c in a.shares if s == seat)
                for seat in hand.hand.players]
        assert file_stacks(record.tags["winnings"], 2) == paid  # cents
    again = read_phh(PHH.write(records))
    assert [r.options for r in again] == [r.options for r in records]
