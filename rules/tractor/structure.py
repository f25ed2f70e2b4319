"""Lead decomposition (getStructure) and follow validation (sameStructure).

Vocabulary (docs/tractor.md, "Units, leads and throws"): a *single*; a
*pair* = both copies of one face; a *tractor* = two or more pairs with
consecutive Φ in one effective suit.  A lead's *template* is its greedy
decomposition: longest tractors first, then pairs, then singles.

Follow validation answers the rule's legality question -- does the play match
the template at least as well as the best match the hand could have produced?
-- with an exact, polynomial-size check instead of the paper's search over all
n! orderings of the template's blocks.  docs/tractor.md explains why the check
is exact and what it costs; in short, a card set satisfies a template iff

* it has at least as many cards and at least as many pairs as the template, and
* the template's tractors can be carved out of the set's runs of consecutive
  pairs (a tiny bin packing, memoised),

because degradation lets pairs and singles take cards from anywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from engine.cards import FACES_PER_DECK
from engine.errors import IllegalAction
from engine.rng import Rng
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.units import Structure, Template, Unit, suit_of_play

# ----------------------------------------------------------------------------
# Grouping cards by face and by Φ


def _pair_faces(cards: Iterable[int]) -> tuple[dict[int, list[int]], list[int]]:
    """Cards grouped by face, and the faces held twice (the pairs)."""
    by_face: dict[int, list[int]] = {}
    for c in cards:
        by_face.setdefault(c % FACES_PER_DECK, []).append(c)
    return by_face, [f for f, ids in by_face.items() if len(ids) >= 2]


def _tuples_present(*card_sets: Sequence[int]) -> bool:
    """Whether some face appears three or more times (three or more decks)."""
    for cards in card_sets:
        if not cards or (len(set(cards)) == len(cards)
                         and min(cards) >= 0 and max(cards) < 2 * FACES_PER_DECK):
            continue  # distinct ids of two decks: two copies of a face at most
        seen: dict[int, int] = {}
        for c in cards:
            f = c % FACES_PER_DECK
            seen[f] = seen.get(f, 0) + 1
            if seen[f] >= 3:
                return True
    return False


def get_structure(cards: Sequence[int], trump: Trump, *, pairs_only: bool = False) -> Structure:
    """Greedy decomposition of a play of one effective suit (paper §4.1).

    Repeatedly take the longest run of consecutive Φ among the remaining pair
    faces (one face per Φ value, so two off-suit CR pairs never chain to each
    other), down to length 2; leftover pairs are pairs, the rest singles.
    Among equally long runs the highest is taken, so the result is
    deterministic.  Raises ValueError for cards of several effective suits.

    Three or more copies of a face are cut into tuples by rules/tractor/tuples.py
    (docs/tractor.md, "Tuples and draw policies") unless ``pairs_only`` (the
    version-1 rules).
    """
    if not pairs_only and _tuples_present(cards):
        from rules.tractor.tuples import decompose  # tuples builds on this module

        return decompose(cards, trump)
    s = suit_of_play(cards, trump)
    if s is None:
        raise ValueError("a play to decompose must lie in one effective suit")
    phi = tables(trump).phi
    by_face, pair_faces = _pair_faces(cards)
    at: dict[int, list[int]] = {}
    for f in sorted(pair_faces):
        at.setdefault(phi[f], []).append(f)
    units: list[Unit] = []
    tractor_lengths: list[int] = []
    while True:
        best_lo, best_len = 0, 0
        for v in sorted(at):
            if not at[v] or (v - 1 in at and at[v - 1]):
                continue  # not the bottom of a run
            n = 1
            while v + n in at and at[v + n]:
                n += 1
            if n >= best_len:
                best_lo, best_len = v, n
        if best_len < 2:
            break
        faces = [at[best_lo + i].pop() for i in range(best_len)]
        units.append(Unit(tuple(c for f in faces for c in sorted(by_face[f])[:2])))
        tractor_lengths.append(best_len)
    leftover_pairs = sorted((f for fs in at.values() for f in fs), key=lambda f: (-phi[f], f))
    for f in leftover_pairs:
        units.append(Unit(tuple(sorted(by_face[f])[:2])))
    used = {c for u in units for c in u.cards}
    singles = sorted((c for c in cards if c not in used),
                     key=lambda c: (-phi[c % FACES_PER_DECK], c))
    units.extend(Unit((c,)) for c in singles)
    order = sorted(range(len(tractor_lengths)), key=lambda i: -tractor_lengths[i])
    tractor_units = [units[i] for i in order]
    units = tractor_units + units[len(tractor_lengths):]
    template = Template(tuple(sorted(tractor_lengths, reverse=True)), len(leftover_pairs),
                        len(singles))
    return Structure(s, tuple(units), template)


# ----------------------------------------------------------------------------
# What a card set can supply: cards, pairs, and runs of consecutive pairs


@dataclass(frozen=True)
class Profile:
    """Everything template matching needs to know about a card set of one suit.

    ``runs`` lists alternative run configurations (lengths in pairs, longest
    first, runs shorter than 2 dropped).  There are two alternatives only when
    two or more off-suit CR pairs (no trump: CR pairs) share one Φ value v:
    one tractor may pass through v (the run counts v once), or one tractor may
    end at v and another start there (the run splits into two, both holding v).
    More than two tractors can never use v, since each also needs v-1 or v+1.
    """

    cards: int
    pairs: int
    runs: tuple[tuple[int, ...], ...]


def profile(cards: Sequence[int], trump: Trump) -> Profile:
    """The profile of a card set (normally the cards of one effective suit)."""
    phi = tables(trump).phi
    seen: set[int] = set()
    pair_faces: set[int] = set()
    for c in cards:
        f = c % FACES_PER_DECK
        if f in seen:
            pair_faces.add(f)
        else:
            seen.add(f)
    values = sorted([phi[f] for f in pair_faces])  # a repeated value is a Φ tie
    # Walk the segments of consecutive values (a sentinel closes the last one):
    # ``length`` counts each value once, ``tie`` is the position of the first tie.
    plain: list[int] = []  # runs of 2 or more, without a tie
    alt: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    length, tie, prev = 0, None, -2
    for v in [*values, values[-1] + 2] if values else ():
        if v == prev:
            if tie is None:
                tie = length - 1
        elif v == prev + 1:
            length += 1
        else:
            if tie is not None:
                alt = ((length,), (tie + 1, length - tie))
            elif length >= 2:
                plain.append(length)
            length, tie = 1, None
        prev = v
    if alt is None:
        return Profile(len(cards), len(pair_faces), (tuple(sorted(plain, reverse=True)),))
    through, split = (tuple(sorted(plain + [r for r in a if r >= 2], reverse=True))
                      for a in alt)
    runs = (through,) if through == split else (through, split)
    return Profile(len(cards), len(pair_faces), runs)


def _pack(needs: tuple[int, ...], runs: tuple[int, ...]) -> bool:
    """Can tractors of lengths ``needs`` be carved out of runs ``runs``?

    Both sorted longest first.  Carving a tractor from the end of a run leaves
    one shorter run, which dominates carving from the middle (two pieces with
    the same total), so this is bin packing with at most 6 items (12 pairs);
    equal runs are tried once and results are memoised.  The bounds are tested
    before the memo: most misses are cheap, and a cache lookup is not.
    """
    if not needs:
        return True
    if not runs or needs[0] > runs[0] or sum(needs) > sum(runs):
        return False
    return _pack_search(needs, runs)


@lru_cache(maxsize=1 << 16)
def _pack_search(needs: tuple[int, ...], runs: tuple[int, ...]) -> bool:
    """:func:`_pack`'s search, for needs its bounds leave open (memoised)."""
    first, rest = needs[0], needs[1:]
    tried: set[int] = set()
    for i, r in enumerate(runs):
        if r < first:
            break
        if r in tried:
            continue
        tried.add(r)
        left = runs[:i] + runs[i + 1 :]
        if r - first >= 2:
            left = tuple(sorted((*left, r - first), reverse=True))
        if _pack(rest, left):
            return True
    return False


