"""Double-dummy solver for bridge: a compiled C core (zero-window alpha-beta,
relative-rank transposition table of 8-byte entries with Robin Hood hashing)
behind a small Python API. Pure: values and bytes in, values and bytes out;
scoring and par are bridge rules (rules/bridge). See docs/dds.md."""

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
    "PositionResult",
    "Seat",
    "SolutionTree",
    "Solver",
    "SolverUnavailable",
    "Strain",
    "TreeTooLarge",
    "build_tree",
    "dd_table",
    "make_deal",
    "parse_pbn",
    "solve",
    "solve_position",
    "tree_from_bytes",
    "tree_to_bytes",
]
