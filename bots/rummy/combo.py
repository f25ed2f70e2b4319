"""The combo rummy bot: plays on the combo generator (``best`` and ``combos``).

- Scores a hand by its best arrangement (gin: deadwood; indian: leftover points plus
  a charge for each run the declaration still lacks) less credit for *draws*: pairs of
  leftover cards one card away from a meld, counted by the outs still live (cards
  seen in the pile or known in other hands are gone; a joker completes any draw).
- Takes the discard when it completes or extends a combo and the hand with it, after
  its best discard, scores better (gin: also a card that does not meld when the hand
  scores ``TAKE_MARGIN`` better); otherwise draws from the stock.
- Discards the card whose loss costs least (with a small charge for a card that fits
  cards the opponents are known to hold); ties go to the card that belongs to the
  fewest of the hand's near-best arrangements (``combos``), then to the higher points.
- Declares as soon as it can (indian); knocks with the least deadwood as soon as it
  may, and always goes gin when it can (gin); lays off what lowers its deadwood.
- Indian: drops at its first turn with a hand that has no pure run, no joker and
  fewer than two pure-run draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from engine.cards import SMALL_JOKER, parse_face
from engine.events import JSON
from engine.game import Action
from rules.rummy import MeldRules, combos, deadwood, objective_key
from rules.rummy.melds import Kind
from rules.rummy.options import Variant

from .common import Seen, add_face, arrange, drop_face, is_joker, of_type, read_view

RUN_CHARGE = 12  # indian: points a missing required run is worth in the hand score
DRAW_CREDIT = 1.5  # points of credit per live out of a draw (at most 2 outs counted)
NEAR = 5  # arrangements within this many points of the best count as "near-best"
DEFENCE = 2.0  # points of score per opponent's known card a discard would fit with
DROPS = True  # indian: drop hopeless hands at the first turn
KNOCK_AT = 10  # gin: knock when the deadwood is at most this (and the rules allow it)
# Gin: also take a discard that does not meld when the hand after the best discard
# scores this much better (in indian this stalls deals: both sides hoard).
TAKE_MARGIN = 4.0


def _run_gap(a: int, b: int) -> int | None:
    """Rank gap of two suited faces of one suit (1 = adjacent), else None."""
    if a >= SMALL_JOKER or b >= SMALL_JOKER or a // 13 != b // 13:
        return None
    return abs(a - b)


def _outs(a: int, b: int, seen: Seen) -> list[int]:
    """Faces that would make a meld of the pair (a, b)."""
    if a >= SMALL_JOKER or b >= SMALL_JOKER:
        return []
    if a % 13 == b % 13 and a != b:
        return [s * 13 + a % 13 for s in range(4) if s * 13 + a % 13 not in (a, b)]
    gap = _run_gap(a, b)
    lo, hi = min(a, b), max(a, b)
    if gap == 1:
        return [f for f in (lo - 1, hi + 1) if f // 13 == lo // 13 and 0 <= f < 52]
    if gap == 2:
        return [lo + 1]
    return []


def _feeds(face: int, theirs: Sequence[int]) -> int:
    """How many of the cards others are known to hold ``face`` would meld with."""
    if face >= SMALL_JOKER:
        return 0
    return sum(
        1
        for t in theirs
        if t < SMALL_JOKER and (t % 13 == face % 13 or _run_gap(t, face) in (1, 2))
    )


def hand_score(hand: tuple[int, ...], seen: Seen) -> float:
    """Smaller is better: the hand's best arrangement, less credit for live draws."""
    rules = seen.rules
    arr = arrange(hand, rules)
    if seen.variant is Variant.INDIAN:
        runs = [m for m in arr.melds if m.kind is Kind.RUN]
        pure = sum(m.pure for m in runs)
        missing = max(0, rules.pure_runs_required - pure) + max(
            0, rules.runs_required - len(runs)
        )
        score = float(deadwood(arr.leftover, rules) + RUN_CHARGE * missing)
    else:
        score = float(deadwood(arr.leftover, rules))
    left = sorted(c % 54 for c in arr.leftover if not is_joker(c % 54, rules))
    for i, a in enumerate(left):
        for b in left[i + 1 :]:
            outs = _outs(a, b, seen)
            if not outs:
                continue
            live = sum(max(0, seen.copies - seen.gone[f]) for f in outs)
            score -= DRAW_CREDIT * min(live, 2)
    return score


