"""The terminal's input line: a prompt stays on its own line while other lines arrive.

``input()`` waits on a daemon thread, so server pushes keep arriving while the
player thinks.  A line printed meanwhile would land after the prompt, in the
middle of what the player is typing; the console clears the prompt's line first
(or, when the output is not a terminal, ends it), prints the line, and prints the
prompt again below it with what was typed so far, so the prompt stays the last line.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
from collections.abc import Callable
from typing import TextIO

CLEAR_LINE = "\r\x1b[K"  # back to the line's start, erase to its end


def _fd_input(prompt: str) -> str:
    """``input()`` for a stdin that is no terminal (a pipe, a script), read from its
    file descriptor: a buffered read still waiting on the input thread when the
    game ends would abort the interpreter's shutdown ("could not acquire lock")."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = bytearray()
    while (byte := os.read(sys.stdin.fileno(), 1)) not in (b"", b"\n"):
        line += byte
    if not byte and not line:
        raise EOFError
    return line.decode(errors="replace").rstrip("\r")


def _reads_a_pipe() -> bool:
    """Whether stdin is a file descriptor that is no terminal (a pipe, a file)."""
    try:
        return not os.isatty(sys.stdin.fileno())
    except (AttributeError, OSError, ValueError):  # no stdin, or one with no descriptor
        return False


def _readline_buffer() -> str:
    """What the player has typed at the prompt so far (known where readline edits it)."""
    readline = sys.modules.get("readline")
    if readline is None:
        return ""
    try:
        return str(readline.get_line_buffer())
    except Exception:  # a readline stand-in without the call
        return ""


class Console:
    """Prompts and lines on one terminal; ``read`` and ``write`` may interleave freely.

    ``out``/``ask`` default to ``sys.stdout``/``input`` (looked up at each call);
    ``tty`` says whether ``out`` understands the clear-line escape, ``echo`` whether
    the input side echoes the player's Enter (both default to the streams' isatty).
    """

    def __init__(
        self,
        out: TextIO | None = None,
        ask: Callable[[str], str] | None = None,
        tty: bool | None = None,
        echo: bool | None = None,
        typed: Callable[[], str] = _readline_buffer,
    ) -> None:
        self._out = out
        self._ask = ask
        self._tty = tty
        self._echo = echo
        self._typed = typed
        self._lock = threading.Lock()
        self._prompt: str | None = None  # on screen, waiting for its answer
        self._mid_line = False  # the cursor is after an answered prompt (no echo)

    def _stream(self) -> TextIO:
        return self._out if self._out is not None else sys.stdout

    def _is_tty(self) -> bool:
        if self._tty is not None:
            return self._tty
        isatty = getattr(self._stream(), "isatty", None)
        return bool(isatty and isatty())

    def _echoes(self) -> bool:
        if self._echo is not None:
            return self._echo
        try:
            return bool(sys.stdin and sys.stdin.isatty())
        except (OSError, ValueError):  # a closed or replaced stdin
            return False

    def _break(self) -> str:
        """What ends the prompt's line before another line is printed."""
        return CLEAR_LINE if self._is_tty() else "\n"

    def write(self, text: str) -> None:
        """Print one line (or several) above the pending prompt, if any."""
        with self._lock:
            out = self._stream()
            if self._prompt is not None:
                out.write(f"{self._break()}{text}\n{self._prompt}{self._typed()}")
            else:
                lead = "\n" if self._mid_line else ""
                self._mid_line = False
                out.write(f"{lead}{text}\n")
            out.flush()

    def retitle(self, prompt: str) -> None:
        """Change the pending prompt's text (its menu changed while it waited)."""
        with self._lock:
            if self._prompt is None or self._prompt == prompt:
                return
            self._prompt = prompt
            out = self._stream()
            out.write(f"{self._break()}{prompt}{self._typed()}")
            out.flush()

    @property
    def prompting(self) -> str | None:
        """The prompt waiting for an answer, if any."""
        return self._prompt

    async def read(self, prompt: str) -> str:
        """``input(prompt)`` on a daemon thread: the event loop keeps running meanwhile,
        and a prompt still open when the game ends does not keep the process alive."""
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[str] = loop.create_future()
        ask = self._ask or (_fd_input if _reads_a_pipe() else input)

        def settle(value: str | None, exc: BaseException | None) -> None:
            if fut.done():
                return
            if exc is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(value or "")

        def answered() -> None:
            with self._lock:
                self._prompt = None
                self._mid_line = not self._echoes()

        def work() -> None:
            try:
                line = ask(prompt)
            except BaseException as exc:  # EOFError, KeyboardInterrupt
                answered()
                err: BaseException = EOFError() if isinstance(exc, KeyboardInterrupt) else exc
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                    loop.call_soon_threadsafe(settle, None, err)
                return
            answered()
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(settle, line, None)

        with self._lock:
            if self._mid_line:
                self._stream().write("\n")
            # input() prints the prompt itself (readline must know it to redraw the
            # line); from here on a write re-prints it.
            self._prompt = prompt
            self._mid_line = False
        threading.Thread(target=work, name="cardtable-input", daemon=True).start()
        return await fut
