"""Double-dummy speed: engine.dds against endplay (DDS) on the same seeded deals.

Single thread on both sides (DDS is told SetMaxThreads(1)). For each deal: one
cold solve for one best card (East leads to the first trick in the deal's
strain): our best_card on a reset Solver against endplay's solve_board in
OptimalOne mode, called before the deal's table so DDS's table is cold too
(DDS keeps its table only for the deal it last solved); then our dd_table
(table reset first) against endplay's calc_dd_table. Prints medians, totals,
peak memory and the ratios; asserts nothing. The single solves' tricks are
always compared with DDS's; `--verify N` also checks the first N tables.
`--threads N` adds a line for the batch API: dd_tables on N threads against
endplay's calc_all_tables with SetMaxThreads(N), on the same deals.

    python bench/dds.py [--deals 100] [--seed 1] [--verify N] [--threads N]
                        [--tt-mb 64] [--exact [--bloom]]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.dds import Solver, best_card, dd_table, dd_tables, make_deal
from engine.rng import Rng

STRAINS = "SHDCN"


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verify", type=int, default=0, metavar="N")
    ap.add_argument("--threads", type=int, default=0, metavar="N",
                    help="also time dd_tables on N threads against calc_all_tables")
    ap.add_argument("--tt-mb", type=int, default=64)
    ap.add_argument("--exact", action="store_true",
                    help="bounds in the exact 8-byte table instead of the winning-ranks one")
    ap.add_argument("--bloom", action="store_true", help="Bloom filter in front of the exact table")
    args = ap.parse_args(argv)

    try:
        from endplay import _dds as ep_core
        from endplay.dds import calc_all_tables, calc_dd_table, solve_board
        from endplay.dds.solve import SolveMode
        from endplay.types import Deal as EpDeal
        from endplay.types import Denom, Player
    except ImportError:
        print("endplay is not installed: pip install endplay")
        return 1
    ep_core.SetMaxThreads(1)
    denom = {"S": Denom.spades, "H": Denom.hearts, "D": Denom.diamonds, "C": Denom.clubs,
             "N": Denom.nt}

    rng = Rng(args.seed)
    deals = []
    for _ in range(args.deals):
        cards = rng.shuffled(list(range(52)))
        deals.append((make_deal([cards[i * 13:(i + 1) * 13] for i in range(4)]),
                      STRAINS[rng.below(5)]))

    solver = Solver(tt_bytes=args.tt_mb << 20, bloom=args.bloom, exact=args.exact)
    rss0 = peak_rss_mib()
    ours_t, ours_s, ep_t, ep_s = [], [], [], []
    mismatches = solve_mismatches = 0
    for i, (deal, strain) in enumerate(deals):
        pbn = deal.to_pbn()
        ep_deal = EpDeal.from_pbn(pbn)
        ep_deal.first = Player.east
        ep_deal.trump = denom[strain]
        t0 = time.perf_counter()
        solved = list(solve_board(ep_deal, SolveMode.OptimalOne))
        ep_s.append(time.perf_counter() - t0)
        theirs_tricks = int(solved[0][1])  # DDS lists the best card and its equals
        solver.reset()
        t0 = time.perf_counter()
        ours_best = best_card(deal, strain, "E", solver=solver)
        ours_s.append(time.perf_counter() - t0)
        if ours_best.tricks != theirs_tricks:
            solve_mismatches += 1
            print(f"SOLVE MISMATCH deal {i}: {pbn} {strain}: ours {ours_best} "
                  f"endplay {theirs_tricks}")

        solver.reset()
        t0 = time.perf_counter()
        table = dd_table(deal, solver=solver)
        ours_t.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        rows = calc_dd_table(EpDeal.from_pbn(pbn)).to_list()
        ep_t.append(time.perf_counter() - t0)

        if i < args.verify:
            theirs = {st: {p: rows[a][b] for b, p in enumerate("NESW")}
                      for a, st in enumerate("SHDCN")}
            if theirs != table:
                mismatches += 1
                print(f"MISMATCH deal {i}: {pbn}\n  ours   {table}\n  endplay {theirs}")
        print(f"\r{i + 1}/{len(deals)} deals  ours {sum(ours_t):8.1f}s  "
              f"endplay {sum(ep_t):6.1f}s", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    st = solver.stats()
    med = statistics.median

    def line(name: str, ours: list[float], theirs: list[float], target: str) -> None:
        print(f"{name:<34} median {med(ours) * 1e3:8.1f} ms vs {med(theirs) * 1e3:8.1f} ms"
              f"   total {sum(ours):7.2f} s vs {sum(theirs):7.2f} s"
              f"   ratio {sum(ours) / sum(theirs):5.2f}x (target {target})")

    print(f"{len(deals)} deals, seed {args.seed}, single thread, TT {args.tt_mb} MiB"
          f"{' + Bloom' if args.bloom else ''}")
    line("dd_table vs calc_dd_table", ours_t, ep_t, "<= 1.0x, stretch 0.75x")
    line("cold best_card vs OptimalOne", ours_s, ep_s, "<= 1.0x")
    print(f"peak RSS {peak_rss_mib():.0f} MiB (before solving {rss0:.0f} MiB); "
          f"our table {st['tt_bytes'] / 2**20:.1f} MiB")
    probes = max(st["tt_probes"], 1)
    print(f"nodes {st['nodes']:,}  table probes {st['tt_probes']:,}  hit rate "
          f"{st['tt_hits'] / probes:.1%}  cutoff rate {st['tt_cutoffs'] / probes:.1%}  "
          f"stores {st['tt_stores']:,}  evictions {st['tt_evictions']:,}  "
          f"drops {st['tt_drops']:,}  bloom skips {st['tt_bloom_skips']:,}")
    print(f"single solves: {solve_mismatches} differ from DDS's tricks")
    if args.verify:
        print(f"verified {min(args.verify, len(deals))} tables against endplay: "
              f"{mismatches} mismatches")
    if args.threads:
        only = [d for d, _ in deals]
        t0 = time.perf_counter()
        ours_batch = dd_tables(only, threads=args.threads, tt_bytes=args.tt_mb << 20)
        ours_b = time.perf_counter() - t0
        ep_core.SetMaxThreads(args.threads)
        theirs_b = 0.0
        chunk = ep_core.MAXNOOFTABLES  # calc_all_tables takes this many deals at a time
        for k in range(0, len(only), chunk):
            t0 = time.perf_counter()
            calc_all_tables([EpDeal.from_pbn(d.to_pbn()) for d in only[k:k + chunk]])
            theirs_b += time.perf_counter() - t0
        ep_core.SetMaxThreads(1)
        assert len(ours_batch) == len(only)
        print(f"{'dd_tables vs calc_all_tables':<34} {args.threads} threads   "
              f"total {ours_b:7.2f} s vs {theirs_b:7.2f} s   ratio {ours_b / theirs_b:5.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
