"""Tuples: units of any width (triples, quadruples) for games of three or more
decks, and the follow-protection policies (docs/tractor.md, "Tuples and draw
policies").

A *shape* lists the widths of adjacent faces: ``(1,)`` a single, ``(3,)`` a
triple, ``(2, 2)`` a tractor of two pairs, ``(3, 3, 3)`` a tractor of three
triples; a *requirement* is a list of shapes, largest first.  A follower's duty
is a chain of requirements: the lead's own shapes, then ever weaker ones
(:func:`decomposition_chain`, the order rbtying/shengji uses).  Walking it, the
first requirement that the play meets makes the play legal, and the first one
the hand could have met (under the draw policy) while the play does not makes it
illegal.  Matching a requirement is a small search over the faces of one
effective suit, memoised on the face counts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from functools import lru_cache

from engine.cards import FACES_PER_DECK
from engine.errors import IllegalAction
from rules.tractor.chain import (
    Requirement,
    Shape,
    decomposition_chain,
    full_decomposition,
    walk_chain,
)
from rules.tractor.options import BombPolicy, TrickDrawPolicy
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.units import Structure, Template, Unit, suit_of_play

__all__ = ["decomposition_chain", "full_decomposition"]  # the chain lives in chain.py

Counts = tuple[tuple[int, int], ...]
"""Face counts as a sorted tuple of (face, copies): hashable, for the memo."""


# ----------------------------------------------------------------------------
# Adjacency


@lru_cache(maxsize=64)
def _successors(trump: Trump) -> tuple[tuple[int, ...], ...]:
    """For each face, the faces of its effective suit whose Φ is one higher."""
    t = tables(trump)
    at: dict[tuple[int, int], list[int]] = {}
    for f in range(FACES_PER_DECK):
        at.setdefault((t.suit[f], t.phi[f]), []).append(f)
    return tuple(tuple(at.get((t.suit[f], t.phi[f] + 1), ())) for f in range(FACES_PER_DECK))


def _counts(cards: Sequence[int]) -> Counter[int]:
    return Counter(c % FACES_PER_DECK for c in cards)


def _key(counts: Counter[int] | dict[int, int]) -> Counts:
    return tuple(sorted((f, n) for f, n in counts.items() if n > 0))


# ----------------------------------------------------------------------------
# The lead's decomposition


def _runs(face: int, width: int, counts: dict[int, int], succ: Sequence[Sequence[int]]
          ) -> Iterator[tuple[int, ...]]:
    """Every chain of adjacent faces from ``face`` holding ``width`` copies each
    (length 2 or more)."""
    stack: list[tuple[int, ...]] = [(face,)]
    while stack:
        chain = stack.pop()
        if len(chain) >= 2:
            yield chain
        for nxt in succ[chain[-1]]:
            if counts.get(nxt, 0) >= width and nxt not in chain:
                stack.append((*chain, nxt))


def unit_shape(unit: Unit) -> Shape:
    """A unit's shape: the copies of each of its faces, lowest face first."""
    faces = Counter(c % FACES_PER_DECK for c in unit.cards)
    seen = list(dict.fromkeys(c % FACES_PER_DECK for c in unit.cards))
    return tuple(faces[f] for f in seen)


