"""Tuple follow validation (three and four decks) for bench/tractor_rules.py:
the production check (rules/tractor/tuples.py) against the same decomposition
chain walked with a permutation search, the paper's Algorithm 3 carried over to
tuples: every ordering of a requirement's blocks, each block placed on the
lowest faces that fit, the ordering succeeding when every block finds a place.
Both run with the per-hand memo cleared; the decomposition chain (a function
of the lead's shapes alone) stays memoised for both.  Prints median / p99 / worst and the ratio."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from engine.cards import FACES_PER_DECK
from engine.errors import IllegalAction
from rules.tractor import chain, tuples
from rules.tractor.options import TrickDrawPolicy
from rules.tractor.order import TRUMP, Trump, tables

Timer = Callable[..., tuple[float, object]]


def _place(counts: dict[int, int], shape: tuple[int, ...], trump: Trump,
           protect: bool) -> bool:
    """Put one block on the lowest faces that fit (first fit), in place."""
    succ = tuples._successors(trump)
    phi = tables(trump).phi

    def fits(f: int, w: int) -> bool:
        n = counts.get(f, 0)
        return n >= w and not (protect and w >= 2 and n > w)

    for start in sorted(counts, key=lambda f: (phi[f], f)):
        chain = [start]
        if not fits(start, shape[0]):
            continue
        while len(chain) < len(shape):
            nxt = [f for f in succ[chain[-1]] if fits(f, shape[len(chain)])]
            if not nxt:
                break
            chain.append(nxt[0])
        if len(chain) == len(shape):
            for f, w in zip(chain, shape, strict=True):
                counts[f] -= w
            return True
    return False


def orderings(req: tuples.Requirement) -> Iterator[tuple[tuple[int, ...], ...]]:
    """The distinct orderings of a requirement's blocks, lazily (a multinomial
    number of them: n! when every block differs)."""
    left = Counter(req)

    def go(prefix: tuple[tuple[int, ...], ...]) -> Iterator[tuple[tuple[int, ...], ...]]:
        if len(prefix) == len(req):
            yield prefix
            return
        for shape in list(left):
            if left[shape]:
                left[shape] -= 1
                yield from go((*prefix, shape))
                left[shape] += 1

    yield from go(())


def perm_match(cards: Counter[int], req: tuples.Requirement, trump: Trump,
               protect: bool = False) -> bool:
    """Some ordering of the blocks places them all, first fit (n! orderings)."""
    for order in orderings(req):
        counts = dict(cards)
        if all(_place(counts, shape, trump, protect) for shape in order):
            return True
    return False


def perm_legal(lead: tuples.Structure, hand: Sequence[int], play: Sequence[int],
               trump: Trump, policy: TrickDrawPolicy) -> bool:
    """The follow rule of rules/tractor/tuples.py with :func:`perm_match`."""
    suit = tables(trump).suit
    in_suit = [c for c in hand if suit[c % FACES_PER_DECK] == lead.suit]
    n = lead.size
    played = [c for c in play if suit[c % FACES_PER_DECK] == lead.suit]
    if len(played) < min(len(in_suit), n):
        return False
    if len(played) < n or policy is TrickDrawPolicy.NO_FORMAT_BASED_DRAW:
        return True
    protect = tuples._protects(policy)
    mine = Counter(c % FACES_PER_DECK for c in play)
    held = Counter(c % FACES_PER_DECK for c in in_suit)
    for req in tuples.decomposition_chain(tuples.lead_requirement(lead),
                                          tuples._new_adjacency(policy)):
        if perm_match(mine, req, trump):
            return not (protect and tuples._bypasses_genuine(req, mine, held - mine, trump))
        if perm_match(held, req, trump, protect):
            return False
    return True


def _lead(rnd: random.Random, faces: list[int], decks: int, limit: int) -> list[int]:
    """Runs of tuples of width 1..decks along Φ order, up to ``limit`` cards."""
    out: list[int] = []
    i = 0
    while i < len(faces) and len(out) < limit:
        width = rnd.choice([1, 2, 2, 3, 3, decks])
        run = rnd.choice([1, 1, 2, 3])
        for f in faces[i:i + run]:
            if len(out) + width <= limit:
                out += [f + k * FACES_PER_DECK for k in range(width)]
        i += run + rnd.randrange(2)
    return out


def cases(rnd: random.Random, n: int) -> list[tuple[Trump, int, list[int], list[int], list[int],
                                                   TrickDrawPolicy]]:
    out = []
    policies = list(TrickDrawPolicy)
    while len(out) < n:
        decks = rnd.choice((3, 4))
        trump = Trump(rnd.randrange(13), rnd.randrange(4))
        t = tables(trump)
        faces = sorted((f for f in range(FACES_PER_DECK) if t.suit[f] == TRUMP),
                       key=lambda f: (t.phi[f], f))
        lead = _lead(rnd, faces[rnd.randrange(3):], decks, rnd.randrange(8, 21))
        if len(lead) < 6:
            continue
        rest = [f + k * FACES_PER_DECK for f in faces for k in range(decks)
                if f + k * FACES_PER_DECK not in set(lead)]
        hand = rnd.sample(rest, min(len(rest), len(lead) + rnd.randrange(1, 10)))
        play = (rnd.sample(hand, len(lead)) if rnd.random() < 0.5
                else sorted(hand, key=lambda c: (t.phi[c % FACES_PER_DECK], c))[:len(lead)])
        out.append((trump, decks, lead, hand, play, rnd.choice(policies)))
    return out


def tuple_bench(rnd: random.Random, n: int, timed: Timer) -> None:
    """Time both checks on ``n`` cases and print the comparison."""

    def clear() -> None:
        # The per-hand match memo starts cold; the chain depends only on the
        # lead's shapes and stays memoised, as it does in play.
        tuples._can_match.cache_clear()

    prod: list[float] = []
    perm: list[float] = []
    differ = legal = 0
    blocks: list[int] = []
    for trump, _decks, lead_cards, hand, play, policy in cases(rnd, n):
        lead = tuples.decompose(lead_cards, trump)
        blocks.append(len(lead.units))

        def production() -> bool:
            try:
                tuples.check_follow_tuples(lead, hand, play, trump, policy)  # noqa: B023
            except IllegalAction:
                return False
            return True

        dt, got = timed(production, clear)
        prod.append(dt)
        # One run of the permutation search: seconds each in its worst cases.
        dt, want = timed(lambda: perm_legal(lead, hand, play, trump, policy),  # noqa: B023
                         clear, repeat=1)
        perm.append(dt)
        legal += bool(got)
        differ += got != want

    def stats(xs: list[float]) -> tuple[float, float, float]:
        s = sorted(xs)
        return statistics.median(s), s[int(0.99 * (len(s) - 1))], s[-1]

    pm, p99, pw = stats(prod)
    rm, r99, rw = stats(perm)
    print(f"tuples (3-4 decks, every draw policy): {len(prod)} cases, legal {legal}, "
          f"lead units median {statistics.median(blocks)} max {max(blocks)}")
    print(f"  production   median {pm:9.1f} us  p99 {p99:9.1f} us  worst {pw:9.1f} us")
    print(f"  permutation  median {rm:9.1f} us  p99 {r99:9.1f} us  worst {rw:9.1f} us")
    print(f"  ratio permutation/production: median {rm / pm:7.1f}x  worst {rw / pw:7.1f}x")
    print(f"  answers differ on {differ} cases (first fit per ordering can miss a "
          "placement the production search finds)")


def long_leads() -> None:
    """The chain's exponential corner: one long tractor led against a hand whose
    pairs run in fives (three decks).  The first requirement the hand meets,
    found by listing the chain (rbtying/shengji's order, what the check did
    before rules/tractor/chain.py) and by the lazy walk; every cache cleared
    before each (a lead shape's first follow)."""
    trump = Trump(0, 3)
    t = tables(trump)
    faces = sorted((f for f in range(FACES_PER_DECK) if t.suit[f] == TRUMP),
                   key=lambda f: (t.phi[f], f))
    held = Counter({f: 2 for i, f in enumerate(faces) if i % 6 != 5})

    def meets(req: tuples.Requirement) -> bool:
        return tuples.can_match(held, req, trump)

    def cold() -> None:
        for fn in (tuples._can_match, chain.decomposition_chain, chain.full_decomposition,
                   chain._set_partitions, chain._groupings, chain._distinct):
            fn.cache_clear()

    print("long tractor leads (first requirement a hand of 5-pair runs meets):")
    for shape, listed in (((2,) * 8, True), ((2,) * 9, True), ((2,) * 10, True),
                          ((3,) * 6, True), ((4,) * 4, True), ((2,) * 11, False),
                          ((2,) * 12, False), ((3,) * 8, False)):
        lead = (shape,)
        cold()
        t0 = time.perf_counter()
        first = next(chain.walk_chain(lead, True, meets), None)
        walk = time.perf_counter() - t0
        cells = f"walk {walk * 1e3:8.1f} ms"
        if listed:
            cold()
            t0 = time.perf_counter()
            listing = chain.decomposition_chain(lead)
            same = next((r for r in listing if meets(r)), None)
            cells += (f"   listing {len(listing):7d} requirements "
                      f"{(time.perf_counter() - t0) * 1e3:9.1f} ms  same answer {same == first}")
        print(f"  {len(shape)} x width {shape[0]}: {cells}")
