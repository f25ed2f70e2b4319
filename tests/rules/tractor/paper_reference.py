"""The paper's algorithms, transcribed as references for the tests and the bench only.

Kuncoro (2026), "Deterministic Isomorphic Validation of Composite Card
Structures in Non-Monotonic Rank Hierarchies":

* Algorithm 1  ``paper_phi``             rank normalisation Φ
* Algorithm 2  ``paper_get_structure``   greedy block extraction over a sorted array
* Algorithm 3  ``paper_same_structure``  permutative matching engine
* Algorithm 4  ``consume_from_tractors`` first-fit resource fragmentation
* §3.2         ``formal_exists``         the formal existence criterion, card by card

Two transcription decisions, both needed for the text to mean what it says:

1. Algorithm 3 sorts the blocks *descending* and then loops "until next
   permutation of S does not exist"; the descending order is the last
   lexicographic permutation, so taken literally only one ordering would be
   tried.  The paper's criterion is "exists σ in S_n", so we start from the
   ascending order and visit every distinct ordering (identical blocks give
   identical orderings, so this is the same search as all n! of S_n).
2. Algorithm 2 scans windows of the Φ-sorted array; cards are sorted by
   (Φ, face, id) so the two copies of a face are neighbours.

Legality needs more than Algorithm 3 (which compares a play with a lead, not
with the hand it came from).  ``paper_legal`` composes the paper's pieces with
the rule "the play must meet the strongest element of the lead's degradation
chain that the hand's cards of the led suit can meet", written here a second
time, independently of the production code, in the paper's own block notation
(a block is its card count: 2L for a tractor of L pairs, 2 a pair, 1 a single).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from engine.cards import BIG_JOKER, FACES_PER_DECK, SMALL_JOKER

# ----------------------------------------------------------------------------
# Algorithm 1


def paper_phi(face: int, cr: int, main_suit: int | None) -> int:
    """Φ of a face for current rank ``cr`` (0..12) and main suit (None: no trump).

    Jokers play the role of the paper's suits 'R' (big) and 'B' (small).  With
    no trump the paper's branch is skipped and jokers/CR cards fall through to
    the natural logic, which is undefined for them; callers use it with a suit.
    """
    p = face % 13 + 1 if face < SMALL_JOKER else 0
    p_cr = cr + 1
    if main_suit is not None:
        if face in (SMALL_JOKER, BIG_JOKER):
            return 28 if face == BIG_JOKER else 27
        if face % 13 == cr:
            return 26 if face // 13 == main_suit else 25
        if face // 13 == main_suit:
            return p + 12 - (1 if p > p_cr else 0)
    if p > p_cr:
        return p - 1
    return p


# ----------------------------------------------------------------------------
# Algorithm 2


def paper_get_structure(
    cards: Sequence[int], phi: Sequence[int]
) -> tuple[list[int], int, int]:
    """Greedy block extraction: (tractor sizes in cards, pair count, single count).

    ``phi`` is a per-face Φ table; all cards are of one effective suit.
    """
    c = sorted(cards, key=lambda x: (phi[x % FACES_PER_DECK], x % FACES_PER_DECK, x))
    f = [x % FACES_PER_DECK for x in c]
    n = len(c)
    used = [False] * n
    tractors: list[int] = []

    def is_pair(i: int, j: int) -> bool:
        return f[i] == f[j]

    def is_sequence_of_pairs(i: int, length: int) -> bool:
        for k in range(i, i + length, 2):
            if not is_pair(k, k + 1):
                return False
            if k > i and phi[f[k]] != phi[f[k - 2]] + 1:
                return False
        return True

    for length in range(n - (n % 2), 3, -2):
        for i in range(n - length + 1):
            if any(used[i : i + length]):
                continue
            if is_sequence_of_pairs(i, length):
                tractors.append(length)
                for k in range(i, i + length):
                    used[k] = True
    pairs = 0
    for i in range(n - 1):
        if not used[i] and not used[i + 1] and is_pair(i, i + 1):
            pairs += 1
            used[i] = used[i + 1] = True
    singles = used.count(False)
    return tractors, pairs, singles


# ----------------------------------------------------------------------------
# Algorithms 3 and 4


def consume_from_tractors(pool: list[int], n_req: int) -> bool:
    """Algorithm 4: first fit; shortens the first tractor long enough, in place."""
    for j, length in enumerate(pool):
        if length >= n_req:
            pool[j] = length - n_req
            return True
    return False


def _next_permutation(s: list[int]) -> bool:
    """Knuth's Algorithm L: the next lexicographic ordering, False after the last."""
    i = len(s) - 2
    while i >= 0 and s[i] >= s[i + 1]:
        i -= 1
    if i < 0:
        return False
    j = len(s) - 1
    while s[j] <= s[i]:
        j -= 1
    s[i], s[j] = s[j], s[i]
    s[i + 1 :] = reversed(s[i + 1 :])
    return True


