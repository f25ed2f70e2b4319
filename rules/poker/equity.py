"""Hold'em equity by exact enumeration or seeded Monte Carlo, and the showdown report.

Equity of a hand = (deals it wins outright + its share of split deals) / deals, where a
deal gives every player one holding from their range (holdings never share a card)
and completes the board.  Every compatible choice of holdings and every board is
equally likely, as in PokerStove.

- **Exact** when there are few enough (holdings, board) deals: all of them are
  enumerated and evaluated in batches.  With fixed hands this covers every preflop
  spot (heads-up preflop is 1,712,304 boards).
- **Monte Carlo** otherwise, or whenever ``samples`` is given: holdings are drawn
  uniformly from each range and redrawn together when they clash, then the missing
  board cards are drawn from what is left.  Random numbers come from a
  counter-based splitmix64 stream whose key is the first output of
  ``engine.rng.Rng(seed)``, so a seed gives the same answer on every platform; a
  bounded draw is ``(u >> 32) * n >> 32``, whose bias (< n / 2**32) is far below the
  sampling error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from math import comb, prod

import numpy as np

from engine.cards import format_face
from engine.rng import Rng
from rules.poker.evaluator import (
    HandError,
    _normalise,
    describe,
    evaluate,
    evaluate_word_sums,
    word_tables,
)
from rules.poker.ranges import HandRange, parse_range

# Deals x players evaluated by an exact enumeration before switching to Monte Carlo
# (about a second here); heads-up preflop needs 3.4 million, three fixed hands and a
# pair range preflop 19.5 million.
EXACT_LIMIT = 25_000_000
DEFAULT_SAMPLES = 200_000
# Deals evaluated per batch, to bound memory.
_DEALS_PER_BATCH = 1 << 16
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MAX_REDRAWS = 10_000

HandSpec = str | Sequence[int | str]


@dataclass(frozen=True)
class EquityResult:
    """Per-hand equity (win + split share), outright-win and split fractions."""

    equity: tuple[float, ...]
    win: tuple[float, ...]
    tie: tuple[float, ...]
    deals: int  # deals enumerated (exact) or sampled
    exact: bool


def combinations_array(n: int, k: int) -> np.ndarray:
    """All k-subsets of range(n) as rows of an (C(n, k), k) int8 array, in
    lexicographic order (n <= 127)."""
    rows = np.arange(n - k + 1, dtype=np.int64)[:, None]
    if k == 0:
        return np.zeros((1, 0), dtype=np.int8)
    for j in range(1, k):
        last = rows[:, -1]
        counts = (n - k + j) - last  # the next value runs from last + 1 to n - k + j
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        values = np.repeat(last + 1, counts) + (np.arange(counts.sum()) - starts)
        rows = np.hstack([np.repeat(rows, counts, axis=0), values[:, None]])
    return rows.astype(np.int8)


# ---------------------------------------------------------------------- inputs


def _cards(cards: str | Sequence[int | str]) -> list[int]:
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    return _normalise(cards)


def _holdings(spec: HandSpec, blocked: int) -> np.ndarray:
    """The (m, 2) faces a hand spec allows, without those touching ``blocked``."""
    if isinstance(spec, str):
        rng: HandRange = parse_range(spec)
        combos = np.array(rng.combos, dtype=np.int64)
        label = spec
    else:
        faces = _cards(spec)
        if len(faces) != 2 or faces[0] == faces[1]:
            raise HandError(f"a hold'em hand is two different cards, not {spec!r}")
        combos = np.array([faces], dtype=np.int64)
        label = " ".join(format_face(f) for f in faces)
    masks = (np.int64(1) << combos[:, 0]) | (np.int64(1) << combos[:, 1])
    combos = combos[(masks & blocked) == 0]
    if combos.size == 0:
        raise HandError(f"{label}: every holding uses a card already on the board or dead")
    return combos


def _mask(faces: Sequence[int]) -> int:
    m = 0
    for f in faces:
        if m >> f & 1:
            raise HandError(f"{format_face(f)} appears twice")
        m |= 1 << f
    return m


# ------------------------------------------------------------------------ core


class _Tally:
    """Wins, splits and pot shares per player over evaluated deals."""

    def __init__(self, players: int) -> None:
        self.win = np.zeros(players, dtype=np.int64)
        self.tie = np.zeros(players, dtype=np.int64)
        self.share = np.zeros(players, dtype=np.float64)
        self.deals = 0

    def add(self, ranks: np.ndarray) -> None:
        """ranks: (players, deals) classes, smaller is better."""
        best = ranks.min(axis=0)
        winners = ranks == best
        k = winners.sum(axis=0)
        self.win += (winners & (k == 1)).sum(axis=1)
        self.tie += (winners & (k > 1)).sum(axis=1)
        self.share += (winners / k).sum(axis=1)
        self.deals += ranks.shape[1]

    def result(self, exact: bool) -> EquityResult:
        d = self.deals
        return EquityResult(
            equity=tuple(float(x / d) for x in self.share),
            win=tuple(float(x / d) for x in self.win),
            tie=tuple(float(x / d) for x in self.tie),
            deals=d,
            exact=exact,
        )


def _rank_deals(holes: np.ndarray, board_sums: np.ndarray, board_bits: np.ndarray) -> np.ndarray:
    """Classes (players, D) of each player's holding (players, D, 2) with each board,
    boards given by the sums and unions of their cards' words (see ``word_tables``)."""
    words, suited = word_tables()
    ranks = np.empty(holes.shape[:2], dtype=np.int16)
    for p in range(holes.shape[0]):
        h0, h1 = holes[p, :, 0], holes[p, :, 1]
        sums = board_sums + words.take(h0) + words.take(h1)
        bits = board_bits | suited.take(h0) | suited.take(h1)
        ranks[p] = evaluate_word_sums(sums, bits)
    return ranks


