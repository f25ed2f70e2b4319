"""Benchmark: rules.rummy ``combos`` and ``best`` against the brute force.

Random 13- and 14-card hands dealt from two decks plus the two printed jokers,
under the indian preset with a wild rank drawn per hand (so most hands hold a
joker-capable card).  Prints median and p99 per call, and the ratio to the
tests' exhaustive brute force (tests/rules/rummy/rummy_brute.py) on the same
hands in the same run.  Also gin (one deck, 10 cards) against OpenSpiel's
``min_deadwood`` when pyspiel is installed.  Times are CPU time per call
(``time.process_time``: the bench machine is shared), after a warm-up on other
hands (the engine keeps small caches across calls, as a server would).  The gin
lines time ``min_deadwood`` (the compiled core, rules/rummy/least.py) and ``best``
(the whole arrangement, general search) against OpenSpiel on the same hands.
Asserts nothing.

    .venv/bin/python bench/rummy_combos.py [hands]
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.rng import Rng
from rules.rummy import PRESETS, MeldRules, best, combos
from rules.rummy.grid import Hand, to_hand
from rules.rummy.least import min_deadwood
from tests.rules.rummy.rummy_brute import brute_best


def timed(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def summary(times: list[float]) -> tuple[float, float]:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return statistics.median(ordered) * 1e3, p99 * 1e3


def deal(rng: Rng, size: int) -> tuple[Hand, MeldRules]:
    shoe = [c * 54 + f for c in range(2) for f in range(52)] + [52, 53]
    rules = PRESETS["indian"].with_wild(rng.below(13))
    return to_hand(rng.shuffled(shoe)[:size]), rules


def main() -> None:
    hands = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    rng = Rng(20261122)
    print(f"indian preset, two decks + 2 printed jokers, wild rank per hand, {hands} hands")
    print(f"{'cards':>5} {'what':<7} {'median ms':>10} {'p99 ms':>9} {'brute med':>10}"
          f" {'brute p99':>10} {'ratio med':>10} {'ratio p99':>10}")
    for hand, rules in (deal(rng, 13 + i % 2) for i in range(300)):  # warm-up
        combos(hand, rules)
        best(hand, rules)
    for size in (13, 14):
        cases = [deal(rng, size) for _ in range(hands)]
        brute = [timed(lambda h=h, r=r: brute_best(h.counts, r)) for h, r in cases]
        for name, fn in (("combos", combos), ("best", best)):
            ours = [timed(lambda h=h, r=r, fn=fn: fn(h, r)) for h, r in cases]
            med, p99 = summary(ours)
            bmed, bp99 = summary(brute)
            print(f"{size:>5} {name:<7} {med:>10.3f} {p99:>9.3f} {bmed:>10.3f} {bp99:>10.3f}"
                  f" {bmed / med:>9.1f}x {bp99 / p99:>9.1f}x")
    try:
        from pyspiel import gin_rummy
    except ImportError:
        print("gin vs OpenSpiel: pyspiel not installed")
        return
    utils = gin_rummy.GinRummyUtils(13, 4, 10)
    suit_map = {0: 1, 1: 2, 2: 3, 3: 0}
    gin = PRESETS["gin"]
    gin_hands = [rng.shuffled(list(range(52)))[:10] for _ in range(hands)]
    for h in gin_hands[:100]:  # warm-up
        best(h, gin)
    os_hands = [[suit_map[c // 13] * 13 + (c % 13 + 1) % 13 for c in h] for h in gin_hands]
    for h in gin_hands[:100]:
        min_deadwood(h, gin)
    peer = [timed(lambda h=h: utils.min_deadwood(h)) for h in os_hands]
    pmed, pp99 = summary(peer)
    print(f"gin 10 cards, OpenSpiel min_deadwood (C++): median {1e3 * pmed:.1f} us"
          f" p99 {1e3 * pp99:.1f} us")
    for label, fn in (("min_deadwood", min_deadwood), ("best", best)):
        ours = [timed(lambda h=h, fn=fn: fn(h, gin)) for h in gin_hands]
        med, p99 = summary(ours)
        print(f"gin 10 cards, ours {label:<12}: median {1e3 * med:.1f} us p99 {1e3 * p99:.1f} us"
              f" ({med / pmed:.2f}x OpenSpiel's time at p50, {p99 / pp99:.2f}x at p99)")


if __name__ == "__main__":
    main()
