"""PBN (Portable Bridge Notation) export and import of boards with auction and play.

Export writes the tags every bridge program reads (Board, Dealer, Vulnerable, Deal,
Declarer, Contract, Result) and the Auction and Play sections.  Import reads those
back, also from files written by other software (notes, ``=1=`` references, ``!``
suffixes, ``AP``, ``-`` for cards not played after a claim, ``*`` terminators and
comments are understood), and turns a board into table options plus the action log
that replays it through :class:`rules.bridge.BridgeGame`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.cards import format_face, parse_face
from engine.dds.deal import DealError
from engine.errors import IllegalAction
from engine.tricks import winning_index
from rules.bridge.auction import STRAINS, CallError, parse_call
from rules.bridge.boards import SEATS
from rules.bridge.state import BoardResult

_VUL_ALIASES = {
    "NONE": "None",
    "LOVE": "None",
    "-": "None",
    "NS": "NS",
    "EW": "EW",
    "ALL": "All",
    "BOTH": "All",
}


class PbnError(ValueError):
    code = "bad_pbn"


def _pbn_card(face: int) -> str:
    text = format_face(face)
    return text[1] + text[0]


def _pbn_call(call: str) -> str:
    return {"P": "Pass", "X": "X", "XX": "XX"}.get(call, call)


def tricks_of(played: tuple[int, ...], strain: str, leader: int) -> list[tuple[int, list[int]]]:
    """Split a board's play into tricks: (leader, cards in play order) each."""
    trump = None if strain == "N" else STRAINS.index(strain)
    out = []
    for i in range(0, len(played), 4):
        cards = list(played[i : i + 4])
        out.append((leader, cards))
        if len(cards) == 4:
            leader = (leader + winning_index(cards, trump)) % 4
    return out


def export_board(
    result: BoardResult,
    *,
    event: str = "cardtable",
    players: list[str] | None = None,
    date: str = "?",
) -> str:
    """A PBN game (tags, auction, play) for one finished board."""
    names = players or ["?"] * 4
    lines = [
        f'[Event "{event}"]',
        '[Site "?"]',
        f'[Date "{date}"]',
        f'[Board "{result.board}"]',
        f'[West "{names[3]}"]',
        f'[North "{names[0]}"]',
        f'[East "{names[1]}"]',
        f'[South "{names[2]}"]',
        f'[Dealer "{SEATS[result.dealer]}"]',
        f'[Vulnerable "{result.vulnerability.value}"]',
        f'[Deal "{result.deal}"]',
        '[Scoring "IMP"]',
    ]
    if result.contract is None:
        lines += ['[Declarer ""]', '[Contract "Pass"]', '[Result ""]']
    else:
        assert result.declarer is not None
        lines += [
            f'[Declarer "{SEATS[result.declarer]}"]',
            f'[Contract "{result.contract}"]',
            f'[Result "{result.tricks}"]',
        ]
    lines.append(f'[Auction "{SEATS[result.dealer]}"]')
    calls = [_pbn_call(c) for _, c in result.calls]
    for i in range(0, len(calls), 4):
        lines.append(" ".join(calls[i : i + 4]))
    if result.contract is not None and result.played:
        assert result.declarer is not None
        leader = (result.declarer + 1) % 4
        lines.append(f'[Play "{SEATS[leader]}"]')
        strain = result.contract.rstrip("X")[1:].replace("NT", "N")
        for trick_leader, cards in tricks_of(result.played, strain, leader):
            row = ["-"] * 4
            for i, card in enumerate(cards):
                seat = (trick_leader + i) % 4
                row[(seat - leader) % 4] = _pbn_card(card)
            lines.append(" ".join(row))
        lines.append("*")
    return "\n".join(lines) + "\n"


@dataclass
class PbnBoard:
    """One board read from a PBN file."""

    tags: dict[str, str]
    auction: list[str] = field(default_factory=list)  # calls from the dealer on
    play: list[list[str]] = field(default_factory=list)  # rows of the Play section
    play_first: int | None = None  # seat of the Play section's first column

    @property
    def board(self) -> int:
        digits = re.sub(r"\D", "", self.tags.get("Board", "1"))
        return int(digits) if digits else 1

    def options(self) -> dict[str, Any]:
        """Table options that deal exactly this board."""
        if "Deal" not in self.tags:
            raise PbnError("the board has no Deal tag")
        dealer = self.tags.get("Dealer", "N").strip().upper()[:1]
        vul = _VUL_ALIASES.get(self.tags.get("Vulnerable", "None").strip().upper())
        if dealer not in SEATS or vul is None:
            raise PbnError("bad Dealer or Vulnerable tag")
        return {
            "boards": 1,
            "first_board": self.board,
            "deal": self.tags["Deal"],
            "dealer": dealer,
            "vulnerable": vul,
        }


_TAG = re.compile(r'^\[(\w+)\s+"(.*)"\]\s*$')


