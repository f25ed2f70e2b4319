"""What a poker bot reads from its seat's view, and how it answers from ``legal``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import parse_face
from engine.events import JSON
from engine.game import Action


@dataclass(frozen=True)
class Situation:
    """One decision: the seat's cards, the board, the money, the hand's history."""

    seat: int
    hole: tuple[int, ...]
    board: tuple[int, ...]
    street: str
    pot: int  # every chip put in this hand, current bets included
    to_call: int
    min_to: int | None
    max_to: int | None
    current: int  # the largest bet this round
    my_bet: int
    stack: int
    big_blind: int
    button: int
    opponents: tuple[int, ...]  # live opponents, from the left of the button
    history: tuple[dict[str, Any], ...]
    legal: tuple[Action, ...]

    @property
    def pot_odds(self) -> float:
        """The share of the final pot a call puts in (the equity a call needs)."""
        return self.to_call / (self.pot + self.to_call) if self.to_call else 0.0

    @property
    def heads_up(self) -> bool:
        return len(self.opponents) == 1

    def raised_by(self, seat: int, street: str | None = None) -> int:
        """How many bets/raises ``seat`` made (on ``street``, or in the whole hand)."""
        return sum(
            1
            for h in self.history
            if h["seat"] == seat
            and h["type"] in ("bet", "raise")
            and (street is None or h["street"] == street)
        )

    def called_by(self, seat: int, street: str) -> bool:
        return any(
            h["seat"] == seat and h["type"] == "call" and h["street"] == street
            for h in self.history
        )

    def street_raises(self, street: str) -> int:
        return sum(
            1 for h in self.history if h["street"] == street and h["type"] in ("bet", "raise")
        )


def read(view: JSON, legal: Sequence[Action], seat: int) -> Situation:
    """Parse a poker seat view."""
    opts = view.get("options") or {}
    bets = view["bets"]
    return Situation(
        seat=seat,
        hole=tuple(parse_face(c) for c in view.get("hand", [])),
        board=tuple(parse_face(c) for c in view["board"]),
        street=view["street"],
        pot=view["pot"],
        to_call=opts.get("to_call", 0),
        min_to=opts.get("min_to"),
        max_to=opts.get("max_to"),
        current=max(bets),
        my_bet=bets[seat],
        stack=view["stacks"][seat],
        big_blind=view["blinds"]["big"],
        button=view["button"],
        opponents=tuple(s for s in view["players"] if s != seat and not view["folded"][s]),
        history=tuple(view["history"]),
        legal=tuple(legal),
    )


def passive(s: Situation) -> Action:
    """Check if free, else fold (never sit out)."""
    return _find(s, "check") or _find(s, "fold") or _find(s, "call") or s.legal[0]


def call(s: Situation) -> Action:
    return _find(s, "call") or _find(s, "check") or s.legal[0]


def bet_to(s: Situation, target: int) -> Action:
    """The listed bet/raise closest to a total of ``target`` (a call if none)."""
    sizes = [a for a in s.legal if a["type"] in ("bet", "raise")]
    if not sizes:
        return call(s)
    return min(sizes, key=lambda a: abs(int(a["to"]) - target))


def bet_fraction(s: Situation, fraction: float) -> Action:
    """A bet or raise of about ``fraction`` of the pot after calling."""
    return bet_to(s, s.current + int(fraction * (s.pot + s.to_call)))


def between_hands(s_legal: Sequence[Action]) -> Action:
    """Between hands: sit in, or buy back in to the most allowed."""
    rebuys = [a for a in s_legal if a["type"] == "rebuy"]
    if rebuys:
        return max(rebuys, key=lambda a: int(a["chips"]))
    return next((a for a in s_legal if a["type"] == "sit_in"), s_legal[0])


def _find(s: Situation, kind: str) -> Action | None:
    return next((a for a in s.legal if a["type"] == kind), None)