def _carves(needs: tuple[int, ...], options: tuple[tuple[int, ...], ...]) -> bool:
    """Whether tractors ``needs`` can be carved out of one of the run
    configurations ``options``."""
    return any(_pack(needs, runs) for runs in options)


def satisfies(template: Template, prof: Profile) -> bool:
    """Whether a card set with profile ``prof`` can be sliced to meet ``template``.

    This is the paper's existence criterion (§3.2) with degradation: tractors
    supply pairs, pairs supply singles.
    """
    if template.cards > prof.cards or template.pair_total > prof.pairs:
        return False
    return _carves(template.tractors, prof.runs)


def _tractor_steps(template: Template) -> Iterator[tuple[tuple[int, ...], int]]:
    """Tractors and pairs of the degradation chain's head: the template's, then
    one step per tractor pair shed, down to the first step without tractors.
    Every step keeps the singles and the card and pair totals."""
    tractors, pairs = template.tractors, template.pairs
    yield tractors, pairs
    while tractors:
        longest, tractors = tractors[0], tractors[1:]
        if longest > 2:
            tractors = tuple(sorted((*tractors, longest - 1), reverse=True))
            pairs += 1
        else:
            pairs += 2
        yield tractors, pairs


def degradation_chain(template: Template) -> list[Template]:
    """The lead's template followed by ever weaker versions of it.

    Each step shortens the longest tractor by one pair (a 2-pair tractor
    becomes two pairs); when no tractor is left, each step splits one pair into
    two singles.  Every step is a refinement, so a set that satisfies one
    element satisfies all later ones.
    """
    singles = template.singles
    chain = [template]
    chain += [Template(t, p, singles) for t, p in list(_tractor_steps(template))[1:]]
    pairs = chain[-1].pairs
    while pairs:
        pairs -= 1
        singles += 2
        chain.append(Template((), pairs, singles))
    return chain


