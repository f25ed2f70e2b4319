"""Par against DDS (through endplay, test-only): the score and the whole set of par
contracts, on the same double-dummy tables fed to both.

Par depends only on the table, so besides 36 solved deals
(data/solved_deals.json: seeded random deals, tables by our solver and
checked equal to DDS's) the test feeds 1,200 plausible random tables (tricks
from the sides' points and fits) and 300 wild ones (any trick counts), each
for every vulnerability and dealer: 24,576 boards in a few seconds.

DDS's DealerPar writes each contract as text ("4S-NS+1", "5D*-EW-2", and
"4S-E-2" for a sacrifice by one seat in the strain of the contract it
sacrifices against); endplay's ``par`` reads it back through DDS's
DealerParBin, which misreads that last form (undertricks -48, or every
contract as made). So the set is compared with DealerPar's text, and with
endplay's ``par`` on every board where DealerParBin reads it right.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.rng import Rng
from rules.bridge.par import Par, par

endplay = pytest.importorskip("endplay")
from endplay import _dds as ep_core  # noqa: E402
from endplay.dds import par as ep_par  # noqa: E402
from endplay.dds.ddtable import DDTable  # noqa: E402
from endplay.types import Penalty, Player, Vul  # noqa: E402

DATA = Path(__file__).parent / "data" / "solved_deals.json"
EP_VUL = {"None": Vul.none, "NS": Vul.ns, "EW": Vul.ew, "All": Vul.both}
DDS_TEXT = re.compile(r"^([1-7])([CDHSN])(\*?)-([NESW]{1,2})([+-]\d)?$")
SEAT_CODE = {"N": 0, "E": 1, "S": 2, "W": 3}
ROWS = "SHDCN"  # DDS's row order, as in dd_table's keys
Rows = list[list[int]]
# (level, strain, declarer seats, undertricks, overtricks)
Entry = tuple[int, str, str, int, int]


def table_of(rows: Rows) -> dict[str, dict[str, int]]:
    return {st: {p: rows[i][j] for j, p in enumerate("NESW")} for i, st in enumerate(ROWS)}


def rows_of(table: dict[str, dict[str, int]]) -> Rows:
    return [[table[st][p] for p in "NESW"] for st in ROWS]


def plausible_rows(rng: Rng) -> Rows:
    """A table like a real deal's: each strain's tricks from North-South's points
    and fit in a random deal, give or take one; partners equal or a trick
    apart; East-West about the rest, give or take the opening lead."""
    cards = rng.shuffled(list(range(52)))
    hands = [cards[i * 13:(i + 1) * 13] for i in range(4)]
    points = sum(max(0, c % 13 - 8) for seat in (0, 2) for c in hands[seat])
    rows = []
    for st in ROWS:
        if st == "N":
            estimate = 6.5 + (points - 20) * 0.38
        else:
            suit = "CDHS".index(st)
            fit = sum(1 for seat in (0, 2) for c in hands[seat] if c // 13 == suit)
            estimate = 6.5 + (points - 20) * 0.3 + (fit - 6.5) * 0.9
        t = min(13, max(0, round(estimate) + rng.below(3) - 1))
        short = max(0, t - rng.below(2))
        n, s = (t, short) if rng.below(2) else (short, t)
        e = min(13, max(0, 13 - t + rng.below(3) - 1))
        w = min(13, max(0, 13 - t + rng.below(3) - 1))
        rows.append([n, e, s, w])
    return rows


def wild_rows(rng: Rng) -> Rows:
    """Any strain can go any way: partners within a trick, the sides adding up to about 13."""
    rows = []
    for _ in range(5):
        n = rng.below(14)
        s = min(13, max(0, n + rng.below(3) - 1))
        e = min(13, max(0, 13 - s + rng.below(3) - 1))
        w = min(13, max(0, 13 - n + rng.below(3) - 1))
        rows.append([n, e, s, w])
    return rows


def ours(result: Par) -> set[Entry]:
    out = set()
    for c in result.contracts:
        diff = c.tricks - c.level - 6
        seats = "".join("NESW"[s] for s in c.declarers)
        out.add((c.level, c.strain, seats, max(0, -diff), max(0, diff)))
    return out


def raw_table(rows: Rows) -> Any:
    raw = ep_core.ddTableResults()
    for i in range(5):
        for j in range(4):
            raw.resTable[i][j] = rows[i][j]
    return raw


def dds_text(rows: Rows, vul: str, dealer: int) -> tuple[int, set[Entry], bool]:
    """DDS's DealerPar: the score, the contracts parsed from its text, and
    whether DealerParBin reads that text right."""
    res = ep_core.parResultsDealer()
    ep_core.DealerPar(raw_table(rows), res, dealer, int(EP_VUL[vul]))
    texts = [bytes(res.contracts[i].value).decode() for i in range(res.number)]
    if texts == ["pass"]:
        return res.score, set(), True
    out = set()
    bin_reads_it = True
    for text in texts:
        m = DDS_TEXT.match(text)
        assert m, text
        level, strain, star, seats, delta = m.groups()
        delta_n = int(delta or "0")
        out.add((int(level), strain, seats, max(0, -delta_n), max(0, delta_n)))
        bin_reads_it &= bool(star) == (delta_n < 0)
    return res.score, out, bin_reads_it


def endplay_par(rows: Rows, vul: str, dealer: int) -> tuple[int, set[tuple[Any, ...]]]:
    """endplay's par: the score and (level, strain, declarer, doubled, result)
    per declarer, as endplay lists them. Each contract is read as it is yielded:
    endplay yields the two seats of a pair from one reused record."""
    result = ep_par(DDTable(raw_table(rows)), EP_VUL[vul], Player(dealer))
    return result.score, {
        (c.level, ROWS[int(c.denom)], int(c.declarer), c.penalty is Penalty.doubled, c.result)
        for c in result
        if c.level > 0
    }


def per_declarer(entries: set[Entry]) -> set[tuple[Any, ...]]:
    return {(level, strain, SEAT_CODE[seat], down > 0, over - down)
            for level, strain, seats, down, over in entries for seat in seats}


def all_tables() -> list[Rows]:
    solved = [rows_of(d["dd_table"]) for d in json.loads(DATA.read_text())]
    rng = Rng(4242)
    plausible = [plausible_rows(rng) for _ in range(1200)]
    return solved + plausible + [wild_rows(rng) for _ in range(300)]


def test_par_score_and_contracts_equal_dds_on_every_board() -> None:
    boards = through_bin = sacrifices = lowered = 0
    for rows in all_tables():
        table = table_of(rows)
        for vul in EP_VUL:
            for dealer in range(4):
                mine = par(table, vul, "NESW"[dealer])
                score, theirs, bin_ok = dds_text(rows, vul, dealer)
                where = (rows, vul, "NESW"[dealer])
                assert (mine.score, ours(mine)) == (score, theirs), where
                ep_score, ep_set = endplay_par(rows, vul, dealer)
                assert mine.score == ep_score, where
                if bin_ok:
                    assert per_declarer(ours(mine)) == ep_set, where
                    through_bin += 1
                boards += 1
                sacrifices += any(c.doubled for c in mine.contracts)
                lowered += any(c.tricks > c.level + 6 and c.level < 6 for c in mine.contracts)
    assert boards == 1536 * 16
    # The comparisons are not vacuous: endplay's reading checked on nearly all
    # boards, and both kinds of par (sacrifice, lowered contract) are common.
    assert through_bin > boards * 0.9
    assert sacrifices > 2000 and lowered > 2000
