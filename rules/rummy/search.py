"""The best arrangement of a hand, found directly (without listing every combo).

A memoised depth-first search over the hand's face counts: the lowest remaining
natural card is either left over, designated a joker (wild cards only), or the
lowest natural card of a meld made of higher cards of its suit (run) or rank
(set) plus jokers.  Jokers may be borrowed before the wild cards that pay them
back are reached; a branch that ends in debt is dropped.  The state is the
remaining counts (2 bits a face, one int) plus the joker balance, so equal
sub-hands are solved once.

For the ``declaration`` objective the value of a state is a small table: for
each (runs so far, pure runs so far, cards left over), capped at what the rules
ask for, the least leftover points.  The winner is then extended to a maximal
arrangement (adding cards never makes an objective worse), so ``best`` always
returns one of ``combos``.
"""

from __future__ import annotations

from functools import lru_cache

from .grid import RANKS, SUITED, rules_geometry, run_span_ok
from .melds import Kind, is_joker_face, meld_ok
from .options import AceRule, MeldRules, Objective

Shape = tuple[int, tuple[int, ...], int]
ShapeArrangement = tuple[tuple[Shape, ...], tuple[int, ...]]
# One decision: a meld, a face left over, or None (a wild card turned joker).
Step = Shape | int | None
# The decisions taken, as a linked list (step, rest).
Path = tuple[Step, "Path"] | None
# Per status: (least leftover points, the path that reaches it).
Table = dict[int, tuple[int, Path]]


