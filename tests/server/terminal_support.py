"""What the end-to-end tests of ``cardtable play`` share: server settings, the CLI's
parse of ``play``, a recorded screen and a scripted keyboard."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path

from server.cli import build_parser
from server.settings import Settings


def play_settings(tmp_path: Path, port: int = 0, grace: float = 0.5) -> Settings:
    return Settings(
        host="127.0.0.1",
        port=port,
        db_url=f"sqlite:///{tmp_path}/t.db",
        bot_delay=0,
        bot_workers=0,
        grace=grace,
    )


def play_args(*argv: str) -> argparse.Namespace:
    """Parse through the real CLI so the ``play`` subcommand's wiring is tested too."""
    return build_parser().parse_args(["play", *argv])


class Screen:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def __call__(self, text: str) -> None:
        self.lines.append(text)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


class Keyboard:
    """Scripted answers to the move prompt; then ``default`` for ever.  With a
    ``screen``, ``seen`` records how many lines it held at each prompt."""

    def __init__(
        self,
        answers: list[str],
        default: str = "1",
        screen: Screen | None = None,
        out_of_turn: list[str] | None = None,
    ) -> None:
        self.answers = list(answers)
        self.default = default
        self.prompts: list[str] = []
        self.screen = screen
        self.seen: list[int] = []
        # Answers to the out-of-turn prompt; without one the player keeps waiting
        # there (the client asks afresh when the seat's turn comes).
        self.out_of_turn = list(out_of_turn or [])

    async def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.screen is not None:
            self.seen.append(len(self.screen.lines))
        await asyncio.sleep(0)
        if prompt.startswith("Out of turn"):
            if not self.out_of_turn:
                await asyncio.Event().wait()  # cancelled by the client
            return self.out_of_turn.pop(0)
        return self.answers.pop(0) if self.answers else self.default