def equity(
    hands: Sequence[HandSpec],
    board: str | Sequence[int | str] = (),
    dead: str | Sequence[int | str] = (),
    samples: int | None = None,
    seed: int = 0,
) -> EquityResult:
    """Equity of each hand (two cards, or a range string like ``"QQ+,AKs"``).

    Exact enumeration when ``samples`` is None and the deals are few enough
    (``EXACT_LIMIT``); otherwise Monte Carlo over ``samples`` (default
    ``DEFAULT_SAMPLES``) deals seeded by ``seed``.
    """
    board_faces, dead_faces = _cards(board), _cards(dead)
    if len(board_faces) > 5:
        raise HandError("a board has at most five cards")
    known = _mask(board_faces + dead_faces)
    if len(hands) < 2:
        raise HandError("equity needs at least two hands")
    holdings = [_holdings(h, known) for h in hands]
    need = 5 - len(board_faces)
    rest = 52 - len(board_faces) - len(dead_faces) - 2 * len(hands)
    if rest < need:
        raise HandError("not enough cards left to complete the board")
    fixed = np.array(board_faces, dtype=np.int64)
    tally = _Tally(len(hands))
    assignments = prod(len(h) for h in holdings)
    cost = assignments * comb(rest, need) * len(hands)
    if samples is None and cost <= EXACT_LIMIT:
        _enumerate(holdings, fixed, known, need, rest, tally)
        if tally.deals == 0:
            raise HandError("the hands always share a card")
        return tally.result(exact=True)
    if samples is not None and samples <= 0:
        raise ValueError("samples must be positive")
    _sample(holdings, fixed, known, need, samples or DEFAULT_SAMPLES, seed, tally)
    return tally.result(exact=False)