@lru_cache(maxsize=4096)
def _membership(hand: tuple[int, ...], rules: MeldRules) -> dict[int, int]:
    """Per face: in how many near-best arrangements of the hand it is melded."""
    arrangements = combos(list(hand), rules)
    top = min(objective_key(a, rules)[-1] for a in arrangements)
    counts: dict[int, int] = {}
    for a in arrangements:
        if objective_key(a, rules)[-1] > top + NEAR:
            continue
        for m in a.melds:
            for c in m.cards:
                counts[c % 54] = counts.get(c % 54, 0) + 1
    return counts


class RummyComboBot:
    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        seen = read_view(view, seat)
        phase = view["phase"]
        if phase == "draw":
            return self._draw(view, legal, seen)
        if phase == "layoff":
            return self._layoff(legal, seen)
        return self._discard(view, legal, seat, seen)

    def _draw(self, view: JSON, legal: Sequence[Action], seen: Seen) -> Action:
        if DROPS and of_type(legal, "drop") and not view["drawn"][view["turn"]] and self._hopeless(
            seen
        ):
            return {"type": "drop"}
        stock = {"type": "draw", "from": "stock"}
        take = {"type": "draw", "from": "discard"}
        if stock not in legal:
            return take
        if seen.top is None or take not in legal:
            return stock
        with_top = add_face(seen.hand, seen.top)
        melds = all(c % 54 != seen.top for c in arrange(with_top, seen.rules).leftover)
        loose = seen.variant is Variant.GIN
        if melds or loose or is_joker(seen.top, seen.rules):
            # It melds: take it if the hand after the best discard beats the hand now.
            after = min(
                hand_score(drop_face(with_top, f), seen)
                for f in {c % 54 for c in with_top}
                if f != seen.top
            )
            margin = 0.0 if melds else TAKE_MARGIN
            if after < hand_score(seen.hand, seen) - margin:
                return take
        return stock

    def _hopeless(self, seen: Seen) -> bool:
        rules = seen.rules
        if any(is_joker(c % 54, rules) for c in seen.hand):
            return False
        if any(m.pure for m in arrange(seen.hand, rules).melds):
            return False
        faces = sorted({c % 54 for c in seen.hand if c % 54 < SMALL_JOKER})
        draws = sum(
            1
            for i, a in enumerate(faces)
            for b in faces[i + 1 :]
            if _run_gap(a, b) in (1, 2)
        )
        return draws < 2

    def _layoff(self, legal: Sequence[Action], seen: Seen) -> Action:
        now = deadwood(arrange(seen.hand, seen.rules).leftover, seen.rules)
        best_action: Action = {"type": "done"}
        best_dead = now
        for a in of_type(legal, "layoff"):
            rest = drop_face(seen.hand, parse_face(a["card"]))
            d = deadwood(arrange(rest, seen.rules).leftover, seen.rules)
            if d < best_dead:
                best_action, best_dead = a, d
        return best_action

    def _discard(self, view: JSON, legal: Sequence[Action], seat: int, seen: Seen) -> Action:
        rules = seen.rules
        declare = of_type(legal, "declare")
        if declare:
            return declare[0]
        knocks = of_type(legal, "knock")
        if knocks:
            knock = min(
                knocks,
                key=lambda a: deadwood(
                    arrange(drop_face(seen.hand, parse_face(a["card"])), rules).leftover, rules
                ),
            )
            rest = drop_face(seen.hand, parse_face(knock["card"]))
            if deadwood(arrange(rest, rules).leftover, rules) <= KNOCK_AT:
                return knock
        discards = of_type(legal, "discard")
        allowed = {parse_face(a["card"]) for a in discards}
        # Cards melded in the best arrangement are only worth breaking up when nothing
        # else is left over; otherwise the leftover (and jokers never) are candidates.
        left = {c % 54 for c in arrange(seen.hand, rules).leftover} & allowed
        candidates = [f for f in (left or allowed) if not is_joker(f, rules)] or sorted(allowed)
        theirs = [parse_face(t) for s, k in enumerate(view["known"]) if s != seat for t in k]
        scored = {
            f: hand_score(drop_face(seen.hand, f), seen) + DEFENCE * _feeds(f, theirs)
            for f in candidates
        }
        low = min(scored.values())
        tied = [f for f, s in scored.items() if s <= low + 0.5]
        if len(tied) > 1:
            member = _membership(seen.hand, rules)
            points = rules.face_points
            tied.sort(key=lambda f: (member.get(f, 0), -points[f], f))
        face = tied[0] if len(tied) > 1 else min(scored, key=lambda f: (scored[f], f))
        return next(a for a in discards if parse_face(a["card"]) == face)
