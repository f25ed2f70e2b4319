"""Strength report for the bridge bots (issue 7 §2, issue 19 §7).  Prints figures,
asserts nothing.

(a) Declarer play: on random boards the side with more HCP declares a fixed contract
    (4 of an 8-card major fit, else 3NT; declarer = the hand longer in trumps, or
    stronger in NT).  The defenders play double dummy (they see every card), so the
    tricks the declarer loses against the double-dummy result measure only its own
    mistakes.  The GIB declarer (sampling + double dummy) is compared with a
    random-legal declarer on the same boards: lost tricks per board, 95% CI.
    With ``--bid`` the boards are bid instead, the GIB bidder at all four seats
    (the dealer turning with the board), and played in the contract reached; a
    passed-out board is left out.  The fixed contract's auction ("4S", three
    passes) tells the players nothing; a bid auction does, and the samples must
    agree with it.
(b) Defence, measured the same way: the same boards and contracts, a double-dummy
    declarer, GIB on both defenders' seats; the tricks the declarer takes above the
    double-dummy result are the defenders' loss per board, 95% CI.
(c) Duplicate match: each board is played at two tables, GIB bidding and playing
    North-South against random-legal bidders/players at one and East-West at the
    other (the arena's ``play_game``, real seat views).  IMPs per board for GIB, 95% CI.

    .venv/bin/python bench/bridge_bots.py --boards 500 --defence 500 --match 100

``--solver dds`` (default) uses engine.dds; ``--solver endplay`` uses the endplay
package (bench-only peer, the DDS library) as a cross-check of the figures.
``--solver compare`` times the bots' scoring workload itself (score every legal
card of a position, over the sampled deals of each decision): it records every
call the GIB declarer makes on ``--boards`` boards of (a), then replays the same
calls, in the same order, through a fresh engine.dds scorer (one warm Solver)
and through endplay's solve_board (DDS, one thread), checks that every score
agrees, and prints both times and their ratio; ``--threads N`` also scores each
decision's samples at once on N threads (our SolverPool against endplay's
solve_all_boards with SetMaxThreads(N)).

    .venv/bin/python bench/bridge_bots.py --solver compare --boards 20 [--threads 2]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout first

from bots.arena import Progress, derive_seeds, mean_ci, play_game
from bots.base import RandomBot
from bots.bridge.gib import GibBot
from bots.bridge.play import (
    SOLVER_BYTES,
    PlayOptions,
    Scorer,
    dds_scorer,
    score_deals,
    solver_scorer,
)
from engine.cards import deck, format_face, parse_face, rank_of
from engine.dds import Solver, make_deal
from engine.rng import Rng, derive_seed
from rules.bridge import BridgeConfig, BridgeGame
from rules.bridge.boards import SEATS
from rules.bridge.scoring import imps
from rules.bridge.state import Phase
from rules.bridge.system.hand import HandInfo

_SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def _endplay_deal(hands: tuple[tuple[int, ...], ...], strain: str, leader: int,
                  trick: tuple[int, ...]) -> Any:
    from endplay.types import Card, Deal, Denom, Player

    denoms = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs,
              "N": Denom.nt}
    full = [list(h) for h in hands]
    for i, f in enumerate(trick):
        full[(leader + i) % 4].append(f)
    d = Deal(make_deal(full).to_pbn())
    d.first = Player(leader)
    d.trump = denoms[strain]
    for f in trick:
        t = format_face(f)
        d.play(Card(t[1] + t[0]))
    return d


def _endplay_scores(solved: Any) -> dict[str, int]:
    out = {}
    for card, tricks in solved:
        text = str(card)
        out[text[1:] + _SUITS[text[0]]] = int(tricks)
    return out


def endplay_scorer() -> Scorer:
    """The same scores from endplay's DDS (bench-only)."""
    from endplay.dds import solve_board

    def score(
        hands: tuple[tuple[int, ...], ...], strain: str, leader: int, trick: tuple[int, ...]
    ) -> dict[str, int]:
        return _endplay_scores(solve_board(_endplay_deal(hands, strain, leader, trick)))

    return score


