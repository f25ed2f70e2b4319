"""Hand-made cases for the rummy combo generator, read from docs/rummy.md ("The
rules") and the islands article it names."""

from __future__ import annotations

import pytest

from engine.cards import parse_face
from engine.rng import Rng
from rules.rummy import (
    PRESETS,
    AceRule,
    Kind,
    MeldError,
    MeldRules,
    arrange_groups,
    best,
    combos,
    counted_points,
    deadwood,
    declaration_ok,
    lay_off,
    meld_ok,
    points_charged,
    read_meld,
    to_hand,
)
from rules.rummy.combos import arrangement_shapes
from rules.rummy.grid import rules_geometry
from rules.rummy.islands import _island_key, control_points, island_ranks, membership

from .rummy_brute import is_arrangement, is_maximal

GIN = PRESETS["gin"]
INDIAN = PRESETS["indian"]


def faces(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_face(t) for t in text.split()))


def melds_of(text: str, rules: MeldRules) -> list[list[str]]:
    return sorted(sorted(str(m) for m in a.melds) for a in combos(text, rules))


# --- hand model and islands -------------------------------------------------


def test_two_decks_keep_copies_apart() -> None:
    """Two copies of a face are two physical cards: spelled twice = copies 0 and 1."""
    hand = to_hand("AS AS 2S")
    assert sorted(hand.cards) == sorted([3 * 13 + 12, 54 + 3 * 13 + 12, 3 * 13])
    assert hand.counts[3 * 13 + 12] == 2
    with pytest.raises(ValueError):
        to_hand([5, 5, 7])


def test_islands_of_the_articles_hand_a() -> None:
    """Hand A of the article splits into three islands: 2-6, 9 and J-Q."""
    hand = to_hand("JC 3H 4H JD 3D 5H 9D 2H 6H 3C 4H 3D 4D 5H QD 3C")
    ranks = island_ranks(hand.counts[:52], rules_geometry(GIN))
    assert sorted(ranks) == [(0, 1, 2, 3, 4), (7,), (9, 10)]


def test_all_cards_of_a_rank_connect_even_apart() -> None:
    """Every non-empty cell of one rank is linked: 7C and 7S with nothing between."""
    hand = to_hand("7C 7S 8S")
    assert island_ranks(hand.counts[:52], rules_geometry(GIN)) == [(5, 6)]


def test_three_of_hearts_is_the_articles_control_point() -> None:
    """"the 3 of heart is identified as a cpts" in 2H3H4H5H4H5H6H3C3C3D3D4D."""
    hand = to_hand("2H 3H 4H 5H 4H 5H 6H 3C 3C 3D 3D 4D")
    geom = rules_geometry(GIN)
    (ranks,) = island_ranks(hand.counts[:52], geom)
    cells = _island_key(hand.counts[:52], ranks)
    assert control_points(cells, geom) == [parse_face("3H")]
    bits = membership(cells, geom)
    assert bits[parse_face("3H")] == (1, 1)  # a run or a set, one copy
    assert bits[parse_face("4H")] == (2, 0)  # two copies, two runs: no choice to make


def test_articles_island_decomposes_into_its_three_combos() -> None:
    got = melds_of("2H 3H 4H 5H 4H 5H 6H 3C 3C 3D 3D 4D", GIN)
    assert got == sorted([
        ["run 2H 3H 4H 5H", "run 4H 5H 6H"],
        ["run 2H 3H 4H 5H 6H"],
        ["run 4H 5H 6H", "set 3C 3D 3H"],
    ])


def test_both_copies_can_sit_in_runs() -> None:
    """Two decks: 3H 4H 5H twice make two runs (membership bit "second run")."""
    got = melds_of("3H 4H 5H 3H 4H 5H 6H", GIN)
    assert ["run 3H 4H 5H", "run 3H 4H 5H 6H"] in got


def test_islands_combine_as_a_product() -> None:
    """Independent islands: 2 choices x 2 choices = 4 arrangements."""
    text = "3H 4H 5H 6H 7H 8H 5C 5D  TS JS QS KS AS 2S QC QD"
    left = len(combos("3H 4H 5H 6H 7H 8H 5C 5D", GIN))
    right = len(combos("TS JS QS KS AS 2S QC QD", GIN))
    assert len(combos(text, GIN)) == left * right


