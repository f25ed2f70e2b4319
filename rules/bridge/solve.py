"""Bridge's command-line tool: ``cardtable solve``, double-dummy analysis
(engine/tools.py).

Three uses: a deal (table and par, text or JSON), every deal of a PBN file (one
report per deal, produced one at a time so the CLI shows its progress), and
solution trees (the bytes of one for a small ending, or a line of play read
from one).  Bad input is a :class:`ToolError` with the code of its cause
(``bad_deal``, ``tree_too_large``; ``bad_input`` otherwise).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from engine.cards import format_face
from engine.dds import (
    DealError,
    Solver,
    TreeTooLarge,
    build_tree,
    dd_table,
    make_deal,
    parse_pbn,
    tree_from_bytes,
    tree_to_bytes,
)
from engine.dds.deal import SEAT_LETTERS, parse_seat, parse_strain
from engine.dds.tree import DEFAULT_MAX_CARDS, SolutionTree, format_line
from engine.formats import FormatError
from engine.tools import ArgKind, InputFile, Tool, ToolArgument, ToolError, ToolOutput
from rules.bridge.analysis import format_table
from rules.bridge.boards import Vulnerability
from rules.bridge.par import par
from rules.bridge.pbn import read_boards
from rules.bridge.records import check_hands

_BAD_INPUT = (DealError, TreeTooLarge, ValueError, KeyError)


def _coded(exc: Exception) -> ToolError:
    return ToolError(str(exc), getattr(exc, "code", "bad_input"))


def _solve(args: Mapping[str, Any]) -> ToolOutput:
    """Dispatch on the form used."""
    try:
        if args["tree"] is not None:
            return _read_tree(args["tree"], args["line"], args["json"])
        if args["pbn"] is not None:
            return _solve_file(args["pbn"], args["json"])
        if not args["deal"]:
            raise DealError("give a deal, --pbn FILE or --tree FILE")
        if args["write_tree"]:
            return _write_tree(args)
        vul = Vulnerability.parse(args["vul"])
        report = deal_report(args["deal"], vul, args["dealer"], args["json"], Solver())
        return ToolOutput(text=(report + "\n",))
    except _BAD_INPUT as exc:
        raise _coded(exc) from None


def deal_report(
    deal_text: str, vul: Vulnerability, dealer: str, as_json: bool, solver: Solver
) -> str:
    """A deal's double-dummy table and par, as text or one JSON document."""
    deal = parse_pbn(deal_text)
    table = dd_table(deal, solver=solver)
    result = par(table, vul, dealer)
    if as_json:
        return json.dumps(
            {
                "deal": deal.to_pbn(),
                "vulnerable": vul.value,
                "dealer": dealer.upper()[:1],
                "table": table,
                "par": {"score_ns": result.score, "contracts": [str(c) for c in result.contracts]},
            }
        )
    return f"{deal.to_pbn()}\n{format_table(table)}\n{result}"


def _solve_file(file: InputFile, as_json: bool) -> ToolOutput:
    try:
        # Four hands given are solved as they are (an ending may hold fewer cards).
        boards = [(b, make_deal([h or () for h in b.hands] if None not in b.hands
                                else check_hands(b, "Deal")).to_pbn())
                  for b in read_boards(file.text())]
    except FormatError as exc:
        raise DealError(f"{file.name}: {exc}") from None
    if not boards:
        raise DealError(f"{file.name}: no [Deal] tags")

    def reports() -> Iterator[str]:
        solver = Solver()
        for board, deal in boards:
            vul = Vulnerability.parse(board.vulnerable)
            dealer = "NESW"[board.dealer]
            try:
                text = deal_report(deal, vul, dealer, as_json, solver)
            except _BAD_INPUT as exc:
                raise _coded(exc) from None
            if as_json:
                yield json.dumps({"board": board.board, **json.loads(text)}) + "\n"
            else:
                yield f"Board {board.board} (dealer {dealer}, vulnerable {vul.value})\n{text}\n\n"

    return ToolOutput(text=reports(), steps=len(boards), step_label="deals")