def required_template(lead: Template, hand_in_suit: Profile) -> Template:
    """The strongest element of the lead's chain that the hand can satisfy.

    Walks the chain's tractor steps only when the hand has the pairs they all
    need (they share the lead's pair total); otherwise the answer is the pair
    step that asks for exactly the hand's pairs.
    """
    if lead.cards > hand_in_suit.cards:  # pragma: no cover - check_follow rules it out
        raise AssertionError("the all-singles template is always satisfiable")
    short = lead.pair_total - hand_in_suit.pairs
    if short > 0:
        return Template((), hand_in_suit.pairs, lead.singles + 2 * short)
    for tractors, pairs in _tractor_steps(lead):
        if _carves(tractors, hand_in_suit.runs):
            return Template(tractors, pairs, lead.singles)
    raise AssertionError("the last tractor step has no tractors")  # pragma: no cover


# ----------------------------------------------------------------------------
# Validation


def check_lead(cards: Sequence[int], trump: Trump, *, pairs_only: bool = False) -> Structure:
    """Validate the shape of a lead (one effective suit) and decompose it."""
    if not cards:
        raise IllegalAction("empty_play", "play at least one card")
    if len(set(cards)) != len(cards):
        raise IllegalAction("duplicate_card", "the same card was named twice")
    if suit_of_play(cards, trump) is None:
        raise IllegalAction("mixed_suits", "a lead must lie in one suit, or be all trump")
    return get_structure(cards, trump, pairs_only=pairs_only)


