"""The rules' small caches are shared by every thread of a server: replays are built
on worker threads while its tables play, and two threads evicting at once must not
fail either (a replay answered internal_error)."""

from __future__ import annotations

import sys
import threading
from typing import Any

from rules.tractor.memo import Memo


def test_a_memo_asked_from_many_threads_at_once_never_fails() -> None:
    memo = Memo(4)
    failures: list[BaseException] = []

    def ask() -> None:
        try:
            for i in range(10_000):
                state: Any = object()  # a new object each time: every ask evicts
                assert memo.get(state, i, lambda i=i: i) == i
        except BaseException as exc:
            failures.append(exc)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=ask) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert failures == []
    assert len(memo.entries) <= 4
