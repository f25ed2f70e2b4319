"""The stand-in a late bot or an expired turn clock gets at a poker table: what a
poker room's time-out does (docs/poker.md, "Actions")."""

from __future__ import annotations

from engine.rng import Rng
from rules.poker.game import PokerGame

GAME = PokerGame()


def stand_in(legal):
    return GAME.stand_in(legal, Rng(1))


def test_a_late_player_checks_when_checking_is_free():
    legal = [{"type": "check"}, {"type": "bet", "to": 4}, {"type": "sit_out"}]
    assert stand_in(legal) == {"type": "check"}


def test_a_late_player_facing_a_bet_folds():
    legal = [{"type": "fold"}, {"type": "call"}, {"type": "raise", "to": 8},
             {"type": "sit_out"}]
    assert stand_in(legal) == {"type": "fold"}


def test_between_hands_a_late_player_sits_in_and_never_rebuys():
    assert stand_in([{"type": "sit_in"}, {"type": "rebuy", "chips": 100},
                     {"type": "sit_out"}]) == {"type": "sit_in"}
    assert stand_in([{"type": "rebuy", "chips": 100}, {"type": "sit_out"}]) == {
        "type": "sit_out"}


def test_every_stand_in_at_a_real_table_is_legal():
    config = GAME.parse_config({"seats": 3})
    state = GAME.new(config, 7)
    for _ in range(60):
        acting = GAME.to_act(state)
        if not acting:
            break
        seat = acting[0]
        legal = GAME.legal(state, seat)
        move = stand_in(legal)
        assert move in legal and move["type"] in ("check", "fold", "sit_in", "sit_out")
        state, _ = GAME.act(state, seat, move)