# --- melds ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "ace", "ok"),
    [
        ("AH 2H 3H", AceRule.LOW, True),
        ("QH KH AH", AceRule.LOW, False),
        ("QH KH AH", AceRule.LOW_OR_HIGH, True),
        ("KH AH 2H", AceRule.LOW_OR_HIGH, False),
        ("KH AH 2H", AceRule.WRAP, True),
        ("2H 3H 5H", AceRule.LOW, False),
        ("2H 3H 4S", AceRule.LOW, False),
    ],
)
def test_run_ace_rule(cards: str, ace: AceRule, ok: bool) -> None:
    """A run is 3+ consecutive ranks of one suit; the ace is low only, low or high, or wraps."""
    rules = GIN.replace(ace=ace)
    assert meld_ok(Kind.RUN, faces(cards), 0, rules) is ok


def test_sets_need_distinct_suits() -> None:
    """Two identical cards never share a set; one rank may make two separate sets."""
    assert not combos("7H 7H 7S", GIN)[0].melds
    got = melds_of("7H 7H 7S 7S 7D 7D", GIN)
    assert got == [["set 7D 7H 7S", "set 7D 7H 7S"]]
    assert meld_ok(Kind.SET, faces("7C 7D 7H 7S"), 0, GIN)
    assert not meld_ok(Kind.SET, faces("7C 7D"), 0, GIN)


def test_run_minimum_is_an_option() -> None:
    rules = GIN.replace(run_min=4)
    assert not meld_ok(Kind.RUN, faces("2H 3H 4H"), 0, rules)
    assert meld_ok(Kind.RUN, faces("2H 3H 4H 5H"), 0, rules)


def test_printed_joker_fills_a_gap_and_max_jokers_per_meld() -> None:
    rules = INDIAN
    assert meld_ok(Kind.RUN, faces("5H 7H"), 1, rules)
    assert meld_ok(Kind.RUN, faces("5H"), 2, rules)
    assert not meld_ok(Kind.RUN, faces("5H"), 2, rules.replace(max_jokers_per_meld=1))
    assert not meld_ok(Kind.SET, faces("5H 5S"), 1, rules.replace(jokers_in_sets=False))
    assert not meld_ok(Kind.RUN, (), 3, rules)  # a meld holds a natural card


def test_a_copy_with_a_wild_rank_does_not_keep_stale_cached_values() -> None:
    base = MeldRules.gin()
    assert base.face_points[5] == 7 and not base.meld_spec[4]  # cached on the original
    wild = base.with_wild(5)  # sevens are wild: they turn jokers on and cost what a joker does
    assert wild.face_points[5] == wild.joker_points
    assert wild.meld_spec[4]


def test_wild_card_in_its_natural_place_keeps_a_run_pure() -> None:
    """A wild card standing as itself in a run keeps the run pure."""
    rules = INDIAN.with_wild(5)  # sevens are wild
    # the only pure run is 5H 6H 7H, with the wild 7H as itself
    got = best("5H 6H 7H 9C 9D 9S 2S 3S SJ KC KD KS KH", rules)
    runs = [m for m in got.melds if m.kind is Kind.RUN]
    assert any(m.pure and parse_face("7H") in m.naturals for m in runs)
    assert declaration_ok(got, rules)


# --- objectives -------------------------------------------------------------


def test_indian_declaration_needs_two_runs_one_pure() -> None:
    """Indian: declare with all 13 cards in melds, at least 2 runs, at least 1 pure."""
    ok = best("2H 3H 4H 7S 8S SJ 5C 5D 5H KC KD KH AH", INDIAN)
    assert declaration_ok(ok, INDIAN) and counted_points(ok, INDIAN) == 0
    no_pure = best("2H 4H SJ 7S 9S BJ 5C 5D 5H KC KD KH AC", INDIAN)
    assert not declaration_ok(no_pure, INDIAN)


def test_fourteen_cards_declare_with_one_card_to_discard() -> None:
    """Indian, 14 cards after drawing: one card (the discard) may stay out."""
    got = best("2H 3H 4H 7S 8S 9S 5C 5D 5H KC KD KH KS 9C", INDIAN)
    assert declaration_ok(got, INDIAN) and len(got.leftover) == 1


def test_indian_points_and_cap() -> None:
    """Indian points: A, K, Q, J 10, other cards their face value, jokers 0; at most
    80; every card counts for a player without the required runs."""
    without_runs = best("2C 9D 4H KS KD KH QC JS AD 5S 7C 8H SJ", INDIAN)
    assert counted_points(without_runs, INDIAN) == 2 + 9 + 4 + 30 + 10 + 10 + 10 + 5 + 7 + 8
    assert points_charged(without_runs, INDIAN) == 80
    with_runs = best("2H 3H 4H 7S 8S 9S KC QC 5D 9C 9D JH TD", INDIAN)
    assert counted_points(with_runs, INDIAN) == deadwood(with_runs.leftover, INDIAN)


def test_gin_deadwood_values() -> None:
    """Gin: "A=1, faces 10", least deadwood wins."""
    got = best("AH 2H 3H KS KD KC 9C 5D AS QH", GIN)
    assert deadwood(got.leftover, GIN) == 9 + 5 + 1 + 10