def _write_tree(args: Mapping[str, Any]) -> ToolOutput:
    if not args["strain"] or not args["leader"]:
        raise DealError("--write-tree needs --strain and --leader")
    deal = parse_pbn(args["deal"])
    tree = build_tree(
        deal, parse_strain(args["strain"]), parse_seat(args["leader"]),
        max_cards=args["max_cards"],
    )
    message = (
        f"wrote {args['write_tree']}: a tree of {len(tree.cells)} tricks (the lines of play), "
        f"{_side(tree)} take {tree.value} of {tree.cards_per_player}\n"
    )
    return ToolOutput(text=(message,), files={"write_tree": tree_to_bytes(tree)})


def _side(tree: SolutionTree) -> str:
    return ("North-South", "East-West")[tree.good_side]


def _read_tree(file: InputFile, line: str, as_json: bool) -> ToolOutput:
    try:
        tree = tree_from_bytes(file.data)
    except ValueError as exc:
        raise ValueError(f"{file.name}: {exc}") from exc
    cards = line.split()
    if len(cards) % 4:
        raise ValueError("--line takes whole tricks: four cards each")
    played = tree.follow(cards)
    if as_json:
        doc = {
            "strain": tree.strain.name,
            "leader": SEAT_LETTERS[tree.leader],
            "good_side": _side(tree),
            "value": tree.value,
            "line": [
                {
                    "trick": c.round,
                    "leader": SEAT_LETTERS[c.leader],
                    "cards": [format_face(f) for f in c.cards],
                    "winner": SEAT_LETTERS[c.winner],
                    "good_side_tricks": c.value,
                }
                for c in played
            ],
        }
        return ToolOutput(text=(json.dumps(doc) + "\n",))
    head = (
        f"{tree.cards_per_player}-card ending, {tree.strain.name} trumps, "
        f"{SEAT_LETTERS[tree.leader]} leads; {_side(tree)} take {tree.value} with best play\n"
    )
    return ToolOutput(text=(head, format_line(played) + "\n"))


SOLVE = Tool(
    name="solve",
    help="double-dummy table and par of a bridge deal, a PBN file, or a solution tree",
    description=(
        "Examples: cardtable solve 'N:AKQ2.J54.T9.8765 ...'; "
        "cardtable solve --pbn session.pbn --json; "
        "cardtable solve 'N:...' --strain S --leader W --write-tree end.tree; "
        "cardtable solve --tree end.tree --line '5H 2H 3H 4H'"
    ),
    arguments=(
        ToolArgument("deal", "PBN deal, e.g. 'N:AKQ2.J54.T9.8765 ...'", optional=True),
        ToolArgument("--pbn", "solve every deal of this PBN file", ArgKind.INPUT),
        ToolArgument("--tree", "read a solution-tree file and print its play", ArgKind.INPUT),
        ToolArgument("--json", "machine-readable output", ArgKind.FLAG),
        ToolArgument("--vul", "vulnerability for par: None, NS, EW, All", default="None"),
        ToolArgument("--dealer", "dealer for par (N, E, S, W)", default="N"),
        ToolArgument("--strain", "with --write-tree: trump strain S H D C N"),
        ToolArgument("--leader", "with --write-tree: seat on lead N E S W"),
        ToolArgument("--write-tree", "write the solution tree of DEAL here", ArgKind.OUTPUT),
        ToolArgument(
            "--max-cards",
            "largest ending (cards a hand) a tree is written for "
            f"(default {DEFAULT_MAX_CARDS})",
            ArgKind.INT,
            default=DEFAULT_MAX_CARDS,
        ),
        ToolArgument(
            "--line",
            "with --tree: the cards of whole tricks to follow ('what if'), then best play",
            default="",
        ),
    ),
    run=_solve,
)
