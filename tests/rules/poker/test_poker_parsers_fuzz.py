"""Hypothesis fuzzing of every poker file reader: whatever the text, a reader
returns records or raises its format's own error (PhhError, StarsError: both
FormatError), never anything else, and its message shows the file's values as
people write them (``1.5``, ``inf``), never a Python repr (``Decimal('1.5')``)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.formats import FormatError
from rules.poker.amounts import AmountError, parse_amount
from rules.poker.phh import PhhError, read_phh
from rules.poker.stars import StarsError, read_stars
from tests.rules.poker.test_poker_phh_files import BB_ANTE, CENTS, DWAN_IVEY

DATA = Path(__file__).parent / "data"
STARS_FILES = [(DATA / n).read_text() for n in ("stars_cash.txt", "stars_tournament.txt")]
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Pieces real files are made of, so mutations reach deep into the readers.
PHH_WORDS = ["p1", "p2", "p9", "d", "dh", "db", "cbr", "cc", "f", "sm", "????", "AsKd", "Ac??",
             "1.5", "0.001", "-3", "1e9", "inf", "nan", "[", "]", "'", '"', "=", ",",
             "\n", "#", "[1]", "variant", "antes", "true"]
STARS_WORDS = ["$", "€", "0.05", "1,500", "-2", "raises", "to", "calls", "bets", "folds",
               "checks", "and is all-in", "posts small blind", "posts the ante",
               "posts small & big blinds", "*** FLOP ***", "[Ah Kd]", "[Ah]", "collected",
               "from side pot", "Seat 1:", "Seat #9 is the button", "(1500 in chips)",
               "Uncalled bet", ": ", "\n", "PokerStars Hand #1: Hold'em No Limit (1/2)"]


REPRS = ("Decimal(", "datetime.", "Infinity", "NaN")


def refused(reader: Callable[[str], object], error: type[FormatError], text: str) -> None:
    """``reader(text)`` reads or raises ``error`` whose message has no Python repr
    (a message may quote the file, so a fragment the file itself holds is its own)."""
    try:
        reader(text)
    except error as exc:
        assert not any(r in str(exc) and r not in text for r in REPRS), str(exc)


def mutated(texts: list[str], words: list[str]) -> st.SearchStrategy[str]:
    """A real file with a few spans replaced by pieces of the format or noise."""

    @st.composite
    def build(draw: st.DrawFn) -> str:
        text = draw(st.sampled_from(texts))
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(text)))
            cut = draw(st.integers(0, 12))
            piece = draw(st.one_of(st.sampled_from(words), st.text(max_size=6)))
            text = text[:at] + piece + text[at + cut :]
        return text

    return build()


@FUZZ
@given(st.one_of(st.text(max_size=300), mutated([CENTS, BB_ANTE, DWAN_IVEY], PHH_WORDS)))
def test_phh_reader_raises_only_phh_errors(text: str):
    refused(read_phh, PhhError, text)


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(["variant", "antes", "blinds_or_straddles", "min_bet", "starting_stacks",
                         "actions", "ante_trimming_status", "players", "finishing_stacks"]),
        st.recursive(
            st.one_of(st.integers(-5, 10**20), st.booleans(), st.text(max_size=8),
                      st.decimals(allow_nan=True, allow_infinity=True, places=3)),
            lambda inner: st.lists(inner, max_size=6),
            max_leaves=12,
        ),
    )
)
def test_phh_reader_takes_any_field_values(fields: dict[str, object]):
    lines = [f"{k} = {_toml(v)}" for k, v in fields.items()]
    refused(read_phh, PhhError, "\n".join(lines))


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return repr(value).replace("\\", "\\\\") if "'" not in value else '"x"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    text = str(value)
    return {"NaN": "nan", "sNaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}.get(text, text)


@FUZZ
@given(st.one_of(st.text(max_size=300), mutated(STARS_FILES, STARS_WORDS)))
def test_stars_reader_raises_only_stars_errors(text: str):
    refused(read_stars, StarsError, text)


@FUZZ
@given(st.text(max_size=20))
def test_amounts_parse_or_raise_amount_errors(text: str):
    with contextlib.suppress(AmountError):
        parse_amount(text)


ACTION_WORDS = st.sampled_from(
    ["d", "dh", "db", "p1", "p2", "p3", "p4", "f", "cc", "cbr", "sm", "sd", "pb", "AsKd", "Ac??",
     "????", "2c3c4c", "Th", "1", "2.5", "0.001", "1e3", "-1", "#", "x"]
)


@FUZZ
@given(st.lists(st.lists(ACTION_WORDS, min_size=0, max_size=4).map(" ".join), max_size=14))
def test_phh_reader_takes_any_action_list(actions: list[str]):
    text = (
        "variant = 'NT'\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n"
        f"starting_stacks = [100, 100.5, 100]\nactions = {actions!r}\n"
    )
    refused(read_phh, PhhError, text)
