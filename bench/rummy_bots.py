"""Rummy bot strength: the combo bot against random-legal and the greedy baseline.

Single deals (indian ``pool: 0``, gin ``target: 0``), two players, duplicate: every
seed is dealt twice with the seats swapped, so both bots play both hands.  Uses the
arena's ``play_game`` and ``mean_ci`` (normal 95% intervals over seeds, which are
independent; the two rotations of one seed are averaged into one sample).

Per deal: win rate (ties count half) and points — indian: points charged to the
combo bot minus those charged to its opponent (lower is better); gin: points won
minus points lost.  ``python bench/rummy_bots.py [seeds] [variant] [opponent]``.
"""

from __future__ import annotations

import sys
import time

from bots.arena import Progress, derive_seeds, mean_ci, play_game
from bots.base import Bot, RandomBot
from bots.rummy.combo import RummyComboBot
from bots.rummy.greedy import RummyGreedyBot
from rules.rummy.game import RummyGame


def match(variant: str, opponent: str, seeds: list[int]) -> None:
    game = RummyGame()
    options = {"variant": variant, "pool": 0} if variant == "indian" else {
        "variant": variant,
        "target": 0,
    }
    config = game.parse_config(options)
    other: Bot = RandomBot() if opponent == "random" else RummyGreedyBot()
    combo = RummyComboBot()
    wins: list[float] = []
    margins: list[float] = []
    bar = Progress(len(seeds) * 2)
    start = time.perf_counter()
    for k, seed in enumerate(seeds):
        w = m = 0.0
        for combo_seat in (0, 1):
            seats: list[Bot] = [other, other]
            seats[combo_seat] = combo
            scores, _, _ = play_game(game, config, seed, seats)
            mine, theirs = scores[combo_seat], scores[1 - combo_seat]
            w += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
            # Indian scores are minus the points charged, gin scores the points won.
            m += (theirs - mine) if variant == "indian" else (mine - theirs)
        wins.append(w / 2)
        margins.append(m / 2)
        bar.update(2 * (k + 1))
    wr, wh = mean_ci(wins)
    pm, ph = mean_ci(margins)
    unit = "points charged, combo minus opponent" if variant == "indian" else "points won, net"
    print(
        f"{variant:6} combo vs {opponent:6}: {2 * len(seeds)} deals, "
        f"win rate {100 * wr:.1f}% ± {100 * wh:.1f}, {unit} {pm:+.2f} ± {ph:.2f} "
        f"({time.perf_counter() - start:.0f} s)",
        flush=True,
    )


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    variants = [sys.argv[2]] if len(sys.argv) > 2 else ["indian", "gin"]
    opponents = [sys.argv[3]] if len(sys.argv) > 3 else ["random", "greedy"]
    seeds = derive_seeds(2026, n)
    for variant in variants:
        for opponent in opponents:
            match(variant, opponent, seeds)


if __name__ == "__main__":
    main()
