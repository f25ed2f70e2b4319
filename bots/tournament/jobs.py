"""One tournament game as a job: a description in, a played game out.

``play_job`` is a top-level function of a frozen, picklable value, so a local
process pool and a remote worker can both run it; it does no I/O besides
importing the bots it names.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import Any

from bots.arena import PlayedGame, play_logged
from bots.base import load_bot
from rules.registry import get_game


@dataclass(frozen=True)
class GameJob:
    """What to play: a game of ``game`` with ``options`` (JSON text), dealt from
    ``seed``, ``seating[i]`` (a ``module:Class`` bot target) in seat ``i``."""

    game: str
    options: str
    seed: int
    seating: tuple[str, ...]
    budget: float = 1.0
    strict_budget: bool = True  # a late answer gets the stand-in at once, as at a table


# Bot targets that have decided once in this process (see _warm_up).
_WARM: set[str] = set()


def play_job(job: GameJob) -> PlayedGame:
    """Play ``job`` to the end (a bot that fails, answers illegally or late gets
    the game's stand-in for that decision; ``PlayedGame.faults`` says which and why,
    with a failure's traceback)."""
    game = get_game(job.game)
    config = game.parse_config(json.loads(job.options))
    bots = [load_bot(target) for target in job.seating]
    _warm_up(game, config, job, bots)
    return play_logged(
        game,
        config,
        job.seed,
        bots,
        job.budget,
        strict_budget=job.strict_budget,
        contain_errors=True,  # an outside bot's bug costs it the move, not the run
    )


def _warm_up(game: Any, config: Any, job: GameJob, bots: list[Any]) -> None:
    """Let each bot decide once, untimed and thrown away, the first time this
    process meets it: its first decision pays for imports and tables built on
    first use, which must not run out its budget (the server warms its bot pool
    the same way before any table asks)."""
    cold = [(t, b) for t, b in zip(job.seating, bots, strict=True) if t not in _WARM]
    if not cold:
        return
    state = game.new(config, job.seed)
    seat = game.to_act(state)[0]
    view, legal = game.view(state, seat), game.legal(state, seat)
    for target, bot in cold:
        _WARM.add(target)
        # A failing bot fails again in the game, where it counts.
        with contextlib.suppress(Exception):
            bot.decide(view, legal, seat, job.seed, job.budget)
