"""Who wins a trick.

docs/tractor.md, "Winning a trick": only plays wholly in the led suit
or wholly trump that conform to the lead's template can win; trump beats the
led suit; between conforming plays of one effective suit the challenger must
beat the *current winner*, not only the leader.  Three comparisons (option
``trick_comparison``):

* ALL_UNITS (default): some way of matching the challenger's cards to the
  template makes every unit strictly higher than the winner's unit of the same
  kind, units of a kind paired highest-to-highest;
* HIGHEST_CARD: only the highest card of each play is compared;
* LARGEST_UNIT_FIRST: units compared in template order (longest tractors,
  pairs, singles; highest first within a kind); the first difference decides.

Ties never overtake: a challenger equal to the winner does not win.  A unit's
strength is the Φ of its highest card.  When a play takes the lead, the
matching recorded for it is its strongest one (units compared in template
order), which is what later challengers must beat.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from engine.cards import FACES_PER_DECK
from rules.tractor import tuples
from rules.tractor.options import TrickComparison
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.structure import Structure, Template, Unit, conforms, suit_of_play


@dataclass(frozen=True)
class Matching:
    """A play's cards cut into the lead's template: units in template order."""

    suit: int
    units: tuple[Unit, ...]

    def strengths(self, trump: Trump) -> tuple[int, ...]:
        phi = tables(trump).phi
        return tuple(max(phi[c % FACES_PER_DECK] for c in u.cards) for u in self.units)


def matchings(play: Sequence[int], template: Template, trump: Trump) -> Iterator[Matching]:
    """Every way to cut ``play`` (one effective suit, conforming) into ``template``.

    Within a kind, units are listed highest first, so two matchings of one kind
    compare position by position highest-to-highest.
    """
    t = tables(trump)
    phi = t.phi
    suit = t.suit[play[0] % FACES_PER_DECK]
    by_face: dict[int, list[int]] = {}
    for c in play:
        by_face.setdefault(c % FACES_PER_DECK, []).append(c)
    pair_faces = sorted(f for f, cs in by_face.items() if len(cs) >= 2)

    def carve(lengths: list[int], free: frozenset[int]) -> Iterator[list[tuple[int, ...]]]:
        if not lengths:
            yield []
            return
        length, rest = lengths[0], lengths[1:]
        at: dict[int, list[int]] = {}
        for f in free:
            at.setdefault(phi[f], []).append(f)

        def runs(v: int, left: int, acc: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
            if left == 0:
                yield acc
                return
            for f in sorted(at.get(v, [])):
                yield from runs(v + 1, left - 1, (*acc, f))

        for v in sorted(at):
            for faces in runs(v, length, ()):
                for more in carve(rest, free - set(faces)):
                    yield [faces, *more]

    def unit(faces: Sequence[int]) -> Unit:
        return Unit(tuple(c for f in faces for c in sorted(by_face[f])[:2]))

    def key(u: Unit) -> int:
        return -max(phi[c % FACES_PER_DECK] for c in u.cards)

    for tractors in carve(list(template.tractors), frozenset(pair_faces)):
        used = {f for faces in tractors for f in faces}
        left_pairs = [f for f in pair_faces if f not in used]
        for chosen in combinations(left_pairs, template.pairs):
            taken = {c for f in (*used, *chosen) for c in sorted(by_face[f])[:2]}
            singles = [c for c in play if c not in taken]
            if len(singles) != template.singles:
                continue
            # Group tractor units by length (template order), highest first.
            t_units: list[Unit] = []
            for length in sorted(set(template.tractors), reverse=True):
                group = [unit(fs) for fs in tractors if len(fs) == length]
                t_units += sorted(group, key=key)
            p_units = sorted((unit((f,)) for f in chosen), key=key)
            s_units = sorted((Unit((c,)) for c in singles), key=key)
            yield Matching(suit, (*t_units, *p_units, *s_units))


def lead_matchings(play: Sequence[int], lead: Structure, trump: Trump) -> Iterator[Matching]:
    """Every way to cut ``play`` into the lead's units: the classic template, or
    the lead's tuple shapes (rules/tractor/tuples.py), units of one shape
    listed highest first."""
    if not lead.shapes:
        yield from matchings(play, lead.template, trump)
        return
    phi = tables(trump).phi
    suit = tables(trump).suit[play[0] % FACES_PER_DECK]

    def top(u: Unit) -> int:
        return max(phi[c % FACES_PER_DECK] for c in u.cards)

    for units in tuples.matchings(play, lead, trump):
        groups: dict[tuple[int, ...], list[Unit]] = {}
        for shape, u in zip(lead.shapes, units, strict=True):
            groups.setdefault(shape, []).append(u)
        ordered = [sorted(groups[shape], key=top, reverse=True)
                   for shape in dict.fromkeys(lead.shapes)]
        yield Matching(suit, tuple(u for g in ordered for u in g))


def _conforms(lead: Structure, play: Sequence[int], trump: Trump) -> bool:
    if not lead.shapes:
        return conforms(lead, play, trump, pairs_only=True)
    s = suit_of_play(play, trump)
    if s is None or s not in (lead.suit, TRUMP) or len(play) != lead.size:
        return False
    return next(tuples.matchings(play, lead, trump), None) is not None


def strongest(play: Sequence[int], template: Template | Structure, trump: Trump) -> Matching:
    """The matching whose unit strengths are greatest in template order."""
    found = (lead_matchings(play, template, trump) if isinstance(template, Structure)
             else matchings(play, template, trump))
    return max(found, key=lambda m: m.strengths(trump))


def beats_winner(
    challenger: Sequence[int],
    winner: Matching,
    lead: Structure,
    trump: Trump,
    comparison: TrickComparison = TrickComparison.ALL_UNITS,
    throw_singles: bool = False,
) -> bool:
    """Whether a play beats the current winner's matching (rule: "Winning a trick").

    ``throw_singles``: under ``largest_unit_first`` the singles of a throw count
    too (version-1 tables; shengji leaves them out)."""
    if not _conforms(lead, challenger, trump):
        return False
    suit = tables(trump).suit[challenger[0] % FACES_PER_DECK]
    if suit != winner.suit:
        return suit == TRUMP  # trump over the led suit; never the other way
    mine = strongest(challenger, lead, trump)
    theirs = winner.strengths(trump)
    if comparison is TrickComparison.HIGHEST_CARD:
        return max(mine.strengths(trump)) > max(theirs)
    if comparison is TrickComparison.LARGEST_UNIT_FIRST:
        # Singles do not count in a throw (shengji's "trick unit length").
        sizes = [len(u.cards) for u in mine.units]
        throw = len(sizes) > 1 and max(sizes) > 1
        for a, b, n in zip(mine.strengths(trump), theirs, sizes, strict=True):
            if a != b and not (throw and n == 1 and not throw_singles):
                return a > b
        return False
    return any(
        all(a > b for a, b in zip(m.strengths(trump), theirs, strict=True))
        for m in lead_matchings(challenger, lead, trump)
    )


def trick_winner(
    lead: Structure,
    plays: Sequence[Sequence[int]],
    trump: Trump,
    comparison: TrickComparison = TrickComparison.ALL_UNITS,
    throw_singles: bool = False,
) -> int:
    """Index into ``plays`` (``plays[0]`` is the lead's cards) of the trick's winner."""
    best = 0
    winner = strongest(plays[0], lead, trump)
    for i, play in enumerate(plays[1:], start=1):
        if beats_winner(play, winner, lead, trump, comparison, throw_singles):
            best, winner = i, strongest(play, lead, trump)
    return best
