"""Poker evaluator speed, side by side with peers measured in the same run.

    .venv/bin/python bench/poker_eval.py [--hands7 10000000] [--single 100000]

Prints: the batch over all 2,598,960 five-card hands (next to the seed paper's C
figures: 187 ms binary search, 75 ms perfect hash), the batch over random
seven-card hands (next to phevaluator's published 60 M hands/s for its C code), each
by the compiled core (rules/poker/_eval.c) and by the numpy path it replaces when
built, and one-hand-at-a-time calls from Python for our ``evaluate``, eval7,
phevaluator and treys (bench-only dependencies; a missing one is skipped), with
ours / eval7 for the seven-card call.  Times are CPU time (``time.process_time``:
the machine is shared), the best of several runs.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.cards import format_face
from rules.poker import evaluate, evaluate_batch, evaluator
from rules.poker.equity import combinations_array
from rules.poker.evaluator import _batch_tables

SEED_PAPER_MS = {"Cactus Kev, binary search (C)": 187.0, "Cactus Kev, perfect hash (C)": 75.0}


def best_of(runs: int, fn: Callable[[], Any]) -> float:
    """The fastest of ``runs`` timings of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(runs):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    """n rows of k distinct faces (int64), by rejecting rows with a repeat."""
    rng = np.random.default_rng(seed)
    parts, have = [], 0
    while have < n:
        draw = rng.integers(0, 52, size=(min(n, 4_000_000), k))
        s = np.sort(draw, axis=1)
        ok = draw[(np.diff(s, axis=1) != 0).all(axis=1)]
        parts.append(ok)
        have += len(ok)
    return np.concatenate(parts)[:n]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands7", type=int, default=10_000_000)
    parser.add_argument("--single", type=int, default=100_000)
    args = parser.parse_args()

    t = time.perf_counter()
    _batch_tables()
    evaluate([0, 1, 2, 3, 4])
    print(f"table build (first use): {1e3 * (time.perf_counter() - t):.0f} ms")

    print("\n== all 2,598,960 five-card hands, one batch ==")
    five = combinations_array(52, 5).astype(np.int64)
    rows = []
    for path, check in _paths():
        with path:
            s = best_of(5, partial(evaluate_batch, five, check=check))
        label = f"ours, {path.name} batch, check={check}"
        rows.append((label, s))
        print(f"{label:<40} {1e3 * s:8.1f} ms  {1e9 * s / len(five):6.1f} ns/hand")
    ours5 = rows[0][1] * 1e3
    for label, ms in SEED_PAPER_MS.items():
        print(f"{label:<40} {ms:8.1f} ms  {1e6 * ms / len(five):6.1f} ns/hand  "
              f"(ours/this = {ours5 / ms:.2f}x the time)")  # fmt: skip

    print(f"\n== {args.hands7:,} random seven-card hands, one batch ==")
    seven = random_hands(args.hands7, 7, seed=1)
    batch7 = {}
    for path, check in _paths():
        with path:
            s = best_of(3, partial(evaluate_batch, seven, check=check))
        batch7.setdefault(check, 1e9 * s / len(seven))
        print(f"ours, {path.name} batch, check={check!s:<5}  {len(seven) / s / 1e6:6.1f} M hands/s"
              f"  {1e9 * s / len(seven):6.1f} ns/hand  ({len(seven) / s / 60e6:.2f}x"
              " phevaluator's published 60 M/s)")  # fmt: skip

    print(f"\n== one hand per call from Python ({args.single:,} hands) ==")
    per_hand: dict[str, float] = {}
    for k in (5, 7):
        hands = random_hands(args.single, k, seed=2).tolist()
        per_hand[f"ours evaluate(), {k} ids"] = best_of(5, partial(_each, evaluate, hands))
        spelled = [[format_face(f) for f in x] for x in hands]
        per_hand[f"ours evaluate(), {k} strings"] = best_of(5, partial(_each, evaluate, spelled))
        _peers(k, hands, per_hand)
    base = per_hand.get("ours evaluate(), 7 ids")
    for label, s in per_hand.items():
        ns = 1e9 * s / args.single
        ratio = f"  {ns / (1e9 * base / args.single):5.2f}x ours(7 ids)" if base else ""
        print(f"{label:<32} {ns:8.0f} ns/hand{ratio}")

    peer = per_hand.get("eval7.evaluate, 7 cards")
    if base and peer:
        print(f"ours evaluate() / eval7.evaluate, 7 cards: {base / peer:.2f}x the time")

    print("\n== ours in batch against one-call-per-hand (7 cards) ==")
    for label, s in per_hand.items():
        if label.endswith(("7", "7 cards", "7 ids", "7 strings")):
            ns = 1e9 * s / args.single
            print(f"batch (check=False) {batch7[False]:5.1f} ns/hand is {ns / batch7[False]:6.1f}x "
                  f"faster than {label}")  # fmt: skip


class _Path:
    """Runs the batch by the compiled core, or with the core hidden (the numpy path)."""

    def __init__(self, name: str, hide: bool) -> None:
        self.name, self.hide = name, hide

    def __enter__(self) -> None:
        self.saved = evaluator._core
        if self.hide:
            evaluator._core = lambda: None  # type: ignore[assignment]

    def __exit__(self, *exc: object) -> None:
        evaluator._core = self.saved


def _paths() -> list[tuple[_Path, bool]]:
    """(path, check) pairs to time: the core's, then the numpy path's for reference."""
    core = [(_Path("compiled", False), c) for c in (False, True)] if evaluator._core() else []
    return [*core, *((_Path("numpy", True), c) for c in (False, True))]


def _peers(k: int, hands: list[list[int]], out: dict[str, float]) -> None:
    """Time each installed peer on the same hands, cards pre-converted to its type."""
    try:
        import eval7

        cards7 = [[eval7.Card(_spell(f)) for f in x] for x in hands]
        out[f"eval7.evaluate, {k} cards"] = best_of(5, partial(_each, eval7.evaluate, cards7))
    except ImportError:
        print("eval7 not installed (CARDTABLE_EXTRAS=dev,bench scripts/setup-env): skipped")
    try:
        import phevaluator

        ids = [[(f % 13) * 4 + f // 13 for f in x] for x in hands]  # its id: rank * 4 + suit
        call = phevaluator.evaluate_cards
        out[f"phevaluator.evaluate_cards, {k}"] = best_of(
            5, partial(_each, lambda x: call(*x), ids)
        )
    except ImportError:
        print("phevaluator not installed: skipped")
    try:
        import treys

        ev = treys.Evaluator()
        split = [(x[:2], x[2:]) for x in ([treys.Card.new(_spell(f)) for f in h] for h in hands)]
        out[f"treys Evaluator.evaluate, {k}"] = best_of(
            5, partial(_each, lambda x: ev.evaluate(*x), split)
        )
    except ImportError:
        print("treys not installed: skipped")


def _each(fn: Callable[[Any], Any], items: list[Any]) -> None:
    """Call ``fn`` once per item: the loop every per-hand timing shares."""
    for x in items:
        fn(x)


def _spell(face: int) -> str:
    text = format_face(face)
    return text[0] + text[1].lower()


if __name__ == "__main__":
    main()
