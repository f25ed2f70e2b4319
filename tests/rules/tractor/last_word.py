"""A Tractor round drawn out with nobody declaring, then a pass at the last word:
the log the secret-step tests replay (docs/tractor.md, "The Game")."""

from __future__ import annotations

from typing import Any

from rules.registry import get_game

SEED = 11  # a seat holds a 2 it never declared


def drawn_to_a_pass(seed: int = SEED) -> tuple[list[tuple[int, dict[str, Any]]], int]:
    """The (seat, action) log of the draw and the first last-word pass, and the passer."""
    game = get_game("tractor")
    state = game.new(game.parse_config({}), seed)
    moves: list[tuple[int, dict[str, Any]]] = []
    while state.stock_left:
        (seat,) = game.to_act(state)
        moves.append((seat, {"type": "draw"}))
        state, _ = game.act(state, seat, {"type": "draw"})
    passer = game.to_act(state)[0]
    moves.append((passer, {"type": "pass"}))
    game.act(state, passer, {"type": "pass"})
    return moves, passer
