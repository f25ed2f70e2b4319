"""Progress off a terminal: a line every few seconds while the run is live, even
when nothing is counted, and nothing left running after it."""

from __future__ import annotations

import gc
import io
import threading
import time

from bots.progress import Progress

# Generous: the timer prints every 0.05 s; a slow machine gets seconds.
WAIT = 10.0


def _lines(stream: io.StringIO) -> list[str]:
    return stream.getvalue().splitlines()


def _wait_for_lines(stream: io.StringIO, n: int) -> list[str]:
    deadline = time.monotonic() + WAIT
    while len(_lines(stream)) < n and time.monotonic() < deadline:
        time.sleep(0.01)
    return _lines(stream)


def test_plain_lines_keep_coming_while_nothing_is_counted() -> None:
    stream = io.StringIO()
    bar = Progress(10, stream, every=0.05)
    bar.advance(3, "heuristic 27.1±7.9")
    # A game that hangs: no update, and still a line every interval.
    lines = _wait_for_lines(stream, 4)
    bar.close()
    assert lines[0] == "progress: started: 10 games to play"
    assert len(lines) >= 4
    for line in lines[1:4]:
        assert line.startswith("progress: 3/10 games (30%)")
        assert line.endswith("leader heuristic 27.1±7.9")


def test_close_stops_the_timer_and_prints_where_the_run_stopped() -> None:
    stream = io.StringIO()
    bar = Progress(10, stream, every=0.05)
    timer = bar._timer
    assert timer is not None and timer.is_alive()
    bar.advance(4)
    bar.close()  # a Ctrl-C, say
    assert not timer.is_alive()
    assert _lines(stream)[-1].startswith("progress: 4/10 games (40%)")
    count = len(_lines(stream))
    time.sleep(0.3)
    assert len(_lines(stream)) == count
    bar.close()  # again: nothing more
    assert len(_lines(stream)) == count


def test_a_finished_count_ends_the_timer_with_the_last_line() -> None:
    stream = io.StringIO()
    bar = Progress(2, stream, every=3600.0)
    timer = bar._timer
    bar.update(2)
    assert timer is not None and not timer.is_alive()
    assert _lines(stream)[-1].startswith("progress: 2/2 games (100%)")


def test_a_progress_dropped_without_close_stops_its_timer() -> None:
    bar = Progress(10, io.StringIO(), every=3600.0)
    timer = bar._timer
    assert timer is not None
    del bar
    gc.collect()
    timer.join(WAIT)
    assert not timer.is_alive()


def test_the_end_can_wait_for_close_and_shows_the_leader_then() -> None:
    stream = io.StringIO()
    bar = Progress(4, stream, every=3600.0)
    bar.end_on_close()
    bar.advance(4)
    assert len(_lines(stream)) == 1  # no end line yet: matches still to count
    bar.lead("random 26.0±7.0")
    bar.close()
    lines = _lines(stream)
    assert len(lines) == 2
    assert lines[1].startswith("progress: 4/4 games (100%)")
    assert lines[1].endswith("leader random 26.0±7.0")


def test_no_timer_on_a_terminal_or_when_disabled() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    def timers() -> set[threading.Thread]:
        return {t for t in threading.enumerate() if t.name == "progress"}

    before = timers()
    tty = Progress(4, Terminal(), every=0.05)
    off = Progress(4, io.StringIO(), every=0.05, enabled=False)
    assert tty._timer is None and off._timer is None
    assert timers() <= before
    tty.close()
    off.close()
