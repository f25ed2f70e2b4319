"""Solution trees: the optimal play from a small position, and its file form (bytes;
the caller reads and writes the file).

Modelled on Hirschberg's tree file: a primary header (cards per player, the
side solved for, ...), a secondary header (the four hands) and a body of cells
in depth-first order, one cell per trick, each with a pointer to the cell that
first reached the same position (then its subtree is not repeated).

In the tree the "good guys" (the side to move at the root) always play a card
that keeps their best result; their opponents try every legal card, best first,
so the first child of every cell follows the principal line and the others
answer "what if". All integers are little-endian; the layout is in docs/dds.md.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import format_face, parse_face
from engine.dds.api import Solver
from engine.dds.deal import SEAT_LETTERS, Deal, Seat, Strain, rank_masks
from engine.tricks import winning_index

MAGIC = b"CTDDTREE"
VERSION = 1
PRIMARY = struct.Struct("<8sHBBBBBI")   # magic, version, cards/player, strain, leader,
                                        # good side, good side's tricks, cell count
SECONDARY = struct.Struct("<16H")       # hands[seat * 4 + suit] rank masks
CELL = struct.Struct("<BBB4sBBI")       # round, leader, winner, 4 faces, children,
                                        # good side's tricks from here, same-as (or NONE)
NONE = 0xFFFFFFFF
DEFAULT_MAX_CARDS = 5
DEFAULT_MAX_CELLS = 50_000


class TreeTooLarge(ValueError):
    """The position is above the size cap for writing a tree."""

    code = "tree_too_large"


@dataclass
class Cell:
    """One trick of the tree: the four cards in play order from ``leader``."""

    round: int
    leader: Seat
    winner: Seat
    cards: tuple[int, int, int, int]
    value: int              # tricks the good side takes from this trick on
    same_as: int | None     # index of the cell that first reached this position
    children: list[int] = field(default_factory=list)

    def label(self) -> str:
        return (f"trick {self.round}: {SEAT_LETTERS[self.leader]} leads "
                + " ".join(format_face(c) for c in self.cards)
                + f", {SEAT_LETTERS[self.winner]} wins (good side {self.value})")


@dataclass
class SolutionTree:
    """A tree read back from a file (or just built)."""

    cards_per_player: int
    strain: Strain
    leader: Seat
    good_side: int           # 0 = North-South, 1 = East-West
    value: int               # tricks the good side takes from the root
    hands: list[int]         # 16 rank masks
    cells: list[Cell]
    roots: list[int]

    def principal_line(self) -> list[Cell]:
        """First child at every step: best play by both sides."""
        return self.follow([])

    def follow(self, cards: Sequence[str | int]) -> list[Cell]:
        """The line that starts with ``cards`` (whole tricks, in play order)
        and continues with best play; raises KeyError if the tree does not
        hold that line (a good-side card that is not optimal, say)."""
        faces = [parse_face(c) if isinstance(c, str) else c for c in cards]
        line: list[Cell] = []
        level = self.roots
        while level:
            if faces:
                want, faces = tuple(faces[:4]), faces[4:]
                pick = [i for i in level if self.cells[i].cards[:len(want)] == want]
                if not pick:
                    raise KeyError(f"no line {' '.join(format_face(f) for f in want)} here")
                i = pick[0]
            else:
                i = level[0]
            cell = self.cells[i]
            line.append(cell)
            target = cell if cell.same_as is None else self.cells[cell.same_as]
            level = target.children
        return line


def build_tree(deal: Deal, strain: Strain, leader: Seat, *, solver: Solver | None = None,
               max_cards: int = DEFAULT_MAX_CARDS,
               max_cells: int = DEFAULT_MAX_CELLS) -> SolutionTree:
    """The tree of optimal play from the start of ``deal`` (an ending of at
    most ``max_cards`` cards a hand; at most ``max_cells`` tricks written)."""
    n = len(deal.hands[0])
    if n > max_cards:
        raise TreeTooLarge(f"{n} cards a hand is above the cap of {max_cards}")
    sv = solver or Solver(tt_bytes=1 << 22)
    trump = None if strain == Strain.N else int(strain)
    good = int(leader) % 2
    cells: list[Cell] = []
    seen: dict[tuple[tuple[int, ...], int], int] = {}

    def tricks(hands: list[set[int]], lead: int, played: list[int]
               ) -> list[tuple[list[int], int]]:
        """Every trick sequence (good side optimal, others any card, best first)
        with the good side's tricks from this trick on."""
        seat = (lead + len(played)) % 4
        if len(played) == 4:
            return [(played, -1)]
        _best, scores = sv.scores(rank_masks(hands), int(strain), lead, played)
        mine = seat % 2 == good
        ordered = sorted(scores, key=lambda p: -p[1])
        options = ordered[:1] if mine else ordered
        out = []
        for face_, score in options:
            hands[seat].discard(face_)
            here = score if mine else _remaining(hands, lead, played) - score
            for seq, later in tricks(hands, lead, [*played, face_]):
                # The last card's score is the trick's value with all four known.
                out.append((seq, later if later >= 0 else here))
            hands[seat].add(face_)
        return out

    def _remaining(hands: list[set[int]], lead: int, played: list[int]) -> int:
        return len(hands[(lead + len(played)) % 4]) + 1

    def expand(hands: list[set[int]], lead: int, round_: int) -> list[int]:
        if not hands[lead]:
            return []
        made = []
        for seq, value in tricks(hands, lead, []):
            if len(cells) >= max_cells:
                raise TreeTooLarge(f"more than {max_cells} tricks in the tree")
            winner = (lead + winning_index(seq, trump)) % 4
            for i, f in enumerate(seq):
                hands[(lead + i) % 4].discard(f)
            key = (tuple(sorted(f for h in hands for f in h)), winner)
            index = len(cells)
            cell = Cell(round_, Seat(lead), Seat(winner), (seq[0], seq[1], seq[2], seq[3]),
                        value, seen.get(key))
            cells.append(cell)
            made.append(index)
            if cell.same_as is None:
                seen[key] = index
                cell.children = expand(hands, winner, round_ + 1)
            for i, f in enumerate(seq):
                hands[(lead + i) % 4].add(f)
        return made

    hands = [set(h) for h in deal.hands]
    value = sv.solve(rank_masks(hands), int(strain), int(leader))
    roots = expand(hands, int(leader), 1)
    return SolutionTree(n, strain, leader, good, value, rank_masks(hands), cells, roots)


