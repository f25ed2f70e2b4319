"""Tractor bots: the heuristic's habits on set positions, and that it beats random-legal."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bench.tractor_bots import play_match
from bots.base import bot_names, default_bot, make_bot
from bots.tractor.heuristic import TractorHeuristicBot
from engine.cards import FACES_PER_DECK, format_card
from rules.tractor.order import Trump, tables
from rules.tractor.scoring import card_points
from rules.tractor.state import Phase, TractorState, team
from tests.rules.tractor.test_tractor_game import GAME, act, config, drawing, playing
from tests.rules.tractor.tractor_cases import ids

BOT = TractorHeuristicBot()


def decide(state: TractorState, seat: int) -> dict[str, Any]:
    action = BOT.decide(GAME.view(state, seat), GAME.legal(state, seat), seat, 1, 1.0)
    GAME.validate(state, seat, action)  # whatever it picks is legal
    return dict(action)


def test_registered_heuristic_first_then_random() -> None:
    assert bot_names("tractor") == ["heuristic", "montecarlo", "random"]
    assert default_bot("tractor") == "heuristic"
    assert isinstance(make_bot("tractor", "heuristic"), TractorHeuristicBot)


def test_declares_when_the_hand_supports_it() -> None:
    long_hearts = "2H 3H 5H 7H 9H JH KH 4C"
    s = drawing([long_hearts, "3C", "4D", "5S"], "6C 6C 7C 7C 8C 8C 9C 9C TC TC")
    assert decide(s, 0) == {"type": "declare", "cards": ["2H"]}
    weak = drawing(["2H 3C 5C 7D 9S JS KD 4C", "3C", "4D", "5S"],
                   "6C 6C 7C 7C 8C 8C 9C 9C TC TC")
    assert decide(weak, 0) == {"type": "draw"}


def test_never_overrides_its_partner() -> None:
    stock = "6C 6C 7C 7C 8C 8C 9C 9C TC TC"
    long_spades = "2S 2S 3S 4S 5S 6S 7S 8S"
    s = drawing(["3C", long_spades, "2H", "4C"], stock)
    s, _ = act(s, 2, "declare", "2H")
    # seat 1 is an opponent of seat 2: it overrides with its long spades
    assert decide(s, 1) == {"type": "declare", "cards": ["2S", "2S"]}
    s = drawing([long_spades, "3C", "2H", "4C"], stock)
    s, _ = act(s, 2, "declare", "2H")
    assert decide(s, 0) == {"type": "draw"}  # seat 0 is seat 2's partner


def test_buries_low_side_singles_keeping_pairs_trumps_and_points() -> None:
    hand = ("3C 4C 6C 8C 9C 3D 4D 6D 7D 8D 9D 9D JD QD 3S 4S 6S 7S 8S JS QS 5S KS "
            "AC AD AS 2H 2H 3H 4H 6H 7H 8H")
    s = playing([hand, "", "", ""], landlord=0)
    s = replace(s, phase=Phase.BURY)
    action = decide(s, 0)
    t = tables(Trump(0, 2))
    buried = ids(" ".join(action["cards"]))
    assert len(buried) == 8
    assert not any(t.suit[c % FACES_PER_DECK] == 4 for c in buried)  # no trump
    assert not any(card_points(c) for c in buried)  # no points
    assert "9D" not in action["cards"] and not {"AC", "AD", "AS"} & set(action["cards"])


def test_leads_a_throw_only_when_it_is_safe() -> None:
    # AS AS KS: nobody can hold a higher single or pair in spades.
    s = playing(["AS AS KS 3D", "4D 5D 6D 7D", "8D 9D TD JD", "QD KD AD 3C"])
    assert sorted(decide(s, 0)["cards"]) == ["AS", "AS", "KS"]
    # KS QS QS: an unseen AS AS pair could beat the QS pair -- no throw.
    s = playing(["KS QS QS 3D", "4D 5D 6D 7D", "8D 9D TD JD", "QD KD AD 3C"])
    assert sorted(decide(s, 0)["cards"]) != ["KS", "QS", "QS"]


def test_feeds_points_to_a_partner_who_is_winning() -> None:
    s = playing(["3S 4D", "AS 5D", "4S 6D", "KD 7D"], leader=0)
    for seat, card in ((0, "3S"), (1, "AS"), (2, "4S")):
        s, _ = act(s, seat, "play", card)
    assert decide(s, 3) == {"type": "play", "cards": ["KD"]}  # 10 points to the partner


def test_trumps_in_only_when_the_trick_is_worth_it() -> None:
    worth = playing(["5S 4D", "4S 9D", "3H 6D", "KS 8D"], leader=3)
    for seat, card in ((3, "KS"), (0, "5S"), (1, "4S")):
        worth, _ = act(worth, seat, "play", card)
    assert decide(worth, 2) == {"type": "play", "cards": ["3H"]}  # 15 points: trump in
    poor = playing(["6S 4D", "4S 9D", "3H 7D", "QS 8D"], leader=3)
    for seat, card in ((3, "QS"), (0, "6S"), (1, "4S")):
        poor, _ = act(poor, seat, "play", card)
    assert decide(poor, 2) == {"type": "play", "cards": ["7D"]}  # no points: keep the trump


def test_heuristic_partnership_beats_random_legal() -> None:
    """A few rounds, partnerships swapped on the same seeds: the heuristic side
    gains clearly more levels (the full figure is bench/tractor_bots.py's)."""
    heuristic, rnd = make_bot("tractor", "heuristic"), make_bot("tractor", "random")
    net = 0
    rounds = 0
    for seed in (1, 2):
        for side in (0, 1):
            bots = [heuristic if team(s) == side else rnd for s in range(4)]
            played, _ = play_match(bots, config(), seed, max_rounds=3)
            for r in played:
                net += r.levels_up if r.team_up == side else -r.levels_up
                rounds += 1
    assert rounds == 12 and net >= 12, net


def test_bot_plays_only_cards_it_holds() -> None:
    s = playing(["3S 4D", "AS 5D", "4S 6D", "KS 7D"])
    action = decide(s, 0)
    assert set(action["cards"]) <= {format_card(c) for c in s.hands[0]}


def test_keeps_pairs_when_discarding() -> None:
    s = playing(["3S 4D 5D", "5S 6D 8D", "6S 9D TD", "7D 7D 9C"], leader=0)
    for seat, card in ((0, "3S"), (1, "5S"), (2, "6S")):
        s, _ = act(s, seat, "play", card)
    assert decide(s, 3) == {"type": "play", "cards": ["9C"]}  # void: the 7D pair stays
