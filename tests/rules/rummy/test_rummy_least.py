"""The least-deadwood core (rules/rummy/least.py) against the general search.

The compiled core and the general search (``best``) must agree on every hand; the
rule sets cover each ace rule and set size, and the game's legal knocks must not
depend on which path answered.
"""

from __future__ import annotations

import random

import pytest

from rules.rummy import PRESETS, AceRule, MeldRules, RummyGame, best, deadwood, least
from rules.rummy.least import deadwood_after_discards, meld_masks, min_deadwood

GIN = PRESETS["gin"]
RULE_SETS = [
    GIN,
    GIN.replace(ace="low_or_high"),
    GIN.replace(ace="wrap", set_min=3, set_max=3),
    GIN.replace(run_min=4, set_max=3),
]


def test_core_is_built() -> None:
    # The project builds it (setup.py); a missing core would silently slow gin.
    assert least._CORE is not None


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda r: f"{r.ace}-{r.run_min}-{r.set_max}")
def test_core_matches_the_general_search(rules: MeldRules) -> None:
    rng = random.Random(11)
    for i in range(600):
        hand = rng.sample(range(52), 10 + i % 3)
        assert min_deadwood(hand, rules) == deadwood(best(hand, rules).leftover, rules), hand


def test_deadwood_after_each_discard() -> None:
    rng = random.Random(12)
    for _ in range(200):
        hand = rng.sample(range(52), 11)
        after = deadwood_after_discards(hand, GIN)
        assert after is not None and sorted(after) == sorted(hand)
        for f, dw in after.items():
            rest = [c for c in hand if c != f]
            assert dw == deadwood(best(rest, GIN).leftover, GIN)


def test_meld_masks_follow_the_ace_rule() -> None:
    ace, deuce, three, king = 12, 0, 1, 11
    a23 = 1 << ace | 1 << deuce | 1 << three
    qka = 1 << 10 | 1 << king | 1 << ace
    assert a23 in meld_masks(GIN) and qka not in meld_masks(GIN)
    high = meld_masks(GIN.replace(ace="low_or_high"))
    assert a23 in high and qka in high
    assert (1 << king | 1 << ace | 1 << deuce) in meld_masks(GIN.replace(ace=AceRule.WRAP.value))


def test_hands_the_core_does_not_take_go_to_the_search() -> None:
    # A repeated face (two decks) or a joker: the general search answers.
    table = least._table(GIN)
    for hand in ([0, 54, 1, 2, 13, 26, 39], [0, 1, 2, 52], [0, 1, -2, 3]):
        assert least._CORE.deadwood(table, hand) is None
        assert least._CORE.discards(table, hand) is None
        if min(hand) >= 0:
            assert min_deadwood(hand, GIN) == deadwood(best(hand, GIN).leftover, GIN)
    # The core takes a tuple or a list of ids of any deck copy.
    assert least._CORE.deadwood(table, (0, 1, 2, 3 + 54)) == 0


def test_legal_knocks_do_not_depend_on_the_core(monkeypatch: pytest.MonkeyPatch) -> None:
    game = RummyGame()
    config = game.parse_config({"variant": "gin", "target": 0})
    rng = random.Random(5)
    states = []
    for seed in range(12):
        state = game.new(config, seed)
        while game.to_act(state) and len(states) < 40 * (seed + 1):
            seat = game.to_act(state)[0]
            states.append((state, seat))
            state, _ = game.act(state, seat, rng.choice(game.legal(state, seat)))
    with_core = [game.legal(s, seat) for s, seat in states]
    assert any(a["type"] == "knock" for legal in with_core for a in legal)
    monkeypatch.setattr(least, "_CORE", None)
    monkeypatch.setattr(least, "_TABLES", {})
    least._table_for.cache_clear()
    try:
        assert [game.legal(s, seat) for s, seat in states] == with_core
    finally:
        least._table_for.cache_clear()