@lru_cache(maxsize=1 << 15)
def _run_candidates(
    face: int, higher: int, cap: int, run_min: int, ace: AceRule
) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Runs whose first natural (in search order) is ``face``: (faces, jokers) pairs.

    ``higher`` is a bitmask of the other ranks of ``face``'s suit that may join
    (those still ahead in the search); ``cap`` the most jokers one run may take.
    """
    suit, rank = divmod(face, RANKS)
    others = [r for r in range(RANKS) if higher >> r & 1 and r != rank]
    out = []
    for mask in range(1 << len(others)):
        ranks = (rank, *(others[i] for i in range(len(others)) if mask >> i & 1))
        n = len(ranks)
        for k in range(max(0, run_min - n), cap + 1):
            if n + k > RANKS:
                break
            if run_span_ok(ranks, n + k, ace):
                faces = tuple(sorted(suit * RANKS + r for r in ranks))
                out.append((faces, k, sum(1 << (2 * g) for g in faces if g != face)))
    return tuple(sorted(out, key=lambda c: c[1]))


@lru_cache(maxsize=1 << 12)
def _set_candidates(
    face: int, higher: int, cap: int, set_min: int, set_max: int
) -> tuple[tuple[tuple[int, ...], int, int], ...]:
    """Sets whose lowest natural is ``face`` (``higher``: suits above it present)."""
    suit, rank = divmod(face, RANKS)
    others = [s for s in range(suit + 1, 4) if higher >> s & 1]
    out = []
    for mask in range(1 << len(others)):
        faces = (face, *(others[i] * RANKS + rank for i in range(len(others)) if mask >> i & 1))
        n = len(faces)
        for k in range(max(0, set_min - n), min(cap, set_max - n) + 1):
            out.append((faces, k, sum(1 << (2 * g) for g in faces[1:])))
    return tuple(sorted(out, key=lambda c: c[1]))


@lru_cache(maxsize=64)
def _statuses(n_runs: int, n_pure: int, n_left: int) -> tuple[
    list[tuple[int, int, int]], dict[tuple[int, int, int], int], list[int], list[int], list[int]
]:
    """Statuses as small ints: (runs, pure runs, cards left), each capped at what
    the declaration rule looks at; and how leaving a card, a run and a pure run
    move between them."""
    statuses = [(r, p, lft) for r in range(n_runs) for p in range(n_pure) for lft in range(n_left)]
    index = {st: i for i, st in enumerate(statuses)}

    def shift(dr: int, dp: int, dl: int) -> list[int]:
        return [
            index[(min(r + dr, n_runs - 1), min(p + dp, n_pure - 1), min(lft + dl, n_left - 1))]
            for r, p, lft in statuses
        ]

    return statuses, index, shift(0, 0, 1), shift(1, 0, 0), shift(1, 1, 0)


@lru_cache(maxsize=64)
def _dominators(n_runs: int, n_pure: int, n_left: int) -> tuple[tuple[int, ...], ...]:
    """Per status, the other statuses at least as good in every respect (more runs,
    more pure runs, fewer cards left): an entry that one of them matches or beats
    on points can never win, because later cards move both alike."""
    statuses = _statuses(n_runs, n_pure, n_left)[0]
    return tuple(
        tuple(
            j
            for j, (r2, p2, l2) in enumerate(statuses)
            if j != i and r2 >= r and p2 >= p and l2 <= lft
        )
        for i, (r, p, lft) in enumerate(statuses)
    )


def _compress_table(width: int) -> list[int]:
    """For each ``2 * width``-bit count field, one bit per non-zero count."""
    table = [0] * (1 << (2 * width))
    for x in range(1 << (2 * width)):
        bits = 0
        for i in range(width):
            if x >> (2 * i) & 3:
                bits |= 1 << i
        table[x] = bits
    return table


_PRESENT7 = _compress_table(7)  # ranks 2..8 of a suit
_PRESENT6 = _compress_table(6)  # ranks 9..A


def best_shape(counts: tuple[int, ...], rules: MeldRules) -> ShapeArrangement:
    """An optimal arrangement (as shapes) of a hand given as 54 face counts."""
    wild = rules.wild_rank if rules.uses_jokers else None
    printed = counts[52] + counts[53]
    supply = printed if rules.printed_jokers and rules.uses_jokers else 0
    dead_printed = [] if supply else [f for f in (52, 53) for _ in range(counts[f])]
    points = rules.face_points
    held = supply + (sum(counts[s * RANKS + wild] for s in range(4)) if wild is not None else 0)
    # candidate lists are cached per joker cap; a state takes those within its means
    cap = min(held, rules.max_jokers) if rules.uses_jokers else 0
    run_cap = cap if rules.jokers_in_runs else 0
    set_cap = cap if rules.jokers_in_sets else 0
    declaration = rules.objective is Objective.DECLARATION
    need_runs, need_pure = rules.runs_required, rules.pure_runs_required
    size = sum(counts)
    spare_ok = max(0, size - rules.declare_size)
    jp = rules.joker_points
    geom_ace, run_min = rules.ace, rules.run_min
    set_min, set_max = rules.set_min, rules.set_max

    # The state holds two bits per face, in face order.  Wild cards are taken
    # first, so whether each acts as itself or as a joker is settled before the
    # plain cards; then the lowest face.
    wild_faces = [] if wild is None else [su * RANKS + wild for su in range(4)]
    wild_bits = sum(3 << (2 * f) for f in wild_faces)
    rem0 = 0
    for f in range(SUITED):
        rem0 |= counts[f] << (2 * f)

    if declaration:
        n_runs, n_pure, n_left = need_runs + 1, need_pure + 1, spare_ok + 2
    else:  # the deadwood objective needs one status
        n_runs = n_pure = n_left = 1
    statuses, index, after_left, after_run, after_pure_run = _statuses(n_runs, n_pure, n_left)
    dominators = _dominators(n_runs, n_pure, n_left)
    memo: dict[int, Table] = {}

    def wild_count(rem: int) -> int:
        w = rem & wild_bits
        return sum((w >> (2 * f)) & 3 for f in wild_faces) if w else 0

    def solve(rem: int, net: int) -> Table:
        """Per status, the least leftover points from here on; {} if infeasible."""
        key = (rem << 6) | (net + 32)  # |net| <= jokers in hand < 32
        hit = memo.get(key)
        if hit is not None:
            return hit
        table: Table = {}
        if net < 0 and net + wild_count(rem) < 0:
            pass  # the debt can no longer be paid back
        elif rem == 0:
            if net >= 0:  # unused jokers are left over
                table[index[(0, 0, min(net, n_left - 1))]] = (net * jp, None)
        else:
            _expand(rem, net, table)
            if len(table) > 1:
                for st in [
                    st for st, (dead, _) in table.items()
                    if any(o in table and table[o][0] <= dead for o in dominators[st])
                ]:
                    del table[st]
        memo[key] = table
        return table

    def _expand(rem: int, net: int, table: Table) -> None:
        w = rem & wild_bits
        is_wild = w != 0
        low = w & -w if is_wild else rem & -rem
        f = (low.bit_length() - 1) // 2
        rest = rem - (1 << (2 * f))
        avail = max(0, net + (wild_count(rest) if is_wild else 0))
        suit, rank = divmod(f, RANKS)
        # (next state, next balance, status move, points, step)
        if is_wild:  # acts as a joker (an unused joker is left over: no separate branch)
            todo: list[tuple[int, int, list[int] | None, int, Step]] = [
                (rest, net + 1, None, 0, None)
            ]
        else:  # leave one copy over
            todo = [(rest, net, after_left, points[f], f)]
        row = rest >> (2 * RANKS * suit)  # the suit's cards still ahead in the search
        higher = (_PRESENT7[row & 0x3FFF] | _PRESENT6[(row >> 14) & 0xFFF] << 7) & ~(1 << rank)
        for faces, k, delta in _run_candidates(f, higher, run_cap, run_min, geom_ace):
            if k > avail:
                break  # sorted by jokers
            todo.append((rest - delta, net - k, after_run if k else after_pure_run, 0,
                         (0, faces, k)))
        same_rank = 0
        for su in range(suit + 1, 4):
            if rest >> (2 * (su * RANKS + rank)) & 3:
                same_rank |= 1 << su
        for faces, k, delta in _set_candidates(f, same_rank, set_cap, set_min, set_max):
            if k > avail:
                break
            todo.append((rest - delta, net - k, None, 0, (1, faces, k)))
        for nxt, nnet, shift, pts, step in todo:
            for st, (dead, path) in solve(nxt, nnet).items():
                nst = shift[st] if shift is not None else st
                value = dead + pts
                old = table.get(nst)
                if old is None or value < old[0]:
                    table[nst] = (value, (step, path))

    top = solve(rem0, supply)
    if not top:
        raise AssertionError("no arrangement found")  # leaving every card over always works
    total = sum(points[f] * counts[f] for f in range(SUITED)) + printed * jp
    best_key: tuple[int, ...] | None = None
    path: Path = None
    for st, (dead, trail) in top.items():
        runs, pure, nleft = statuses[st]
        if declaration:
            ok = runs >= need_runs and pure >= need_pure
            k: tuple[int, ...] = (0 if ok and nleft <= spare_ok else 1, dead if ok else total, dead)
        else:
            k = (dead,)
        if best_key is None or k < best_key:
            best_key, path = k, trail
    melds: list[Shape] = []
    leftover: list[int] = list(dead_printed)
    used_jokers = 0
    while path is not None:
        step, path = path
        if isinstance(step, int):
            leftover.append(step)
        elif step is not None:
            melds.append(step)
            used_jokers += step[2]
    # jokers not used in melds: printed ones sit out first, then wild cards
    natural_use = [0] * SUITED
    for _, faces, _ in melds:
        for g in faces:
            natural_use[g] += 1
    for g in leftover:
        if g < SUITED:
            natural_use[g] += 1
    joker_cards = [52] * counts[52] + [53] * counts[53] if supply else []
    for g in range(SUITED):
        joker_cards += [g] * (counts[g] - natural_use[g])
    idle = len(joker_cards) - used_jokers
    leftover += joker_cards[:idle]
    return tuple(sorted(melds)), tuple(sorted(leftover))




def extend_to_maximal(arrangement: ShapeArrangement, rules: MeldRules) -> ShapeArrangement:
    """Grow an arrangement until it is maximal, never hurting any objective.

    Leftover naturals join melds, spare jokers join sets and impure runs (never
    a pure run), and leftovers that hold a meld form it; repeat until stuck.
    """
    melds = [(m[0], m[1], m[2]) for m in arrangement[0]]
    left = list(arrangement[1])
    while True:
        if _add_natural(melds, left, rules) or _add_joker(melds, left, rules):
            continue
        new = _new_meld(left, rules)
        if new is None:
            return tuple(sorted(melds)), tuple(sorted(left))
        shape, used = new
        melds.append(shape)
        for g in used:
            left.remove(g)


def _jokers_in(left: list[int], rules: MeldRules) -> list[int]:
    """Joker-capable leftover cards, printed jokers first (wild cards may still
    be useful as themselves)."""
    return sorted((g for g in left if is_joker_face(g, rules)), key=lambda g: (g < SUITED, g))


def _add_natural(melds: list[Shape], left: list[int], rules: MeldRules) -> bool:
    for g in sorted(set(left)):
        if g >= SUITED:
            continue
        for i, (kind, faces, k) in enumerate(melds):
            grown = tuple(sorted((*faces, g)))
            if g not in faces and meld_ok(Kind(kind), grown, k, rules):
                melds[i] = (kind, grown, k)
                left.remove(g)
                return True
    return False


def _add_joker(melds: list[Shape], left: list[int], rules: MeldRules) -> bool:
    jokers = _jokers_in(left, rules)
    if not jokers:
        return False
    for i, (kind, faces, k) in enumerate(melds):
        if not (kind == 0 and k == 0) and meld_ok(Kind(kind), faces, k + 1, rules):
            melds[i] = (kind, faces, k + 1)
            left.remove(jokers[0])
            return True
    return False


def _new_meld(left: list[int], rules: MeldRules) -> tuple[Shape, list[int]] | None:
    """A smallest meld the leftovers hold: (shape, cards it takes)."""
    present = {g for g in left if g < SUITED}
    capable = _jokers_in(left, rules)
    supply = len(capable)

    def take(chosen: list[int], k: int) -> list[int]:
        spare = list(capable)
        for g in chosen:
            if g in spare:
                spare.remove(g)
        return chosen + spare[:k]

    for r in range(RANKS):
        nats = [s * RANKS + r for s in range(4) if s * RANKS + r in present]
        for n in range(min(len(nats), rules.set_max), 0, -1):
            chosen = nats[:n]
            k = max(0, rules.set_min - n)
            own = sum(1 for g in chosen if g in capable)  # wild cards used as themselves
            if k <= supply - own and meld_ok(Kind.SET, tuple(chosen), k, rules):
                return (1, tuple(chosen), k), take(chosen, k)
    geom = rules_geometry(rules)
    for s in range(4):
        for window in geom.windows(rules.run_min):
            chosen = sorted({s * RANKS + r for r in window if s * RANKS + r in present})
            if not chosen:
                continue
            k = rules.run_min - len(chosen)
            own = sum(1 for g in chosen if g in capable)
            if k <= supply - own and meld_ok(Kind.RUN, tuple(chosen), k, rules):
                return (0, tuple(chosen), k), take(chosen, k)
    return None
