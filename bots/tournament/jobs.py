"""One tournament game as a job: a description in, a played game out.

``play_job`` is a top-level function of a frozen, picklable value, so a local
process pool and a remote worker can both run it; it does no I/O besides
importing the bots it names.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from bots.arena import PlayedGame, play_logged
from bots.base import load_bot, warm_up, warm_up_limit, warming
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


def play_job(job: GameJob) -> PlayedGame:
    """Play ``job`` to the end (a bot that fails, answers illegally or late gets
    the game's stand-in for that decision; ``PlayedGame.faults`` says which and why,
    with a failure's traceback)."""
    game = get_game(job.game)
    config = game.parse_config(json.loads(job.options))
    bots = [load_bot(target) for target in job.seating]
    # First decisions outside the budget (bots.base.warm_up), so start-up costs
    # count against none; a bot still on its own is not asked until it returns.
    stuck = warm_up(game, config, job.seed, list(zip(job.seating, bots, strict=True)), job.budget)
    played = play_logged(
        game,
        config,
        job.seed,
        bots,
        job.budget,
        strict_budget=job.strict_budget,
        contain_errors=True,  # an outside bot's bug costs it the move, not the run
        busy=lambda seat: warming(game.name, job.seating[seat]),
    )
    if not stuck:
        return played
    # Busy, with no late decision of its own to explain it: say why.
    why = (f"its first decision in this process (asked before its first game, outside "
           f"the budget) had not returned after {warm_up_limit(job.budget):g} s\n")
    faults = tuple(
        replace(f, first_failure=why) if target in stuck and f.busy and not f.first_failure
        else f
        for target, f in zip(job.seating, played.faults, strict=True)
    )
    return replace(played, faults=faults)
