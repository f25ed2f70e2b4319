"""The seeded RNG's stream is pinned: replays deal the same cards forever."""

from collections import Counter

import pytest

from engine.rng import Rng, derive_seed


def test_stream_is_pinned():
    # These values are the stream's contract; changing them breaks every stored game.
    r = Rng(1)
    assert [r.next64() for _ in range(3)] == [
        12966619160104079557,
        9600361134598540522,
        10590380919521690900,
    ]
    assert Rng(2026).shuffled(list(range(10))) == [6, 8, 0, 1, 7, 5, 2, 3, 4, 9]


def test_decision_seeds_are_pinned():
    # Stored games replay their bots' decisions from these seeds (the server's
    # move seeds before they moved here): the values must never change.
    assert derive_seed(1, 0, 0) == 1000003
    assert derive_seed(2026, 17, 3) == 2026006608
    assert derive_seed((1 << 63) - 5, 123456, 7) == 9223372036853602936  # wraps at 2**63
    assert derive_seed(0xDEADBEEFCAFE, 1, 2) == 5030875649808112795


def test_same_seed_same_shuffle_other_seed_other_shuffle():
    base = list(range(52))
    assert Rng(42).shuffled(base) == Rng(42).shuffled(base)
    assert Rng(42).shuffled(base) != Rng(43).shuffled(base)


def test_below_is_in_range_and_roughly_uniform():
    r = Rng(7)
    counts = Counter(r.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < c < 11_000 for c in counts.values())


def test_below_rejects_empty_range():
    with pytest.raises(ValueError):
        Rng(1).below(0)


def test_fork_is_deterministic_and_independent():
    assert Rng(5).fork(1).next64() == Rng(5).fork(1).next64()
    assert Rng(5).fork(1).next64() != Rng(5).fork(2).next64()


def test_the_compiled_shuffle_is_the_python_one_bit_for_bit() -> None:
    """engine/_rng.c deals what Rng.shuffle_py deals, and leaves the generator
    where it leaves it, over many seeds and lengths (a deck, both decks with
    jokers, the short and empty lists)."""
    from engine import rng as module

    assert module._CORE is not None, "the shuffle core is not built (scripts/setup-env)"
    for seed in range(3000):
        n = (52, 108, 0, 1, 2, 3, 13, 54, 33)[seed % 9]
        items = list(range(n))
        fast, slow = Rng(seed * 7919 + 1), Rng(seed * 7919 + 1)
        fast.fork(seed)  # a few draws first, as a board's fork does
        slow.fork(seed)
        a, b = list(items), list(items)
        fast.shuffle(a)
        slow.shuffle_py(b)
        assert a == b, seed
        assert fast.next64() == slow.next64(), seed
    huge = Rng(2**64 - 1)
    big = list(range(1000))
    huge.shuffle(big)
    ref = Rng(2**64 - 1)
    want = list(range(1000))
    ref.shuffle_py(want)
    assert big == want


def test_a_sequence_that_is_not_a_list_is_shuffled_in_python() -> None:
    class Cards(list[int]):
        pass

    a, b = Cards(range(52)), list(range(52))
    Rng(9).shuffle(a)
    Rng(9).shuffle(b)
    assert list(a) == b


def test_the_compiled_seeding_and_draws_are_the_python_ones() -> None:
    """engine/_rng.c seeds (splitmix64) and draws (xoshiro256**) as the Python
    reference does, on small, large and edge seeds, along long streams."""
    from engine import rng as module

    core = module._CORE
    assert core is not None, "the generator core is not built (scripts/setup-env)"
    seeds = [0, 1, 2, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1,
             *(Rng(7).next64() >> k for k in range(64))]
    for seed in seeds:
        assert core.seeded(seed) == module.seeded_py(seed), seed
        fast, slow = Rng(seed), Rng(seed)
        for _ in range(200):
            assert fast.next64() == slow.next64_py()
        assert fast._s == slow._s
    # Seeds of 2**64 and more are cut to 64 bits, as Rng always did.
    assert Rng(2**64 + 5)._s == module.seeded_py(5)
