"""The local arena: duplicate deals, seat rotation, confidence intervals, progress."""

from __future__ import annotations

import io
import math
import pickle

import pytest

from bots.arena import (
    FAILURE_CHARS,
    PlayedGame,
    Progress,
    SeatFaults,
    derive_seeds,
    failure_text,
    mean_ci,
    play_game,
    play_logged,
    run,
)
from bots.base import RandomBot, decide, make_bot
from rules.poker.game import PokerGame
from rules.registry import get_game

GAME = PokerGame()
HEADS_UP = GAME.parse_config({"seats": 2, "hands": 1})


def test_mean_ci_is_the_student_t_interval_of_small_samples():
    # R: t.test(c(1, 2, 3, 4))$conf.int is 0.4457397 4.5542603.
    mean, half = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    assert (mean - half, mean + half) == pytest.approx((0.4457397, 4.5542603), abs=1e-7)
    # Six samples: the table value t(0.975, 5) = 2.570582 times the standard error.
    values = [5.1, 4.9, 5.6, 5.8, 6.0, 6.3]
    mean, half = mean_ci(values)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 5)
    assert half == pytest.approx(2.570582 * sd / math.sqrt(6), rel=1e-6)
    # Two samples: t(0.975, 1) = 12.7062, six times the normal 1.96.
    mean, half = mean_ci([0.0, 2.0])
    assert half == pytest.approx(12.706204736 * math.sqrt(2.0 / 2))
    # 90%: t(0.95, 3) = 2.353363.
    assert mean_ci([1.0, 2.0, 3.0, 4.0], 0.90)[1] == pytest.approx(
        2.353363435 * math.sqrt((5 / 3) / 4)
    )
    assert mean_ci([7.0]) == (7.0, math.inf)


def test_duplicate_deals_cancel_the_cards_between_identical_bots():
    """Same seed, seats swapped: two copies of one deterministic bot get exactly the
    same results, so their paired difference is zero on every deal."""
    lineup = [("a", make_bot("poker", "rule")), ("b", make_bot("poker", "rule"))]
    result = run(GAME, HEADS_UP, lineup, derive_seeds(3, 40), progress=False)
    assert result.games == 80
    diff = result.difference("a", "b")
    assert diff.mean == 0 and diff.half_width == 0
    # Not a trivial zero: single games do move chips.
    scores = {play_game(GAME, HEADS_UP, s, [lineup[0][1], lineup[1][1]])[0] for s in range(10)}
    assert any(sc != (0.0, 0.0) for sc in scores)


def test_each_seed_is_played_in_every_rotation_and_scores_follow_the_bot():
    seen: list[tuple[int, tuple[float, ...]]] = []
    lineup = [("x", RandomBot()), ("y", RandomBot())]
    result = run(
        GAME, HEADS_UP, lineup, [5, 6], progress=False, on_game=lambda s, sc: seen.append((s, sc))
    )
    assert [s for s, _ in seen] == [5, 5, 6, 6]
    # Zero-sum heads-up: the two bots' means are opposite; scale multiplies.
    assert result.standing("x").mean == -result.standing("y").mean
    scaled = run(GAME, HEADS_UP, lineup, [5, 6], progress=False, scale=50.0)
    assert scaled.standing("x").mean == 50.0 * result.standing("x").mean
    single = run(GAME, HEADS_UP, lineup, [5, 6], duplicate=False, progress=False)
    assert single.games == 2


def test_lineup_must_fill_the_table_with_distinct_names():
    with pytest.raises(ValueError):
        run(GAME, HEADS_UP, [("a", RandomBot())], [1], progress=False)
    with pytest.raises(ValueError):
        run(GAME, HEADS_UP, [("a", RandomBot()), ("a", RandomBot())], [1], progress=False)


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_on_a_terminal_plain_lines_elsewhere():
    plain = io.StringIO()
    Progress(10, plain).update(10)
    assert plain.getvalue().splitlines() == [
        "progress: started: 10 games to play",
        plain.getvalue().splitlines()[1],
    ]
    assert plain.getvalue().splitlines()[1].startswith("progress: 10/10 games (100%)")
    tty = _Tty()
    bar = Progress(10, tty)
    bar.update(10)
    assert "10/10" in tty.getvalue() and tty.getvalue().endswith("\n")
    silent = io.StringIO()
    Progress(10, silent, enabled=False).update(10)
    assert silent.getvalue() == ""


class _Undecided:
    """A bot that cannot decide."""

    def decide(self, view, legal, seat, seed, budget):
        return None


class _Illegal:
    """A bot whose every answer the rules refuse."""

    def decide(self, view, legal, seat, seed, budget):
        return {"type": "call", "call": "8NT"}


@pytest.mark.parametrize(
    ("bot", "illegal", "fault"),
    [(_Undecided(), 0, SeatFaults(declined=1)), (_Illegal(), 4, SeatFaults(illegal=1))],
)
def test_a_bot_without_a_legal_answer_gets_the_games_stand_in(bot, illegal, fault):
    # As at a table: Game.stand_in moves for the seat.  Bridge's never bids for a
    # seat, so four of them pass the board out.
    bridge = get_game("bridge")
    config = bridge.parse_config({"boards": 1})
    scores, actions, refused = play_game(bridge, config, 5, [bot] * 4)
    assert (actions, refused) == (4, illegal)
    assert scores == (0, 0, 0, 0)
    # Each seat is told why its stand-in moved.
    played = play_logged(bridge, config, 5, [bot] * 4)
    assert played.faults == (fault,) * 4 and played.stand_ins == (1,) * 4