def decompose(cards: Sequence[int], trump: Trump) -> Structure:
    """A lead of one effective suit cut into units, the biggest first.

    Repeatedly takes the unit with the most cards, a tractor before a tuple of
    as many cards (shengji's format keeps the decomposition whose largest unit
    is biggest, tractors first), the highest among equals.  A tuple takes every
    copy of its face; a tractor is rectangular (each face gives ``width``
    copies).  Raises ValueError for cards of several effective suits.
    """
    s = suit_of_play(cards, trump)
    if s is None:
        raise ValueError("a play to decompose must lie in one effective suit")
    phi = tables(trump).phi
    succ = _successors(trump)
    by_face: dict[int, list[int]] = {}
    for c in sorted(cards):
        by_face.setdefault(c % FACES_PER_DECK, []).append(c)
    counts = {f: len(ids) for f, ids in by_face.items()}
    units: list[tuple[tuple[int, int, int], Unit]] = []
    while counts:
        best: tuple[tuple[int, int, int], tuple[int, ...], int] | None = None
        cand: tuple[tuple[int, int, int], tuple[int, ...], int]
        for f, n in counts.items():
            cand = ((n, 0, phi[f]), (f,), n)
            if best is None or cand[0] > best[0]:
                best = cand
            for w in range(2, n + 1):
                for chain in _runs(f, w, counts, succ):
                    cand = ((w * len(chain), 1, phi[chain[-1]]), chain, w)
                    if cand[0] > best[0]:
                        best = cand
        assert best is not None
        key, chain, w = best
        taken: list[int] = []
        for f in chain:
            ids = by_face[f]
            taken += ids[:w]
            by_face[f] = ids[w:]
            counts[f] -= w
            if not counts[f]:
                del counts[f]
        units.append((key, Unit(tuple(taken))))
    units.sort(key=lambda ku: (-ku[0][0], -ku[0][1], -ku[0][2]))
    ordered = tuple(u for _, u in units)
    return Structure(s, ordered, _template_of(ordered), tuple(unit_shape(u) for u in ordered))


def _template_of(units: Sequence[Unit]) -> Template:
    """The classic template nearest to these units (a description only: a
    triple counts as a pair and a single)."""
    tractors: list[int] = []
    pairs = singles = 0
    for u in units:
        shape = unit_shape(u)
        if len(shape) >= 2:
            tractors.append(len(shape))
        elif shape[0] >= 2:
            pairs += 1
        else:
            singles += 1
    return Template(tuple(sorted(tractors, reverse=True)), pairs, singles)


def describe(req: Requirement) -> str:
    """A short description (``a triple + 2 singles``)."""
    names = {1: "single", 2: "pair", 3: "triple", 4: "quadruple"}

    def one(shape: Shape) -> str:
        if len(shape) == 1:
            return names.get(shape[0], f"{shape[0]}-tuple")
        kinds = " and ".join(names.get(w, f"{w}-tuple") + "s" for w in dict.fromkeys(shape))
        return f"tractor of {len(shape)} {kinds}"

    counts = Counter(req)
    return " + ".join(one(s) if n == 1 else f"{n} × {one(s)}" for s, n in counts.items())


# ----------------------------------------------------------------------------
# Matching a requirement


