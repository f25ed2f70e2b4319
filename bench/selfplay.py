"""Random-legal self-play speed: actions per second through the Game contract.

    .venv/bin/python bench/selfplay.py [--seconds 1.5] [--rounds 5] [--games gin,bridge]

Every player picks a uniformly random action from ``legal()`` and the game goes
through ``act()`` (validate, then apply), as tournaments and bot search drive it.
Gin (one deal, ``target=0``) and bridge (one board) run beside OpenSpiel's
``gin_rummy`` and ``bridge`` (``use_double_dummy_result=False``: the cards are
played) driven from Python with ``legal_actions()`` and ``apply_action()`` in the
same run; the other games are printed for the record.  Only decisions count as
actions (OpenSpiel's chance nodes, its deal, are timed but not counted).  Bridge
claims are left out of the random choice: the peer has none, and a random claim
ends the play after a few cards.

Each round plays whole games for about ``--seconds`` of CPU time per engine
(``time.process_time``: the machine is shared); rounds alternate ours and the
peer's, and the median rate over the rounds is printed with the ratio
ours / OpenSpiel.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rules.registry import get_game

# The games, their options and the OpenSpiel peer (None: no peer, for the record).
GAMES: dict[str, tuple[str, dict[str, Any], tuple[str, dict[str, Any]] | None]] = {
    "gin": ("rummy", {"variant": "gin", "target": 0}, ("gin_rummy", {})),
    "bridge": ("bridge", {"boards": 1}, ("bridge", {"use_double_dummy_result": False})),
    "indian rummy": ("rummy", {"variant": "indian", "pool": 0, "players": 2}, None),
    "whist": ("whist", {"deals": 1}, None),
    "crazy_eights": ("crazy_eights", {"seats": 4, "hands": 1}, None),
    "poker": ("poker", {"seats": 6, "hands": 20}, None),
    "tractor": ("tractor", {}, None),
}


def ours(name: str, options: dict[str, Any]) -> Callable[[random.Random], int]:
    """One random-legal game of ours; returns the number of actions."""
    game = get_game(name)
    config = game.parse_config(options)

    def play(rng: random.Random) -> int:
        state = game.new(config, rng.getrandbits(32))
        n = 0
        while True:
            seats = game.to_act(state)
            if not seats:
                return n
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            legal = game.legal(state, seat)
            calm = [a for a in legal if a.get("type") != "claim"]
            state, _ = game.act(state, seat, rng.choice(calm or legal))
            n += 1

    return play


def peer(name: str, params: dict[str, Any]) -> Callable[[random.Random], int]:
    """One random-legal game of OpenSpiel's ``name``; returns the decisions made."""
    import pyspiel

    game = pyspiel.load_game(name, params)

    def play(rng: random.Random) -> int:
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n

    return play


def rate(play: Callable[[random.Random], int], seconds: float, seed: int) -> float:
    """Actions per CPU second over whole games played for about ``seconds``."""
    rng = random.Random(seed)
    actions = 0
    start = time.process_time()
    while (spent := time.process_time() - start) < seconds:
        actions += play(rng)
    return actions / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    print(f"{'game':<14} {'ours act/s':>11} {'OpenSpiel act/s':>16} {'ours/peer':>10}")
    for label in args.games.split(","):
        name, options, spiel = GAMES[label]
        engines = {"ours": ours(name, options)}
        if spiel is not None:
            try:
                engines["peer"] = peer(*spiel)
            except ImportError:
                print(f"{label}: pyspiel not installed, peer skipped")
        for play in engines.values():  # warm-up: tables, caches, imports
            rate(play, 0.2, seed=0)
        rates: dict[str, list[float]] = {k: [] for k in engines}
        for r in range(args.rounds):
            for key, play in engines.items():
                rates[key].append(rate(play, args.seconds, seed=r + 1))
        mine = statistics.median(rates["ours"])
        if "peer" in rates:
            theirs = statistics.median(rates["peer"])
            print(f"{label:<14} {mine:>11,.0f} {theirs:>16,.0f} {mine / theirs:>9.2f}x")
        else:
            print(f"{label:<14} {mine:>11,.0f} {'-':>16} {'-':>10}")


if __name__ == "__main__":
    main()
