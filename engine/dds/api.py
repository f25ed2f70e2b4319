"""The solver's Python face: solve a deal, a mid-play position, or the 5 x 4 table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import format_face, suit_of
from engine.dds._native import load_core
from engine.dds.deal import (
    SEAT_LETTERS,
    TABLE_STRAINS,
    Deal,
    DealError,
    Seat,
    Strain,
    as_deal,
    card_face,
    parse_seat,
    parse_strain,
    rank_masks,
)
from engine.tricks import winning_index

DEFAULT_TT_BYTES = 64 * 1024 * 1024


class Solver:
    """A solver context: owns its tables (``tt_bytes`` at most in all, default
    64 MiB). The bounds live in the winning-ranks table; ``exact=True`` keeps
    them in the seed's exact-position table of 8-byte entries instead (slower;
    optionally screened by a Bloom filter, ``bloom=True``).

    Reuse one Solver for related problems to keep its table warm: the bounds
    it learnt stay until the strain changes (they describe positions by
    suit lengths and relative ranks, so they hold for any deal: the same
    deal after each card, or the sampled deals of a bot's decision). A
    Solver searches without holding the GIL but serves one thread at a
    time: give each thread its own (:func:`dd_tables` does)."""

    def __init__(self, tt_bytes: int = DEFAULT_TT_BYTES, bloom: bool = False,
                 exact: bool = False) -> None:
        self._core: Any = load_core().Solver(tt_bytes, bloom, exact)

    def solve(self, masks: Sequence[int], strain: int, leader: int,
              trick: Sequence[int] = ()) -> int:
        """Tricks the side to move takes from here, the trick on the table included.
        ``masks[seat * 4 + suit]`` are rank masks, ``strain`` a Strain (4 = notrump),
        ``leader`` the Seat that led the trick on the table (or leads next),
        ``trick`` the faces already played to it."""
        return int(self._core.solve(list(masks), int(strain), int(leader), list(trick)))

    def best(self, masks: Sequence[int], strain: int, leader: int,
             trick: Sequence[int] = ()) -> tuple[int, int]:
        """(face, tricks): one card that keeps the best result, and that result
        (as :meth:`solve` counts it)."""
        face, tricks = self._core.best(list(masks), int(strain), int(leader), list(trick))
        return int(face), int(tricks)

    def scores(self, masks: Sequence[int], strain: int, leader: int,
               trick: Sequence[int] = ()) -> tuple[int, list[tuple[int, int]]]:
        """(best, [(face, tricks)]) for every legal card of the player to move."""
        best, pairs = self._core.scores(list(masks), int(strain), int(leader), list(trick))
        return int(best), [(int(f), int(t)) for f, t in pairs]

    def table(self, masks: Sequence[int]) -> list[int]:
        """20 ints: ``[strain * 4 + leader]`` = tricks of the leader's side."""
        return [int(v) for v in self._core.table(list(masks))]

    def reset(self) -> None:
        """Forget the table (it is also dropped by itself when the strain changes)."""
        self._core.reset()

    def stats(self) -> dict[str, int]:
        """Counters since creation: nodes, quick-trick cuts, table probes, hits, stores…"""
        return dict(self._core.stats())


def _solver(solver: Solver | None) -> Solver:
    return solver if solver is not None else Solver()


def solve(deal: str | Deal, strain: str | Strain, leader: str | Seat, *,
          solver: Solver | None = None) -> int:
    """Tricks the leader's side takes with best play by both sides, ``leader``
    leading to the first trick in ``strain``.

    >>> solve("N:AKQJ... - - -", "N", "N")  # doctest: +SKIP
    """
    d = as_deal(deal)
    return _solver(solver).solve(d.masks(), parse_strain(strain), parse_seat(leader))


@dataclass(frozen=True)
class BestCard:
    """One card that keeps the best result (``card``, canonical spelling) and
    that result: tricks for the side to move, the trick on the table included."""

    card: str
    tricks: int


def best_card(deal: str | Deal, strain: str | Strain, leader: str | Seat,
              played: Sequence[str | int] = (), *,
              solver: Solver | None = None) -> BestCard:
    """The best result for the side to move after ``played`` (as in
    :func:`solve_position`) and one card that keeps it: cheaper than scoring
    every card (DDS's ``SolveBoard`` with one optimal solution)."""
    d = as_deal(deal)
    st = parse_strain(strain)
    r = _replay(d, st, parse_seat(leader), played)
    to_move = (r.leader + len(r.trick)) % 4
    if not r.hands[to_move]:
        raise DealError("no cards left to play")
    face, tricks = _solver(solver).best(rank_masks(r.hands), st, r.leader, r.trick)
    return BestCard(format_face(face), tricks)


@dataclass(frozen=True)
class PositionResult:
    """A solved mid-play position.

    ``best`` and ``scores`` count the tricks the side to move (``to_move``'s
    partnership) takes from the remaining play, the trick on the table
    included; ``taken_ns``/``taken_ew`` are the tricks already completed.
    ``scores`` maps every legal card (canonical spelling, e.g. ``"QH"``) to
    its result; the cards scoring ``best`` are the optimal plays."""

    to_move: Seat
    best: int
    scores: dict[str, int]
    taken_ns: int
    taken_ew: int
    trick: tuple[str, ...]

    @property
    def best_cards(self) -> list[str]:
        """The legal cards that keep the best result."""
        return [c for c, v in self.scores.items() if v == self.best]


@dataclass(frozen=True)
class _Replay:
    hands: list[set[int]]
    leader: Seat
    trick: list[int]
    taken: list[int]


def _replay(deal: Deal, strain: Strain, leader: Seat, played: Sequence[str | int]) -> _Replay:
    """Apply ``played`` (in order, from ``leader``'s lead) and check every card."""
    hands = [set(h) for h in deal.hands]
    trump = None if strain == Strain.N else int(strain)
    trick: list[int] = []
    taken = [0, 0]
    for card in played:
        f = card_face(card)
        seat = (leader + len(trick)) % 4
        if f not in hands[seat]:
            raise DealError(f"{format_face(f)} is not in {SEAT_LETTERS[seat]}'s hand")
        if trick:
            led = suit_of(trick[0])
            if suit_of(f) != led and any(suit_of(c) == led for c in hands[seat]):
                raise DealError(f"{SEAT_LETTERS[seat]} must follow suit, not {format_face(f)}")
        hands[seat].discard(f)
        trick.append(f)
        if len(trick) == 4:
            winner = Seat((leader + winning_index(trick, trump)) % 4)
            taken[winner % 2] += 1
            leader = winner
            trick = []
    return _Replay(hands, leader, trick, taken)


def solve_position(deal: str | Deal, strain: str | Strain, leader: str | Seat,
                   played: Sequence[str | int] = (), *,
                   solver: Solver | None = None) -> PositionResult:
    """Solve the position reached after ``played`` (cards in play order,
    ``leader`` leading the first of them) from ``deal`` (the hands before
    those cards; an ending with fewer cards per hand is fine): the best
    result for the side to move and the score of each of its legal cards."""
    d = as_deal(deal)
    st = parse_strain(strain)
    r = _replay(d, st, parse_seat(leader), played)
    masks = rank_masks(r.hands)
    to_move = Seat((r.leader + len(r.trick)) % 4)
    if not r.hands[to_move]:
        return PositionResult(to_move, 0, {}, r.taken[0], r.taken[1], ())
    best, pairs = _solver(solver).scores(masks, st, r.leader, r.trick)
    scores = {format_face(f): t for f, t in sorted(pairs, key=lambda p: -p[0])}
    return PositionResult(to_move, best, scores, r.taken[0], r.taken[1],
                          tuple(format_face(f) for f in r.trick))


DDTable = dict[str, dict[str, int]]


def dd_table(deal: str | Deal, *, solver: Solver | None = None) -> DDTable:
    """Tricks each declarer takes in each strain: ``{strain: {declarer: tricks}}``
    with strains ``S H D C N`` and declarers ``N E S W`` (the opening lead comes
    from declarer's left)."""
    d = as_deal(deal)
    n_cards = len(d.hands[0])
    raw = _solver(solver).table(d.masks())
    out: DDTable = {}
    for st in TABLE_STRAINS:
        row = {}
        for decl in Seat:
            leader = decl.next
            row[decl.name] = n_cards - raw[int(st) * 4 + leader]
        out[st.name] = row
    return out

