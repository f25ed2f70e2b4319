"""The Monte Carlo Tractor bot (bots/tractor/montecarlo.py): it reads a play-phase view
into a position whose unseen cards are exactly the ones it cannot see, it is
deterministic given its seed, and it plays legally under random table options."""

from __future__ import annotations

import enum
from collections import Counter
from typing import Any

import pytest

from bots.arena import play_game
from bots.base import make_bot
from bots.tractor.heuristic import TractorHeuristicBot
from bots.tractor.montecarlo import (
    MonteCarloOptions,
    TractorMonteCarloBot,
    determinize,
    read_position,
)
from engine.cards import FACES_PER_DECK
from engine.rng import Rng
from rules.tractor.game import TractorGame
from rules.tractor.options import TractorConfig
from rules.tractor.state import Phase, TractorState

GAME = TractorGame()
QUICK = MonteCarloOptions(samples=2, horizon=0, candidates=3)


def _to_play(config: Any, seed: int) -> TractorState:
    """A round played by heuristic bots until several plays into the tricks."""
    bot = TractorHeuristicBot()
    state = GAME.new(config, seed)
    k = 0
    while state.phase is not Phase.PLAY or len(state.played) < 20:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal(state, seat)
        action = bot.decide(GAME.view(state, seat), legal, seat, k, 1.0) or legal[0]
        state, _ = GAME.act(state, seat, action)
        k += 1
    return state


def _faces(cards: Any) -> Counter[int]:
    return Counter(c % FACES_PER_DECK for c in cards)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_unseen_cards_are_the_other_hands_and_the_kitty(seed: int) -> None:
    state = _to_play(GAME.parse_config({"rounds": 1}), seed)
    seat = state.to_move
    pos = read_position(GAME.view(state, seat), seat)
    assert pos is not None
    hidden = [c for s in range(4) if s != seat for c in state.hands[s]]
    if seat != state.landlord:
        hidden += state.kitty
    assert _faces(pos.unseen) == _faces(hidden)
    deal = determinize(pos, Rng(seed))
    assert [len(h) for h in deal.hands] == [len(h) for h in state.hands]
    assert deal.hands[seat] == state.hands[seat] or _faces(deal.hands[seat]) == _faces(
        state.hands[seat]
    )
    assert len(deal.kitty) == len(state.kitty)
    every = [c for h in deal.hands for c in h] + list(deal.kitty) + list(deal.played)
    every += [c for p in deal.trick for c in p.cards]
    assert len(set(every)) == len(every) == 108  # each physical card once


def test_same_seed_same_play() -> None:
    state = _to_play(GAME.parse_config({"rounds": 1}), 4)
    seat = state.to_move
    view, legal = GAME.view(state, seat), GAME.legal(state, seat)
    bot = TractorMonteCarloBot(QUICK)
    first = bot.decide(view, legal, seat, 99, 1.0)
    assert first is not None
    GAME.validate(state, seat, first)
    assert all(bot.decide(view, legal, seat, 99, 1.0) == first for _ in range(2))


def _random_options(rng: Rng) -> dict[str, Any]:
    """Every enum and flag option of the config at random (new options included)."""
    out: dict[str, Any] = {"rounds": 1}
    for name, field in TractorConfig.model_fields.items():
        kind = field.annotation
        if isinstance(kind, type) and issubclass(kind, enum.Enum):
            out[name] = rng.choice(list(kind)).value
        elif kind is bool and name != "finding_friends":
            out[name] = rng.below(2) == 1
    if rng.below(3) == 0:
        out["finding_friends"], out["seats"] = True, 5 + rng.below(4)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_legal_under_random_options(seed: int) -> None:
    options = _random_options(Rng(seed * 7919 + 1))
    config = GAME.parse_config(options)
    seats = GAME.seat_count(config)
    strong, heuristic = TractorMonteCarloBot(QUICK), make_bot("tractor", "heuristic")
    bots = [strong if s % 2 == 0 else heuristic for s in range(seats)]
    _, actions, illegal = play_game(GAME, config, seed, bots)
    assert actions > 0 and illegal == 0, options
