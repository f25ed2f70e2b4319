"""Double-dummy solver for bridge: a compiled C core (zero-window alpha-beta,
relative-rank transposition table of 8-byte entries with Robin Hood hashing)
behind a small Python API. See docs/dds.md."""

from engine.dds._native import SolverUnavailable
from engine.dds.api import (
    DEFAULT_TT_BYTES,
    DDTable,
    PositionResult,
    Solver,
    dd_table,
    solve,
    solve_position,
)
from engine.dds.deal import Deal, DealError, Seat, Strain, make_deal, parse_pbn
from engine.dds.par import Par, ParContract, Vulnerability, contract_score, par
from engine.dds.report import format_table, report
from engine.dds.tree import (
    SolutionTree,
    TreeTooLarge,
    build_tree,
    tree_from_bytes,
    tree_to_bytes,
)

__all__ = [
    "DEFAULT_TT_BYTES",
    "DDTable",
    "Deal",
    "DealError",
    "Par",
    "ParContract",
    "PositionResult",
    "Seat",
    "SolutionTree",
    "Solver",
    "SolverUnavailable",
    "Strain",
    "TreeTooLarge",
    "Vulnerability",
    "build_tree",
    "contract_score",
    "dd_table",
    "format_table",
    "make_deal",
    "par",
    "parse_pbn",
    "report",
    "solve",
    "solve_position",
    "tree_from_bytes",
    "tree_to_bytes",
]