def _assignments(counts: dict[int, int], shapes: Sequence[Shape], trump: Trump,
                 protect: bool, original: dict[int, int] | None = None,
                 floor: int = 0) -> Iterator[list[tuple[int, ...]]]:
    """Every way to take ``shapes`` (in order) from ``counts``: for each shape
    the faces used, lowest first.  ``protect``: a face is never split to fill a
    slot of 2 or more narrower than the copies the hand holds (a triple is not
    broken for a pair).  Blocks of one shape take their start faces in
    ascending order (``floor``), so no matching is listed twice in another order."""
    if not shapes:
        yield []
        return
    held = original if original is not None else dict(counts)
    shape, rest = shapes[0], shapes[1:]
    succ = _successors(trump)
    phi = tables(trump).phi
    order = sorted(held, key=lambda f: (phi[f], f))

    def fits(face: int, width: int) -> bool:
        return counts.get(face, 0) >= width and not (
            protect and width >= 2 and held.get(face, 0) > width)

    def chains(prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if len(prefix) == len(shape):
            yield prefix
            return
        for nxt in succ[prefix[-1]]:
            if fits(nxt, shape[len(prefix)]) and nxt not in prefix:
                yield from chains((*prefix, nxt))

    for i in range(floor, len(order)):
        face = order[i]
        if not fits(face, shape[0]):
            continue
        for chain in chains((face,)):
            for f, w in zip(chain, shape, strict=True):
                counts[f] -= w
            try:
                nxt_floor = i if rest and rest[0] == shape else 0
                for more in _assignments(counts, rest, trump, protect, held, nxt_floor):
                    yield [chain, *more]
            finally:
                for f, w in zip(chain, shape, strict=True):
                    counts[f] += w


def _tuples_fit(counts: dict[int, int], widths: Sequence[int], held: dict[int, int],
                protect: bool) -> bool:
    """Whether tuples of ``widths`` (no adjacency) can be taken from ``counts``.

    Best fit, widest first: each tuple goes to the face with the fewest copies
    left that still holds it (a triple to a face of three before one of four),
    which keeps the most room for the narrower ones; with widths and copies
    of at most four this is optimal.  Under protection a tuple takes a face
    only when the hand holds exactly that many copies of it."""
    room = [n for f, n in counts.items() if n > 0 and not (protect and held.get(f, 0) != n)]
    for w in sorted(widths, reverse=True):
        fitting = [i for i, n in enumerate(room) if n >= w and not (protect and n != w)]
        if not fitting:
            return False
        best = min(fitting, key=lambda i: room[i])
        room[best] -= w
    return True


@lru_cache(maxsize=1 << 16)
def _can_match(counts: Counts, req: Requirement, trump: Trump, protect: bool) -> bool:
    """Whether ``counts`` can be cut into ``req``.

    Singles fit any card left (they are never protected) and every placement
    of the other blocks leaves as many cards, so only the wider blocks count;
    tuples need no adjacency, so only the tractors are searched (few, with a
    memoised answer per hand), and the tuples are packed into what each
    tractor placement leaves (:func:`_tuples_fit`)."""
    if sum(sum(s) for s in req) > sum(n for _, n in counts):
        return False
    tractors = tuple(s for s in req if len(s) >= 2)
    widths = [s[0] for s in req if len(s) == 1 and s[0] >= 2]
    held = dict(counts)
    work = dict(counts)
    for _ in _assignments(work, tractors, trump, protect, held):
        # ``work`` holds what this placement leaves while the generator is paused.
        if _tuples_fit(work, widths, held, protect):
            return True
    return False


def can_match(cards: Sequence[int] | Counter[int], req: Requirement, trump: Trump,
              protect: bool = False) -> bool:
    """Whether ``cards`` (ids, or face counts) can be cut into ``req``."""
    counts = cards if isinstance(cards, Counter) else _counts(cards)
    return _can_match(_key(counts), req, trump, protect)


def lead_requirement(lead: Structure) -> Requirement:
    """The lead's shapes as a requirement."""
    shapes = lead.shapes or tuple(unit_shape(u) for u in lead.units)
    return tuple(sorted(shapes, reverse=True))


# ----------------------------------------------------------------------------
# Following


def _protects(policy: TrickDrawPolicy) -> bool:
    return policy in (TrickDrawPolicy.LONGER_TUPLES_PROTECTED,
                      TrickDrawPolicy.LONGER_TUPLES_PROTECTED_AND_ONLY_TRACTOR_ON_TRACTOR)


def _new_adjacency(policy: TrickDrawPolicy) -> bool:
    return policy not in (TrickDrawPolicy.ONLY_DRAW_TRACTOR_ON_TRACTOR,
                          TrickDrawPolicy.LONGER_TUPLES_PROTECTED_AND_ONLY_TRACTOR_ON_TRACTOR)


def required(lead: Structure, hand_in_suit: Sequence[int], trump: Trump,
             policy: TrickDrawPolicy) -> Requirement | None:
    """The first requirement of the chain the hand's cards of the suit can meet
    (None: none, so anything of the suit will do)."""
    key = _key(_counts(hand_in_suit))
    protect = _protects(policy)

    def holds(req: Requirement) -> bool:
        return _can_match(key, req, trump, protect)

    # The walk yields only requirements ``holds`` accepts: the first is the one.
    return next(walk_chain(lead_requirement(lead), _new_adjacency(policy), holds), None)


def is_bomb(cards: Sequence[int]) -> bool:
    """Four or more copies of one card (docs/tractor.md, "Bombs")."""
    return len(cards) >= 4 and len({c % FACES_PER_DECK for c in cards}) == 1


def bomb_beats(bomb: Sequence[int], other: Sequence[int], trump: Trump) -> bool:
    """Whether bomb ``bomb`` beats bomb ``other``: more cards, else a higher card
    (trump over a plain suit; two plain suits never beat each other)."""
    if len(bomb) != len(other):
        return len(bomb) > len(other)
    t = tables(trump)
    a, b = bomb[0] % FACES_PER_DECK, other[0] % FACES_PER_DECK
    if t.suit[a] != t.suit[b]:
        return t.suit[a] == TRUMP
    return t.phi[a] > t.phi[b]


def check_follow_tuples(lead: Structure, hand: Sequence[int], play: Sequence[int], trump: Trump,
                        policy: TrickDrawPolicy = TrickDrawPolicy.NO_PROTECTIONS,
                        bombs: BombPolicy = BombPolicy.NO_BOMBS) -> None:
    """Raise :class:`IllegalAction` unless ``play`` is a legal follow (rule:
    docs/tractor.md, "Tuples and draw policies", "Bombs")."""
    n = sum(len(u.cards) for u in lead.units)
    if len(play) != n:
        raise IllegalAction("wrong_count", f"play exactly {n} cards")
    if len(set(play)) != n:
        raise IllegalAction("duplicate_card", "the same card was named twice")
    held = set(hand)
    if any(c not in held for c in play):
        raise IllegalAction("not_in_hand", "you can only play cards from your hand")
    suit = tables(trump).suit
    in_suit = [c for c in hand if suit[c % FACES_PER_DECK] == lead.suit]
    if bombs is not BombPolicy.NO_BOMBS and is_bomb(play):
        bomb_suit = suit[play[0] % FACES_PER_DECK]
        if (bombs is BombPolicy.ALLOW_BOMBS or bomb_suit in (lead.suit, TRUMP)
                or not in_suit):
            return
    played_in_suit = [c for c in play if suit[c % FACES_PER_DECK] == lead.suit]
    if len(played_in_suit) < min(len(in_suit), n):
        raise IllegalAction("must_follow_suit", "play as many cards of the led suit as you can")
    if len(played_in_suit) < n or policy is TrickDrawPolicy.NO_FORMAT_BASED_DRAW:
        return  # all of the suit is played, or the format draws nothing
    protect = _protects(policy)
    play_counts = _counts(play)
    rest = _counts(in_suit) - play_counts
    play_key, hand_key = _key(play_counts), _key(_counts(in_suit))

    def by_play(req: Requirement) -> bool:
        return _can_match(play_key, req, trump, False)

    def by_hand(req: Requirement) -> bool:
        return _can_match(hand_key, req, trump, protect)

    # Only a requirement the play or the hand meets decides; the walk yields
    # those alone, in the chain's order, so its first is the deciding one.
    walk = walk_chain(lead_requirement(lead), _new_adjacency(policy),
                      lambda r: by_play(r) or by_hand(r))
    req = next(walk, None)
    if req is None or (by_play(req) and not (
            protect and _bypasses_genuine(req, play_counts, rest, trump))):
        return
    raise IllegalAction("must_match_structure",
                        f"your hand can follow with {describe(req)}; the play must too")


def _bypasses_genuine(req: Requirement, play: Counter[int], rest: Counter[int],
                      trump: Trump) -> bool:
    """Under protection a longer tuple in the play may fill a shorter slot only
    when the hand holds no tuple of exactly that width left unplayed."""
    for width in {s[0] for s in req if len(s) == 1 and s[0] >= 2}:
        slots = sum(1 for s in req if s == (width,))
        covered = sum(1 for n in play.values() if n == width)
        missing = slots - covered
        if missing > 0 and can_match(rest, ((width,),) * missing, trump, True):
            return True
    return False


def a_legal_follow_tuples(lead: Structure, hand: Sequence[int], trump: Trump,
                          policy: TrickDrawPolicy = TrickDrawPolicy.NO_PROTECTIONS,
                          order: Sequence[int] | None = None) -> tuple[int, ...]:
    """One legal follow: the requirement the hand must meet, lowest cards first
    (or in ``order``, a preference order of the hand's cards)."""
    t = tables(trump)
    n = sum(len(u.cards) for u in lead.units)
    pref = list(order) if order is not None else sorted(
        hand, key=lambda c: (t.phi[c % FACES_PER_DECK], c))
    in_suit = [c for c in pref if t.suit[c % FACES_PER_DECK] == lead.suit]
    if len(in_suit) <= n:
        others = [c for c in pref if t.suit[c % FACES_PER_DECK] != lead.suit]
        return (*in_suit, *others[: n - len(in_suit)])
    req = required(lead, in_suit, trump, policy)
    candidates: list[tuple[int, ...]] = []
    if req is not None and policy is not TrickDrawPolicy.NO_FORMAT_BASED_DRAW:
        counts = dict(_counts(in_suit))
        for k, assignment in enumerate(_assignments(counts, req, trump, _protects(policy))):
            if k >= 8:
                break
            taken: list[int] = []
            pool = list(in_suit)
            for chain, shape in zip(assignment, req, strict=True):
                for f, w in zip(chain, shape, strict=True):
                    ids = [c for c in pool if c % FACES_PER_DECK == f][:w]
                    taken += ids
                    for c in ids:
                        pool.remove(c)
            candidates.append((*taken, *pool[: n - len(taken)]))
    candidates.append(tuple(in_suit[:n]))
    for play in candidates:
        try:
            check_follow_tuples(lead, hand, play, trump, policy)
        except IllegalAction:
            continue
        return play
    raise AssertionError("no legal follow found")  # pragma: no cover - the chain ends in singles


# ----------------------------------------------------------------------------
# Trick comparison and throws


def matchings(play: Sequence[int], lead: Structure, trump: Trump) -> Iterator[tuple[Unit, ...]]:
    """Every way to cut ``play`` into the lead's units exactly (same shapes, no
    degradation), units in the lead's order."""
    shapes = [lead.shapes[i] if lead.shapes else unit_shape(u) for i, u in enumerate(lead.units)]
    by_face: dict[int, list[int]] = {}
    for c in sorted(play):
        by_face.setdefault(c % FACES_PER_DECK, []).append(c)
    counts = {f: len(ids) for f, ids in by_face.items()}
    for assignment in _assignments(counts, shapes, trump, False):
        used: dict[int, int] = {}
        units: list[Unit] = []
        for chain, shape in zip(assignment, shapes, strict=True):
            cards: list[int] = []
            for f, w in zip(chain, shape, strict=True):
                start = used.get(f, 0)
                cards += by_face[f][start:start + w]
                used[f] = start + w
            units.append(Unit(tuple(cards)))
        yield tuple(units)


def can_beat_tuple(unit: Unit, hand: Sequence[int], trump: Trump, suit: int) -> bool:
    """Whether ``hand`` holds, in ``suit``, a unit of the same shape starting higher."""
    t = tables(trump)
    shape = unit_shape(unit)
    low = t.phi[unit.cards[0] % FACES_PER_DECK]
    counts = {f: n for f, n in _counts(hand).items() if t.suit[f] == suit}
    higher = {f: n for f, n in counts.items() if t.phi[f] > low}
    starts = [f for f in higher if higher[f] >= shape[0]]
    for f in starts:
        rest = {**counts}
        if any(True for _ in _chain_from(f, shape, rest, trump)):
            return True
    return False


def _chain_from(face: int, shape: Shape, counts: dict[int, int], trump: Trump
                ) -> Iterator[tuple[int, ...]]:
    succ = _successors(trump)

    def go(prefix: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if len(prefix) == len(shape):
            yield prefix
            return
        for nxt in succ[prefix[-1]]:
            if counts.get(nxt, 0) >= shape[len(prefix)]:
                yield from go((*prefix, nxt))

    if counts.get(face, 0) >= shape[0]:
        yield from go((face,))