def fixed_contract(hands: Sequence[Sequence[int]]) -> tuple[int, str]:
    """(declarer, contract text) for the stronger side: 4M on an 8-card major fit, else 3NT."""
    info = [HandInfo.of(h) for h in hands]
    side = 0 if info[0].hcp + info[2].hcp >= info[1].hcp + info[3].hcp else 1
    a, b = side, side + 2
    for suit, letter in ((3, "S"), (2, "H")):
        if info[a].length(suit) + info[b].length(suit) >= 8:
            decl = a if info[a].length(suit) >= info[b].length(suit) else b
            return decl, f"4{letter}"
    return (a if info[a].hcp >= info[b].hcp else b), "3NT"


def play_board(seed: int, role: str, bot: str, scorer: Scorer, options: PlayOptions,
               budget: float, times: list[float],
               bot_scorer: Scorer | None = None, bid: bool = False) -> tuple[int, int] | None:
    """(double-dummy tricks, tricks taken) for the declarer on board ``seed``, with
    ``bot`` ("gib" or "random") playing ``role`` ("declarer": declarer and dummy;
    "defence": both defenders) and the other side double dummy; ``bot_scorer``: the
    solver the GIB bot scores with (default ``scorer``); ``bid``: in the contract
    the GIB bidders reach (None when they pass the board out), else the fixed one."""
    cards = Rng(seed).shuffled(deck())
    hands = [cards[13 * i: 13 * i + 13] for i in range(4)]
    pbn = make_deal(hands).to_pbn()
    game = BridgeGame()
    if bid:
        state = game.new(BridgeConfig(deal=pbn, dealer=SEATS[seed % 4]), seed)
        bidder = GibBot(options, bot_scorer or scorer)
        while state.phase is Phase.AUCTION:
            seat = game.to_act(state)[0]
            action = bidder.decide(game.view(state, seat), game.legal(state, seat), seat,
                                   seed, budget)
            state, _ = game.act(state, seat, action)
        if state.contract is None:
            return None
        decl, strain = state.contract.declarer, state.contract.strain
    else:
        decl, contract = fixed_contract(hands)
        strain = contract[1]
        state = game.new(BridgeConfig(deal=pbn, dealer=SEATS[decl]), seed)
        for i, call in enumerate((contract, "P", "P", "P")):
            state, _ = game.act(state, (decl + i) % 4, {"type": "call", "call": call})
    leader = (decl + 1) % 4
    dd = scorer(tuple(tuple(h) for h in hands), strain, leader, ())
    dd_declarer = 13 - max(dd.values())
    player = GibBot(options, bot_scorer or scorer) if bot == "gib" else RandomBot()
    k = 0
    while state.phase is Phase.PLAY:
        seat = game.to_act(state)[0]
        legal = [a for a in game.legal(state, seat) if a["type"] == "play"]
        mover = state.next_player
        bots_move = (mover % 2 == decl % 2) == (role == "declarer")
        if not bots_move:
            # Double dummy: the best card for the true deal, lowest on ties.
            scores = scorer(state.hands, strain, state.leader, state.trick)
            cards_ = [a["card"] for a in legal]
            best = max(cards_, key=lambda c: (scores.get(c, -1), -rank_of(parse_face(c))))
            action: dict[str, object] = {"type": "play", "card": best}
        else:
            view = game.view(state, seat)
            t = time.perf_counter()
            action = dict(player.decide(view, legal, seat, derive_seed(seed, k, seat), budget)
                          or legal[0])
            if bot == "gib" and len(legal) > 1:
                times.append(time.perf_counter() - t)
        state, _ = game.act(state, seat, action)
        k += 1
    taken = state.results[-1].tricks
    assert taken is not None
    return dd_declarer, taken


