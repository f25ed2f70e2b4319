"""The one card encoding and its parser (docs/architecture.md, "Cards")."""

import pytest

from engine.cards import (
    BIG_JOKER,
    SMALL_JOKER,
    CardParseError,
    card_id,
    card_ids,
    copy_of,
    deck,
    face_of,
    format_card,
    format_face,
    parse_face,
    parse_faces,
    pretty,
)


@pytest.mark.parametrize("spelling", ["AS", "As", "as", "A♠", "a♠", " AS "])
def test_ace_of_spades_spellings(spelling):
    assert format_face(parse_face(spelling)) == "AS"


@pytest.mark.parametrize(
    "spelling,canonical", [("10S", "TS"), ("TS", "TS"), ("10♥", "TH"), ("td", "TD")]
)
def test_ten_spellings(spelling, canonical):
    assert format_face(parse_face(spelling)) == canonical


def test_jokers():
    assert parse_face("BJ") == BIG_JOKER
    assert parse_face("SJ") == SMALL_JOKER
    assert parse_face("sj") == SMALL_JOKER
    assert format_face(BIG_JOKER) == "BJ"


@pytest.mark.parametrize("bad", ["", "A", "1S", "11S", "AX", "ZS", "S", "♠A", "JJ"])
def test_bad_spellings_raise_with_a_code(bad):
    with pytest.raises(CardParseError) as err:
        parse_face(bad)
    assert err.value.code == "bad_card"


def test_every_face_round_trips():
    for f in range(54):
        assert parse_face(format_face(f)) == f


def test_two_decks_keep_duplicates_distinct():
    two = deck(copies=2, jokers=True)
    assert len(two) == len(set(two)) == 108
    a, b = card_id(parse_face("AS"), 0), card_id(parse_face("AS"), 1)
    assert a != b and face_of(a) == face_of(b) and {copy_of(a), copy_of(b)} == {0, 1}
    assert format_card(a) == format_card(b) == "AS"


def test_repeated_spellings_name_the_next_copy():
    ace = parse_face("AS")
    assert card_ids("AS KD AS") == [card_id(ace), card_id(parse_face("KD")), card_id(ace, 1)]
    assert card_ids(["SJ", "SJ", "SJ"]) == [card_id(SMALL_JOKER, c) for c in range(3)]
    with pytest.raises(CardParseError):
        card_ids("AS ZZ")


def test_single_deck_has_no_jokers_by_default():
    assert sorted(deck()) == list(range(52))


def test_parse_many_and_pretty():
    assert [format_face(f) for f in parse_faces("AS, 10h kd")] == ["AS", "TH", "KD"]
    assert pretty(parse_face("TH")) == "10♥"
    assert pretty(BIG_JOKER) == "BJ"
