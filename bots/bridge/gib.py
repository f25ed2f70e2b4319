"""The default bridge bot: bids the natural system of :mod:`bots.bridge.bidding` and
plays GIB-style (:mod:`bots.bridge.play`).  On its turn in the play it claims (the
declarer or a defender) when every layout of the unseen cards gives the same
double-dummy count, unless a claim was just rejected in this position; asked about
a claim it answers from the faced cards (:func:`bots.bridge.play.claim_answer`)."""

from __future__ import annotations

from collections.abc import Sequence

from bots.bridge.bidding import choose_call
from bots.bridge.play import (
    PlayOptions,
    Scorer,
    certain_claim,
    choose_card,
    claim_answer,
    dds_scorer,
)
from engine.cards import parse_face
from engine.events import JSON
from engine.game import Action
from rules.bridge.auction import format_call, parse_call


class GibBot:
    def __init__(self, options: PlayOptions | None = None, scorer: Scorer = dds_scorer) -> None:
        self.options = options or PlayOptions()
        self.scorer = scorer

    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        kinds = {a["type"] for a in legal}
        if "call" in kinds:
            calls = [(int(c["seat"]), parse_call(c["call"])) for c in view["auction"]]
            call = format_call(choose_call(calls, seat, [parse_face(c) for c in view["hand"]]))
            wanted = {"type": "call", "call": call}
            return wanted if wanted in legal else {"type": "call", "call": "P"}
        if "accept_claim" in kinds:
            ok = claim_answer(view, seat, seed, budget, self.options, self.scorer)
            return {"type": "accept_claim" if ok else "reject_claim"}
        played = len(view.get("played") or [])
        if "claim" in kinds and view.get("claim_rejected_at") != played:
            tricks = certain_claim(view, seat, self.scorer)
            remaining = max(int(a["tricks"]) for a in legal if a["type"] == "claim")
            if tricks is not None and remaining > 1:
                return {"type": "claim", "tricks": tricks}
        cards = [str(a["card"]) for a in legal if a["type"] == "play"]
        choice = choose_card(view, cards, seat, seed, budget, self.options, self.scorer)
        return {"type": "play", "card": choice.card}