def linearize(tractors: Sequence[int], pairs: int, singles: int) -> tuple[int, ...]:
    """A template as the paper's block list S (tractor sizes in cards, 2s, 1s)."""
    return (*tractors, *([2] * pairs), *([1] * singles))


@lru_cache(maxsize=1 << 18)
def paper_same_structure(
    lead_blocks: tuple[int, ...], f_tractors: tuple[int, ...], f_pairs: int, f_singles: int
) -> bool:
    """Algorithm 3 on a lead block list and a follower template (Algorithm 2 output).

    Memoised: the answer is a pure function of its arguments, and the same
    templates recur across random cases.  Memoisation changes no answer.
    """
    s = sorted(lead_blocks)  # decision 1: start at the first ordering
    while True:
        t_pool = list(f_tractors)
        p_pool = 2 * f_pairs
        s_pool = f_singles
        match = True
        for need in s:
            if need >= 4:
                if not consume_from_tractors(t_pool, need):
                    match = False
                    break
            elif need == 2:
                if p_pool > 0:
                    p_pool -= 2
                elif consume_from_tractors(t_pool, 2):
                    continue
                else:
                    match = False
                    break
            else:
                if s_pool > 0:
                    s_pool -= 1
                elif p_pool > 0:
                    p_pool -= 1
                elif consume_from_tractors(t_pool, 1):
                    continue
                else:
                    match = False
                    break
        if match:
            return True
        if not _next_permutation(s):
            return False


# ----------------------------------------------------------------------------
# Legality composed from the paper's pieces


def block_chain(blocks: Sequence[int]) -> list[tuple[int, ...]]:
    """The lead's degradation chain in block notation.

    Shorten the largest tractor by one pair (a 4 becomes 2 + 2) until no
    tractor is left, then split one pair into two singles per step.
    """
    cur = sorted(blocks, reverse=True)
    chain = [tuple(cur)]
    while cur and cur[0] >= 4:
        big = cur.pop(0)
        cur.extend([big - 2, 2])
        cur.sort(reverse=True)
        chain.append(tuple(cur))
    while 2 in cur:
        cur.remove(2)
        cur.extend([1, 1])
        chain.append(tuple(sorted(cur, reverse=True)))
    return chain


def _fits(blocks: tuple[int, ...], cards: Sequence[int], phi: Sequence[int]) -> bool:
    t, p, s = paper_get_structure(cards, phi)
    return paper_same_structure(blocks, tuple(t), p, s)


def paper_legal(
    lead: Sequence[int],
    hand: Sequence[int],
    play: Sequence[int],
    phi: Sequence[int],
    suit: Sequence[int],
    exact: bool = False,
) -> bool:
    """Whether ``play`` legally follows ``lead`` from ``hand`` (paper-composed reference).

    ``phi`` and ``suit`` are per-face tables of the round's trump.  By default
    templates come from Algorithm 2 and matching from Algorithm 3; with
    ``exact`` the lead is decomposed by the §4.1 text (``greedy_runs``) and
    matching is the §3.2 criterion card by card (``formal_exists``), which is
    what Φ ties need.
    """
    if len(play) != len(lead) or len(set(play)) != len(play) or not set(play) <= set(hand):
        return False
    led = suit[lead[0] % FACES_PER_DECK]
    in_suit = [c for c in hand if suit[c % FACES_PER_DECK] == led]
    played = [c for c in play if suit[c % FACES_PER_DECK] == led]
    if len(played) < min(len(in_suit), len(lead)):
        return False
    if len(in_suit) <= len(lead):
        return True
    t, p, s = greedy_runs(lead, phi) if exact else paper_get_structure(lead, phi)
    fits = formal_exists if exact else _fits
    for blocks in block_chain(linearize(t, p, s)):
        if fits(blocks, in_suit, phi):
            return fits(blocks, played, phi)
    raise AssertionError("all singles always fit")


