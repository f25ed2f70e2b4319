"""Double-dummy solver for bridge: a compiled C core (zero-window alpha-beta,
winning-ranks transposition table) behind a small Python API, with a batch
of tables on threads. Pure: values and bytes in, values and bytes out;
scoring and par are bridge rules (rules/bridge). See docs/dds.md."""

from engine.dds._native import SolverUnavailable
from engine.dds.api import (
    DEFAULT_TT_BYTES,
    BestCard,
    DDTable,
    PositionResult,
    Solver,
    best_card,
    dd_table,
    solve,
    solve_position,
)
from engine.dds.batch import SolverPool, dd_tables
from engine.dds.deal import Deal, DealError, Seat, Strain, make_deal, parse_pbn
from engine.dds.tree import (
    SolutionTree,
    TreeTooLarge,
    build_tree,
    tree_from_bytes,
    tree_to_bytes,
)

__all__ = [
    "DEFAULT_TT_BYTES",
    "BestCard",
    "DDTable",
    "Deal",
    "DealError",
    "PositionResult",
    "Seat",
    "SolutionTree",
    "Solver",
    "SolverPool",
    "SolverUnavailable",
    "Strain",
    "TreeTooLarge",
    "best_card",
    "build_tree",
    "dd_table",
    "dd_tables",
    "make_deal",
    "parse_pbn",
    "solve",
    "solve_position",
    "tree_from_bytes",
    "tree_to_bytes",
]