class _Raising:
    """Fails on every call, each time with a different message."""

    def __init__(self):
        self.calls = 0

    def decide(self, view, legal, seat, seed, budget):
        self.calls += 1
        return self._think(self.calls)

    def _think(self, call):
        raise ValueError(f"broken on call {call}")


@pytest.mark.parametrize("strict", [False, True])
def test_a_raising_bots_first_failure_is_reported_with_its_traceback(strict):
    whist = get_game("whist")
    seats = [_Raising(), RandomBot(), RandomBot(), RandomBot()]
    played = play_logged(
        whist, whist.parse_config({}), 5, seats, strict_budget=strict, contain_errors=True
    )
    assert played.stand_ins == (13, 0, 0, 0)
    faults = played.faults[0]
    assert (faults.failures, faults.late, faults.busy, faults.illegal) == (13, 0, 0, 0)
    assert faults.summary() == "failures 13"
    text = faults.first_failure
    assert text is not None and text.startswith("Traceback (most recent call last):")
    assert text.rstrip().endswith("ValueError: broken on call 1")  # the first one
    assert "in _think" in text and "in decide" in text  # the bot's own frames
    assert played.faults[1:] == (SeatFaults(),) * 3
    # A tournament's worker hands it back pickled.
    assert pickle.loads(pickle.dumps(played)) == played


class _NotAnAction:
    """Answers a card's name, not an action."""

    def decide(self, view, legal, seat, seed, budget):
        return "AS"


class _Async:
    """A coroutine function: calling it returns a coroutine, never an action."""

    async def decide(self, view, legal, seat, seed, budget):
        return legal[0]


class _Clearing:
    """Empties the list of legal actions it is handed, then declines."""

    def decide(self, view, legal, seat, seed, budget):
        legal.clear()


@pytest.mark.parametrize("strict", [False, True])
@pytest.mark.parametrize(
    ("bot", "says"),
    [(_NotAnAction(), "decide returned str 'AS'"), (_Async(), "coroutine function")],
)
def test_an_answer_that_is_not_an_action_is_the_bots_failure(bot, says, strict):
    whist = get_game("whist")
    seats = [bot, RandomBot(), RandomBot(), RandomBot()]
    played = play_logged(
        whist, whist.parse_config({}), 5, seats, strict_budget=strict, contain_errors=True
    )
    assert played.stand_ins == (13, 0, 0, 0) and played.faults[0].failures == 13
    assert says in (played.faults[0].first_failure or "")


@pytest.mark.parametrize("strict", [False, True])
def test_a_bot_that_empties_its_legal_actions_still_gets_the_stand_in(strict):
    whist = get_game("whist")
    seats = [_Clearing(), RandomBot(), RandomBot(), RandomBot()]
    played = play_logged(whist, whist.parse_config({}), 5, seats, strict_budget=strict)
    assert played.stand_ins == (13, 0, 0, 0) and played.faults[0].declined == 13


def test_the_pool_entry_point_hands_a_bot_a_copy_of_the_legal_actions():
    legal = [{"type": "play", "card": "AS"}, {"type": "play", "card": "KS"}]
    assert decide("whist", "tests.bots.test_arena:_Clearing", {}, legal, 0, 1, 1.0) is None
    assert legal == [{"type": "play", "card": "AS"}, {"type": "play", "card": "KS"}]
    with pytest.raises(TypeError, match="not an action"):
        decide("whist", "tests.bots.test_arena:_NotAnAction", {}, legal, 0, 1, 1.0)


def test_a_failures_text_is_capped_at_both_ends():
    try:
        raise RuntimeError("x" * 50_000 + " the end")
    except RuntimeError as exc:
        text = failure_text(exc)
    assert len(text) < FAILURE_CHARS + 100
    assert text.startswith("Traceback") and text.rstrip().endswith("the end")
    assert "characters cut" in text


def test_a_played_game_made_the_old_way_has_no_faults():
    # Callers that build one from stored results (without faults) keep working.
    old = PlayedGame((1.0, -1.0), (), 0, (0, 2))
    assert old.faults == () and pickle.loads(pickle.dumps(old)) == old


def test_a_played_game_s_faults_survive_a_worker_s_stored_result() -> None:
    """A game a cluster worker played comes back as JSON: the reasons for its
    stand-ins (and the first failure's text) with it; a result stored before
    faults were kept reads back with none."""
    import json

    from server.cluster.jobs import played_json, played_of

    faults = (SeatFaults(failures=2, first_failure="ValueError: x"), SeatFaults(late=1))
    played = PlayedGame((1.0, -1.0), ((0, {"type": "fold"}),), 0, (2, 1), {"s": 1}, faults,
                        (0,))
    data = json.loads(json.dumps(played_json(played)))
    assert played_of(data) == played
    del data["faults"], data["stand_in_moves"]
    assert played_of(data).faults == () and played_of(data).stand_in_moves == ()
