"""Fuzzing the PBN and LIN readers: whatever the text, a reader returns records or
raises FormatError (the format's own error), never anything else."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.formats import FormatError, GameRecord
from rules.bridge.game import LIN, PBN

DATA = Path(__file__).with_name("data")
SAMPLES = {
    PBN.read: (DATA / "pbn_standard_example.pbn").read_text(),
    LIN.read: (DATA / "bbo_forum_vugraph.lin").read_text(),
}
# The characters the formats are made of, so mutations land on meaningful text.
ALPHABET = st.sampled_from(list('[]"|{};%#?!=*-:.,\n 0123456789AKQJTSHDCNEWPXpdrmbcnsv^$'))


def survives(read, text: str) -> None:
    try:
        records = read(text)
    except FormatError as exc:
        assert exc.message and exc.code == "bad_file"
    else:
        assert records and all(isinstance(r, GameRecord) for r in records)


@st.composite
def mutated(draw, sample: str) -> str:
    text = list(sample)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "cut"]))
        if kind == "insert":
            text[at:at] = draw(st.lists(ALPHABET, min_size=1, max_size=4))
        elif kind == "delete":
            del text[at : at + draw(st.integers(1, 8))]
        elif kind == "replace" and at < len(text):
            text[at] = draw(ALPHABET)
        else:
            text = text[:at]
    return "".join(text)


FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(max_size=300))
def test_pbn_any_text(text: str) -> None:
    survives(PBN.read, text)


@FUZZ
@given(st.text(max_size=300))
def test_lin_any_text(text: str) -> None:
    survives(LIN.read, text)


@FUZZ
@given(mutated(SAMPLES[PBN.read]))
def test_pbn_mutated_files(text: str) -> None:
    survives(PBN.read, text)


@FUZZ
@given(mutated(SAMPLES[LIN.read]))
def test_lin_mutated_files(text: str) -> None:
    survives(LIN.read, text)


def test_numbers_past_what_int_reads_are_format_errors_or_ignored() -> None:
    deal = "N:.63.AKQ987.A9732 A8654.KQ5.T.QJT6 J973.J98742.3.K4 KQT2.AT.J6542.85"
    (record,) = PBN.read(f'[Board "{"9" * 5000}"]\n[Deal "{deal}"]\n')
    assert record.options["first_board"] == 1  # not a board number: the file's order
    board = "md|3S269H2568QADTQC2T,S47AHJD3479C4567Q,S58QH479KDKAC38JA,|"
    for value in ("²", "٣", "9" * 5000):
        survives(LIN.read, board + f"ah|Board {value}|mb|1N|mb|p|mb|p|mb|p|mc|{value}|")


def test_a_byte_order_mark_and_windows_line_ends_are_read() -> None:
    pbn_text = "\ufeff" + SAMPLES[PBN.read].replace("\n", "\r\n")
    assert len(PBN.read(pbn_text)) == len(PBN.read(SAMPLES[PBN.read]))
    lin_text = "\ufeff" + SAMPLES[LIN.read].replace("\n", "\r\n")
    assert len(LIN.read(lin_text)) == 2


def test_an_error_quoting_a_huge_word_stays_one_short_line() -> None:
    """A megabyte without a space is one "word": the error quotes its start only."""
    word = "\u0001" * 100_000
    for read, text in ((PBN.read, word), (PBN.read, f'[Deal "N:{word}"]\n'),
                       (LIN.read, f"md|3{word}|")):
        try:
            read(text)
        except FormatError as exc:
            assert len(str(exc)) < 600 and "\n" not in str(exc), str(exc)[:400]
        else:
            raise AssertionError("read a file of nothing")
