"""The compiled evaluator core (rules/poker/_eval.c) against the numpy path.

The core runs the same lookups on the same tables as the numpy path, so the two
must agree on every hand; the rest of test_poker_evaluator.py checks the ranks
themselves (by whichever path is built) against the rules and the peers.
"""

from __future__ import annotations

import numpy as np
import pytest

from rules.poker import HandError, evaluate, evaluate_batch, evaluator
from rules.poker.equity import combinations_array


def random_hands(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int64)


def test_core_is_built() -> None:
    # setup.py builds it; without it the 7-card batch is about 2.5x slower.
    assert evaluator._core() is not None


def test_core_matches_the_numpy_path(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(21)
    cases = [combinations_array(52, 5).astype(np.int64)]
    cases += [random_hands(rng, 300_000, k) for k in (6, 7)]
    cases.append(random_hands(rng, 100_000, 7) + 54 * rng.integers(0, 2, (100_000, 7)))
    core = [evaluate_batch(h, check=True) for h in cases]
    unchecked = [evaluate_batch(h, check=False) for h in cases[:3]]
    monkeypatch.setattr(evaluator, "_core", lambda: None)
    for hands, got in zip(cases, core, strict=True):
        assert np.array_equal(got, evaluate_batch(hands, check=True))
    for got, want in zip(unchecked, core[:3], strict=True):
        assert np.array_equal(got, want)


def test_single_calls_match_the_python_path(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(22)
    hands = [[int(x) for x in row] for k in (5, 6, 7) for row in random_hands(rng, 2000, k)]
    evaluate(hands[0])  # installs the core
    core = [evaluate(h) for h in hands] + [evaluate(tuple(h)) for h in hands]
    monkeypatch.setattr(evaluator, "_core_one", evaluator._declined)
    assert core == [evaluate(h) for h in hands] * 2


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        ([[0, 1, 2, 3, -4], [0, 1, 2, 3, 52]], "non-negative"),
        ([[0, 1, 2, 3, 52], [0, 1, 2, 3, 3]], "jokers"),
        ([[5, 1, 2, 3, 4], [0, 1, 2, 3, 3 + 54]], "twice"),
    ],
)
def test_batch_errors_are_the_numpy_paths(hands: list[list[int]], message: str) -> None:
    with pytest.raises(HandError, match=message):
        evaluate_batch(np.array(hands))


@pytest.mark.parametrize("core", [True, False], ids=["core", "numpy"])
def test_unchecked_batch_refuses_ids_that_are_not_faces(
    core: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not core:
        monkeypatch.setattr(evaluator, "_core", lambda: None)
    with pytest.raises(HandError, match="faces"):
        evaluate_batch(np.array([[0, 1, 2, 3, 60]]), check=False)
    with pytest.raises(HandError, match="faces"):
        evaluate_batch(np.array([[0, 1, 2, 3, 4, 5, -1]]), check=False)


@pytest.mark.parametrize("cards", [[0, 54, 1, 2, 3], [0, 1, 2, 3, 52], [-1, 1, 2, 3, 4],
                                   [True, 1, 2, 3, 4, 5], [0, 1, 2, 3]])
def test_the_core_declines_what_the_python_path_must_answer(cards: list[int]) -> None:
    evaluate([0, 1, 2, 3, 4])  # installs the core
    assert evaluator._core_one(cards) == 0


def test_batches_on_several_threads_agree() -> None:
    # The core releases the GIL during a batch; the tables are only read.
    from concurrent.futures import ThreadPoolExecutor

    hands = random_hands(np.random.default_rng(23), 50_000, 7)
    want = evaluate_batch(hands)
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda _: evaluate_batch(hands), range(8)))
    assert all(np.array_equal(g, want) for g in got)