def _enumerate(
    holdings: list[np.ndarray], fixed: np.ndarray, known: int, need: int, rest: int, tally: _Tally
) -> None:
    """Every compatible choice of holdings times every completion of the board."""
    grids = np.meshgrid(*[np.arange(len(h)) for h in holdings], indexing="ij")
    choice = np.stack([g.ravel() for g in grids], axis=1)  # (A, players)
    holes = np.stack([h[choice[:, i]] for i, h in enumerate(holdings)])  # (players, A, 2)
    bit = np.int64(1)
    masks = (bit << holes[:, :, 0]) | (bit << holes[:, :, 1])
    union = np.bitwise_or.reduce(masks, axis=0)
    ok = union == masks.sum(axis=0)  # no two holdings share a card
    holes, union = holes[:, ok], union[ok] | known
    words, suited = word_tables()
    fixed_sum, fixed_bits = words[fixed].sum(), np.bitwise_or.reduce(suited[fixed], initial=0)
    completions = combinations_array(rest, need).astype(np.int64)  # positions in the deck
    per_batch = max(1, _DEALS_PER_BATCH // len(completions))
    boards_per_batch = _DEALS_PER_BATCH // per_batch
    for start in range(0, union.size, per_batch):
        u = union[start : start + per_batch]
        free = ((u[:, None] >> np.arange(52)) & 1) == 0  # (a, 52)
        decks = np.nonzero(free)[1].reshape(u.size, rest)  # the cards left, per choice
        deck_words, deck_suited = words[decks], suited[decks]
        h = holes[:, start : start + per_batch]
        for first in range(0, len(completions), boards_per_batch):
            part = completions[first : first + boards_per_batch]
            sums = np.full((u.size, len(part)), fixed_sum, dtype=np.int64)
            bits = np.full((u.size, len(part)), fixed_bits, dtype=np.int64)
            for j in range(need):
                sums += deck_words[:, part[:, j]]
                bits |= deck_suited[:, part[:, j]]
            per_deal = np.repeat(h, len(part), axis=1)  # (players, a * boards, 2)
            tally.add(_rank_deals(per_deal, sums.ravel(), bits.ravel()))


class _Stream:
    """Counter-based splitmix64: draw i is mix(key + i * golden); vectorised."""

    def __init__(self, seed: int) -> None:
        self._key = np.uint64(Rng(seed).next64())
        self._drawn = 0

    def below(self, bound: np.ndarray | int, n: int) -> np.ndarray:
        """n integers in [0, bound) (bound per draw or shared)."""
        i = np.arange(self._drawn + 1, self._drawn + n + 1, dtype=np.uint64)
        self._drawn += n
        z = self._key + i * _GOLDEN
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
        b = np.asarray(bound, dtype=np.uint64)
        return (((z >> np.uint64(32)) * b) >> np.uint64(32)).astype(np.int64)


def _sample(
    holdings: list[np.ndarray],
    fixed: np.ndarray,
    known: int,
    need: int,
    samples: int,
    seed: int,
    tally: _Tally,
) -> None:
    stream = _Stream(seed)
    players = len(holdings)
    sizes = np.array([len(h) for h in holdings], dtype=np.int64)
    bit = np.int64(1)
    for start in range(0, samples, _DEALS_PER_BATCH):
        n = min(_DEALS_PER_BATCH, samples - start)
        holes = np.empty((players, n, 2), dtype=np.int64)
        used = np.full(n, known, dtype=np.int64)
        todo = np.arange(n)
        for _ in range(_MAX_REDRAWS):
            pick = stream.below(np.tile(sizes, todo.size), todo.size * players)
            pick = pick.reshape(todo.size, players)
            cand = np.stack([h[pick[:, i]] for i, h in enumerate(holdings)])
            masks = (bit << cand[:, :, 0]) | (bit << cand[:, :, 1])
            union = np.bitwise_or.reduce(masks, axis=0)
            ok = (union == masks.sum(axis=0)) & ((union & known) == 0)
            holes[:, todo[ok]] = cand[:, ok]
            used[todo[ok]] |= union[ok]
            todo = todo[~ok]
            if todo.size == 0:
                break
        else:
            raise HandError("the ranges almost never fit together; no deal found")
        drawn = np.empty((n, need), dtype=np.int64)
        for j in range(need):
            todo = np.arange(n)
            while todo.size:
                card = stream.below(52, todo.size)
                fresh = ((used[todo] >> card) & 1) == 0
                drawn[todo[fresh], j] = card[fresh]
                used[todo[fresh]] |= bit << card[fresh]
                todo = todo[~fresh]
        words, suited = word_tables()
        sums = words[fixed].sum() + words[drawn].sum(axis=1)
        bits = np.bitwise_or.reduce(suited[drawn], axis=1) | np.bitwise_or.reduce(
            suited[fixed], initial=0
        )
        tally.add(_rank_deals(holes, sums, bits))


# -------------------------------------------------------------------- showdown


def _fixed(spec: HandSpec) -> list[int] | None:
    """The two faces of a hand that is one holding, or None for a wider range."""
    options = _holdings(spec, 0)
    if len(options) != 1:
        return None
    text = spec.replace(" ", "") if isinstance(spec, str) else ""
    if len(text) == 4:  # "AhKh": keep the order it was written in
        return _cards([text[:2], text[2:]])
    return _cards(spec) if not isinstance(spec, str) else [int(f) for f in options[0]]


def showdown_report(
    hands: Sequence[HandSpec],
    board: str | Sequence[int | str] = (),
    dead: str | Sequence[int | str] = (),
    samples: int | None = None,
    seed: int = 0,
) -> str:
    """The text ``cardtable showdown`` prints: each hand with its equity and, once the
    board has three cards, its best five-card hand; with a full board the winner(s)."""
    board_faces = _cards(board)
    result = equity(hands, board_faces, dead, samples=samples, seed=seed)
    fixed = [_fixed(h) for h in hands]
    labels = [
        " ".join(format_face(f) for f in faces) if faces else str(spec)
        for spec, faces in zip(hands, fixed, strict=True)
    ]
    ranks = [
        evaluate(faces + board_faces) if faces and len(board_faces) >= 3 else None
        for faces in fixed
    ]
    width = max(len(x) for x in labels)
    lines = ["Board: " + (" ".join(format_face(f) for f in board_faces) or "(none)")]
    for i, label in enumerate(labels):
        rank = ranks[i]
        made = f"  {describe(rank, kickers=True)} (class {rank})" if rank else ""
        lines.append(
            f"Hand {i + 1}  {label:<{width}}  equity {100 * result.equity[i]:6.2f}%"
            f"  win {100 * result.win[i]:6.2f}%  tie {100 * result.tie[i]:6.2f}%{made}"
        )
    how = "exact" if result.exact else f"Monte Carlo, seed {seed}"
    lines.append(f"({result.deals:,} deals, {how})")
    known = [r for r in ranks if r is not None]
    if len(board_faces) == 5 and len(known) == len(hands):
        best = min(known)
        won = [i for i, r in enumerate(known) if r == best]
        names = " and ".join(f"hand {i + 1} ({labels[i]})" for i in won)
        verb = "Winner" if len(won) == 1 else "Split pot"
        lines.append(f"{verb}: {names} with {describe(best, kickers=True)}")
    else:
        fav = max(range(len(hands)), key=lambda i: result.equity[i])
        lines.append(f"Favourite: hand {fav + 1} ({labels[fav]}), {100 * result.equity[fav]:.2f}%")
    return "\n".join(lines)
