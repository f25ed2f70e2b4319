"""Tracker statistics (docs/poker.md, "Tracker statistics"), on two hands whose
values are worked out by hand below from the definitions trackers use
(PokerTracker 4's and Hold'em Manager's glossaries: VPIP, PFR, 3-bet, aggression
factor, WTSD, W$SD, bb/100)."""

from __future__ import annotations

from rules.poker.game import PokerGame
from rules.poker.phh import read_phh

HEAD = """\
variant = 'NT'
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
players = ['Ann', 'Bob', 'Cid']
"""
# Cid opens, Ann 3-bets, Bob folds, Cid calls; Ann bets the flop (Cid calls), both
# check the turn, Cid bets the river and Ann calls: Ann's aces win 138.
HAND_A = HEAD + """actions = [
  'd dh p1 AhAd', 'd dh p2 ????', 'd dh p3 KhKd',
  'p3 cbr 6', 'p1 cbr 18', 'p2 f', 'p3 cc',
  'd db 2c7d9s', 'p1 cbr 20', 'p3 cc',
  'd db 3h', 'p1 cc', 'p3 cc',
  'd db Qc', 'p1 cc', 'p3 cbr 30', 'p1 cc',
  'p3 sm KhKd', 'p1 sm AhAd',
]
"""
# Cid folds, Ann completes, Bob checks; Bob bets the flop and Ann folds.
HAND_B = HEAD + """actions = [
  'd dh p1 ????', 'd dh p2 ????', 'd dh p3 ????',
  'p3 f', 'p1 cc', 'p2 cc',
  'd db 5c6d8h', 'p1 cc', 'p2 cbr 4', 'p1 f',
]
"""


def test_statistics_worked_out_by_hand():
    records = read_phh(HAND_A) + read_phh(HAND_B)
    table = PokerGame().statistics(records)
    names = [c.name for c in table.columns]
    assert names == ["Hands", "VPIP", "PFR", "3-bet", "AF", "WTSD", "W$SD", "bb/100"]
    # Ann: in with a raise and a call (VPIP 2/2), raised once (PFR 1/2), re-raised
    # the one open raise she faced (3-bet 1/1); after the flop one bet and one call
    # (AF 1); saw both flops, one showdown (WTSD 1/2), won it (W$SD 1/1); +70 and -2
    # chips = 34 big blinds in 2 hands.
    assert table.row("Ann") == {
        "Hands": 2, "VPIP": 100.0, "PFR": 50.0, "3-bet": 100.0, "AF": 1.0,
        "WTSD": 50.0, "W$SD": 100.0, "bb/100": 1700.0,
    }
    # Bob: never in voluntarily (a fold, a check in the big blind); faced two raises,
    # then none: no 3-bet chance; one bet and no call after the flop: no AF; saw
    # one flop without a showdown; -2 then +2 chips.
    assert table.row("Bob") == {
        "Hands": 2, "VPIP": 0.0, "PFR": 0.0, "3-bet": None, "AF": None,
        "WTSD": 0.0, "W$SD": None, "bb/100": 0.0,
    }
    # Cid: opened once (an opener facing a 3-bet has no 3-bet chance), folded once;
    # a call and a bet after the flop; lost his one showdown: -68 chips.
    assert table.row("Cid") == {
        "Hands": 2, "VPIP": 50.0, "PFR": 50.0, "3-bet": None, "AF": 1.0,
        "WTSD": 100.0, "W$SD": 0.0, "bb/100": -1700.0,
    }


def test_statistics_of_one_player_and_of_unnamed_seats():
    from rules.poker.stats import statistics

    records = read_phh(HAND_A) + read_phh(HAND_B)
    assert list(statistics(records, "Bob").rows) == ["Bob"]
    unnamed = read_phh(HAND_A.replace("players = ['Ann', 'Bob', 'Cid']\n", ""))
    assert statistics(unnamed).rows == {}
