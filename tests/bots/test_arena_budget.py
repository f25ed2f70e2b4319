"""A tournament's time budget (docs/bots.md, "Python bots"): each decision runs on
a daemon thread and is waited for ``budget`` seconds at most; a late one gets the
stand-in at once, and a bot still busy with it gets stand-ins until it returns.

Timing bounds are generous (the machine is shared); a game that would hang is
played on a helper thread, so that without the budget a test fails, not hangs."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bots import base
from bots.arena import PlayedGame, SeatFaults, play_logged
from bots.base import RandomBot, make_bot
from bots.tournament.jobs import GameJob, play_job
from rules.registry import get_game
from tests.server.serverproc import ROOT, TAG_VARIABLE, new_tag, stop, survivors

T = TypeVar("T")
WHIST = get_game("whist")
CONFIG = WHIST.parse_config({})
BUDGET = 0.2
# Far more than any game here needs with the budget kept, far less than without it.
BOUND = 30.0

# Hung bots wait on this rather than sleep, so the module's threads all return.
RELEASE = threading.Event()


@pytest.fixture(autouse=True, scope="module")
def _release_hung_bots() -> Iterator[None]:
    yield
    RELEASE.set()
    STARTED.set()


class Hang:
    """Answers its first ``answered`` calls, then never returns (for an hour)."""

    answered = 0

    def __init__(self) -> None:
        self.calls = 0

    def decide(self, view: Any, legal: Sequence[Any], seat: int, seed: int, budget: float) -> Any:
        self.calls += 1
        if self.calls > self.answered:
            RELEASE.wait(3600)
        return legal[0]


class HangAfterFirst(Hang):
    """The reported bot: its first call (a tournament's warm-up) answers."""

    answered = 1


# Released by the test that uses StuckStarting (and at the module's end).
STARTED = threading.Event()


class StuckStarting:
    """Its first call in this process (a tournament's warm-up) returns only when
    STARTED is set; it answers at once afterwards."""

    starting = True

    def decide(self, view: Any, legal: Sequence[Any], seat: int, seed: int, budget: float) -> Any:
        if StuckStarting.starting:
            StuckStarting.starting = False
            STARTED.wait(3600)
        return legal[0]


class Undecided:
    def decide(self, view: Any, legal: Sequence[Any], seat: int, seed: int, budget: float) -> Any:
        return None


class SlowOnce:
    """Sleeps three budgets on its second call; answers at once otherwise."""

    def __init__(self) -> None:
        self.calls = 0
        self.returned_at: float | None = None  # when the slow call returned
        self.asked_after: int = 0  # calls made after that

    def decide(self, view: Any, legal: Sequence[Any], seat: int, seed: int, budget: float) -> Any:
        self.calls += 1
        if self.returned_at is not None:
            self.asked_after += 1
        if self.calls == 2:
            time.sleep(3 * budget)
            self.returned_at = time.monotonic()
        return RandomBot().decide(view, legal, seat, seed, budget)


class Steady:
    """Takes an eighth of the budget a decision: time passes while others play."""

    def decide(self, view: Any, legal: Sequence[Any], seat: int, seed: int, budget: float) -> Any:
        time.sleep(budget / 8)
        return RandomBot().decide(view, legal, seat, seed, budget)


def within(seconds: float, play: Callable[[], T]) -> T:
    """``play()``, failing the test if it takes longer than ``seconds``."""
    out: list[T] = []
    thread = threading.Thread(target=lambda: out.append(play()), daemon=True)
    thread.start()
    thread.join(seconds)
    assert out, f"still playing after {seconds} s"
    return out[0]


def strict(seats: Sequence[Any], config: Any = CONFIG) -> PlayedGame:
    return play_logged(WHIST, config, 11, seats, BUDGET, strict_budget=True, contain_errors=True)


def heuristics(n: int = 3) -> list[Any]:
    return [make_bot("whist", "heuristic") for _ in range(n)]


def test_a_bot_that_never_returns_gets_stand_ins_and_the_game_ends() -> None:
    hung = within(BOUND, lambda: strict([Hang(), *heuristics()]))
    assert hung.stand_ins == (13, 0, 0, 0)
    # Waited for once; busy from then on, so never asked again.
    assert hung.faults[0] == SeatFaults(late=1, busy=12)
    # The other seats played as beside a bot that declines every decision in time.
    declined = strict([Undecided(), *heuristics()])
    assert declined.faults[0] == SeatFaults(declined=13)
    assert hung.log == declined.log and hung.scores == declined.scores
    assert hung.faults[1:] == declined.faults[1:] == (SeatFaults(),) * 3


def test_the_reported_tournament_job_ends_with_stand_ins() -> None:
    hang, rand = "tests.bots.test_arena_budget:HangAfterFirst", "bots.base:RandomBot"
    jobs = [GameJob("whist", "{}", 7, seating, BUDGET) for seating in
            [(hang, rand, hang, rand), (rand, hang, rand, hang)]]
    for job in jobs:
        played = within(BOUND, lambda job=job: play_job(job))  # type: ignore[misc]
        for seat, target in enumerate(job.seating):
            faults = played.faults[seat]
            if target == hang:  # answered the warm-up (or its first decision), then hung
                assert faults.late == 1 and played.stand_ins[seat] == 1 + faults.busy >= 12
            else:
                assert faults == SeatFaults() and played.stand_ins[seat] == 0


def test_a_bot_stuck_in_its_warm_up_is_not_asked_until_that_call_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(base, "WARM_UP_LIMIT", 0.3)
    stuck, rand = "tests.bots.test_arena_budget:StuckStarting", "bots.base:RandomBot"
    job = GameJob("whist", "{}", 7, (stuck, rand, stuck, rand), BUDGET)
    played = within(BOUND, lambda: play_job(job))
    # Both of its seats: never asked while its first call runs, the game goes on.
    for seat in (0, 2):
        faults = played.faults[seat]
        assert faults.summary() == "busy 13"
        assert "first decision in this process" in (faults.first_failure or "")
    assert played.stand_ins == (13, 0, 13, 0)
    assert played.faults[1] == played.faults[3] == SeatFaults()
    STARTED.set()
    deadline = time.monotonic() + BOUND
    while base.warming("whist", stuck) and time.monotonic() < deadline:
        time.sleep(0.01)
    again = within(BOUND, lambda: play_job(job))
    assert again.faults == (SeatFaults(),) * 4 and again.stand_ins == (0,) * 4


def test_a_slow_decision_gets_the_stand_in_and_the_bot_plays_again_once_it_returns() -> None:
    # Two deals, 26 decisions a seat.  Between two of the slow seat's decisions
    # come at most six steady ones (3/4 of a budget), fewer than the two budgets
    # it sleeps on after the wait; the 70-odd after its slow call take nine.
    slow = SlowOnce()
    two_deals = WHIST.parse_config({"deals": 2})
    played = within(BOUND, lambda: strict([slow, Steady(), Steady(), Steady()], two_deals))
    faults = played.faults[0]
    assert (faults.late, faults.failures, faults.illegal, faults.declined) == (1, 0, 0, 0)
    assert faults.busy >= 1  # not asked while still busy
    assert played.stand_ins[0] == 1 + faults.busy
    # Asked again for every decision after its slow call returned.
    assert slow.asked_after >= 1
    assert slow.calls == 2 + slow.asked_after == 26 - faults.busy


def test_strict_budget_asks_on_a_daemon_thread_and_benches_on_the_callers() -> None:
    seen: list[threading.Thread] = []

    class Where:
        def decide(self, view: Any, legal: Sequence[Any], seat: int, seed: int,
                   budget: float) -> Any:
            seen.append(threading.current_thread())
            return legal[0]

    play_logged(WHIST, CONFIG, 3, [Where()] * 4)
    assert set(seen) == {threading.current_thread()}
    seen.clear()
    strict([Where()] * 4)
    assert len(seen) == 52 and all(t.daemon and t is not threading.current_thread() for t in seen)


@pytest.mark.parametrize(
    ("game", "options", "bot"),
    [("whist", {}, "heuristic"), ("poker", {"seats": 3, "hands": 2}, "rule"),
     ("crazy_eights", {}, "heuristic")],
)
def test_bots_that_answer_in_time_play_the_same_game_under_a_strict_budget(
    game: str, options: dict[str, Any], bot: str
) -> None:
    rules = get_game(game)
    config = rules.parse_config(options)
    seats = rules.seat_count(config)
    for seed in (1, 2, 3):
        bench = play_logged(rules, config, seed, [make_bot(game, bot) for _ in range(seats)])
        timed = play_logged(
            rules, config, seed, [make_bot(game, bot) for _ in range(seats)], 5.0,
            strict_budget=True, contain_errors=True,
        )
        assert timed == bench
        assert timed.faults == (SeatFaults(),) * seats


MYBOT = '''
import time


class Hang:
    def __init__(self):
        self.calls = 0

    def decide(self, view, legal, seat, seed, budget):
        self.calls += 1
        if self.calls > 1:
            time.sleep(3600)
        return legal[0]
'''


@pytest.mark.parametrize("workers", ["0", "1"])
def test_the_reported_tournament_command_ends(tmp_path: Path, workers: str) -> None:
    """The report's command, run from a directory holding the bot: it ends, with
    its game processes, though a bot's thread still sleeps in each of them."""
    (tmp_path / "mybot.py").write_text(MYBOT)
    tag = new_tag()
    argv = ["tournament", "--game", "whist", "--bots", "hang=mybot:Hang,random", "--games", "1",
            "--budget", str(BUDGET), "--workers", workers, "--db", f"sqlite:///{tmp_path}/x.db"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), TAG_VARIABLE: tag}
    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", *argv], cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )
    try:
        out, _ = proc.communicate(timeout=60)
    finally:
        stop(proc)
    text = out.decode(errors="replace")
    assert proc.returncode == 0, text
    hang_row = next(line for line in text.splitlines() if line.startswith("hang "))
    # Its two seats' bots, in one process: the warm-up's bot 13 stand-ins, the
    # other (its first call in the game answered) 12; in the second game 12 + 12.
    assert hang_row.split()[-1] == "49"
    assert survivors(tag) == {}
