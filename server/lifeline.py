"""Child processes that end with the server, however it ends (even by SIGKILL).

The server holds the only write end of a pipe; every child watches the read end.
When the server dies the kernel closes that write end, the children read end-of-file
and exit.  This matters for a forkserver pool: the forkserver only exits once every
worker has, and the workers otherwise wait on their job queue for ever (their parent
is the forkserver, not the server, and they hold the queue's write end themselves).
On Linux a child also asks for SIGKILL when its own parent dies (PR_SET_PDEATHSIG),
which covers a forkserver killed on its own.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import Pipe
from multiprocessing.connection import Connection

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


class Lifeline:
    """The server's side: children stay alive while this is open."""

    def __init__(self) -> None:
        # Pipe() ends are close-on-exec and passed to children only on purpose, so
        # the write end never leaks into a child (which would keep it open).
        self.reader, self._writer = Pipe(duplex=False)

    def close(self) -> None:
        """Tell every child to exit now."""
        self._writer.close()
        self.reader.close()


def die_with_server(lifeline: Connection) -> None:
    """In a child process: exit when the server is gone.  Call it first thing."""
    set_parent_death_signal()
    threading.Thread(target=_watch, args=(lifeline,), name="lifeline", daemon=True).start()


def process_pool(processes: int) -> ProcessPoolExecutor:
    """A pool of ``processes`` forked processes that die with this one, however it
    ends (a tournament's games, a cluster worker's jobs)."""
    return ProcessPoolExecutor(
        processes,
        # Forked, so that each one's parent is this process: die_with_parent checks it.
        mp_context=multiprocessing.get_context("fork"),
        initializer=die_with_parent,
        initargs=(os.getpid(),),
    )


def die_with_parent(parent: int) -> None:
    """In a forked child: SIGKILL when ``parent`` (the pid that forked it) dies.
    The request only covers deaths after it is made, so a parent already gone (killed
    between the fork and this call) means exit now: the child would wait for work
    for ever."""
    set_parent_death_signal()
    if os.getppid() != parent:
        os._exit(1)


def set_parent_death_signal() -> bool:
    """Ask Linux to SIGKILL this process when its parent dies; False where unsupported."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(lifeline: Connection) -> None:
    try:
        while True:
            lifeline.recv_bytes()  # nothing is ever sent: this returns only at EOF
    except (EOFError, OSError):
        pass
    # Skip interpreter cleanup: it could block on queues nobody reads any more.
    os._exit(1)
