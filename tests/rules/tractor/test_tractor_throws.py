"""Throws (docs/tractor.md, "Units, leads and throws"): validity against the other hands."""

from __future__ import annotations

from rules.tractor.options import ThrowFailureUnit
from rules.tractor.order import Trump
from rules.tractor.structure import Structure, check_lead
from rules.tractor.throws import resolve_throw
from tests.rules.tractor.tractor_cases import ids

CR2_HEARTS = Trump(0, 2)
CR2_DIAMONDS = Trump(0, 1)


def deal(
    lead: str, *others: str, trump: Trump = CR2_HEARTS
) -> tuple[Structure, list[tuple[int, ...]]]:
    taken: set[int] = set()
    lead_ids = ids(lead, taken)
    return check_lead(lead_ids, trump), [ids(o, taken) for o in others]


def test_a_single_unit_is_not_a_throw() -> None:
    lead, others = deal("KS KS", "AS AS")
    assert resolve_throw(lead, others, CR2_HEARTS).stands


def test_throw_stands_when_no_unit_can_be_beaten() -> None:
    """A throw stands unless another player (partner included) could beat one of
    its units with cards of the same effective suit; trumping does not count."""
    lead, others = deal("AS AS KS", "QS QS 3H 3H", "BJ BJ", "JS")
    assert resolve_throw(lead, others, CR2_HEARTS).stands


def test_a_higher_pair_beats_a_pair_unit() -> None:
    """A higher pair beats a pair unit -- the failed throw plays only that unit."""
    lead, others = deal("QS QS AS", "3D", "KS KS", "4C")
    out = resolve_throw(lead, others, CR2_HEARTS)
    assert not out.stands
    assert out.forced is not None and sorted(out.forced.cards) == sorted(ids("QS QS"))
    assert sorted(out.returned) == sorted(ids("AS", set(ids("QS QS"))))


def test_a_higher_single_beats_a_single_unit() -> None:
    lead, others = deal("AS AS KS", "3D", "3C", "AD")
    assert resolve_throw(lead, others, CR2_HEARTS).stands  # both aces are in the lead
    lead, others = deal("AS KS", "AS")
    assert not resolve_throw(lead, others, CR2_HEARTS).stands


def test_a_tractor_is_beaten_only_by_a_higher_tractor_of_the_same_length() -> None:
    """A tractor unit is beaten by a tractor of the same length that starts higher."""
    lead, others = deal("9S 9S 8S 8S AS", "TS TS QS QS")
    assert resolve_throw(lead, others, CR2_HEARTS).stands  # two pairs, not a tractor
    lead, others = deal("9S 9S 8S 8S AS", "TS TS JS JS")
    out = resolve_throw(lead, others, CR2_HEARTS)
    assert not out.stands and out.forced is not None and out.forced.pairs == 2


def test_equal_rank_cards_do_not_beat_a_throw_unit() -> None:
    """Equal-valued off-suit CR pairs are not higher than each other."""
    lead, others = deal("2C 2C BJ", "2H 2H", trump=CR2_DIAMONDS)
    assert resolve_throw(lead, others, CR2_DIAMONDS).stands
    lead, others = deal("2C 2C BJ", "2D 2D", trump=CR2_DIAMONDS)
    assert not resolve_throw(lead, others, CR2_DIAMONDS).stands


def test_failure_unit_option() -> None:
    """Option ``throw_failure_unit``: the first beatable unit found, or the smallest."""
    lead, others = deal("9S 9S 8S 8S KS QS", "TS TS JS JS AS")
    smallest = resolve_throw(lead, others, CR2_HEARTS, ThrowFailureUnit.SMALLEST)
    first = resolve_throw(lead, others, CR2_HEARTS, ThrowFailureUnit.FIRST_FOUND)
    assert len(smallest.beatable) == 3
    assert smallest.forced is not None and smallest.forced.cards == ids("QS", set(ids("KS")))
    assert first.forced is not None and first.forced.pairs == 2
    assert len(first.returned) == 2 and len(smallest.returned) == 5


def test_first_beater_lets_the_first_player_in_order_decide() -> None:
    """``first_beater`` (rbtying/shengji): the first player after the thrower who can
    beat a unit decides, and the throw is cut to the smallest unit it can beat."""
    # The next player beats only the tractor; a later one beats the single QS.
    lead, others = deal("9S 9S 8S 8S QS", "TS TS JS JS", "3D", "AS")
    out = resolve_throw(lead, others, CR2_HEARTS, ThrowFailureUnit.FIRST_BEATER)
    assert out.forced is not None and out.forced.pairs == 2
    smallest = resolve_throw(lead, others, CR2_HEARTS, ThrowFailureUnit.SMALLEST)
    assert smallest.forced is not None and len(smallest.forced.cards) == 1
    # Reversed seat order: the ace holder comes first and the single is forced.
    out = resolve_throw(lead, list(reversed(others)), CR2_HEARTS, ThrowFailureUnit.FIRST_BEATER)
    assert out.forced is not None and len(out.forced.cards) == 1
