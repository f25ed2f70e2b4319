"""The trick rules a table plays, in one place: which engine cuts plays into
units (classic pairs, or tuples of any width) and the follow, comparison and
throw options.  The play phase, ``legal`` and the bots all go through a
:class:`PlayRules`, so the draw policy that checks a follow is the one that
builds the hints and the bots' plays.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalAction
from engine.events import JSON
from engine.rng import Rng
from rules.tractor import structure as classic
from rules.tractor import tuples
from rules.tractor.options import BombPolicy, TractorConfig, TrickComparison, TrickDrawPolicy
from rules.tractor.order import TRUMP, Trump, tables
from rules.tractor.structure import Structure, Unit, suit_of_play
from rules.tractor.throws import can_beat
from rules.tractor.tricks import beats_winner, strongest, trick_winner


@dataclass(frozen=True)
class PlayRules:
    """``tuples``: plays are cut into tuples (three or more decks, or a draw
    policy other than the default); ``draw``: the draw policy;
    ``comparison``: how a multi-unit play is compared."""

    tuples: bool = False
    draw: TrickDrawPolicy = TrickDrawPolicy.NO_PROTECTIONS
    comparison: TrickComparison = TrickComparison.ALL_UNITS
    #: Version-1 tables: a throw's singles count under ``largest_unit_first``.
    throw_singles: bool = False
    bombs: BombPolicy = BombPolicy.NO_BOMBS

    def to_json(self) -> JSON:
        """The fields a view carries so that a bot plays by the same rules."""
        return {"tuples": self.tuples, "trick_draw_policy": self.draw.value,
                "trick_comparison": self.comparison.value,
                "throw_singles": self.throw_singles, "bomb_policy": self.bombs.value}

    @classmethod
    def from_json(cls, data: JSON | None) -> PlayRules:
        """The rules a view names (the classic defaults when it names none)."""
        if not data:
            return cls()
        return cls(bool(data.get("tuples")), TrickDrawPolicy(data["trick_draw_policy"]),
                   TrickComparison(data["trick_comparison"]), bool(data.get("throw_singles")),
                   BombPolicy(data.get("bomb_policy", BombPolicy.NO_BOMBS.value)))

    def winner(self, lead: Structure, plays: Sequence[Sequence[int]], trump: Trump) -> int:
        """Index into ``plays`` (the lead first) of the play winning the trick.

        With bombs, a bomb beats every play that is not one, and a bomb only
        a smaller or lower one (docs/tractor.md, "Bombs")."""
        if self.bombs is BombPolicy.NO_BOMBS:
            return trick_winner(lead, plays, trump, self.comparison, self.throw_singles)
        best = 0
        bomb = plays[0] if tuples.is_bomb(plays[0]) else None
        held = strongest(plays[0], lead, trump)
        for i, play in enumerate(plays[1:], start=1):
            if tuples.is_bomb(play):
                if bomb is None or tuples.bomb_beats(play, bomb, trump):
                    best, bomb = i, play
            elif bomb is None and beats_winner(play, held, lead, trump, self.comparison,
                                               self.throw_singles):
                best, held = i, strongest(play, lead, trump)
        return best

    def structure(self, cards: Sequence[int], trump: Trump) -> Structure:
        """A play of one effective suit cut into units."""
        if self.tuples:
            return tuples.decompose(cards, trump)
        return classic.get_structure(cards, trump, pairs_only=True)

    def check_lead(self, cards: Sequence[int], trump: Trump) -> Structure:
        """Validate a lead's shape (one effective suit) and cut it into units."""
        classic_lead = classic.check_lead(cards, trump, pairs_only=True)
        return tuples.decompose(cards, trump) if self.tuples else classic_lead

    def check_follow(self, lead: Structure, hand: Sequence[int], play: Sequence[int],
                     trump: Trump) -> None:
        """Raise IllegalAction unless ``play`` follows ``lead`` legally."""
        if self.tuples:
            tuples.check_follow_tuples(lead, hand, play, trump, self.draw, self.bombs)
        else:
            classic.check_follow(lead, hand, play, trump, pairs_only=True)

    def is_legal_follow(self, lead: Structure, hand: Sequence[int], play: Sequence[int],
                        trump: Trump) -> bool:
        """Boolean form of :meth:`check_follow`."""
        try:
            self.check_follow(lead, hand, play, trump)
        except IllegalAction:
            return False
        return True

    def a_legal_follow(self, lead: Structure, hand: Sequence[int], trump: Trump,
                       rng: Rng | None = None,
                       key: Callable[[int], Any] | None = None) -> tuple[int, ...]:
        """One legal follow: lowest cards, a random one with ``rng``, or by ``key``."""
        if not self.tuples:
            return classic.a_legal_follow(lead, hand, trump, rng, key, pairs_only=True)
        t = tables(trump)
        if rng is not None:
            order = rng.shuffled(list(hand))
        else:
            order = sorted(hand, key=key or (lambda c: (t.phi[c % 54], c)))
        return tuples.a_legal_follow_tuples(lead, hand, trump, self.draw, order)

    def conforms(self, lead: Structure, play: Sequence[int], trump: Trump) -> bool:
        """Whether ``play`` can compete for the trick: all of the led suit or all
        trump, cut exactly into the lead's units."""
        if not self.tuples:
            return classic.conforms(lead, play, trump, pairs_only=True)
        s = suit_of_play(play, trump)
        if s is None or s not in (lead.suit, TRUMP) or len(play) != lead.size:
            return False
        return next(tuples.matchings(play, lead, trump), None) is not None

    def can_beat(self, unit: Unit, hand: Sequence[int], trump: Trump, suit: int) -> bool:
        """Whether ``hand`` holds a unit of ``suit`` of the same kind beating ``unit``."""
        if self.tuples:
            return tuples.can_beat_tuple(unit, hand, trump, suit)
        return can_beat(unit, hand, trump, suit)


def play_rules(config: TractorConfig) -> PlayRules:
    """The trick rules a table's options describe."""
    return PlayRules(config.tuple_rules, config.trick_draw_policy, config.trick_comparison,
                     throw_singles=config.version == 1, bombs=config.bomb_policy)
