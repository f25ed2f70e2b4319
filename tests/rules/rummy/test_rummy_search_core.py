"""The compiled best-arrangement search (rules/rummy/_arrange.c) against the Python one.

Both must return the same arrangement (not only an equally good one) on every hand:
the core runs the same search with the same move order and tie-breaks
(docs/rummy.md, "How `best` works").  The hands: the brute-force tests' random and
dense ones, rule variants (each ace rule, a joker limit, jokers only in runs or only
in sets, longer runs, priced jokers, three runs required) and hands of 10 to 20
cards.  The brute-force tests check the default (compiled) path against the optimum.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable

import pytest

from engine.rng import Rng
from rules.rummy import PRESETS, MeldRules, search
from rules.rummy.search import best_shape

from .test_rummy_brute_force import dense_cases, random_cases

Case = tuple[tuple[int, ...], MeldRules]
INDIAN, GIN = PRESETS["indian"], PRESETS["gin"]
VARIANTS = [
    INDIAN.replace(ace="wrap"),
    INDIAN.replace(ace="low"),
    INDIAN.replace(max_jokers_per_meld=1),
    INDIAN.replace(jokers_in_sets=False),
    INDIAN.replace(jokers_in_runs=False),
    INDIAN.replace(run_min=4, set_max=3),
    INDIAN.replace(joker_points=5),
    INDIAN.replace(runs_required=3, pure_runs_required=2),
    GIN.replace(printed_jokers=True, joker_points=15),
    GIN.replace(printed_jokers=True, ace="wrap"),
    GIN,
]


def _counts(cards: list[int]) -> tuple[int, ...]:
    counts = [0] * 54
    for c in cards:
        counts[c % 54] += 1
    return tuple(counts)


def variant_cases(n: int, seed: int) -> list[Case]:
    rng = Rng(seed)
    shoe = [c * 54 + f for c in range(2) for f in range(52)] + [52, 53]
    cases = []
    for i in range(n):
        rules = VARIANTS[i % len(VARIANTS)]
        if i % 3 and rules.objective.value == "declaration":
            rules = rules.with_wild(rng.below(13))
        size = (10, 13, 14, 14, 16, 20)[rng.below(6)]
        cases.append((_counts(rng.shuffled(shoe)[:size]), rules))
    return cases


def test_core_is_built() -> None:
    # The project builds it (setup.py); a missing core would silently slow `best`.
    assert search._CORE is not None


CASES: dict[str, Callable[[], list[Case]]] = {
    "indian": lambda: random_cases("indian", 1500, seed=31),
    "gin": lambda: random_cases("gin", 600, seed=32),
    "dense": lambda: dense_cases("indian", 300, seed=33) + dense_cases("gin", 150, seed=34),
    "variants": lambda: variant_cases(1500, seed=35),
}


@pytest.mark.parametrize("name", list(CASES))
def test_core_matches_the_python_search(name: str) -> None:
    failures = [
        (counts, rules.wild_rank)
        for counts, rules in CASES[name]()
        if best_shape(counts, rules) != best_shape(counts, rules, compiled=False)
    ]
    assert not failures, failures[:5]


def test_spaces_too_large_for_the_core_take_the_python_search() -> None:
    # 20 cards with 7 that may stay out, seven jokers: 3 x 2 x 9 x 8 statuses > 256
    rules = INDIAN.with_wild(0)
    hand = [0, 13, 26, 39, 54, 52, 53, 4, 5, 6, 60, 61, 62, 20, 21, 22, 30, 31, 44, 45]
    counts = _counts(hand)
    plan = search._plan(counts, rules)
    assert plan.shape == (3, 2, 9, 8)
    assert search._space(plan, rules) is None
    assert best_shape(counts, rules) == best_shape(counts, rules, compiled=False)


def test_searches_from_threads_and_collections_do_not_disturb_each_other() -> None:
    # The core keeps one memo per space and makes no Python object until a search
    # is over, so nothing can start another search of the same space mid-way (a
    # finalizer run by a collection, or another thread while such code runs).
    # Here: three threads, a collection at nearly every allocation, and each
    # collection's finalizer searching another hand of the same space.
    cases = random_cases("indian", 300, seed=36)
    expected = [best_shape(c, r, compiled=False) for c, r in cases]
    by_space: dict[int, list[Case]] = {}
    for c, r in cases:
        by_space.setdefault(id(search._space(search._plan(c, r), r)), []).append((c, r))
    # for each hand, another one searched in the same space
    partner = [by_space[id(search._space(search._plan(c, r), r))][-1] for c, r in cases]

    class Searcher:
        def __init__(self, case: Case) -> None:
            self.case = case
            self.me = self  # a cycle: only the collector frees it

        def __del__(self) -> None:
            best_shape(*self.case)

    def run(out: list[object]) -> None:
        for (c, r), other in zip(cases, partner, strict=True):
            Searcher(other)
            out.append(best_shape(c, r))

    results: list[list[object]] = [[] for _ in range(3)]
    threads = [threading.Thread(target=run, args=(out,)) for out in results]
    old = gc.get_threshold()
    gc.set_threshold(1, 1, 1)  # a collection at nearly every allocation
    try:
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    finally:
        gc.set_threshold(*old)
    assert all(out == expected for out in results)