def tree_to_bytes(tree: SolutionTree) -> bytes:
    """The file form of ``tree``: headers, then the cells in depth-first order, as built."""
    parts = [PRIMARY.pack(MAGIC, VERSION, tree.cards_per_player, int(tree.strain),
                          int(tree.leader), tree.good_side, tree.value, len(tree.cells)),
             SECONDARY.pack(*tree.hands), struct.pack("<I", len(tree.cells) * CELL.size)]
    for c in tree.cells:
        parts.append(CELL.pack(c.round, c.leader, c.winner, bytes(c.cards), len(c.children),
                               c.value, NONE if c.same_as is None else c.same_as))
    return b"".join(parts)


def tree_from_bytes(data: bytes) -> SolutionTree:
    """Read the file form back; the child lists are rebuilt from depth-first order.
    Raises ValueError when ``data`` is not a tree of this version or is cut short."""
    if len(data) < PRIMARY.size + SECONDARY.size + 4:
        raise ValueError("not a cardtable solution tree (too short)")
    magic, version, n, strain, leader, good, value, count = PRIMARY.unpack_from(data, 0)
    if magic != MAGIC or version != VERSION:
        raise ValueError(f"not a cardtable solution tree (version {VERSION})")
    off = PRIMARY.size
    hands = list(SECONDARY.unpack_from(data, off))
    off += SECONDARY.size
    (body,) = struct.unpack_from("<I", data, off)
    off += 4
    if body != count * CELL.size or len(data) < off + body:
        raise ValueError(f"body size {body} does not match {count} cells")
    cells: list[Cell] = []
    nchildren: list[int] = []
    for i in range(count):
        rnd, ld, win, cards, kids, val, same = CELL.unpack_from(data, off + i * CELL.size)
        cells.append(Cell(rnd, Seat(ld), Seat(win), (cards[0], cards[1], cards[2], cards[3]),
                          val, None if same == NONE else same))
        nchildren.append(kids)
    pos = 0

    def take(k: int) -> list[int]:
        """Read k sibling subtrees in depth-first order."""
        nonlocal pos
        out = []
        for _ in range(k):
            if pos >= count:
                raise ValueError(f"child counts run past the {count} cells")
            i = pos
            pos += 1
            cells[i].children = take(nchildren[i])
            out.append(i)
        return out

    roots: list[int] = []
    while pos < count:
        roots.extend(take(1))
    return SolutionTree(n, Strain(strain), Seat(leader), good, value, hands, cells, roots)


def format_line(line: Sequence[Cell]) -> str:
    """One trick a line."""
    return "\n".join(c.label() for c in line)