def test_gin_prefers_least_deadwood_over_most_melds() -> None:
    # 7H joins the run (7 8 9 10 of hearts) or the set of sevens; the set keeps
    # 6H out, the run keeps nothing out
    got = best("6H 7H 8H 9H 7S 7D", GIN)
    assert deadwood(got.leftover, GIN) == 7 + 7


def test_hands_as_ids_or_strings_agree() -> None:
    text = "2H 3H 4H 4H 5H 6H 3C 3D"
    hand = to_hand(text)
    assert {a.key for a in combos(text, GIN)} == {a.key for a in combos(list(hand.cards), GIN)}
    chosen = best(list(hand.cards), GIN)
    used = sorted([c for m in chosen.melds for c in m.cards] + list(chosen.leftover))
    assert used == sorted(hand.cards)


# --- every combo is a real, maximal arrangement --------------------------------


@pytest.mark.parametrize("preset", ["indian", "gin"])
def test_every_combo_is_a_maximal_arrangement_of_the_hand(preset: str) -> None:
    rng = Rng(99)
    rules = PRESETS[preset]
    shoe = [c * 54 + f for c in range(2) for f in range(52)] + [52, 53]
    if preset == "gin":
        rules = rules.replace(printed_jokers=True)
    for i in range(300):
        wild = rules.with_wild(rng.below(13)) if preset == "indian" and i % 2 else rules
        hand = to_hand(rng.shuffled(shoe)[: 13 + i % 2])
        found = arrangement_shapes(hand.counts, wild)
        assert found
        for arrangement in found:
            assert is_arrangement(arrangement, hand.counts, wild), arrangement
            assert is_maximal(arrangement, wild), arrangement
        ids = combos(hand, wild)
        assert {a.key for a in ids} == found


# --- reading declared groups (what the Game validates) -----------------------


def ids(text: str) -> list[int]:
    return list(to_hand(text).cards)


def test_read_meld_prefers_a_pure_reading_of_a_wild_card() -> None:
    """A wild card as itself keeps a run pure: 5H 6H 7H with sevens wild."""
    rules = INDIAN.with_wild(5)
    meld = read_meld(ids("5H 6H 7H"), rules)
    assert meld is not None and meld.kind is Kind.RUN and meld.pure
    gap = read_meld(ids("5H 7S 7H"), rules)  # 7S stands in for 6H
    assert gap is not None and gap.kind is Kind.RUN and gap.jokers == 1 and not gap.pure
    assert read_meld(ids("5H 9S 2C"), rules) is None


def test_read_meld_rejects_printed_jokers_where_there_are_none() -> None:
    assert read_meld(ids("5H 6H SJ"), GIN) is None
    assert read_meld(ids("5H 6H SJ"), INDIAN) is not None


def test_arrange_groups_checks_ownership_and_melds() -> None:
    hand = ids("2H 3H 4H 7S 8S SJ 5C 5D 5H KC KD KH AH")
    run = ids("2H 3H 4H")  # copy 0 of each, as in the hand
    got = arrange_groups(hand, [run], INDIAN)
    assert len(got.leftover) == 10 and got.melds[0].kind is Kind.RUN
    with pytest.raises(MeldError) as bad:
        arrange_groups(hand, [run[:2]], INDIAN)
    assert bad.value.code == "not_a_meld"
    with pytest.raises(MeldError) as twice:
        arrange_groups(hand, [run, run], INDIAN)
    assert twice.value.code == "card_twice"
    with pytest.raises(MeldError) as stranger:
        arrange_groups(hand, [[*run[:2], 54 + run[2]]], INDIAN)  # the other deck's 4H
    assert stranger.value.code == "not_your_card"


def test_declared_groups_reach_a_valid_declaration() -> None:
    text = "2H 3H 4H 7S 8S SJ 5C 5D 5H KC KD KH AH"
    hand = ids(text)
    chosen = best(hand, INDIAN)
    again = arrange_groups(hand, [m.cards for m in chosen.melds], INDIAN)
    assert declaration_ok(again, INDIAN)


def test_gin_lay_off_extends_runs_and_sets() -> None:
    """Gin: "defender lays off" cards on the knocker's melds."""
    run = read_meld(ids("5H 6H 7H"), GIN)
    assert run is not None
    assert lay_off(run, ids("8H")[0], GIN) is not None
    assert lay_off(run, ids("9H")[0], GIN) is None
    three = read_meld(ids("9C 9D 9H"), GIN)
    assert three is not None
    four = lay_off(three, ids("9S")[0], GIN)
    assert four is not None and len(four.cards) == 4
