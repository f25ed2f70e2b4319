"""Poker hand evaluation: Cactus Kev classes with perfect-hash lookups.

A hand of 5, 6 or 7 cards gets the number of its best five-card class, 1 (royal
flush) .. 7,462 (7-5-4-3-2 offsuit); a smaller number is a stronger hand and equal
numbers tie.

- Five cards follow Cactus Kev: flush test by AND-ing the card words, ``flushes`` /
  ``unique5`` by the OR-ed rank pattern, and for the 4,888 hands with a repeated
  rank a perfect hash of the product of the rank primes (no binary search).
- Six and seven cards use the direct method of :mod:`rules.poker.tables.multiset`: one
  sum of per-card words gives the suit counts and the base-5 rank-multiset key; the
  key's perfect hash gives the best non-flush class, and the rare hands with five
  cards of a suit also read ``flush_best``.  The tables are built so that this equals
  the best of the 21 (or 6) five-card subsets; the tests check it on a million hands.

Tables are built on first use (about half a second) and kept for the process.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from engine.cards import FACES_PER_DECK, RANKS, SMALL_JOKER, face_of, format_face, parse_face
from rules.poker.tables.cactus import FLUSH_MASK, cactus_tables, prime_hash
from rules.poker.tables.classes import (
    CLASS_COUNT,
    Category,
    HandClass,
    all_classes,
    category_bounds,
)
from rules.poker.tables.multiset import FLUSH_BITS, FLUSH_PROBE, RANK_KEY_SHIFT, direct_tables
from rules.poker.tables.perfect_hash import MASK64, PerfectHash

Card = int | str | np.integer[Any]
HAND_SIZES = (5, 6, 7)
# Batches are cut into chunks small enough for their temporaries to stay in cache.
CHUNK = 1 << 14
_RANK_KEY_MASK = (1 << 32) - 1
# Ids up to this many decks are looked up directly by the single-hand path.
_FAST_DECKS = 2


class HandError(ValueError):
    """A hand the evaluator cannot rank (wrong size, joker, repeated card, bad card)."""

    code = "bad_hand"


# --------------------------------------------------------------------------- tables


@dataclass(frozen=True)
class _BatchTables:
    ck_words: np.ndarray  # uint32[52]
    primes: np.ndarray  # uint64[52]: the rank prime of each face
    flush_or_unique: np.ndarray  # int16[16384]: unique5 then flushes (+8192)
    flush_offset: np.ndarray  # int64[16]: 8192 where the AND-ed suit nibble is non-zero
    prime: PerfectHash
    words: np.ndarray  # int64[52] direct words
    suited_bits: np.ndarray  # int64[52]
    flush_best: np.ndarray  # int16[8192]
    multiset: dict[int, PerfectHash]
    face_bits: np.ndarray  # int64[52]: 1 << face, to spot a repeated card


@cache
def _batch_tables() -> _BatchTables:
    ck = cactus_tables()
    direct = direct_tables()
    offsets = np.array([0] + [8192] * 15, dtype=np.int64)
    return _BatchTables(
        ck_words=ck.words,
        primes=(ck.words & 0xFF).astype(np.uint64),
        flush_or_unique=np.concatenate([ck.unique5, ck.flushes]),
        flush_offset=offsets,
        prime=prime_hash(),
        words=direct.words,
        suited_bits=direct.suited_bits,
        flush_best=direct.flush_best,
        multiset=direct.hashes,
        face_bits=np.left_shift(np.int64(1), np.arange(SMALL_JOKER, dtype=np.int64)),
    )


# ----------------------------------------------------------------------- one hand


def evaluate(cards: Sequence[Card] | str) -> int:
    """The class (1 best .. 7,462 worst) of the best five cards among 5, 6 or 7 cards.

    Cards are engine card ids (any deck copy) or spellings such as ``"AS"``, ``"Th"``;
    a single string of spellings separated by spaces also works.
    """
    known = _core_one(cards)
    if known:
        return int(known)
    fast = _FAST
    if fast is None:
        fast = _install_fast()
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return fast(cards)


_FAST: Callable[[Sequence[Card]], int] | None = None


def _load_core() -> Any:
    """The compiled lookups (rules/poker/_eval.c) with the tables installed, or None
    when the extension is not built: the numpy and Python paths then answer alike."""
    try:
        _eval = importlib.import_module("rules.poker._eval")
    except ImportError:
        return None
    t = _batch_tables()

    def spec(h: PerfectHash) -> tuple[int, int, int, np.ndarray, np.ndarray]:
        return (h.multiplier, h.shift, h.bucket_bits, h.displace.astype(np.int32), h.table)

    _eval.install(
        t.ck_words, t.primes, t.flush_or_unique, spec(t.prime), t.words, t.suited_bits,
        t.flush_best, spec(t.multiset[6]), spec(t.multiset[7]),
    )  # fmt: skip
    return _eval


def _first_core_one(cards: Any) -> int:
    """``_core_one`` on first use: installs the core (or a stand-in that declines)."""
    global _core_one
    core = _core()
    _core_one = core.one if core is not None else _declined
    return _core_one(cards)


def _declined(cards: Any) -> int:
    return 0


# The compiled single-hand path: a class, or 0 when it does not take the hand (not a
# list or tuple of plain ids, or a hand the Python path must reject with its message).
_core_one: Callable[[Any], int] = _first_core_one
_core = cache(_load_core)


def _install_fast() -> Callable[[Sequence[Card]], int]:
    global _FAST
    _FAST = _make_fast()
    return _FAST


def _spellings(face: int) -> list[Card]:
    """Keys the single-hand path accepts for a face without parsing: card ids of the
    first decks and the common spellings."""
    text = format_face(face)
    r, s = text[0], text[1]
    ids: list[Card] = [face + FACES_PER_DECK * copy for copy in range(_FAST_DECKS)]
    return [*ids, r + s, r + s.lower(), r.lower() + s.lower(), r.lower() + s]


def _make_fast() -> Callable[[Sequence[Card]], int]:
    """Build the single-hand evaluator with every table bound to a local name.

    Each card is looked up in dicts keyed by id or spelling.  The six/seven-card words
    carry one bit per face above bit 64, so a repeated card shows up as a carry.
    """
    ck = cactus_tables()
    direct = direct_tables()
    w5: dict[Card, int] = {}
    face: dict[Card, int] = {}
    w7: dict[Card, int] = {}
    suited: dict[Card, int] = {}
    for f in range(SMALL_JOKER):
        for key in _spellings(f):
            w5[key] = int(ck.words[f])
            face[key] = f
            w7[key] = int(direct.words[f]) | (1 << (64 + f))
            suited[key] = int(direct.suited_bits[f])
    flushes = ck.flushes.tolist()
    unique5 = ck.unique5.tolist()
    ph = prime_hash()
    m5, s5, b5 = ph.multiplier, ph.shift, ph.bucket_bits
    bm5, d5, t5 = (1 << b5) - 1, ph.displace.tolist(), ph.table.tolist()
    h6, h7 = direct.hashes[6], direct.hashes[7]
    m6, s6, b6 = h6.multiplier, h6.shift, h6.bucket_bits
    bm6, d6, t6 = (1 << b6) - 1, h6.displace.tolist(), h6.table.tolist()
    m7, s7, b7 = h7.multiplier, h7.shift, h7.bucket_bits
    bm7, d7, t7 = (1 << b7) - 1, h7.displace.tolist(), h7.table.tolist()
    flush_best = direct.flush_best.tolist()
    suit_of_flag = {0x8: 0, 0x80: 16, 0x800: 32, 0x8000: 48}

    def flush_class(cards: Sequence[Card], flag: int) -> int:
        bits = 0
        for c in cards:
            bits |= suited[c]
        return int(flush_best[(bits >> suit_of_flag[flag]) & 0x1FFF])

    def fast(cards: Sequence[Card]) -> int:
        try:
            n = len(cards)
            if n == 7:
                a, b, c, d, e, f, g = cards
                s = w7[a] + w7[b] + w7[c] + w7[d] + w7[e] + w7[f] + w7[g]
                if (s >> 64).bit_count() != 7:
                    raise HandError("a card appears twice in the hand")
                t = (((s >> RANK_KEY_SHIFT) & _RANK_KEY_MASK) * m7 & MASK64) >> s7
                v = t7[(t >> b7) ^ d7[t & bm7]]
                flag = (s + FLUSH_PROBE) & FLUSH_BITS
                return v if not flag else min(v, flush_class(cards, flag))
            if n == 5:
                a, b, c, d, e = cards
                ca, cb, cc, cd, ce = w5[a], w5[b], w5[c], w5[d], w5[e]
                q = (ca | cb | cc | cd | ce) >> 16
                # Five distinct ranks cannot hide a repeated card, so only the other
                # branches check for one.
                if ca & cb & cc & cd & ce & FLUSH_MASK:
                    if flushes[q]:
                        return flushes[q]
                    raise HandError("a card appears twice in the hand")
                u = unique5[q]
                if u:
                    return u
                if len({face[a], face[b], face[c], face[d], face[e]}) != 5:
                    raise HandError("a card appears twice in the hand")
                p = (ca & 0xFF) * (cb & 0xFF) * (cc & 0xFF) * (cd & 0xFF) * (ce & 0xFF)
                t = (p * m5 & MASK64) >> s5
                return t5[(t >> b5) ^ d5[t & bm5]]
            if n == 6:
                a, b, c, d, e, f = cards
                s = w7[a] + w7[b] + w7[c] + w7[d] + w7[e] + w7[f]
                if (s >> 64).bit_count() != 6:
                    raise HandError("a card appears twice in the hand")
                t = (((s >> RANK_KEY_SHIFT) & _RANK_KEY_MASK) * m6 & MASK64) >> s6
                v = t6[(t >> b6) ^ d6[t & bm6]]
                flag = (s + FLUSH_PROBE) & FLUSH_BITS
                return v if not flag else min(v, flush_class(cards, flag))
        except (KeyError, TypeError):
            # Not a plain id or common spelling: normalise (this raises on bad cards).
            return fast(_normalise(cards))
        raise HandError(f"a poker hand has 5, 6 or 7 cards, not {len(cards)}")

    return fast


def _normalise(cards: Iterable[Any]) -> list[int]:
    """Faces of ``cards`` (ids, numpy ints or spellings); raises HandError on a joker or
    something that is not a card."""
    faces = []
    for c in cards:
        if isinstance(c, str):
            f = parse_face(c)
        elif isinstance(c, int | np.integer) and not isinstance(c, bool) and c >= 0:
            f = face_of(int(c))
        else:
            raise HandError(f"not a card: {c!r}")
        if f >= SMALL_JOKER:
            raise HandError("jokers have no place in a poker hand")
        faces.append(f)
    return faces


# ------------------------------------------------------------------------- batches


def evaluate_batch(hands: Any, *, check: bool = True) -> np.ndarray:
    """Classes (int16) of an (N, k) integer array of engine card ids, k in 5..7.

    With ``check`` (the default) ids are reduced to faces and rows with a joker,
    a negative id or a repeated card raise HandError; callers that deal their own
    hands from one deck (equity, bots) pass ``check=False`` to skip that pass.
    """
    arr = np.asarray(hands)
    if arr.ndim != 2 or arr.shape[1] not in HAND_SIZES:
        raise HandError(f"expected an (N, k) array with k in 5..7, got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise HandError("hands must be integer card ids")
    out = np.empty(arr.shape[0], dtype=np.int16)
    core = _core()
    if core is not None:
        bad = core.batch(np.ascontiguousarray(arr, dtype=np.int64), out, check)
        if bad:
            raise HandError(_BATCH_ERRORS[next(b for b in _BATCH_ERRORS if bad & b)])
        return out
    if not check and arr.size and (arr.min() < 0 or arr.max() >= SMALL_JOKER):
        raise HandError(_BATCH_ERRORS[8])  # as the core refuses them
    tables = _batch_tables()
    kernel = _five if arr.shape[1] == 5 else _direct
    for start in range(0, arr.shape[0], CHUNK):
        # One row per card position: numpy gathers and combines contiguous rows much
        # faster than the strided columns of an (N, k) array.
        rows = np.ascontiguousarray(arr[start : start + CHUNK].T)
        if check:
            rows = _checked_faces(rows, tables.face_bits)
        kernel(tables, rows, out[start : start + CHUNK])
    return out


# What the core's batch reports, in the order the numpy path checks it.
_BATCH_ERRORS = {
    1: "card ids are non-negative",
    2: "jokers have no place in a poker hand",
    4: "a card appears twice in a hand",
    8: "with check=False card ids must be faces 0..51",
}


def _checked_faces(rows: np.ndarray, face_bits: np.ndarray) -> np.ndarray:
    """Faces of (k, n) card ids; raises HandError on a negative id, a joker or a hand
    holding the same face twice (one bit per face: OR and sum differ on a repeat)."""
    low, high = rows.min(initial=0), rows.max(initial=0)
    if low < 0:
        raise HandError("card ids are non-negative")
    faces = rows % FACES_PER_DECK if high >= FACES_PER_DECK else rows
    if high >= SMALL_JOKER and faces.max() >= SMALL_JOKER:
        raise HandError("jokers have no place in a poker hand")
    union = face_bits.take(faces[0])
    total = union.copy()
    for j in range(1, faces.shape[0]):
        bit = face_bits.take(faces[j])
        union |= bit
        total += bit
    if not np.array_equal(union, total):
        raise HandError("a card appears twice in a hand")
    return faces


def _five(t: _BatchTables, rows: np.ndarray, out: np.ndarray) -> None:
    """Cactus Kev on (5, n) faces, every step a whole-array operation."""
    words, primes = t.ck_words, t.primes
    both = words.take(rows[0])
    either = both.copy()
    product = primes.take(rows[0])
    for j in range(1, 5):
        w = words.take(rows[j])
        both &= w
        either |= w
        product *= primes.take(rows[j])
    either >>= 16
    index = t.flush_offset.take(both >> 12)
    index |= either
    direct = t.flush_or_unique.take(index)
    hashed = t.prime.lookup(product)
    np.copyto(out, np.where(direct != 0, direct, hashed))


def _direct(t: _BatchTables, rows: np.ndarray, out: np.ndarray) -> None:
    """The direct 6/7-card method on (k, n) faces."""
    s = t.words.take(rows[0])
    for j in range(1, rows.shape[0]):
        s += t.words.take(rows[j])
    t.multiset[rows.shape[0]].lookup(s >> RANK_KEY_SHIFT, out=out)
    flag = s + FLUSH_PROBE
    flag &= FLUSH_BITS
    flushed = np.flatnonzero(flag)
    if flushed.size:
        bits = np.bitwise_or.reduce(t.suited_bits[rows[:, flushed]], axis=0)
        _best_with_flush(t, out, flushed, flag[flushed], bits)


def _best_with_flush(
    t: _BatchTables, out: np.ndarray, rows: np.ndarray, flag: np.ndarray, bits: np.ndarray
) -> None:
    """Lower ``out[rows]`` to the flush class where that is better.  At most one suit
    holds five of 6 or 7 cards; ``flag`` says which, ``bits`` has its 13 rank bits."""
    shift = 16 * ((flag > 0x8).astype(np.int64) + (flag > 0x80) + (flag > 0x800))
    flush = t.flush_best[(bits >> shift) & 0x1FFF]
    out[rows] = np.minimum(out[rows], flush)


def word_tables() -> tuple[np.ndarray, np.ndarray]:
    """The per-face direct words and suited bits (int64[52] each) that
    ``evaluate_word_sums`` takes sums and unions of."""
    t = _batch_tables()
    return t.words, t.suited_bits


def evaluate_word_sums(sums: np.ndarray, suited: np.ndarray) -> np.ndarray:
    """Classes of seven-card hands given as the sum of their cards' words and the OR of
    their suited bits (see ``word_tables``).

    Equity enumerations share five board cards between all players: they add each
    board's words once and then one holding per player, instead of gathering seven
    cards per player per board.  No checks: the cards must be seven distinct faces.
    """
    t = _batch_tables()
    out = t.multiset[7].lookup(sums >> RANK_KEY_SHIFT)
    flag = sums + FLUSH_PROBE
    flag &= FLUSH_BITS
    flushed = np.flatnonzero(flag)
    if flushed.size:
        _best_with_flush(t, out, flushed, flag[flushed], suited[flushed])
    return out


# ------------------------------------------------------------------ naming classes


def category(rank: int) -> Category:
    """The category of a class number (1 = royal flush .. 7,462)."""
    if not 1 <= rank <= CLASS_COUNT:
        raise ValueError(f"not a hand class: {rank}")
    for cat, worst in zip(Category, category_bounds(), strict=True):
        if rank <= worst:
            return cat
    raise AssertionError("unreachable")


def hand_class(rank: int) -> HandClass:
    """The category and deciding ranks of a class number."""
    if not 1 <= rank <= CLASS_COUNT:
        raise ValueError(f"not a hand class: {rank}")
    return all_classes()[rank - 1]


_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "jack", "queen", "king", "ace")  # fmt: skip
_PLURALS = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
            "tens", "jacks", "queens", "kings", "aces")  # fmt: skip


def describe(rank: int, kickers: bool = False) -> str:
    """Readable text for a class: "Full house, kings over fives", "Straight, ten high",
    "Two pair, aces and sevens".  With ``kickers`` the remaining deciding ranks are
    named too ("Two pair, aces and sevens, K kicker", "Flush, ace high (A-J-9-4-2)")."""
    hc = hand_class(rank)
    r = hc.ranks
    c = hc.category
    if c is Category.STRAIGHT_FLUSH:
        return "Royal flush" if r[0] == 12 else f"Straight flush, {_NAMES[r[0]]} high"
    if c is Category.FOUR_OF_A_KIND:
        text, rest = f"Four of a kind, {_PLURALS[r[0]]}", r[1:]
    elif c is Category.FULL_HOUSE:
        return f"Full house, {_PLURALS[r[0]]} over {_PLURALS[r[1]]}"
    elif c is Category.FLUSH:
        text, rest = f"Flush, {_NAMES[r[0]]} high", r[1:]
    elif c is Category.STRAIGHT:
        return f"Straight, {_NAMES[r[0]]} high"
    elif c is Category.THREE_OF_A_KIND:
        text, rest = f"Three of a kind, {_PLURALS[r[0]]}", r[1:]
    elif c is Category.TWO_PAIR:
        text, rest = f"Two pair, {_PLURALS[r[0]]} and {_PLURALS[r[1]]}", r[2:]
    elif c is Category.ONE_PAIR:
        text, rest = f"Pair of {_PLURALS[r[0]]}", r[1:]
    else:
        text, rest = f"High card, {_NAMES[r[0]]}", r[1:]
    if not kickers:
        return text
    if c in (Category.FLUSH, Category.HIGH_CARD):
        return f"{text} ({'-'.join(RANKS[x] for x in r)})"
    word = "kicker" if len(rest) == 1 else "kickers"
    return f"{text}, {'-'.join(RANKS[x] for x in rest)} {word}"