def _led(lead: Sequence[int] | Structure, trump: Trump) -> tuple[int, Template]:
    """The led suit and the lead's template, as :func:`get_structure` (pairs
    only) gives them, without building the units when the lead is card ids.

    The greedy takes each maximal run of pair values whole: runs lie apart,
    and within one suit only off-suit CR pairs share a value, so a run through
    it leaves at most a lone pair there.  Its tractors are then the profile's
    runs with the tie passed through (the first alternative).
    """
    if isinstance(lead, Structure):
        return lead.suit, lead.template
    s = suit_of_play(lead, trump)
    if s is None or len(set(lead)) != len(lead):  # a repeated id: as get_structure counts it
        led = get_structure(lead, trump, pairs_only=True)
        return led.suit, led.template
    prof = profile(lead, trump)
    tractors = prof.runs[0]
    return s, Template(tractors, prof.pairs - sum(tractors), prof.cards - 2 * prof.pairs)


def check_follow(
    lead: Sequence[int] | Structure, hand: Sequence[int], play: Sequence[int], trump: Trump,
    *, pairs_only: bool = False,
) -> None:
    """Raise :class:`IllegalAction` unless ``play`` is a legal follow.

    ``hand`` is the follower's whole hand before playing (it contains
    ``play``).  Rules (docs/tractor.md, "Following"): as many cards as
    the lead; as many cards of the led effective suit as the hand allows; and
    when the hand has more cards of that suit than the lead, the play must
    satisfy the strongest element of the lead's degradation chain that the
    hand's cards of that suit could satisfy.  With three or more copies of a
    face the tuple rules decide (default draw policy) unless ``pairs_only``.
    """
    if not pairs_only and (_tuples_present(hand) or (isinstance(lead, Structure) and lead.shapes)
                           or (not isinstance(lead, Structure) and _tuples_present(lead))):
        from rules.tractor.tuples import check_follow_tuples, decompose

        cut = decompose(list(lead.cards_all if isinstance(lead, Structure) else lead), trump)
        check_follow_tuples(cut, hand, play, trump)
        return
    led_suit, led_template = _led(lead, trump)
    n = led_template.cards
    if len(play) != n:
        raise IllegalAction("wrong_count", f"play exactly {n} cards")
    if len(set(play)) != n:
        raise IllegalAction("duplicate_card", "the same card was named twice")
    if not set(hand).issuperset(play):
        raise IllegalAction("not_in_hand", "you can only play cards from your hand")
    suit = tables(trump).suit
    in_suit = [c for c in hand if suit[c % FACES_PER_DECK] == led_suit]
    played_in_suit = [c for c in play if suit[c % FACES_PER_DECK] == led_suit]
    if len(played_in_suit) < min(len(in_suit), n):
        what = "trump" if led_suit == TRUMP else "the led suit"
        raise IllegalAction("must_follow_suit", f"play as many cards of {what} as you can")
    if len(in_suit) <= n:
        return  # every card of the suit is played: nothing left to choose
    need = required_template(led_template, profile(in_suit, trump))
    if not satisfies(need, profile(play, trump)):
        raise IllegalAction(
            "must_match_structure",
            f"your hand can follow with {need.describe()}; the play must too",
        )


def is_legal_follow(
    lead: Sequence[int] | Structure, hand: Sequence[int], play: Sequence[int], trump: Trump,
    *, pairs_only: bool = False,
) -> bool:
    """Boolean form of :func:`check_follow`."""
    try:
        check_follow(lead, hand, play, trump, pairs_only=pairs_only)
    except IllegalAction:
        return False
    return True


def conforms(lead: Sequence[int] | Structure, play: Sequence[int], trump: Trump,
             *, pairs_only: bool = False) -> bool:
    """Whether a play can compete for the trick (rule: "Winning a trick").

    It must be wholly in the led suit or wholly trump, and its own cards must
    satisfy the lead's full template (no degradation below the template).
    """
    led = lead if isinstance(lead, Structure) else get_structure(lead, trump,
                                                                 pairs_only=pairs_only)
    if led.shapes and not pairs_only:
        from rules.tractor.tuples import matchings

        s = suit_of_play(play, trump)
        return (s is not None and s in (led.suit, TRUMP) and len(play) == led.size
                and next(matchings(play, led, trump), None) is not None)
    s = suit_of_play(play, trump)
    if s is None or s not in (led.suit, TRUMP) or len(play) != led.template.cards:
        return False
    return satisfies(led.template, profile(play, trump))


