"""Rummy bots: registered, always legal, and games between them keep the hidden
information hidden (bots reach declarations, reshuffles and lay-offs, which random
play rarely does)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bots.base import bot_names, default_bot, make_bot
from engine.events import SPECTATOR
from rules.rummy.game import RummyGame
from rules.rummy.state import Phase
from tests.conformance import scan_step

from .test_rummy_game import JUNK, READY, ids

GAME = RummyGame()


def test_rummy_bots_are_registered_combo_first() -> None:
    assert bot_names("rummy") == ["combo", "greedy", "random"]
    assert default_bot("rummy") == "combo"


@pytest.mark.parametrize(
    ("options", "seeds"),
    [({"variant": "indian", "pool": 0, "players": 3}, range(12)),
     ({"variant": "indian", "pool": 101}, range(2)),
     ({"variant": "gin", "target": 0}, range(30))],
    ids=["indian-3-seats", "indian-pool", "gin"],
)
def test_bot_games_are_legal_and_leak_nothing(options: dict[str, Any], seeds: range) -> None:
    config = GAME.parse_config(options)
    lineup = [make_bot("rummy", n) for n in ("combo", "greedy", "combo")][: config.players]
    seen: set[str] = set()
    viewers = [*range(config.players), SPECTATOR]
    for seed in seeds:
        state = GAME.new(config, seed)
        for step in range(5000):
            acting = GAME.to_act(state)
            if not acting:
                break
            seat = acting[0]
            legal = GAME.legal(state, seat)
            action = lineup[seat].decide(GAME.view(state, seat), legal, seat, seed + step, 1.0)
            previous = state
            state, events = GAME.act(state, seat, action)  # a bot never plays illegally
            seen.add(str(action["type"]))
            seen.update(e.kind for e in events)
            scan_step(GAME, state, viewers, events, previous)
        assert GAME.result(state) is not None
    if config.variant.value == "indian":
        assert {"declare", "discard", "draw"} <= seen
    else:
        assert {"knock", "layoff", "done"} <= seen


def _decide(name: str, state: Any, seat: int = 0) -> dict[str, Any]:
    bot = make_bot("rummy", name)
    return dict(bot.decide(GAME.view(state, seat), GAME.legal(state, seat), seat, 1, 1.0))


def _gin(hand: str, pile: str, phase: Phase = Phase.DRAW) -> Any:
    state = GAME.new(GAME.parse_config({"variant": "gin", "target": 0}), 1)
    return replace(state, hands=(ids(hand), ids("2C 3C 4C 5C 6C 7C 8C TC JC QH")),
                   pile=ids(pile), stock=ids("AS 2S 3S 4S 5S"), turn=0, phase=phase)


@pytest.mark.parametrize("name", ["combo", "greedy"])
def test_bots_take_a_discard_that_completes_a_meld(name: str) -> None:
    """Both take the discard when it melds at once (9H makes a set of nines)."""
    state = _gin("2H 3H 4H 5S 6S 7S 9C 9S KC QD", "9H")
    assert _decide(name, state) == {"type": "draw", "from": "discard"}


@pytest.mark.parametrize("name", ["combo", "greedy"])
def test_bots_leave_a_discard_that_does_not_help(name: str) -> None:
    state = _gin("2H 3H 4H 5S 6S 7S 9C 9S KC QD", "8D")
    assert _decide(name, state) == {"type": "draw", "from": "stock"}


def test_greedy_throws_its_highest_deadwood_and_combo_keeps_its_draws() -> None:
    """Deadwood QC KC TD 9H 4C: greedy throws a ten-pointer (the king); the combo bot
    keeps Q-K of clubs (two live outs, JC and AC) and throws the lone TD."""
    state = _gin("2H 3H 4H 5S 6S 7S QC KC TD 9H 4C", "AD", Phase.DISCARD)
    assert _decide("greedy", state) == {"type": "discard", "card": "KC"}
    assert _decide("combo", state) == {"type": "discard", "card": "TD"}


@pytest.mark.parametrize("name", ["combo", "greedy"])
def test_bots_knock_when_they_may(name: str) -> None:
    state = _gin("2H 3H 4H 5S 6S 7S 9C 9S 9H AC KD", "AD", Phase.DISCARD)
    action = _decide(name, state)
    assert (action["type"], action["card"]) == ("knock", "KD")


def test_combo_declares_when_it_can() -> None:
    state = GAME.new(GAME.parse_config({"variant": "indian", "pool": 0}), 1)
    state = replace(state, hands=(ids(f"{READY} QS"), ids(JUNK, 1)), wild_card=ids("JC")[0],
                    turn=0, phase=Phase.DISCARD)
    assert _decide("combo", state)["type"] == "declare"


def test_a_deal_through_reshuffles_leaks_nothing() -> None:
    """The stock runs out (most of it moved to the pile): the pile but its top becomes
    the new stock, whose cards are secret again; bot play through it passes the scan."""
    config = GAME.parse_config({"variant": "indian", "pool": 0, "players": 2})
    kinds: set[str] = set()
    for seed in range(4):
        state = GAME.new(config, seed)
        state = replace(state, stock=state.stock[:2], pile=(*state.stock[2:], *state.pile))
        lineup = [make_bot("rummy", "greedy"), make_bot("rummy", "greedy")]
        for step in range(5000):
            if not GAME.to_act(state):
                break
            seat = GAME.to_act(state)[0]
            legal = GAME.legal(state, seat)
            action = lineup[seat].decide(GAME.view(state, seat), legal, seat, step, 1.0)
            previous = state
            state, events = GAME.act(state, seat, action)
            kinds.update(e.kind for e in events)
            scan_step(GAME, state, [0, 1, SPECTATOR], events, previous)
    assert "reshuffle" in kinds
