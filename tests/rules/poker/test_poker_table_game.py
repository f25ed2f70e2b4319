"""The hold'em table as a Game: the conformance suite, chip conservation over random
action sequences, and hidden information over whole sessions."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.events import OMNISCIENT, SPECTATOR
from engine.replay import LoggedAction, replay, state_hash
from engine.rng import Rng
from rules.poker.game import PokerGame
from rules.poker.options import PokerConfig
from rules.poker.state import Phase, PokerState
from rules.registry import get_game
from tests.conformance import check_game, scan_step

GAME = PokerGame()


def test_registered():
    assert isinstance(get_game("poker"), PokerGame)


def test_conformance_single_hands_2_to_10_seats():
    """The Game contract (terminal, legal accepted, rejections change nothing, replay
    hash, no leak in any view, event or error) on 240 random one-hand games."""
    configs = [
        {"seats": 2},
        {"seats": 3, "ante": 1},
        {"seats": 6, "starting_stack": 30},
        {"seats": 9, "muck_losers": False},
        {"seats": 10, "small_blind": 5, "big_blind": 10, "ante": 2, "starting_stack": 60},
    ]
    actions = 0
    for i, options in enumerate(configs):
        config = GAME.parse_config({"hands": 1, **options})
        actions += check_game(GAME, config, range(i * 1000, i * 1000 + 48))
    assert actions > 240 * 2


def _chips(state: PokerState) -> int:
    hand = state.hand
    in_pot = sum(hand.contributed) if hand is not None and not hand.done else 0
    return sum(state.stacks) + in_pot


def random_session(config: PokerConfig, seed: int) -> tuple[PokerState, list[LoggedAction]]:
    """Random legal play, with bet sizes anywhere in the legal range; checks that chips
    are conserved after every action and that nothing hidden leaks to any viewer."""
    rng = Rng(seed)
    state = GAME.new(config, seed)
    log: list[LoggedAction] = []
    viewers = [*range(config.seats), SPECTATOR, OMNISCIENT]
    while GAME.to_act(state):
        acting = GAME.to_act(state)
        seat = rng.choice(acting)
        legal = GAME.legal(state, seat)
        action: dict[str, Any] = dict(rng.choice(legal))
        opts = GAME.options(state)
        if action["type"] in ("bet", "raise") and opts and opts.min_to and opts.max_to:
            action["to"] = opts.min_to + rng.below(opts.max_to - opts.min_to + 1)
        if action["type"] == "sit_out" and rng.below(3):
            action = legal[0]  # sit out less often, so sessions last
        before = state
        state, events = GAME.act(state, seat, action)
        log.append(LoggedAction(len(log) + 1, seat, action))
        assert _chips(state) == sum(state.bought_in), "chips created or lost"
        scan_step(GAME, state, viewers, events, before)
    return state, log


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    seats=st.integers(2, 10),
    blinds=st.sampled_from([(1, 2), (5, 10), (0, 1), (2, 2)]),
    ante=st.sampled_from([0, 0, 1, 3]),
    stack=st.integers(1, 80),
    rebuys=st.booleans(),
)
def test_chips_are_conserved_exactly_over_random_sessions(
    seed: int, seats: int, blinds: tuple[int, int], ante: int, stack: int, rebuys: bool
):
    """Rule: chips are integers and are conserved exactly over every hand, with
    all-ins, side pots, antes, sitting out and rebuys; and a random session always
    ends, replays to the same state, and never shows a hidden card (mucked and folded
    cards included, to the omniscient replay too)."""
    config = PokerConfig(
        seats=seats,
        small_blind=blinds[0],
        big_blind=blinds[1],
        ante=ante,
        starting_stack=stack,
        max_buy_in=stack * 2,
        rebuys=rebuys,
        hands=12,
    )
    state, log = random_session(config, seed)
    assert state.phase is Phase.OVER
    result = GAME.result(state)
    assert result is not None and sum(result.scores) == 0
    assert sum(state.stacks) == sum(state.bought_in)
    assert state_hash(GAME, replay(GAME, config, seed, log)) == state_hash(GAME, state)


def test_multi_hand_sessions_replay_and_end():
    """The conformance checks that do not depend on the event split (terminal,
    replay hash, rejections) over 40 twelve-hand sessions with rebuys."""
    config = PokerConfig(seats=4, hands=12, starting_stack=20, max_buy_in=40)
    assert check_game(GAME, config, range(40)) > 40 * 12


def test_the_result_names_seats_as_the_table_shows_them() -> None:
    # Seats are shown to people numbered from 1 (terminal and page alike).
    state = GAME.new(GAME.parse_config({"seats": 2, "hands": 1}), 3)
    while GAME.result(state) is None:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal(state, seat)
        fold = [a for a in legal if a["type"] == "fold"]
        state, _ = GAME.act(state, seat, fold[0] if fold else legal[0])
    result = GAME.result(state)
    assert result is not None
    winner = max(range(2), key=lambda s: result.scores[s])
    assert result.summary.startswith(f"Seat {winner + 1} wins ")
