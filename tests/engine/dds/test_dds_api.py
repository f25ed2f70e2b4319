"""The solver's Python face: parsing, conventions, threads, build errors.

docs/dds.md (its opening): the table of 5 strains x 4 declarers, the
score of every legal card; a clear error message if no C
compiler is present, several solves in threads.
"""

from __future__ import annotations

import sys
import threading

import pytest

from engine.dds import (
    DealError,
    Solver,
    SolverPool,
    SolverUnavailable,
    best_card,
    dd_table,
    dd_tables,
    parse_pbn,
    solve,
    solve_position,
)
from engine.dds.deal import Seat

# Every suit split so that North's top cards all win (13 tricks for N-S in NT).
GRAND = "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"


def test_pbn_round_trip_and_first_seat() -> None:
    """A PBN deal may start with any seat; hands go clockwise from it."""
    deal = parse_pbn(GRAND)
    assert deal.to_pbn().startswith("N:AKQJ.AKQ.AKQ.AKQ T987")
    assert parse_pbn(deal.to_pbn(first=Seat.E)) == deal
    assert deal.to_pbn(first=Seat.E).startswith("E:T987")
    assert parse_pbn("n:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 "
                     "2.5432.5432.5432") == deal


@pytest.mark.parametrize("text", [
    "AKQJ.AKQ.AKQ.AKQ",                                   # no seat
    "N:AKQJ.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876",  # three hands
    "N:AKQJ.AKQ.AKQ.AKQ AKQJ.AKQ.AKQ.AKQ 6543.876.876.876 2.5432.5432.5432",  # dealt twice
    "N:AKQX.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432",  # bad rank
])
def test_bad_deals_are_refused(text: str) -> None:
    with pytest.raises(DealError):
        parse_pbn(text)


def test_tricks_count_for_the_leaders_side() -> None:
    """solve() answers for the side on lead: North-South take all 13 in NT."""
    assert solve(GRAND, "N", "N") == 13
    assert solve(GRAND, "NT", "E") == 0
    table = dd_table(GRAND)
    assert table["N"] == {"N": 13, "E": 0, "S": 13, "W": 0}
    assert set(table) == {"S", "H", "D", "C", "N"}


def test_position_checks_every_played_card() -> None:
    with pytest.raises(DealError, match="not in"):
        solve_position(GRAND, "N", "N", ["2S"])          # 2S is West's
    with pytest.raises(DealError, match="follow suit"):
        solve_position(GRAND, "N", "N", ["AS", "JH"])    # East holds spades


def test_position_scores_every_legal_card() -> None:
    """After the lead, East must follow: every spade scores, nothing else."""
    pos = solve_position(GRAND, "N", "N", ["AS"])
    assert pos.to_move.name == "E"
    assert set(pos.scores) == {"TS", "9S", "8S", "7S"}
    assert pos.best == 0 and pos.best_cards == list(pos.scores)
    done = solve_position(GRAND, "N", "N", ["AS", "7S", "3S", "2S"])
    assert done.taken_ns == 1 and done.to_move.name == "N" and done.best == 12


def test_solvers_run_in_threads() -> None:
    """Each thread with its own Solver gets the same answers as one thread."""
    deals = ["N:AKQ2.J54.T9.8765 JT9.AKQ.876.AKQ2 876.T98.AKQJ.JT9 543.7632.5432.43",
             GRAND]
    expected = [dd_table(d) for d in deals]
    out: dict[int, object] = {}

    def work(i: int) -> None:
        out[i] = dd_table(deals[i % 2], solver=Solver(tt_bytes=1 << 22))

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [out[i] for i in range(4)] == expected * 2


def test_batch_tables_on_threads_equal_single_tables() -> None:
    """dd_tables on two threads: the tables of dd_table, in the deals' order."""
    deals = ["N:AKQ2.J54.T9.8765 JT9.AKQ.876.AKQ2 876.T98.AKQJ.JT9 543.7632.5432.43",
             GRAND,
             "N:K843.T542.J6.873 AQJ.K963.AT4.QJ5 T9652.Q7.K87.AK6 7.AJ8.Q9532.T942"]
    expected = [dd_table(d) for d in deals]
    assert dd_tables(deals, threads=2, tt_bytes=1 << 22) == expected
    assert dd_tables(deals[:1], threads=1) == expected[:1]
    assert dd_tables([]) == []


def test_a_pool_solves_positions_of_many_deals_in_order() -> None:
    """SolverPool.positions: the same play on several deals, each as solve_position
    says; the pool's Solvers stay with their threads between calls."""
    deals = ["N:AKQ2.J54.T9.8765 JT9.AKQ.876.AKQ2 876.T98.AKQJ.JT9 543.7632.5432.43",
             "N:K843.T542.J6.873 AQJ.K963.AT4.QJ5 T9652.Q7.K87.AK6 7.AJ8.Q9532.T942"] * 2
    with SolverPool(threads=2, tt_bytes=1 << 22) as pool:
        got = pool.positions(deals, "S", "N", ["8C"])
        again = pool.positions(deals[:2], "S", "N", ["8C"])
        assert pool.map(lambda solver, d: dd_table(d, solver=solver), deals[:1]) == \
            [dd_table(deals[0])]
    assert got == [solve_position(d, "S", "N", ["8C"]) for d in deals]
    assert again == got[:2]
    with pytest.raises(ValueError, match="threads"):
        SolverPool(threads=0)


def test_batch_refuses_bad_input_before_searching() -> None:
    with pytest.raises(ValueError, match="threads"):
        dd_tables([GRAND], threads=0)
    with pytest.raises(DealError):
        dd_tables([GRAND, "N:AKQX.AKQ.AKQ.AKQ T987.JT9.JT9.JT9 6543.876.876.876 2.5432.5432.5432"])


def test_best_card_keeps_the_best_result() -> None:
    """best_card: the solve's result, and a card whose score is that result."""
    deal = "N:K843.T542.J6.873 AQJ.K963.AT4.QJ5 T9652.Q7.K87.AK6 7.AJ8.Q9532.T942"
    for strain, leader, played in (("N", "S", []), ("H", "W", ["2C", "3C"])):
        pos = solve_position(deal, strain, leader, played)
        one = best_card(deal, strain, leader, played)
        assert one.tricks == pos.best
        assert pos.scores[one.card] == pos.best
    assert best_card(GRAND, "N", "N").tricks == 13


@pytest.mark.parametrize("exact", [False, True], ids=["ranks", "exact"])
def test_the_smallest_table_still_solves(exact: bool) -> None:
    """tt_bytes at its minimum (1 KiB): the tables shed or drop entries all the time,
    and the answers stay right."""
    deal = "N:K843.T542.J6.873 AQJ.K963.AT4.QJ5 T9652.Q7.K87.AK6 7.AJ8.Q9532.T942"
    solver = Solver(tt_bytes=1024, exact=exact)
    for strain, leader in (("N", "S"), ("H", "N")):
        assert solve(deal, strain, leader, solver=solver) == solve(deal, strain, leader)
    stats = solver.stats()
    assert stats["tt_evictions"] + stats["tt_drops"] > 0


def test_missing_core_gives_build_instructions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled core the error says how to build it."""
    import engine.dds

    monkeypatch.setitem(sys.modules, "engine.dds._dds", None)
    monkeypatch.delattr(engine.dds, "_dds", raising=False)
    with pytest.raises(SolverUnavailable, match="C compiler"):
        Solver()