def read_pbn(text: str) -> list[PbnBoard]:
    """Every board of a PBN file (tags repeated with ``#`` are inherited)."""
    boards: list[PbnBoard] = []
    current: PbnBoard | None = None
    section: str | None = None
    previous: dict[str, str] = {}
    in_comment = False
    ended = False  # a blank line ends a game (PBN 2.1 section 3); a tag then starts one
    for raw in text.splitlines():
        line = raw.strip()
        if in_comment:
            if "}" in line:
                in_comment = False
                line = line.split("}", 1)[1].strip()
            else:
                continue
        if "{" in line:
            before, _, after = line.partition("{")
            if "}" in after:
                line = (before + after.split("}", 1)[1]).strip()
            else:
                line, in_comment = before.strip(), True
        if not line or line.startswith("%") or line.startswith(";"):
            if not raw.strip() and current is not None:
                section = None
                ended = True
            continue
        m = _TAG.match(line)
        if m:
            name, value = m.group(1), m.group(2)
            if value == "#":
                value = previous.get(name, "")
            if name == "Event" or current is None or ended:
                if current is not None and current.tags:
                    boards.append(current)
                current = PbnBoard({})
                ended = False
            current.tags[name] = value
            previous[name] = value
            section = name if name in ("Auction", "Play") else None
            if name == "Play" and value.strip():
                current.play_first = SEATS.index(value.strip().upper()[:1])
            continue
        if current is None:
            continue
        tokens = [t for t in line.split() if not t.startswith("=") and t != "*"]
        if section == "Auction":
            current.auction.extend(t.rstrip("!?") for t in tokens if t != "-")
        elif section == "Play" and tokens:
            current.play.append(tokens)
    if current is not None:
        boards.append(current)
    return [b for b in boards if "Deal" in b.tags]


ALL_PASS = "AP"


def _calls(board: PbnBoard) -> list[str]:
    """The auction's calls in our spelling; ``AP`` (all pass) is kept as is."""
    calls: list[str] = []
    for token in board.auction:
        if token.upper() == ALL_PASS:
            calls.append(ALL_PASS)
            continue
        try:
            calls.append(str(parse_call(token)))
        except CallError as exc:
            raise PbnError(str(exc)) from None
    return calls


def replay_board(board: PbnBoard) -> tuple[dict[str, Any], list[tuple[int, dict[str, Any]]]]:
    """Options plus the (acting seat, action) log that reproduces the board through
    the rules; incomplete play with a Result is settled as an accepted claim."""
    from rules.bridge.game import BridgeGame

    game = BridgeGame()
    # Claims in a record were settled at the table: replay them as accepted.
    options = {**board.options(), "claims": "defenders"}
    try:
        config = game.parse_config(options)
        state = game.new(config, 0)
    except (IllegalAction, DealError) as exc:
        raise PbnError(str(exc)) from None
    log: list[tuple[int, dict[str, Any]]] = []

    def act(action: dict[str, Any]) -> None:
        nonlocal state
        seat = game.to_act(state)[0]
        try:
            state, _ = game.act(state, seat, action)
        except IllegalAction as exc:
            raise PbnError(f"board {board.board}: {exc.message}") from None
        log.append((seat, action))

    for call in _calls(board):
        if call == ALL_PASS:
            while state.phase.value == "auction":
                act({"type": "call", "call": "P"})
            break
        if state.phase.value != "auction":
            raise PbnError(f"board {board.board}: calls after the end of the auction")
        act({"type": "call", "call": call})
    first = board.play_first
    if state.contract is not None and first is not None:
        for row in board.play:
            if state.contract is None or not game.to_act(state) or state.phase.value != "play":
                break
            played_any = False
            for _ in range(4):
                if state.phase.value != "play":
                    break
                player = state.next_player
                text = row[(player - first) % 4] if (player - first) % 4 < len(row) else "-"
                if text == "-":
                    break
                act({"type": "play", "card": _face_text(text)})
                played_any = True
            if not played_any:
                break
    result = board.tags.get("Result", "").strip()
    if state.contract is not None and state.phase.value == "play" and result.isdigit():
        side = state.contract.declarer % 2
        needed = int(result) - state.tricks[side]
        remaining = len(state.hands[state.next_player])
        if not 0 <= needed <= remaining:
            raise PbnError(f"board {board.board}: Result {result} does not fit the play")
        # Whoever is on turn claims for their side (a defender: the rest).
        own = needed if game.to_act(state)[0] % 2 == side else remaining - needed
        act({"type": "claim", "tricks": own})
        while state.phase.value == "claim":
            act({"type": "accept_claim"})
    return options, log


def _face_text(text: str) -> str:
    """PBN writes suit then rank (``SA``, ``H10``); we write rank then suit."""
    t = text.strip().upper().rstrip("!?")
    if len(t) >= 2 and t[0] in "SHDC":
        t = t[1:] + t[0]
    try:
        f = parse_face(t)
    except ValueError:
        raise PbnError(f"not a card: {text!r}") from None
    if f >= 52:
        raise PbnError(f"not a card of a bridge deck: {text!r}")
    return format_face(f)
