"""Stored rummy games must replay identically: a fixed seed's random play gives
the same states, views, events and legal actions as the code it was pinned on
(tests/rules/pins.py says what the digest covers).  A change here means stored
games would replay differently: fix the code, not the pins."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import face_of, parse_face
from engine.game import Action
from engine.rng import Rng
from rules.rummy import deadwood
from rules.rummy.game import RummyGame, rules_of
from rules.rummy.options import Variant
from rules.rummy.scoring import best_of
from rules.rummy.state import RummyState
from tests.rules.pins import trace


def _left_after(state: RummyState, seat: int, action: Action) -> int:
    """Deadwood of the hand after discarding ``action``'s card."""
    rules = rules_of(state)
    hand = state.hands[seat]
    f = parse_face(action["card"])
    card = next(c for c in hand if face_of(c) == f)
    rest = tuple(sorted(c for c in hand if c != card))
    return deadwood(best_of(rest, rules).leftover, rules)


def keeps_melds(state: RummyState, seat: int, options: list[Action], rng: Rng) -> Action:
    """Random play that mostly keeps its melds, so deals end by declarations,
    knocks and lay-offs (and now and then a wrong declaration or a drop)."""
    finishing = [a for a in options if a["type"] in ("declare", "knock", "layoff")]
    discards = [a for a in options if a["type"] == "discard"]
    if finishing:
        return rng.choice(finishing)
    if discards and state.config.variant is Variant.INDIAN and rng.below(40) == 0:
        # A show without groups is grouped at its best: usually a wrong declaration.
        return {"type": "declare", "card": rng.choice(discards)["card"]}
    if discards and rng.below(4) != 0:
        return min(discards, key=lambda a: _left_after(state, seat, a))
    rest = [a for a in options if a["type"] != "drop"]
    return rng.choice(options if not rest or rng.below(16) == 0 else rest)


CASES: list[tuple[str, dict[str, Any], int, int, str, str]] = [
    # name, options, seed, actions, final state_hash, trace digest
    ("indian pool 101, 3 players", {"variant": "indian", "players": 3}, 4, 300,
     "c90b55e25c60257705ac9638b5c7551d5813e816ad036ea9e528118f728a5c2d",
     "793337c3bf31c36277cec0a8a5579fc21305c86b03c7113a217a28de52aca1c1"),
    ("indian single deal", {"variant": "indian", "players": 2, "pool": 0}, 2, 300,
     "607b787b5a48953e94412cfd34ec7df6bfe23fdfbb05498176d00b0401fc5b19",
     "b67a65563183d4f824240db93dd302e2f2232bea88e1fbca781d7df18d0fa01b"),
    ("gin single deal", {"variant": "gin", "target": 0}, 5, 300,
     "01e4f5b207a872f8d5ec91a43bfec842038e85de22870f6c4cc090022cf24d9c",
     "a70538aa705ea9a3de5d148a5fcee60eded4d6b6c2e2e365093f65a966f8b5c3"),
    ("gin match", {"variant": "gin", "target": 100}, 13, 300,
     "e0c2b15327918b8dcdad05f35857b094e265058dce830b3138c44ddd391e3ec1",
     "c7732c210153713baa5bd0cab129bf1bd83fc4c71747490ae53d750f79f191d4"),
]


@pytest.mark.parametrize(("name", "options", "seed", "actions", "final", "digest"), CASES,
                         ids=[c[0] for c in CASES])
def test_random_play_replays_as_pinned(
    name: str, options: dict[str, Any], seed: int, actions: int, final: str, digest: str
) -> None:
    got_final, got_digest, _ = trace(RummyGame(), options, seed, max_actions=actions,
                                     choose=keeps_melds)
    assert (got_final, got_digest) == (final, digest), name
