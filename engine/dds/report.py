"""Plain-text report of a deal: the double-dummy table and par (for `cardtable solve`)."""

from __future__ import annotations

from engine.dds.api import DDTable, Solver, dd_table
from engine.dds.deal import Deal, Seat, as_deal
from engine.dds.par import Par, Vulnerability, par

ROW_ORDER = ("N", "S", "H", "D", "C")
ROW_LABEL = {"N": "NT", "S": "S", "H": "H", "D": "D", "C": "C"}


def format_table(table: DDTable) -> str:
    """Tricks by strain (rows NT S H D C) and declarer (columns N E S W)."""
    lines = ["      N   E   S   W"]
    for st in ROW_ORDER:
        row = table[st]
        lines.append(f"{ROW_LABEL[st]:<3}" + "".join(f"{row[d]:>4}" for d in "NESW"))
    return "\n".join(lines)


def report(deal: str | Deal, vulnerability: str | Vulnerability = Vulnerability.NONE,
           dealer: str | Seat = Seat.N, *, solver: Solver | None = None) -> str:
    """The deal, its double-dummy table and the par result, as printed by
    ``cardtable solve``."""
    d = as_deal(deal)
    table = dd_table(d, solver=solver)
    p: Par = par(table, vulnerability, dealer)
    return f"{d.to_pbn()}\n{format_table(table)}\n{p}"