def report_play(n: int, role: str, bots: Sequence[str], scorer: Scorer, options: PlayOptions,
                budget: float, first: int = 0, dump: str | None = None,
                bid: bool = False) -> None:
    """Tricks lost against double dummy per board by ``bots`` playing ``role``
    (boards ``first`` to ``first + n`` of the bench's list: a long run may be split
    into parts played side by side, their ``dump`` files joined; with ``bid`` the
    boards passed out are left out, the same ones in every run)."""
    seeds = derive_seeds(7, first + n)[first:]
    lost: dict[str, list[float]] = {b: [] for b in bots}
    times: list[float] = []
    bar = Progress(n, label="boards")
    start = time.perf_counter()
    passed_out = 0
    for i, seed in enumerate(seeds):
        for who in bots:
            played = play_board(seed, role, who, scorer, options, budget, times, bid=bid)
            if played is None:
                passed_out += 1
                break
            dd, taken = played
            # Declarer: tricks below double dummy; defence: declarer's tricks above it.
            lost[who].append(dd - taken if role == "declarer" else taken - dd)
        bar.update(i + 1)
    secs = time.perf_counter() - start
    if dump:
        Path(f"{dump}.{role}.json").write_text(json.dumps(lost))
    other = "defenders" if role == "declarer" else "declarer"
    contracts = f"bid ({passed_out} passed out)" if bid else "fixed contracts"
    print(f"({'a' if role == 'declarer' else 'b'}) {role} play, {n} boards, {contracts}, "
          f"double-dummy {other}, {options.samples}-{options.max_samples} samples/decision "
          f"({secs:.0f} s)")
    for who, values in lost.items():
        m, h = mean_ci(values)
        print(f"    {who:7s} tricks lost vs double dummy per board: {m:.3f} ± {h:.3f}")
    if len(bots) == 2:
        diff = [r - g for g, r in zip(lost[bots[0]], lost[bots[1]], strict=True)]
        m, h = mean_ci(diff)
        print(f"    {bots[1]} minus {bots[0]}: {m:.3f} ± {h:.3f} tricks per board")
    if times:
        print(f"    gib decision time: mean {statistics.mean(times) * 1000:.1f} ms, "
              f"median {statistics.median(times) * 1000:.1f} ms, max {max(times):.2f} s "
              f"over {len(times)} decisions with a choice")


def report_match(n: int, scorer: Scorer, options: PlayOptions, budget: float) -> None:
    seeds = derive_seeds(11, n)
    game = BridgeGame()
    config = BridgeConfig()
    gib, rnd = GibBot(options, scorer), RandomBot()
    results: list[float] = []
    bar = Progress(n, label="boards")
    start = time.perf_counter()
    for i, seed in enumerate(seeds):
        ns, _, _ = play_game(game, config, seed, [gib, rnd, gib, rnd], budget)
        ew, _, _ = play_game(game, config, seed, [rnd, gib, rnd, gib], budget)
        # GIB's points at the two tables of the same board, netted.
        results.append(imps(int(ns[0] + ew[1])))
        bar.update(i + 1)
    secs = time.perf_counter() - start
    m, h = mean_ci(results)
    print(f"(c) duplicate match, {n} boards x 2 tables, GIB vs random-legal "
          f"({options.samples} samples/decision, {secs:.0f} s)")
    print(f"    GIB IMPs per board: {m:.2f} ± {h:.2f}")


Call = tuple[tuple[tuple[int, ...], ...], str, int, tuple[int, ...]]


