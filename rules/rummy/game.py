"""Rummy as a :class:`engine.game.Game`: Indian points/pool rummy and gin rummy.

One game, ``rummy``, with ``variant`` choosing the rules (docs/rummy.md, "The
Game").  A turn is two actions: draw (stock or discard pile), then discard — or
finish: declare (indian) or knock (gin) while discarding.  Indian players may
drop instead of drawing; after a gin knock the defender lays off.  Each deal ends
in a DEAL_OVER phase with every hand shown, so the reveal is a state of its own
and the next deal starts with an explicit ``next_deal``.

This class dispatches: the shared turn and deal are ``flow.py``; what a variant
adds is its policy (``indian.py``, ``gin.py``), chosen once from the config;
views are ``views.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engine.cards import face_of, format_card
from engine.errors import IllegalAction
from engine.events import JSON, Event
from engine.game import Action, Game, Move, Result
from engine.rng import Rng
from rules.rummy import flow, views
from rules.rummy.flow import rules_of, wild_rank_of
from rules.rummy.gin import GinRules, check_layoff, layoffs
from rules.rummy.groups import read_meld
from rules.rummy.indian import IndianRules
from rules.rummy.options import RummyConfig, Variant
from rules.rummy.presentation import RummyPresentation
from rules.rummy.scoring import best_of
from rules.rummy.state import Phase, RummyState
from rules.rummy.variant import VariantRules

__all__ = ["RummyGame", "rules_of", "variant_rules", "wild_rank_of"]

VARIANTS: dict[Variant, VariantRules] = {Variant.INDIAN: IndianRules(), Variant.GIN: GinRules()}


def variant_rules(config: RummyConfig) -> VariantRules:
    """The policy of the table's variant."""
    return VARIANTS[config.variant]


@dataclass(frozen=True)
class RummyMove(Move):
    """A checked action and what the check resolved it to: the card id of a
    discard, the variant's reading of a finish (``VariantRules.check_finish``),
    the card and meld of a lay-off; None where the action says it all."""

    resolved: Any


