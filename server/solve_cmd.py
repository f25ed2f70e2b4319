"""`cardtable solve`: double-dummy analysis from the command line.

Three uses: a deal (table and par, text or JSON), every deal of a PBN file (one
report per deal, a progress bar on stderr when it is a terminal), and solution-tree files (write one
for a small ending, or read one and print a line of play).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.cards import format_face
from engine.dds import (
    DealError,
    Solver,
    TreeTooLarge,
    build_tree,
    dd_table,
    parse_pbn,
    tree_from_bytes,
    tree_to_bytes,
)
from engine.dds.deal import SEAT_LETTERS, parse_seat, parse_strain
from engine.dds.tree import DEFAULT_MAX_CARDS, SolutionTree, format_line
from rules.bridge.analysis import format_table
from rules.bridge.boards import Vulnerability
from rules.bridge.par import par


def add_solve_parser(sub: Any) -> None:
    """Register the ``solve`` subcommand."""
    p = sub.add_parser(
        "solve",
        help="double-dummy table and par of a bridge deal, a PBN file, or a solution tree",
        description=(
            "Examples: cardtable solve 'N:AKQ2.J54.T9.8765 ...'; "
            "cardtable solve --pbn session.pbn --json; "
            "cardtable solve 'N:...' --strain S --leader W --write-tree end.tree; "
            "cardtable solve --tree end.tree --line '5H 2H 3H 4H'"
        ),
    )
    p.add_argument("deal", nargs="?", help="PBN deal, e.g. 'N:AKQ2.J54.T9.8765 ...'")
    p.add_argument("--pbn", type=Path, help="solve every deal of this PBN file")
    p.add_argument("--tree", type=Path, help="read a solution-tree file and print its play")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--vul", default="None", help="vulnerability for par: None, NS, EW, All")
    p.add_argument("--dealer", default="N", help="dealer for par (N, E, S, W)")
    p.add_argument("--strain", help="with --write-tree: trump strain S H D C N")
    p.add_argument("--leader", help="with --write-tree: seat on lead N E S W")
    p.add_argument("--write-tree", type=Path, help="write the solution tree of DEAL here")
    p.add_argument(
        "--max-cards",
        type=int,
        default=DEFAULT_MAX_CARDS,
        help=f"largest ending (cards a hand) a tree is written for (default {DEFAULT_MAX_CARDS})",
    )
    p.add_argument(
        "--line",
        default="",
        help="with --tree: the cards of whole tricks to follow ('what if'), then best play",
    )
    p.set_defaults(func=cmd_solve)


def cmd_solve(args: argparse.Namespace) -> int:
    """Dispatch on the form used; bad input is one line on stderr and exit code 2."""
    try:
        if args.tree:
            return _read_tree(args.tree, args.line, args.json, sys.stdout)
        if args.pbn:
            return _solve_file(args.pbn, args.json, sys.stdout, sys.stderr)
        if not args.deal:
            raise DealError("give a deal, --pbn FILE or --tree FILE")
        if args.write_tree:
            return _write_tree(args)
        vul = Vulnerability.parse(args.vul)
        print(_deal_report(args.deal, vul, args.dealer, args.json, Solver()))
        return 0
    except (DealError, TreeTooLarge, ValueError, OSError, KeyError) as exc:
        code = getattr(exc, "code", "bad_input")
        print(f"error [{code}]: {exc}", file=sys.stderr)
        return 2


def _deal_report(
    deal_text: str, vul: Vulnerability, dealer: str, as_json: bool, solver: Solver
) -> str:
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


def _solve_file(path: Path, as_json: bool, out: TextIO, err: TextIO) -> int:
    from bots.arena import Progress
    from engine.dds import make_deal
    from engine.formats import FormatError
    from rules.bridge.pbn import read_boards
    from rules.bridge.records import check_hands

    try:
        # Four hands given are solved as they are (an ending may hold fewer cards).
        boards = [(b, make_deal([h or () for h in b.hands] if None not in b.hands
                                else check_hands(b, "Deal")).to_pbn())
                  for b in read_boards(path.read_text())]
    except FormatError as exc:
        raise DealError(f"{path}: {exc}") from None
    if not boards:
        raise DealError(f"{path}: no [Deal] tags")
    solver = Solver()
    bar = Progress(len(boards), err, label="deals")
    for i, (board, deal) in enumerate(boards, 1):
        vul = Vulnerability.parse(board.vulnerable)
        dealer = "NESW"[board.dealer]
        text = _deal_report(deal, vul, dealer, as_json, solver)
        if as_json:
            out.write(json.dumps({"board": board.board, **json.loads(text)}) + "\n")
        else:
            out.write(f"Board {board.board} (dealer {dealer}, vulnerable {vul.value})\n{text}\n\n")
        out.flush()
        bar.update(i)
    return 0


def _write_tree(args: argparse.Namespace) -> int:
    if not args.strain or not args.leader:
        raise DealError("--write-tree needs --strain and --leader")
    deal = parse_pbn(args.deal)
    tree = build_tree(
        deal, parse_strain(args.strain), parse_seat(args.leader), max_cards=args.max_cards
    )
    args.write_tree.write_bytes(tree_to_bytes(tree))
    print(
        f"wrote {args.write_tree}: {len(tree.cells)} tricks, "
        f"{_side(tree)} take {tree.value} of {tree.cards_per_player}"
    )
    return 0


def _side(tree: SolutionTree) -> str:
    return ("North-South", "East-West")[tree.good_side]


def _read_tree(path: Path, line: str, as_json: bool, out: TextIO) -> int:
    try:
        tree = tree_from_bytes(path.read_bytes())
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from exc
    cards = line.split()
    if len(cards) % 4:
        raise ValueError("--line takes whole tricks: four cards each")
    played = tree.follow(cards)
    if as_json:
        out.write(
            json.dumps(
                {
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
            )
            + "\n"
        )
        return 0
    out.write(
        f"{tree.cards_per_player}-card ending, {tree.strain.name} trumps, "
        f"{SEAT_LETTERS[tree.leader]} leads; {_side(tree)} take {tree.value} with best play\n"
    )
    out.write(format_line(played) + "\n")
    return 0
