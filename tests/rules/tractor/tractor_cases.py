"""Fast random (lead, hand, play) cases for the Tractor structure property tests.

Cases are drawn to exercise structure, not uniformly: leads are built face by
face with a per-case pair probability (so tractors and long mixed throws are
common), hands get a random share of the led suit, and plays are either
structure-seeking (a window of pairs in Φ order first), random within the led
suit, or random from the whole hand.  Deterministic for a given seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from engine.cards import FACES_PER_DECK
from rules.tractor.order import TRUMP, Trump, tables

SUIT_CHOICES: tuple[int | None, ...] = (0, 1, 2, 3, None)


@dataclass(frozen=True)
class Case:
    trump: Trump
    lead: tuple[int, ...]
    hand: tuple[int, ...]
    play: tuple[int, ...]


@cache
def faces_by_suit(trump: Trump) -> dict[int, tuple[int, ...]]:
    t = tables(trump)
    out: dict[int, list[int]] = {s: [] for s in range(5)}
    for f in range(FACES_PER_DECK):
        out[t.suit[f]].append(f)
    return {s: tuple(fs) for s, fs in out.items()}


def take_faces(
    rnd: random.Random, faces: tuple[int, ...], free: set[int], p_take: float, p_pair: float,
    limit: int,
) -> list[int]:
    """Walk ``faces`` in random order taking pairs or singles of free cards."""
    out: list[int] = []
    order = list(faces)
    rnd.shuffle(order)
    for f in order:
        if len(out) >= limit:
            break
        if rnd.random() >= p_take:
            continue
        copies = [c for c in (f, f + FACES_PER_DECK) if c in free]
        if not copies:
            continue
        if len(copies) == 2 and len(out) + 2 <= limit and rnd.random() < p_pair:
            chosen = copies
        else:
            chosen = [rnd.choice(copies)]
        out += chosen
        free.difference_update(chosen)
    return out


def runs_pattern(
    rnd: random.Random, faces: tuple[int, ...], free: set[int], limit: int, longest: int
) -> list[int]:
    """Runs of 1..``longest`` pairs in Φ order, broken by a single or a skipped face."""
    out: list[int] = []
    i = rnd.randrange(0, 3)
    while i < len(faces) and len(out) < limit:
        for f in faces[i : i + rnd.randrange(1, longest + 1)]:
            i += 1
            if f in free and f + FACES_PER_DECK in free and len(out) + 2 <= limit:
                out += [f, f + FACES_PER_DECK]
                free.difference_update((f, f + FACES_PER_DECK))
        if i < len(faces) and rnd.random() < 0.5:
            copies = [c for c in (faces[i], faces[i] + FACES_PER_DECK) if c in free]
            if copies and len(out) < limit:
                out.append(copies[0])
                free.discard(copies[0])
        i += 1
    return out


def make_case(rnd: random.Random, long_lead: bool = False) -> Case:
    """One random case; ``long_lead`` favours throws of 12..25 cards.

    A third of the other cases are tractor-rich: lead and hand are both runs
    of pairs, so the tractor steps of the degradation chain decide.
    """
    trump = Trump(rnd.randrange(13), rnd.choice(SUIT_CHOICES))
    by_suit = faces_by_suit(trump)
    t = tables(trump)
    suit = t.suit
    led = TRUMP if rnd.random() < 0.4 else rnd.randrange(4)
    if not by_suit[led]:
        led = TRUMP  # the trump suit has no natural cards left
    free = set(range(2 * FACES_PER_DECK))
    if not long_lead and rnd.random() < 0.33:
        in_order = tuple(sorted(by_suit[led], key=lambda f: (t.phi[f], f)))
        lead = runs_pattern(rnd, in_order, free, rnd.randrange(4, 13), 4)
        if lead:
            hand = runs_pattern(rnd, in_order, free, len(lead) + rnd.randrange(1, 8), 3)
            hand += take_faces(rnd, by_suit[led], free, 0.3, 0.2, rnd.randrange(0, 3))
            size = max(len(lead), min(25, len(hand) + rnd.randrange(0, 6)))
            if size > len(hand):
                others = [c for c in free if suit[c % FACES_PER_DECK] != led]
                hand += rnd.sample(sorted(others), size - len(hand))
            play = make_play(rnd, trump, led, hand, len(lead))
            return Case(trump, tuple(lead), tuple(hand), tuple(play))
        free = set(range(2 * FACES_PER_DECK))
    if long_lead:
        lead = take_faces(rnd, by_suit[led], free, 0.95, rnd.choice((0.7, 0.9, 1.0)), 25)
    else:
        size = rnd.choice((1, 2, 3, 4, 4, 5, 6, 6, 7, 8, 10, 12))
        lead = take_faces(rnd, by_suit[led], free, rnd.choice((0.3, 0.6, 0.9)),
                          rnd.choice((0.3, 0.6, 0.9)), size)
    if not lead:
        lead = [by_suit[led][0]]
        free.discard(lead[0])
    k = len(lead)
    h_suit = rnd.choice((0, rnd.randrange(0, k + 1), k + rnd.randrange(1, 9),
                         k + rnd.randrange(1, 9), rnd.randrange(0, 26)))
    hand = take_faces(rnd, by_suit[led], free, rnd.choice((0.5, 0.8, 1.0)),
                      rnd.choice((0.2, 0.5, 0.8)), h_suit)
    size = max(k, min(25, len(hand) + rnd.randrange(0, 10)))
    if size > len(hand):
        others = [c for c in free if suit[c % FACES_PER_DECK] != led]
        hand += rnd.sample(sorted(others), size - len(hand))
    play = make_play(rnd, trump, led, hand, k)
    return Case(trump, tuple(lead), tuple(hand), tuple(play))


def make_play(rnd: random.Random, trump: Trump, led: int, hand: list[int], k: int) -> list[int]:
    """A play of ``k`` cards from ``hand``: mostly suit-following, often structured."""
    t = tables(trump)
    in_suit = [c for c in hand if t.suit[c % FACES_PER_DECK] == led]
    rest = [c for c in hand if t.suit[c % FACES_PER_DECK] != led]
    r = rnd.random()
    if r < 0.1 or len(hand) == k:
        return rnd.sample(hand, k)
    if len(in_suit) <= k:
        return in_suit + rnd.sample(rest, k - len(in_suit))
    if r < 0.35:
        return rnd.sample(in_suit, k)
    faces: dict[int, list[int]] = {}
    for c in in_suit:
        faces.setdefault(c % FACES_PER_DECK, []).append(c)
    pairs = sorted((f for f, cs in faces.items() if len(cs) == 2), key=lambda f: t.phi[f])
    take = rnd.randrange(0, min(len(pairs), k // 2) + 1)
    start = rnd.randrange(0, len(pairs) - take + 1)
    chosen = [c for f in pairs[start : start + take] for c in faces[f]]
    left = [c for c in in_suit if c not in chosen]
    return chosen + rnd.sample(left, k - len(chosen))


def ids(text: str, taken: set[int] | None = None) -> tuple[int, ...]:
    """Card ids for a spelling like ``"AS AS 2D"``: repeats get the next copy.

    Pass ``taken`` to share copies across several calls (a lead, then a hand).
    """
    from engine.cards import parse_faces

    used = taken if taken is not None else set()
    out = []
    for f in parse_faces(text):
        c = f if f not in used else f + FACES_PER_DECK
        if c in used:
            raise ValueError(f"more than two copies of {text!r}")
        used.add(c)
        out.append(c)
    return tuple(out)
