"""The greedy rummy baseline: takes the discard only when it melds at once, throws
the highest-scoring card left out of its best arrangement, declares or knocks as soon
as the rules let it, lays off whatever fits, never drops."""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import parse_face
from engine.events import JSON
from engine.game import Action

from .common import add_face, arrange, dead, drop_face, of_type, read_view


class RummyGreedyBot:
    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        seen = read_view(view, seat)
        rules = seen.rules
        phase = view["phase"]
        if phase == "draw":
            take = {"type": "draw", "from": "discard"}
            if seen.top is not None and take in legal:
                with_top = arrange(add_face(seen.hand, seen.top), rules)
                if all(c % 54 != seen.top for c in with_top.leftover):
                    return take
            stock = {"type": "draw", "from": "stock"}
            return stock if stock in legal else take
        if phase == "layoff":
            return (of_type(legal, "layoff") or of_type(legal, "done"))[0]
        finish = of_type(legal, "declare") or of_type(legal, "knock")
        if finish:
            return min(
                finish,
                key=lambda a: dead(drop_face(seen.hand, parse_face(a["card"])), rules),
            )
        discards = of_type(legal, "discard")
        allowed = {parse_face(a["card"]) for a in discards}
        left = [c % 54 for c in arrange(seen.hand, rules).leftover if c % 54 in allowed]
        pool = left or sorted(allowed)
        points = rules.face_points
        face = max(pool, key=lambda f: (points[f], f % 13 if f < 52 else -1))
        return next(a for a in discards if parse_face(a["card"]) == face)