def greedy_runs(cards: Sequence[int], phi: Sequence[int]) -> tuple[list[int], int, int]:
    """§4.1 as worded: V = Φ of the pairs; take the largest L with v..v+L-1 in V,
    remove those pairs (one per Φ value), repeat; then pairs, then singles.
    Returns the same shape as :func:`paper_get_structure`."""
    held = Counter(c % FACES_PER_DECK for c in cards)
    values = Counter(phi[f] for f, n in held.items() if n >= 2)
    tractors: list[int] = []
    while True:
        best = (0, 0)
        for v in values:
            if values[v] and not values[v - 1]:
                n = 0
                while values[v + n]:
                    n += 1
                best = max(best, (n, v))
        n, v = best
        if n < 2:
            break
        for x in range(v, v + n):
            values[x] -= 1
        tractors.append(2 * n)
    pairs = sum(values.values())
    return tractors, pairs, len(cards) - 2 * (sum(tractors) // 2 + pairs)


def has_phi_tie(cards: Sequence[int], phi: Sequence[int]) -> bool:
    """True when two different faces among ``cards`` share one Φ (off-suit CR cards)."""
    faces = {c % FACES_PER_DECK for c in cards}
    return len({phi[f] for f in faces}) != len(faces)


# ----------------------------------------------------------------------------
# §3.2, card by card


def formal_exists(blocks: Sequence[int], cards: Sequence[int], phi: Sequence[int]) -> bool:
    """The formal existence criterion of §3.2, searched over concrete cards.

    ∃σ ∈ S_n and consumed subsets m_1..m_n, each m_j taken from the residual
    pool R_j and matching block b_σ(j) exactly: a tractor block 2L takes L
    pairs of consecutive Φ (one face per Φ value), a pair block both copies of
    a face, a single one card.  With every concrete match tried, whether
    disjoint matches exist does not depend on σ, so one ordering suffices:
    tractors largest first (backtracking over every concrete choice of faces),
    then pair blocks (any face still held twice) and single blocks (any card
    left) -- those two only need counting, since any pair or card serves them.
    """
    tractor_blocks = sorted((b for b in blocks if b >= 4), reverse=True)
    n_pairs = sum(1 for b in blocks if b == 2)
    n_singles = sum(1 for b in blocks if b == 1)
    pool = Counter(c % FACES_PER_DECK for c in cards)
    by_phi: dict[int, list[int]] = {}
    for f in pool:
        by_phi.setdefault(phi[f], []).append(f)

    def search(i: int) -> bool:
        if i == len(tractor_blocks):
            held_twice = sum(1 for n in pool.values() if n >= 2)
            return held_twice >= n_pairs and sum(pool.values()) - 2 * n_pairs >= n_singles
        for m in _tractor_matches(tractor_blocks[i] // 2, pool, by_phi):
            pool.subtract(m)
            ok = search(i + 1)
            pool.update(m)
            if ok:
                return True
        return False

    return search(0)


def _tractor_matches(
    length: int, pool: Counter[int], by_phi: dict[int, list[int]]
) -> list[Counter[int]]:
    """Every concrete tractor of ``length`` pairs in ``pool`` (faces at consecutive Φ)."""
    out: list[Counter[int]] = []

    def extend(v: int, left: int, acc: list[int]) -> None:
        if left == 0:
            out.append(Counter({f: 2 for f in acc}))
            return
        for f in by_phi.get(v, []):
            if pool[f] >= 2:
                extend(v + 1, left - 1, [*acc, f])

    for v in sorted(by_phi):
        extend(v, length, [])
    return out
