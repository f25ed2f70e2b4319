"""The terminal console: a prompt keeps its own line while other lines are printed."""

from __future__ import annotations

import asyncio
import io
import threading

from clients.terminal.console import CLEAR_LINE, Console


class SlowInput:
    """``input()`` as the terminal does it: prints the prompt, then waits for Enter."""

    def __init__(self, out: io.StringIO, answer: str = "1") -> None:
        self.out, self.answer = out, answer
        self.asked = threading.Event()
        self.enter = threading.Event()

    def __call__(self, prompt: str) -> str:
        self.out.write(prompt)
        self.asked.set()
        assert self.enter.wait(5)
        return self.answer


async def _asked(keys: SlowInput) -> None:
    assert await asyncio.to_thread(keys.asked.wait, 5)


async def test_a_line_printed_at_a_terminal_prompt_goes_above_it() -> None:
    out = io.StringIO()
    keys = SlowInput(out)
    console = Console(out, keys, tty=True, echo=True, typed=lambda: "4")
    answer = asyncio.ensure_future(console.read("Your move [1-5 or card]: "))
    await _asked(keys)
    console.write("East plays K♠")
    # The prompt's line is cleared, the line printed, and the prompt (with what was
    # typed) drawn again below it.
    assert out.getvalue() == (
        f"Your move [1-5 or card]: {CLEAR_LINE}East plays K♠\nYour move [1-5 or card]: 4"
    )
    console.retitle("Your move [1-3 or card]: ")
    assert out.getvalue().endswith(f"4{CLEAR_LINE}Your move [1-3 or card]: 4")
    keys.enter.set()
    assert await asyncio.wait_for(answer, 5) == "1"
    console.write("You play 10♥")  # the terminal echoed Enter: a fresh line
    assert out.getvalue().endswith("[1-3 or card]: 4You play 10♥\n")
    assert console.prompting is None


async def test_without_a_terminal_the_prompt_line_is_ended_not_cleared() -> None:
    out = io.StringIO()
    keys = SlowInput(out)
    console = Console(out, keys, tty=False, echo=False)
    answer = asyncio.ensure_future(console.read("Your move: "))
    await _asked(keys)
    console.write("Connection lost (1001: server shutting down).")
    keys.enter.set()
    await asyncio.wait_for(answer, 5)
    console.write("You play 10♥")  # nothing echoed the answer's Enter
    assert out.getvalue().splitlines() == [
        "Your move: ",
        "Connection lost (1001: server shutting down).",
        "Your move: ",
        "You play 10♥",
    ]
