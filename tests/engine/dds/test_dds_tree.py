"""Solution trees: consistent with the solver, and their file form read back.

docs/dds.md, "Solution trees (`engine/dds/tree.py`)": a primary header (cards per player, the
"good guys" side, ...), a secondary header (the four hands), and a body of
cells in depth-first order, one per trick (round, leader, winner, four cards,
and a pointer to the identical position when it was reached before).
"""

from __future__ import annotations

import pytest

from engine.dds import Seat, Strain, make_deal, solve
from engine.dds.tree import Cell, TreeTooLarge, build_tree, tree_from_bytes, tree_to_bytes
from engine.rng import Rng


def test_round_trip_and_values() -> None:
    """Every cell's value is its trick plus the opponents' best continuation,
    the root value is the solver's, and the bytes read back identical."""
    rng = Rng(9)
    for i in range(12):
        k = 2 + i % 3
        cards = rng.shuffled(list(range(52)))[: 4 * k]
        deal = make_deal([cards[j * k:(j + 1) * k] for j in range(4)])
        strain, leader = Strain(rng.below(5)), Seat(rng.below(4))
        tree = build_tree(deal, strain, leader)
        assert tree.value == solve(deal, strain, leader)
        assert tree.cards_per_player == k and tree.good_side == leader % 2

        def value(indices: list[int], cells: list[Cell] = tree.cells) -> int:
            return min((cells[i].value for i in indices), default=0)

        assert value(tree.roots) == tree.value
        for cell in tree.cells:
            won = int(cell.winner % 2 == tree.good_side)
            target = cell if cell.same_as is None else tree.cells[cell.same_as]
            assert cell.value == won + value(target.children)
            if cell.same_as is not None:
                assert cell.same_as < tree.cells.index(cell) and not cell.children
        data = tree_to_bytes(tree)
        assert len(data) == 19 + 32 + 4 + 13 * len(tree.cells)
        back = tree_from_bytes(data)
        assert back.cells == tree.cells and back.roots == tree.roots
        assert back.hands == deal.masks() and back.value == tree.value
        line = back.principal_line()
        assert len(line) == k and [c.round for c in line] == list(range(1, k + 1))


def test_what_if_follows_an_opponent_card() -> None:
    """Any opponent card can be asked about; a line the tree lacks is a KeyError."""
    deal = make_deal([[51, 50, 0], [38, 37, 1], [49, 48, 2], [36, 35, 3]])
    tree = build_tree(deal, Strain.N, Seat.N)
    first = tree.principal_line()[0]
    for alt in {tree.cells[i].cards[1] for i in tree.roots}:
        line = tree.follow([first.cards[0], alt])
        assert line[0].cards[:2] == (first.cards[0], alt)
    with pytest.raises(KeyError):
        tree.follow(["2C", "2D"])


def test_size_cap() -> None:
    rng = Rng(1)
    cards = rng.shuffled(list(range(52)))
    deal = make_deal([cards[j * 13:(j + 1) * 13] for j in range(4)])
    with pytest.raises(TreeTooLarge):
        build_tree(deal, Strain.N, Seat.N)


@pytest.mark.parametrize("cut", [0, 10, 19 + 32 + 4 + 13 + 5])
def test_bytes_that_are_not_a_whole_tree_are_refused(cut: int) -> None:
    """Another file, or a tree cut short, is a ValueError (the CLI's bad_input)."""
    deal = make_deal([[51, 50], [38, 37], [49, 48], [36, 35]])
    data = tree_to_bytes(build_tree(deal, Strain.N, Seat.N))
    with pytest.raises(ValueError, match=r"solution tree|cells"):
        tree_from_bytes(data[:cut])
    with pytest.raises(ValueError, match="not a cardtable solution tree"):
        tree_from_bytes(b"PK" + data[2:])
