"""Tractor bots: the heuristic partnership against random-legal, and self-play speed.

Two measurements, both with the partnerships on every seat:

1. **Level gain per round** through the shared arena (bots/arena.py): a game
   is one round (option ``rounds=1``: the first round of a match, landlord by
   declaration), each seed dealt four times with the lineup rotated round the
   table (duplicate deals), so the heuristic side sits at 0&2 and at 1&3 on the
   same cards.  A seat's score is the levels its side gained; the interval is
   the arena's (mean over seeds of the rotation average, normal 95%).
2. **Points per round** over whole matches (default options: until a side
   passes A), each seed played twice with the partnerships swapped, every
   round a sample: the card points the heuristic side won in tricks (of 200,
   whatever its role, kitty bonus excluded), the net level gain of the round,
   and the attacker points (kitty bonus and penalties included) when it
   attacked.  The arena scores whole games only, so this loop reads the
   events itself; rounds of one match are not independent, so these
   intervals are a little optimistic.

3. **The Monte Carlo bot against the heuristic** (``--strong DEALS``): single
   rounds, each deal played at two tables with the Monte Carlo pair at 0&2 and at
   1&3; the net levels per round of the Monte Carlo side, paired by deal.

Then rounds per second of 4-bot self-play (four heuristic bots).  Asserts nothing.

    .venv/bin/python bench/tractor_bots.py [--rounds 1000] [--seed 1]
    .venv/bin/python bench/tractor_bots.py --strong 100 --seed 3 --skip-arena --skip-matches
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots import arena
from bots.arena import derive_seeds
from bots.base import Bot, make_bot
from bots.tractor.montecarlo import MonteCarloOptions, TractorMonteCarloBot
from engine.rng import Rng, derive_seed
from rules.tractor.game import TractorGame
from rules.tractor.options import TractorConfig
from rules.tractor.state import Phase, TractorState, team

GAME = TractorGame()


def pick_seat(state: TractorState) -> int:
    """Who acts next when several may: a seat that could declare before the drawer,
    so every declaration gets its moment during the draw."""
    acting = GAME.to_act(state)
    if len(acting) > 1 and state.phase is Phase.DRAW:
        others = [s for s in acting if s != state.drawer]
        if others:
            return others[0]
    return acting[0]


@dataclass
class RoundStats:
    landlord_team: int
    trick_points: list[int] = field(default_factory=lambda: [0, 0])
    attacker_points: int = 0
    team_up: int = 0
    levels_up: int = 0


def play_match(
    bots: Sequence[Bot], config: TractorConfig, seed: int, max_rounds: int | None = None
) -> tuple[list[RoundStats], int]:
    """One match with ``bots[seat]`` at each seat; per-round stats and actions played."""
    state = GAME.new(config, seed)
    rounds: list[RoundStats] = []
    current: RoundStats | None = None
    actions = 0
    while GAME.to_act(state):
        seat = pick_seat(state)
        legal = GAME.legal(state, seat)
        decision_seed = derive_seed(seed, actions, seat)
        action = bots[seat].decide(GAME.view(state, seat), legal, seat, decision_seed, 1.0)
        if action is None:  # the bot cannot decide: the stand-in, as at a table
            action = GAME.stand_in(legal, Rng(decision_seed))
        state, events = GAME.act(state, seat, action)
        actions += 1
        for e in events:
            if e.kind == "trump":
                current = RoundStats(team(e.data["landlord"]))
            elif e.kind == "trick" and current is not None:
                current.trick_points[team(e.data["winner"])] += e.data["points"]
            elif e.kind == "round_end" and current is not None:
                current.attacker_points = e.data["attacker_points"]
                current.team_up, current.levels_up = e.data["team_up"], e.data["levels_up"]
                rounds.append(current)
                current = None
        if max_rounds is not None and len(rounds) >= max_rounds:
            break
    return rounds, actions


def ci(xs: list[float]) -> str:
    m = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return f"{m:7.2f} ± {half:5.2f}  (n={len(xs)})"


def self_play_speed(rounds: int = 20, seed: int = 99) -> float:
    """Rounds per second of four heuristic bots playing each other."""
    bots = [make_bot("tractor", "heuristic") for _ in range(4)]
    done = 0
    t0 = time.perf_counter()
    s = seed
    while done < rounds:
        played, _ = play_match(bots, GAME.parse_config({}), s, max_rounds=rounds - done)
        done += len(played)
        s += 1
    return done / (time.perf_counter() - t0)


def arena_level_gain(rounds: int, seed: int) -> None:
    """Measurement 1: single-round games in the arena, lineup rotated."""
    heuristic, random_bot = make_bot("tractor", "heuristic"), make_bot("tractor", "random")
    lineup = [("heuristic", heuristic), ("random", random_bot),
              ("heuristic-partner", heuristic), ("random-partner", random_bot)]
    seeds = derive_seeds(seed, max(1, rounds // 4))
    result = arena.run(GAME, GAME.parse_config({"rounds": 1}), lineup, seeds)
    h, r = result.standing("heuristic"), result.standing("random")
    d = result.difference("heuristic", "random")
    print(f"arena: {result.games} single-round games ({len(seeds)} seeds x 4 rotations), "
          f"{result.actions} actions, {result.illegal} illegal, {result.seconds:.0f} s")
    print(f"  levels gained per round: heuristic side {h.mean:5.2f} ± {h.half_width:4.2f}, "
          f"random side {r.mean:5.2f} ± {r.half_width:4.2f}")
    print(f"  net level gain per round (paired by seed): {d.mean:5.2f} ± {d.half_width:4.2f}")


def match_points(rounds: int, seed: int) -> None:
    """Measurement 2: whole matches, partnerships swapped on each seed."""
    config = GAME.parse_config({})
    heuristic, random_bot = make_bot("tractor", "heuristic"), make_bot("tractor", "random")
    gain: list[float] = []
    won: list[float] = []
    attacking: list[float] = []
    landlord_rounds = matches = heuristic_matches = 0
    t0 = time.perf_counter()
    first = seed
    while len(gain) < rounds:
        for side in (0, 1):  # duplicate: the same seed with the partnerships swapped
            bots = [heuristic if team(s) == side else random_bot for s in range(4)]
            played, _ = play_match(bots, config, seed)
            matches += 1
            heuristic_matches += played[-1].team_up == side
            for r in played:
                gain.append(r.levels_up if r.team_up == side else -r.levels_up)
                won.append(r.trick_points[side])
                if r.landlord_team == side:
                    landlord_rounds += 1
                else:
                    attacking.append(r.attacker_points)
        seed += 1
        print(f"\r{len(gain)}/{rounds} rounds, {matches} matches", end="", file=sys.stderr)
    print(file=sys.stderr)
    print(f"matches: {len(gain)} rounds in {matches} matches (seeds {first}..{seed - 1}, "
          f"partnerships swapped), {time.perf_counter() - t0:.0f} s")
    print(f"  trick points won per round (/200) {ci(won)}")
    print(f"  net level gain per round          {ci(gain)}")
    print(f"  attacker points when attacking    {ci(attacking)}")
    print(f"  rounds as landlords: {landlord_rounds / len(gain):.1%};  "
          f"matches won: {heuristic_matches}/{matches}")


def strong_vs_heuristic(deals: int, seed: int, options: MonteCarloOptions,
                        first: int = 0, dump: str | None = None) -> None:
    """Measurement 3: the Monte Carlo bot against the heuristic, duplicate deals.

    Single-round games; each deal is played twice, the Monte Carlo pair at seats 0&2
    and then at 1&3 on the same cards (rotating further would repeat these games:
    both bots of a side are the same program).  A deal's sample is the Monte Carlo
    side's levels gained minus the heuristic side's, averaged over its two tables."""
    config = GAME.parse_config({"rounds": 1})
    strong, heuristic = TractorMonteCarloBot(options), make_bot("tractor", "heuristic")
    diffs: list[float] = []
    gained: list[float] = []
    illegal = 0
    t0 = time.perf_counter()
    # ``first`` skips that many deals of the seed's list: a long run split into parts
    # (run side by side, their ``dump`` files joined) plays the same deals.
    for i, s in enumerate(derive_seeds(seed, first + deals)[first:]):
        pair = []
        for side in (0, 1):
            bots = [strong if team(k) == side else heuristic for k in range(4)]
            scores, _, bad = arena.play_game(GAME, config, s, bots, 1.0)
            illegal += bad
            pair.append(scores[side] - scores[1 - side])
            gained.append(scores[side])
        diffs.append(statistics.fmean(pair))
        print(f"\r{i + 1}/{deals} deals", end="", file=sys.stderr)
    print(file=sys.stderr)
    if dump:
        Path(dump).write_text(json.dumps({"diffs": diffs, "gained": gained}))
    m, h = arena.mean_ci(diffs)
    print(f"montecarlo vs heuristic: {deals} deals x 2 tables (single rounds), "
          f"{options.samples} deals x {options.candidates} plays, horizon {options.horizon}, "
          f"{illegal} illegal, {time.perf_counter() - t0:.0f} s")
    print(f"  montecarlo side levels gained per round {ci(gained)}")
    print(f"  net levels per round, montecarlo minus heuristic (paired by deal): "
          f"{m:5.2f} ± {h:4.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1000, help="rounds per measurement")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-arena", action="store_true")
    ap.add_argument("--skip-matches", action="store_true")
    ap.add_argument("--strong", type=int, default=0, metavar="DEALS",
                    help="deals for measurement 3 (Monte Carlo vs heuristic); 0 skips it")
    ap.add_argument("--first", type=int, default=0, help="measurement 3: deals to skip")
    ap.add_argument("--dump", help="measurement 3: write the per-deal figures (JSON) here")
    ap.add_argument("--samples", type=int, default=MonteCarloOptions.samples)
    ap.add_argument("--horizon", type=int, default=MonteCarloOptions.horizon)
    ap.add_argument("--candidates", type=int, default=MonteCarloOptions.candidates)
    args = ap.parse_args()
    if args.strong:
        opts = MonteCarloOptions(args.samples, args.horizon, args.candidates)
        strong_vs_heuristic(args.strong, args.seed, opts, args.first, args.dump)
    if not args.skip_arena:
        arena_level_gain(args.rounds, args.seed)
    if not args.skip_matches:
        match_points(args.rounds, args.seed)
    print(f"self-play, 4 heuristic bots: {self_play_speed():.2f} rounds/s")


if __name__ == "__main__":
    main()