# ----------------------------------------------------------------------------
# Constructing a legal follow (for Game.legal and bots)


def _carve_tractors(
    lengths: Sequence[int], faces: list[int], phi: Sequence[int]
) -> list[list[int]] | None:
    """Concrete pair faces for tractors of ``lengths`` (longest first), or None.

    Backtracks over start values and, at a Φ tie, over which face to use;
    ``faces`` order (possibly shuffled) decides which solution comes first.
    """
    if not lengths:
        return []
    at: dict[int, list[int]] = {}
    for f in faces:
        at.setdefault(phi[f], []).append(f)
    starts = list(dict.fromkeys(phi[f] for f in faces))

    def runs(v: int, left: int, acc: list[int]) -> list[list[int]]:
        if left == 0:
            return [acc]
        return [r for f in at.get(v, []) for r in runs(v + 1, left - 1, [*acc, f])]

    for v in starts:
        for chosen in runs(v, lengths[0], []):
            rest = [f for f in faces if f not in chosen]
            more = _carve_tractors(lengths[1:], rest, phi)
            if more is not None:
                return [chosen, *more]
    return None


def a_legal_follow(
    lead: Sequence[int] | Structure,
    hand: Sequence[int],
    trump: Trump,
    rng: Rng | None = None,
    key: Callable[[int], Any] | None = None,
    *,
    pairs_only: bool = False,
) -> tuple[int, ...]:
    """One legal follow: the lowest cards that meet the duty, or a random one with ``rng``.

    Meets the required template with concrete tractors, then pairs, then
    singles from the led suit; short of the suit, plays all of it and fills
    with other cards.  ``key`` (card id -> sort key) replaces "lowest" as the
    preference order, so bots can prefer points or trumps.  ``check_follow``
    accepts every result.
    """
    if not pairs_only and (_tuples_present(hand) or (isinstance(lead, Structure) and lead.shapes)
                           or (not isinstance(lead, Structure) and _tuples_present(lead))):
        from rules.tractor.tuples import a_legal_follow_tuples, decompose

        t = tables(trump)
        cut = decompose(list(lead.cards_all if isinstance(lead, Structure) else lead), trump)
        prefer = (rng.shuffled(list(hand)) if rng is not None else
                  sorted(hand, key=key or (lambda c: (t.phi[c % FACES_PER_DECK], c))))
        return a_legal_follow_tuples(cut, hand, trump, order=prefer)
    led = lead if isinstance(lead, Structure) else get_structure(lead, trump, pairs_only=True)
    n = led.template.cards
    t = tables(trump)
    suit, phi = t.suit, t.phi

    def order(cards: list[int]) -> list[int]:
        if rng is not None:
            return rng.shuffled(cards)
        if key is not None:
            return sorted(cards, key=key)
        return sorted(cards, key=lambda c: (phi[c % FACES_PER_DECK], c))

    in_suit = [c for c in hand if suit[c % FACES_PER_DECK] == led.suit]
    if len(in_suit) <= n:
        others = order([c for c in hand if suit[c % FACES_PER_DECK] != led.suit])
        return (*in_suit, *others[: n - len(in_suit)])
    need = required_template(led.template, profile(in_suit, trump))
    by_face, pair_faces = _pair_faces(in_suit)
    faces = order(pair_faces)
    tractors = _carve_tractors(need.tractors, faces, phi)
    if tractors is None:  # pragma: no cover - satisfies() said the packing exists
        raise AssertionError("required template cannot be carved")
    used = {f for run in tractors for f in run}
    chosen = [f for run in tractors for f in run]
    chosen += [f for f in faces if f not in used][: need.pairs]
    play = [c for f in chosen for c in sorted(by_face[f])[:2]]
    rest = order([c for c in in_suit if c not in set(play)])
    return (*play, *rest[: n - len(play)])