class RummyGame(Game[RummyState, RummyConfig]):
    name: ClassVar[str] = "rummy"
    action_fields: ClassVar[Mapping[str, frozenset[str]]] = {
        "draw": frozenset({"from"}),
        "drop": frozenset(),
        "discard": frozenset({"card"}),
        "knock": frozenset({"card", "groups"}),
        "declare": frozenset({"card", "groups"}),
        "layoff": frozenset({"card", "meld"}),
        "done": frozenset(),
        "next_deal": frozenset(),
    }
    title: ClassVar[str] = "Rummy"
    config_model = RummyConfig
    move_type = RummyMove
    presentation = RummyPresentation()

    def seat_count(self, config: RummyConfig) -> int:
        return config.players

    def new(self, config: RummyConfig, seed: int) -> RummyState:
        n = config.players
        return flow.deal(variant_rules(config), config, seed, 0, n - 1, (0,) * n,
                         (False,) * n, (0,) * n)

    def initial_events(self, state: RummyState) -> list[Event]:
        return flow.deal_events(state)

    def to_act(self, state: RummyState) -> tuple[int, ...]:
        if state.phase is Phase.OVER:
            return ()
        if state.phase is Phase.DEAL_OVER:
            return (flow.next_dealer(state),)
        return (state.turn,)

    # --- legal actions -----------------------------------------------------------

    def stand_in(self, legal: Sequence[Action], rng: Rng) -> Action:
        """A late or absent player draws from the stock and never drops out of the
        deal (a drop costs 20 or 40 points, a choice only its player makes); any other
        legal action (a discard, a lay-off) at random."""
        calm = [a for a in legal
                if a.get("type") != "drop" and a != {"type": "draw", "from": "discard"}]
        return dict(rng.choice(calm or list(legal)))

    def legal(self, state: RummyState, seat: int) -> list[Action]:
        if seat not in self.to_act(state):
            return []
        if state.phase is Phase.DEAL_OVER:
            return [{"type": "next_deal"}]
        variant = variant_rules(state.config)
        if state.phase is Phase.DRAW:
            out: list[Action] = []
            if flow.stock_available(state):
                out.append({"type": "draw", "from": "stock"})
            out.append({"type": "draw", "from": "discard"})
            if variant.can_drop:
                out.append({"type": "drop"})
            return out
        if state.phase is Phase.LAYOFF:
            return [*layoffs(state), {"type": "done"}]
        hand = state.hands[state.turn]
        faces = sorted({face_of(c) for c in hand})
        banned = variant.banned_face(state)
        discards: list[Action] = [
            {"type": "discard", "card": format_card(f)} for f in faces if f != banned
        ]
        return [*discards, *variant.finishes(state, hand, faces, banned, rules_of(state))]

    # --- validation --------------------------------------------------------------

    def validate(self, state: RummyState, seat: int, action: Action) -> RummyMove:
        canonical, resolved = self._check(state, seat, action)
        return RummyMove(canonical, seat, state, resolved)

    def _check(self, state: RummyState, seat: int, action: Action) -> tuple[Action, Any]:
        """The canonical action and what it resolved to, or IllegalAction."""
        if state.phase is Phase.OVER:
            raise IllegalAction("game_over", "the match is over")
        if seat not in self.to_act(state):
            raise IllegalAction("not_your_turn", f"seat {self.to_act(state)[0]} is to act")
        kind = action.get("type")
        variant = variant_rules(state.config)
        if state.phase is Phase.DEAL_OVER:
            if kind != "next_deal":
                raise IllegalAction("bad_action", 'the deal is over: {"type": "next_deal"}')
            return {"type": "next_deal"}, None
        if state.phase is Phase.DRAW:
            return self._check_draw(state, variant, kind, action)
        hand = state.hands[seat]
        if state.phase is Phase.LAYOFF:
            return check_layoff(state, hand, kind, action)
        return self._check_discard(state, variant, seat, kind, action)

    def _check_draw(
        self, state: RummyState, variant: VariantRules, kind: Any, action: Action
    ) -> tuple[Action, Any]:
        if kind == "drop" and variant.can_drop:
            return {"type": "drop"}, None
        if kind != "draw":
            what = "draw or drop" if variant.can_drop else "draw"
            raise IllegalAction("bad_action", f"you must {what} now")
        source = action.get("from")
        if source not in ("stock", "discard"):
            raise IllegalAction("bad_action", 'draw "from" must be "stock" or "discard"')
        if source == "stock" and not flow.stock_available(state):
            raise IllegalAction("empty_stock", "the stock is empty")
        return {"type": "draw", "from": source}, None

    def _check_discard(
        self, state: RummyState, variant: VariantRules, seat: int, kind: Any, action: Action
    ) -> tuple[Action, Any]:
        hand = state.hands[seat]
        finishing = variant.finish
        if kind not in ("discard", finishing):
            raise IllegalAction("bad_action", f"you must discard or {finishing} now")
        f = flow.face_arg(action)
        card = flow.take(hand, f)
        if card is None:
            raise IllegalAction("not_in_hand", "that card is not in your hand")
        if f == variant.banned_face(state):
            raise IllegalAction(
                "just_taken", "you may not discard the card you took from the pile this turn"
            )
        canonical: dict[str, Any] = {"type": kind, "card": format_card(card)}
        if kind == "discard":
            return canonical, card
        rules = rules_of(state)
        rest = [c for c in hand if c != card]
        if "groups" in action:
            groups = flow.groups_ids(hand, action["groups"], [card])
        else:
            groups = [flow.meld_cards(m) for m in best_of(tuple(sorted(rest)), rules).melds]
        canonical["groups"] = [flow.spell(g) for g in groups]
        melds = [read_meld(g, rules) for g in groups]
        used = {c for g in groups for c in g}
        leftover = tuple(c for c in rest if c not in used)
        return canonical, variant.check_finish(state, card, groups, melds, leftover, rules)

    # --- transitions -------------------------------------------------------------

    def perform(
        self, state: RummyState, seat: int, move: RummyMove
    ) -> tuple[RummyState, list[Event]]:
        canonical, arg = move.action, move.resolved
        kind = canonical["type"]
        variant = variant_rules(state.config)
        if kind == "next_deal":
            return flow.next_deal(variant, state)
        if kind == "draw":
            return flow.draw(state, seat, canonical["from"])
        if kind == "discard":
            return flow.discard(variant, state, seat, arg)
        assert kind in variant.actions
        return variant.apply(state, seat, canonical, arg)

    # --- views -------------------------------------------------------------------

    def view(self, state: RummyState, viewer: int) -> JSON:
        return views.view(state, viewer, variant_rules(state.config), self.name,
                          self.to_act(state), self.result(state))

    def secrets(self, state: RummyState, viewer: int) -> frozenset[int]:
        return views.secrets(state, viewer)

    def result(self, state: RummyState) -> Result | None:
        if not state.over:
            return None
        return variant_rules(state.config).result(state)

    def encode(self, state: RummyState) -> JSON:
        last = state.last
        return {
            "config": self.config_json(state.config),
            "seed": state.seed,
            "deal_no": state.deal_no,
            "dealer": state.dealer,
            "phase": state.phase.value,
            "turn": state.turn,
            "hands": [list(h) for h in state.hands],
            "stock": list(state.stock),
            "pile": list(state.pile),
            "wild_card": state.wild_card,
            "taken": state.taken,
            "drawn": list(state.drawn),
            "out": list(state.out),
            "known": [list(k) for k in state.known],
            "reshuffles": state.reshuffles,
            "charges": list(state.charges),
            "points": list(state.points),
            "eliminated": list(state.eliminated),
            "boxes": list(state.boxes),
            "knocker": state.knocker,
            "table": [list(m) for m in state.table],
            "knocker_deadwood": state.knocker_deadwood,
            "last": None if last is None else [last.how, last.winner, list(last.points)],
            "over": state.over,
        }