def report_scorers(n: int, options: PlayOptions, budget: float, threads: int) -> None:
    """The GIB declarer's scoring calls on n boards, replayed through ours and endplay."""
    from endplay import _dds as ep_core
    from endplay.dds import solve_all_boards

    ep_core.SetMaxThreads(1)
    calls: list[Call] = []

    def recording(hands: tuple[tuple[int, ...], ...], strain: str, leader: int,
                  trick: tuple[int, ...]) -> dict[str, int]:
        calls.append((hands, strain, leader, trick))
        return dds_scorer(hands, strain, leader, trick)

    for seed in derive_seeds(7, n):
        play_board(seed, "declarer", "gib", dds_scorer, options, budget, [], bot_scorer=recording)
    timed: dict[str, float] = {}
    answers: dict[str, list[dict[str, int]]] = {}
    for name, scorer in (("engine.dds", solver_scorer(Solver(tt_bytes=SOLVER_BYTES))),
                         ("endplay", endplay_scorer())):
        start = time.perf_counter()
        answers[name] = [scorer(*c) for c in calls]
        timed[name] = time.perf_counter() - start
    differ = sum(a != b for a, b in zip(answers["engine.dds"], answers["endplay"], strict=True))
    ours, theirs = timed["engine.dds"], timed["endplay"]
    print(f"scoring workload: {len(calls)} sampled positions from {n} boards "
          f"({options.samples} samples/decision), every legal card scored")
    print(f"    one thread: engine.dds (one warm Solver) {ours:7.2f} s   endplay solve_board "
          f"{theirs:7.2f} s   ratio {ours / theirs:.2f}x (target <= 0.75x)   "
          f"{differ} positions differ")
    if threads > 1:
        # The samples of one decision (consecutive calls on the same trick) at once.
        decisions: list[list[Call]] = []
        for c in calls:
            if decisions and decisions[-1][0][1:] == c[1:]:
                decisions[-1].append(c)
            else:
                decisions.append([c])
        start = time.perf_counter()
        for group in decisions:
            score_deals(dds_scorer, [c[0] for c in group], *group[0][1:], threads=threads)
        ours_n = time.perf_counter() - start
        ep_core.SetMaxThreads(threads)
        start = time.perf_counter()
        for group in decisions:
            solve_all_boards([_endplay_deal(*c) for c in group])
        theirs_n = time.perf_counter() - start
        ep_core.SetMaxThreads(1)
        print(f"    {threads} threads: engine.dds SolverPool {ours_n:7.2f} s   endplay "
              f"solve_all_boards {theirs_n:7.2f} s   ratio {ours_n / theirs_n:.2f}x   "
              f"ours threaded vs endplay's one thread {ours_n / theirs:.2f}x")


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--boards", type=int, default=500, help="(a) boards")
    ap.add_argument("--defence", type=int, default=500, help="(b) boards")
    ap.add_argument("--match", type=int, default=100, help="(c) boards")
    ap.add_argument("--samples", type=int, default=PlayOptions.samples)
    ap.add_argument("--max-samples", type=int, default=PlayOptions.max_samples)
    ap.add_argument("--unsound-weight", type=float, default=PlayOptions.unsound_weight,
                    help="what a sampled deal counts where a defender's card in the trick "
                    "gives a trick away (1: no such assumption)")
    ap.add_argument("--first", type=int, default=0, help="(a), (b): boards to skip")
    ap.add_argument("--dump", help="(a), (b): write per-board losses to DUMP.<role>.json")
    ap.add_argument("--bid", action="store_true",
                    help="(a), (b): the boards bid by the GIB bidders, not fixed contracts")
    ap.add_argument("--no-random", action="store_true",
                    help="(a) without the random-legal declarer's reference figure")
    ap.add_argument("--budget", type=float, default=5.0, help="seconds per decision")
    ap.add_argument("--solver", choices=("dds", "endplay", "compare"), default="dds")
    ap.add_argument("--threads", type=int, default=1,
                    help="compare: also score each decision's samples on N threads")
    args = ap.parse_args(argv)
    options = PlayOptions(samples=args.samples, max_samples=args.max_samples,
                          unsound_weight=args.unsound_weight)
    if args.solver == "compare":
        report_scorers(args.boards, options, args.budget, args.threads)
        return
    scorer = dds_scorer if args.solver == "dds" else endplay_scorer()
    print(f"solver: {args.solver}", flush=True)
    if args.boards:
        bots = ["gib"] if args.no_random else ["gib", "random"]
        report_play(args.boards, "declarer", bots, scorer, options, args.budget, args.first,
                    args.dump, args.bid)
        sys.stdout.flush()
    if args.defence:
        report_play(args.defence, "defence", ["gib"], scorer, options, args.budget, args.first,
                    args.dump, args.bid)
        sys.stdout.flush()
    if args.match:
        report_match(args.match, scorer, options, args.budget)


if __name__ == "__main__":
    main()
