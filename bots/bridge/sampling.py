"""Deals consistent with what one seat has seen: the cards it holds, the dummy, the
cards played (and the voids shown by failing to follow suit), and the hand
constraints the auction showed, and at first that each hidden hand would have made
its seat's calls by the system (a pass over an opening says what the hand lacks).
Rejection sampling with a cap on attempts; when too few deals pass, the conditions
are eased step by step (GIB does the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from math import comb

from bots.bridge.bidding import SeatCalls, bids_as_made
from engine.cards import suit_of
from engine.rng import Rng
from engine.tricks import winning_index
from rules.bridge.auction import STRAINS
from rules.bridge.system.hand import NOTHING, Constraints, HandInfo


@dataclass(frozen=True)
class Step:
    """One relaxation step: the auction's bounds widened by ``hcp`` points and
    ``length`` cards; with ``system``, each hidden hand must also be one the system
    would have made its seat's calls with."""

    hcp: int
    length: int
    system: bool = False


# None drops the constraints.
RELAXATION: tuple[Step | None, ...] = (
    Step(0, 0, system=True), Step(0, 0), Step(2, 1), Step(4, 2), None,
)


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
    # Per seat, its calls with the system's choices where it made them.
    auction: tuple[SeatCalls, ...] = ((), (), (), ())

    @property
    def hidden(self) -> list[int]:
        return [s for s in range(4) if self.known[s] is None]


@dataclass(frozen=True)
class Samples:
    deals: list[tuple[tuple[int, ...], ...]]  # each: the four current hands
    relaxation: list[int]  # per deal, the RELAXATION step it passed at
    attempts: int


def _constraint(spec: SampleSpec, seat: int, step: Step | None) -> Constraints:
    c = spec.constraints[seat]
    if step is None or c == NOTHING:
        return NOTHING
    return c if (step.hcp, step.length) == (0, 0) else c.relaxed(step.hcp, step.length)


def _admits(spec: SampleSpec, seat: int, step: Step | None, cards: Sequence[int]) -> bool:
    """Whether ``seat`` may hold ``cards`` (its current hand) at ``step``."""
    cons = _constraint(spec, seat, step)
    system = step is not None and step.system and bool(spec.auction[seat])
    if cons == NOTHING and not system:
        return True
    info = HandInfo.of([*cards, *spec.played_by[seat]])
    return cons.admits(info) and (not system or bids_as_made(spec.auction[seat], info))


def _deal_staged(
    spec: SampleSpec, rng: Rng, step: Step | None, retries: int = 30
) -> list[list[int]] | None:
    """Deal the hidden hands one at a time, the most constrained first, redrawing a
    hand that breaks its seat's constraints up to ``retries`` times; the last hidden
    hand gets what is left.  None when a hand cannot be made."""
    order = sorted(spec.hidden, key=lambda s: (spec.constraints[s] == NOTHING, s))
    left = list(spec.pool)
    out: list[list[int]] = [[], [], [], []]
    for i, s in enumerate(order):
        need = spec.sizes[s]
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
            if _admits(spec, s, step, pick):
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
    """Every layout of the hidden cards that the voids shown and the auction allow
    (the first of the first two relaxation steps that leaves any), in random order
    (so a run cut short by the time budget is still a fair sample); None when there
    are more than ``limit``, more than two hidden hands, or none passes.  Late in
    the play a few dozen layouts remain, and a sample of them drawn with repeats
    would only add noise."""
    found = splits(spec, limit)
    if not found:
        return None
    for k, step in enumerate(RELAXATION[:2]):
        deals = [hands for hands in found
                 if all(_admits(spec, s, step, hands[s]) for s in spec.hidden)]
        if deals:
            return Samples(rng.shuffled(deals), [k] * len(deals), len(found))
    return None


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
