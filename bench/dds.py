"""Double-dummy speed: engine.dds against endplay (DDS) on the same seeded deals.

Single thread on both sides (DDS is told SetMaxThreads(1)). For each deal:
our dd_table vs endplay calc_dd_table, and one solve (East leads to
the first trick in the deal's strain) vs endplay solve_board. Prints per-deal medians,
totals, peak memory and the ratios; asserts nothing. `--verify N` also checks
the first N tables against endplay and reports any difference.

    python bench/dds.py [--deals 100] [--seed 1] [--verify N] [--tt-mb 64] [--exact [--bloom]]
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.dds import Solver, dd_table, make_deal, solve
from engine.rng import Rng

STRAINS = "SHDCN"


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--verify", type=int, default=0, metavar="N")
    ap.add_argument("--tt-mb", type=int, default=64)
    ap.add_argument("--exact", action="store_true",
                    help="bounds in the exact 8-byte table instead of the winning-ranks one")
    ap.add_argument("--bloom", action="store_true", help="Bloom filter in front of the exact table")
    args = ap.parse_args(argv)

    try:
        from endplay import _dds as ep_core
        from endplay.dds import calc_dd_table, solve_board
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
    mismatches = 0
    for i, (deal, strain) in enumerate(deals):
        pbn = deal.to_pbn()
        t0 = time.perf_counter()
        table = dd_table(deal, solver=solver)
        ours_t.append(time.perf_counter() - t0)
        solver.reset()  # the single solve starts cold, as solve_board does
        t0 = time.perf_counter()
        solve(deal, strain, "E", solver=solver)
        ours_s.append(time.perf_counter() - t0)

        ep_deal = EpDeal.from_pbn(pbn)
        t0 = time.perf_counter()
        rows = calc_dd_table(ep_deal).to_list()
        ep_t.append(time.perf_counter() - t0)
        ep_deal.first = Player.east
        ep_deal.trump = denom[strain]
        t0 = time.perf_counter()
        solve_board(ep_deal)
        ep_s.append(time.perf_counter() - t0)

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

    def line(name: str, ours: list[float], theirs: list[float]) -> None:
        print(f"{name:<26} median {med(ours) * 1e3:9.1f} ms vs {med(theirs) * 1e3:8.1f} ms"
              f"   total {sum(ours):8.2f} s vs {sum(theirs):7.2f} s"
              f"   ratio {sum(ours) / sum(theirs):6.1f}x")

    print(f"{len(deals)} deals, seed {args.seed}, single thread, TT {args.tt_mb} MiB"
          f"{' + Bloom' if args.bloom else ''}")
    line("dd_table vs calc_dd_table", ours_t, ep_t)
    line("solve vs solve_board", ours_s, ep_s)
    total_ours, total_ep = sum(ours_t) + sum(ours_s), sum(ep_t) + sum(ep_s)
    print(f"{'total':<26} {total_ours:.2f} s vs {total_ep:.2f} s, ratio "
          f"{total_ours / total_ep:.1f}x (target <= 3x)")
    print(f"peak RSS {peak_rss_mib():.0f} MiB (before solving {rss0:.0f} MiB); "
          f"our table {st['tt_bytes'] / 2**20:.1f} MiB")
    probes = max(st["tt_probes"], 1)
    print(f"nodes {st['nodes']:,}  table probes {st['tt_probes']:,}  hit rate "
          f"{st['tt_hits'] / probes:.1%}  cutoff rate {st['tt_cutoffs'] / probes:.1%}  "
          f"stores {st['tt_stores']:,}  evictions {st['tt_evictions']:,}  "
          f"drops {st['tt_drops']:,}  bloom skips {st['tt_bloom_skips']:,}")
    if args.verify:
        print(f"verified {min(args.verify, len(deals))} tables against endplay: "
              f"{mismatches} mismatches")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
