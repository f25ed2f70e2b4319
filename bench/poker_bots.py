"""Poker bot strength: heads-up matches with duplicate deals in the local arena.

Each pairing plays ``--deals`` deals twice, the same cards with the seats swapped
(so 2 x deals hands), every hand a fresh 100-big-blind hand.  Prints each bot's
result against the other in big blinds per 100 hands with a 95% confidence interval
(over deals, each deal's two hands averaged), and the run time.

    .venv/bin/python bench/poker_bots.py [--deals 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.arena import derive_seeds, run
from bots.base import make_bot
from rules.poker.game import PokerGame

PAIRINGS = (("rule", "random"), ("equity", "rule"), ("equity", "random"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", type=float, default=1.0, help="seconds per decision")
    args = parser.parse_args()
    game = PokerGame()
    big_blind = 2
    config = game.parse_config(
        {"seats": 2, "hands": 1, "small_blind": 1, "big_blind": big_blind, "starting_stack": 200}
    )
    seeds = derive_seeds(args.seed, args.deals)
    print(
        f"heads-up no-limit hold'em, 100 bb deep, {args.deals:,} deals x 2 seatings "
        f"= {2 * args.deals:,} hands per pairing (duplicate: same cards, seats swapped)"
    )
    print(f"{'bot':>8} vs {'bot':<8} {'bb/100':>9} {'95% CI':>21}  {'hands':>7} {'time':>7}")
    total = time.perf_counter()
    for a, b in PAIRINGS:
        lineup = [(a, make_bot("poker", a)), (b, make_bot("poker", b))]
        result = run(
            game,
            config,
            lineup,
            seeds,
            duplicate=True,
            budget=args.budget,
            scale=100 / big_blind,
        )
        s = result.standing(a)
        verdict = "clear of zero" if s.low > 0 or s.high < 0 else "NOT clear of zero"
        print(
            f"{a:>8} vs {b:<8} {s.mean:+9.1f} [{s.low:+8.1f}, {s.high:+8.1f}]  "
            f"{result.games:>7,} {result.seconds:6.0f}s  {verdict}"
            + (f"  ({result.illegal} illegal answers)" if result.illegal else "")
        )
    print(f"total {time.perf_counter() - total:.0f} s")


if __name__ == "__main__":
    main()
