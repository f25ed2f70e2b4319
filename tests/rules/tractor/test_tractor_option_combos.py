"""Every house rule together (docs/tractor.md, "Options"): random legal play and
heuristic self-play over random option combinations, with two to four decks,
reach the end of a round with every card and point accounted for, and random
play replays to the same state (the conformance suite, unscanned for speed)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bots.tractor.heuristic import TractorHeuristicBot
from engine.rng import Rng
from rules.tractor.game import TractorGame
from rules.tractor.options import (
    AdvancementPolicy,
    BidPolicy,
    BidReinforcement,
    BombPolicy,
    FirstLandlord,
    FirstLeader,
    FriendSelection,
    JokerBidPolicy,
    KittyMultiplier,
    MultipleJoin,
    ThrowFailureUnit,
    TrickComparison,
    TrickDrawPolicy,
)
from rules.tractor.scoring import points
from rules.tractor.state import Phase, TractorState
from tests.conformance import check_game

GAME = TractorGame()


def _enum(cls: Any) -> st.SearchStrategy[str]:
    return st.sampled_from([m.value for m in cls])


TABLES = st.one_of(
    st.fixed_dictionaries({"deck_count": st.sampled_from([0, 3, 4])}),
    st.fixed_dictionaries({"finding_friends": st.just(True), "seats": st.integers(5, 8),
                           "friend_selection": _enum(FriendSelection),
                           "multiple_join": _enum(MultipleJoin)}),
)

RULES = st.fixed_dictionaries({}, optional={
    "trick_draw_policy": _enum(TrickDrawPolicy),
    "trick_comparison": _enum(TrickComparison),
    "throw_failure_unit": _enum(ThrowFailureUnit),
    "kitty_multiplier": _enum(KittyMultiplier),
    "bomb_policy": _enum(BombPolicy),
    "bid_policy": _enum(BidPolicy),
    "joker_bid_policy": _enum(JokerBidPolicy),
    "bid_reinforcement": _enum(BidReinforcement),
    "bid_takeback": st.booleans(),
    "first_landlord": _enum(FirstLandlord),
    "advancement": _enum(AdvancementPolicy),
    "early_end": st.booleans(),
    "takeback_allowed": st.booleans(),
    "no_declaration": st.sampled_from(["reveal_kitty", "redeal"]),
    "kitty_theft": st.booleans(),
    "first_leader": _enum(FirstLeader),
})


def _accounted(state: TractorState) -> None:
    """Every card is in a hand, played, or in the kitty; the attackers' trick
    points are points that were played."""
    cards = [*state.played, *state.kitty, *(c for h in state.hands for c in h)]
    decks = state.config.decks
    assert sorted(cards) == list(range(decks * 54))
    assert points(cards) == 100 * decks
    assert 0 <= state.points <= points(state.played)


# Far more actions than one round takes with four decks and six seats.
MAX_ACTIONS = 5_000


def _self_play(options: dict[str, Any], seed: int) -> None:
    config = GAME.parse_config({**options, "rounds": 1})
    state = GAME.new(config, seed)
    rng = Rng(seed)
    scored: TractorState | None = None
    for _ in range(MAX_ACTIONS):  # a round that never ends fails, not hangs
        if not GAME.to_act(state):
            break
        seat = rng.choice(GAME.to_act(state))
        legal = GAME.legal(state, seat)
        action = TractorHeuristicBot().decide(GAME.view(state, seat), legal, seat, seed, 1.0)
        assert action is not None, (options, state.phase)
        before = state
        state, events = GAME.act(state, seat, action)
        if any(e.kind == "round_end" for e in events):
            scored = before if action.get("type") == "end_round" else state
    assert state.phase is Phase.OVER and scored is not None
    _accounted(state)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=TABLES, rules=RULES, seed=st.integers(0, 10_000))
def test_random_and_heuristic_play_over_option_combinations(
    table: dict[str, Any], rules: dict[str, Any], seed: int
) -> None:
    options = {**table, **rules}
    config = GAME.parse_config({**options, "rounds": 1})
    assert check_game(GAME, config, [seed], scan=False) > 0
    _self_play(options, seed)


@pytest.mark.parametrize("seed", [890, 3, 17, 42])
def test_higher_suit_bids_and_equivalent_reinforcements_cannot_take_turns_for_ever(seed: int):
    """A higher suit overrides, the other seat's equivalent reinforcement stands
    again, and so on: only a declaration a seat has not made yet ends the draw
    (docs/tractor.md, ``bid_reinforcement``).  Four decks give triples to bid."""
    _self_play({"deck_count": 4, "bid_policy": "joker_or_higher_suit",
                "bid_reinforcement": "reinforce_while_equivalent"}, seed)
