"""Deals consistent with what one seat has seen: the cards it holds, the dummy, the
cards played (and the voids shown by failing to follow suit), and the hand
constraints the auction showed.  Rejection sampling with a cap on attempts; when
too few deals pass, the constraints are widened step by step (GIB does the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from engine.cards import suit_of
from engine.rng import Rng
from engine.tricks import winning_index
from rules.bridge.auction import STRAINS
from rules.bridge.system.hand import NOTHING, Constraints, HandInfo

# (hcp slack, length slack) of each relaxation step; None drops the constraints.
RELAXATION: tuple[tuple[int, int] | None, ...] = ((0, 0), (2, 1), (4, 2), None)


@dataclass(frozen=True)
class PlayHistory:
    """The play so far, replayed from the opening leader."""

    played_by: tuple[tuple[int, ...], ...]  # per seat, the cards it has played
    voids: tuple[frozenset[int], ...]  # per seat, suits it has shown out of
    trick: tuple[int, ...]  # the cards of the trick in progress
    trick_leader: int


def replay_play(played: Sequence[int], opening_leader: int, strain: str) -> PlayHistory:
    """Who played which card, who showed out of what, and the trick in progress."""
    trump = None if strain == "N" else STRAINS.index(strain)
    by: list[list[int]] = [[], [], [], []]
    voids: list[set[int]] = [set(), set(), set(), set()]
    leader = opening_leader
    trick: list[int] = []
    for f in played:
        seat = (leader + len(trick)) % 4
        if trick and suit_of(f) != suit_of(trick[0]):
            voids[seat].add(suit_of(trick[0]))
        by[seat].append(f)
        trick.append(f)
        if len(trick) == 4:
            leader = (leader + winning_index(trick, trump)) % 4
            trick = []
    return PlayHistory(
        tuple(tuple(p) for p in by), tuple(frozenset(v) for v in voids), tuple(trick), leader
    )


@dataclass(frozen=True)
class SampleSpec:
    """What a sampler must respect.  ``known`` hands are fixed (``None`` = hidden);
    ``sizes`` are the hidden hands' current sizes; ``pool`` the unseen cards."""

    known: tuple[tuple[int, ...] | None, ...]
    sizes: tuple[int, ...]
    pool: tuple[int, ...]
    voids: tuple[frozenset[int], ...]
    played_by: tuple[tuple[int, ...], ...]
    constraints: tuple[Constraints, ...]

    @property
    def hidden(self) -> list[int]:
        return [s for s in range(4) if self.known[s] is None]


@dataclass(frozen=True)
class Samples:
    deals: list[tuple[tuple[int, ...], ...]]  # each: the four current hands
    relaxation: list[int]  # per deal, the RELAXATION step it passed at
    attempts: int


def _constraint(spec: SampleSpec, seat: int, step: tuple[int, int] | None) -> Constraints:
    c = spec.constraints[seat]
    if step is None or c == NOTHING:
        return NOTHING
    return c if step == (0, 0) else c.relaxed(*step)


def _deal_staged(
    spec: SampleSpec, rng: Rng, step: tuple[int, int] | None, retries: int = 30
) -> list[list[int]] | None:
    """Deal the hidden hands one at a time, the most constrained first, redrawing a
    hand that breaks its seat's constraints up to ``retries`` times; the last hidden
    hand gets what is left.  None when a hand cannot be made."""
    order = sorted(spec.hidden, key=lambda s: (spec.constraints[s] == NOTHING, s))
    left = list(spec.pool)
    out: list[list[int]] = [[], [], [], []]
    for i, s in enumerate(order):
        need = spec.sizes[s]
        cons = _constraint(spec, s, step)
        last = i == len(order) - 1
        eligible = [f for f in left if suit_of(f) not in spec.voids[s]]
        if len(eligible) < need:
            return None
        for _ in range(1 if last else retries):
            # The last hand takes what is left (when the pool holds exactly its cards).
            if last and len(left) == need:
                pick = left if len(eligible) == need else None
            else:
                pick = rng.shuffled(eligible)[:need]
            if pick is None:
                return None
            if cons == NOTHING or cons.admits(HandInfo.of([*pick, *spec.played_by[s]])):
                out[s] = list(pick)
                break
        else:
            return None
        taken = set(out[s])
        left = [f for f in left if f not in taken]
    return out


def splits(spec: SampleSpec, limit: int) -> list[tuple[tuple[int, ...], ...]] | None:
    """Every layout of the hidden cards between two hidden hands that the voids
    shown allow (hands sorted), or None when there are more than ``limit`` splits
    to try or not exactly two hidden hands holding the whole pool."""
    hidden = spec.hidden
    if len(hidden) != 2:
        return None
    a, b = hidden
    if spec.sizes[a] + spec.sizes[b] != len(spec.pool) or comb(
        len(spec.pool), spec.sizes[a]
    ) > limit:
        return None
    out = []
    for chosen in combinations(spec.pool, spec.sizes[a]):
        rest = tuple(f for f in spec.pool if f not in chosen)
        if any(suit_of(f) in spec.voids[a] for f in chosen) or any(
            suit_of(f) in spec.voids[b] for f in rest
        ):
            continue
        hands = [tuple(sorted(spec.known[s] or ())) for s in range(4)]
        hands[a], hands[b] = tuple(sorted(chosen)), tuple(sorted(rest))
        out.append(tuple(hands))
    return out


def every_deal(spec: SampleSpec, limit: int, rng: Rng) -> Samples | None:
    """Every layout of the hidden cards that the voids shown and the auction's
    constraints allow, in random order (so a run cut short by the time budget is
    still a fair sample); None when there are more than ``limit``, more than two
    hidden hands, or none passes.  Late in the play a few dozen layouts remain, and
    a sample of them drawn with repeats would only add noise."""
    found = splits(spec, limit)
    if not found:
        return None
    cons = [_constraint(spec, s, (0, 0)) for s in range(4)]
    deals = [
        hands for hands in found
        if all(cons[s] == NOTHING or cons[s].admits(HandInfo.of([*hands[s], *spec.played_by[s]]))
               for s in spec.hidden)
    ]
    if not deals:
        return None
    return Samples(rng.shuffled(deals), [0] * len(deals), len(found))


def sample_deals(spec: SampleSpec, n: int, rng: Rng, max_attempts: int = 4000) -> Samples:
    """Up to ``n`` deals consistent with ``spec``.  Each relaxation step gets a share of
    ``max_attempts``; deals that pass a stricter step are kept and later steps only
    fill the remainder."""
    deals: list[tuple[tuple[int, ...], ...]] = []
    steps: list[int] = []
    attempts = 0
    per_step = max(1, max_attempts // len(RELAXATION))
    for k, step in enumerate(RELAXATION):
        tries = 0
        while len(deals) < n and tries < per_step:
            tries += 1
            dealt = _deal_staged(spec, rng, step)
            if dealt is None:
                continue
            hands = tuple(
                tuple(sorted(spec.known[s] or ())) if spec.known[s] is not None
                else tuple(sorted(dealt[s]))
                for s in range(4)
            )
            deals.append(hands)
            steps.append(k)
        attempts += tries
        if len(deals) >= n:
            break
    return Samples(deals, steps, attempts)
