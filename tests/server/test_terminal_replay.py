"""``cardtable replay`` pages: every game drawn like its live table, in the same words."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from clients.terminal.replay import run_replay
from rules.registry import get_game
from server.cli import replay_source
from server.persistence.store import StoredAction, StoredGame
from tests.rules.tractor.last_word import SEED, drawn_to_a_pass


def _stored(
    name: str,
    moves: list[tuple[int, dict[str, Any]]] | None = None,
    options: dict[str, Any] | None = None,
    seed: int = 1,
) -> StoredGame:
    """A game played in memory: ``moves`` (seat, action), else the first legal action
    of the first seat to act until the game ends; stored as ended either way."""
    game = get_game(name)
    config = game.parse_config(options or {})
    state = game.new(config, seed)
    log: list[tuple[int, dict[str, Any]]] = list(moves or [])
    if moves is None:
        while game.result(state) is None:
            seat = game.to_act(state)[0]
            log.append((seat, game.legal(state, seat)[0]))
            state, _ = game.act(state, seat, log[-1][1])
    else:
        for seat, action in log:
            state, _ = game.act(state, seat, action)
    result = game.result(state)
    at = datetime.now(UTC)
    return StoredGame(
        id=7,
        game_type=name,
        config=options or {},
        seed=seed,
        name="t",
        status="finished" if result else "abandoned",
        created_at=at,
        finished_at=at,
        result=result.to_json() if result else None,
        actions=[StoredAction(i, s, a, at, "bot:x") for i, (s, a) in enumerate(log, 1)],
    )


def _replay(stored: StoredGame, viewer: str | None = None) -> str:
    pages: list[str] = []
    assert run_replay(replay_source(stored), viewer, True, write=pages.append) == 0
    return "\n".join(pages)


def test_whist_replays_as_a_card_table_not_a_field_dump() -> None:
    out = _replay(_stored("whist"))
    assert "  view:" not in out and "hand_sizes" not in out
    assert "step 0/52: the deal\n  * Deal 1 · North deals · trump " in out
    assert "\n  Deal 1/1 · trump " in out
    assert "\n  North: ♠ " in out and "\n  West: ♠ " in out  # every hand, as "all"
    assert "\nstep 1/52: East: Play " in out and "\n  * East plays " in out
    assert "\n  Trick:      East " in out
    assert "\n  * Deal over: North/South +" in out
    # The result reads like the live client's, scores as integers.
    last = out.splitlines()[-1]
    assert last.startswith("result: ") and "(scores: North " in last and ".0" not in last
    seat = _replay(_stored("whist"), "2")
    assert "\n  Your hand:  ♠ " in seat and "\n  North: ♠ " not in seat


def test_bridge_replay_credits_dummys_cards_to_the_declarer() -> None:
    # 1NT by North; East leads; North (declarer) plays a card of South's (dummy's) hand.
    calls = [(0, "1NT"), (1, "P"), (2, "P"), (3, "P")]
    moves: list[tuple[int, dict[str, Any]]] = [(s, {"type": "call", "call": c}) for s, c in calls]
    game = get_game("bridge")
    state = game.new(game.parse_config({}), 1)
    for seat, action in moves:
        state, _ = game.act(state, seat, action)
    moves.append((1, game.legal(state, 1)[0]))
    state, _ = game.act(state, 1, moves[-1][1])
    dummy_card = game.legal(state, 0)[0]
    moves.append((0, dummy_card))
    out = _replay(_stored("bridge", moves))
    card = out.split("step 6/6: ")[1].splitlines()[0]
    assert card.startswith("North: Play ") and card.endswith(" from dummy"), card
    page = out.split("step 6/6: ")[1]
    assert "\n  * North plays " in page and "from dummy\n" in page
    assert "South plays" not in page  # the card is not credited to dummy
    assert "step 5/6: East: Play " in out  # the opening lead, from East's own hand
    assert "\n  * East leads " in out


def test_poker_replay_result_prints_integral_chips_as_integers() -> None:
    out = _replay(_stored("poker", options={"seats": 3, "hands": 1}))
    last = out.splitlines()[-1]
    assert last.startswith("result: Seat ") and "(scores: Seat 1 " in last
    assert ".0," not in last and not last.endswith(".0)")


def test_a_secret_step_names_no_seat() -> None:
    # Tractor drawn out with nobody declaring; at the last word a seat that could
    # declare passes: its secret (docs/tractor.md, "The Game").
    game = get_game("tractor")
    moves, passer = drawn_to_a_pass()
    stored = _stored("tractor", moves, seed=SEED)
    last = f"step {len(moves)}/{len(moves)}: "
    other = _replay(stored, str((passer + 1) % 4))
    assert last + "A step not shown to this viewer" in other
    own = _replay(stored, str(passer))
    names = game.seat_names(game.parse_config({}))
    assert f"{last}{names[passer]} (you): Pass (do not declare)" in own
