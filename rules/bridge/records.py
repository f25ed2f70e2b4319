"""Boards as bridge files hold them, between the file formats (PBN, LIN) and the
rules: a reader fills a :class:`FileBoard`, :func:`to_record` replays it through
:class:`rules.bridge.game.BridgeGame` (passed in, which lists the formats) into
a :class:`engine.formats.GameRecord`,
and :func:`boards_of` replays a record back into what a writer writes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.cards import CardParseError, format_face, parse_face
from engine.dds.deal import make_deal
from engine.errors import IllegalAction
from engine.formats import FormatError, GameRecord
from engine.game import Game
from engine.presentation import plural
from engine.tricks import winning_index
from rules.bridge.auction import STRAINS, Bid, Contract, final_contract, parse_call
from rules.bridge.boards import SEATS

NAMES = ("North", "East", "South", "West")


@dataclass
class FileBoard:
    """One board of a file.  ``hands`` are faces by seat (None: the file leaves the
    hand out; one may be, it gets the cards left); ``calls`` are (call, alert or
    None) from the dealer on; the play is ``cards`` in play order (LIN) or PBN
    ``rows`` whose first column is seat ``rows_first``; ``result`` is the declaring
    side's tricks in all, which settles an unfinished play as a claim."""

    board: int
    dealer: int
    vulnerable: str
    hands: list[tuple[int, ...] | None]
    line: int = 0
    calls: list[tuple[str, str | None]] = field(default_factory=list)
    all_pass: bool = False
    contract: str | None = None  # a Contract tag: "4SX", "Pass"; None: not given
    declarer: int | None = None
    contract_line: int = 0  # the Contract tag's line, and the Declarer tag's
    declarer_line: int = 0
    irregular_declarer: bool = False  # PBN "^S": not the declarer the auction names
    cards: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    rows_first: int | None = None
    result: int | None = None
    # The file's line of each call, card (or PBN play row) and of the result, for
    # errors that point at it (0: not known, the deal's line is given).
    call_lines: list[int] = field(default_factory=list)
    card_lines: list[int] = field(default_factory=list)
    result_line: int = 0
    players: tuple[str, str, str, str] = ("", "", "", "")
    title: str = ""
    tags: dict[str, str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"board {self.board}"


def file_card(face: int) -> str:
    """A card as PBN and LIN write it: the suit first (``D2``, ``ST``)."""
    text = format_face(face)
    return text[1] + text[0]


def _as_written(card: str) -> str:
    """A card of an action as the file wrote it (its text, if it names no card)."""
    try:
        return file_card(parse_face(card))
    except CardParseError:
        return card


def check_hands(board: FileBoard, tag: str) -> tuple[tuple[int, ...], ...]:
    """The four hands, the one left out (if any) completed; a card twice or a hand
    of more than 13 cards is a :class:`FormatError` naming the board and ``tag``."""
    seen: set[int] = set()
    for seat, hand in enumerate(board.hands):
        for f in hand or ():
            if f in seen:
                raise FormatError(f"{format_face(f)} is dealt twice", line=board.line,
                                  item=f"{board.label}, {tag}")
            seen.add(f)
        if hand is not None and len(hand) > 13:
            raise FormatError(f"{NAMES[seat]} holds {len(hand)} cards, not 13",
                              line=board.line,
                              item=f"{board.label}, {tag}")
    missing = [s for s, h in enumerate(board.hands) if h is None]
    if len(missing) > 1:
        raise FormatError("only one hand may be left out", line=board.line,
                          item=f"{board.label}, {tag}")
    hands = list(board.hands)
    if missing:
        hands[missing[0]] = tuple(f for f in range(52) if f not in seen)
    for seat, hand in enumerate(hands):
        if hand is None or len(hand) != 13:
            raise FormatError(f"{NAMES[seat]} holds {len(hand or ())} cards, not 13",
                              line=board.line, item=f"{board.label}, {tag}")
    return tuple(h for h in hands if h is not None)


def _synthetic_auction(board: FileBoard) -> list[str]:
    """An auction that ends in the board's Contract by its Declarer (the file gives
    no auction): passes up to the declarer, the bid, the double and redouble."""
    contract, declarer = board.contract, board.declarer
    if contract is None or contract.upper() == "PASS":
        return ["P"] * 4
    if declarer is None:
        raise FormatError("a contract without a declarer", line=board.line,
                          item=f"{board.label}, Declarer")
    bid = contract.upper().rstrip("X")
    doubles = len(contract) - len(contract.rstrip("Xx"))
    calls = ["P"] * ((declarer - board.dealer) % 4) + [bid]
    calls += ["X", "XX"][:doubles]
    return calls + ["P"] * 3


def to_record(board: FileBoard, game: Game[Any, Any], tag_auction: str = "Auction",
              tag_play: str = "Play", tag_deal: str = "Deal",
              tag_result: str = "Result") -> GameRecord:
    """The board replayed through ``game`` (bridge's rules): table options and the
    action log (errors name the file's own tags, given for each format)."""
    hands = check_hands(board, tag_deal)
    options: dict[str, Any] = {
        "boards": 1,
        "first_board": max(1, min(board.board, 9999)),
        "deal": make_deal(hands).to_pbn(),
        "dealer": SEATS[board.dealer],
        "vulnerable": board.vulnerable,
        # Claims in a record were settled at the table: replay them as answered.
        "claims": "defenders",
    }
    try:
        state = game.new(game.parse_config(options), 0)
    except IllegalAction as exc:
        raise FormatError(exc.message, line=board.line, item=board.label) from None
    options["deal"] = make_deal(state.dealt).to_pbn()
    log: list[tuple[int, dict[str, Any]]] = []

    def act(action: dict[str, Any], tag: str, line: int = 0) -> None:
        nonlocal state
        seat = game.to_act(state)[0]
        try:
            state, _ = game.act(state, seat, action)
        except IllegalAction as exc:
            card = action.get("card")
            # Cards as the files write them (suit first, D2) and whose they were said to be.
            what = (f"{_as_written(card)} by {NAMES[seat]}" if card
                    else action.get("call") or action["type"])
            raise FormatError(f"{what}: {exc.message}", line=line or board.line,
                              item=f"{board.label}, {tag}") from None
        log.append((seat, action))

    calls: list[tuple[str, str | None]] = _with_leading_passes(board)
    # No auction: a known contract is reached by the shortest auction; without one
    # (a hand record, or a result of a contract nobody wrote) the deal alone.
    if not calls and not board.all_pass and board.contract is not None:
        calls = [(c, None) for c in _synthetic_auction(board)]
    put_back = len(calls) - len(board.calls) if board.calls else 0
    for i, (call, alert) in enumerate(calls):
        k = i - put_back  # the file's own calls keep their lines
        line = board.call_lines[k] if 0 <= k < len(board.call_lines) else 0
        if state.phase.value != "auction":
            raise FormatError(f"{call}: a call after the end of the auction",
                              line=line or board.line, item=f"{board.label}, {tag_auction}")
        act({"type": "call", "call": call} | ({} if alert is None else {"alert": alert}),
            tag_auction, line)
    more = board.all_pass or board.cards or board.rows or board.result is not None
    if state.phase.value == "auction" and (calls or board.all_pass) and more:
        while state.phase.value == "auction":  # the passes the file leaves out
            act({"type": "call", "call": "P"}, tag_auction)
    if state.phase.value != "auction" and (board.calls or board.all_pass):
        _check_contract(board, state.contract if state.phase.value == "play"
                        else state.results[-1].contract, tag_auction)
    if state.contract is not None:
        _play(board, game, lambda: state, act, tag_play)
        # A record that stops inside the last trick: every card left is forced (and
        # no claim can be made then, Law 68).
        while (state.phase.value == "play" and state.trick and board.result is not None
               and len(state.hands[state.next_player]) == 1):
            act({"type": "play", "card": format_face(state.hands[state.next_player][0])},
                tag_play)
    if (state.contract is not None and state.phase.value == "play"
            and board.result is not None):
        side = state.contract.declarer % 2
        remaining = len(state.hands[state.next_player])
        needed = board.result - state.tricks[side]
        if not 0 <= needed <= remaining:
            raise _result_error(board, tag_result, "does not fit the play")
        # Whoever is on turn claims for their side (a defender: the rest).
        own = needed if game.to_act(state)[0] % 2 == side else remaining - needed
        act({"type": "claim", "tricks": own}, tag_result, board.result_line)
        while state.phase.value == "claim":
            act({"type": "accept_claim"}, tag_result, board.result_line)
    if state.phase.value not in ("auction", "play") and board.result is not None:
        # The board ended in the file's own cards (or was passed out): its Result
        # must be what they took, as a scorer's file that disagrees with itself is
        # refused, not mended.
        took = state.results[-1].tricks or 0
        if board.result != took:
            raise _result_error(board, tag_result, f"is not the {plural(took, 'trick')} taken"
                                if state.results[-1].contract else "on a board passed out")
    return GameRecord(
        game="bridge",
        options=options,
        seed=0,
        actions=tuple(log),
        players=board.players,
        title=board.title or f"Board {board.board}",
        tags=dict(board.tags),
    )


def _result_error(board: FileBoard, tag: str, why: str) -> FormatError:
    return FormatError(f"a result of {plural(board.result or 0, 'trick')} {why}",
                       line=board.result_line or board.line, item=f"{board.label}, {tag}")


def _with_leading_passes(board: FileBoard) -> list[tuple[str, str | None]]:
    """The file's calls, with the passes before the first bid put back where the
    file leaves them out (rpbridge.net writes the auction from the first bid while
    its Auction tag names the dealer): only where two things the file states
    agree that it must, its Declarer tag and its Play tag's first seat (the
    declarer's left), and as few passes as make the auction reach that declarer
    (and the Contract tag's bid)."""
    calls = list(board.calls)
    if (not calls or board.declarer is None or board.irregular_declarer
            or not board.declarer_line or board.rows_first != (board.declarer + 1) % 4):
        return calls
    try:
        parsed = [parse_call(c) for c, _ in calls]
    except ValueError:
        return calls  # the replay names the bad call
    for passes in range(4):
        seats = [(board.dealer + passes + i) % 4 for i in range(len(parsed))]
        reached = final_contract(list(zip(seats, parsed, strict=True)))
        if (reached is not None and reached.declarer == board.declarer
                and (board.contract is None or _bid(str(reached)) == _bid(board.contract))):
            return [("P", None)] * passes + calls
    return calls


def _bid(contract: str) -> str:
    return contract.rstrip("X")


def _doubles(contract: str) -> int:
    return len(contract) - len(_bid(contract))


def _check_contract(board: FileBoard, reached: Contract | None, tag_auction: str) -> None:
    """The file's Contract and Declarer tags, where given, must be what its auction
    reached (a scorer's file that disagrees with itself is refused, not mended);
    a double the tag leaves out is the auction's (rpbridge.net's tags drop some)."""
    text = str(reached) if reached is not None else "Pass"
    if board.contract is not None and (_bid(board.contract) != _bid(text)
                                       or _doubles(board.contract) > _doubles(text)):
        raise FormatError(f"the {tag_auction.lower()} ends in {_reached(reached)}, not the "
                          f"Contract {board.contract}", line=board.contract_line or board.line,
                          item=f"{board.label}, Contract")
    if (board.declarer is not None and reached is not None and not board.irregular_declarer
            and board.declarer != reached.declarer):
        raise FormatError(f"the {tag_auction.lower()} ends in {_reached(reached)}, not played "
                          f"by Declarer {SEATS[board.declarer]}",
                          line=board.declarer_line or board.line, item=f"{board.label}, Declarer")


def _reached(contract: Contract | None) -> str:
    return "a pass-out" if contract is None else f"{contract} by {NAMES[contract.declarer]}"


def _play(board: FileBoard, game: Any, current: Any, act: Any, tag: str) -> None:
    """Play the board's cards, in play order or PBN rows, until they run out."""
    lines = board.card_lines
    if board.cards:
        for i, card in enumerate(board.cards):
            line = lines[i] if i < len(lines) else 0
            if current().phase.value != "play":
                raise FormatError(f"{card}: a card after the end of the play",
                                  line=line or board.line, item=f"{board.label}, {tag}")
            act({"type": "play", "card": card}, tag, line)
        return
    first = board.rows_first
    if first is None or not any(t != "-" for row in board.rows for t in row):
        return
    leader = current().next_player
    # A lead out of turn the declarer accepted, or a declarer the auction does not name
    # ("^N"), has the tag name another leader: each seat still plays its own column, in
    # the rules' order.  Where that fails, the likelier slip is the tag's seat: say so.
    hint = ("" if first == leader else f" (the {tag} tag names {NAMES[first]} as the "
            f"opening leader, not {NAMES[leader]}, the declarer's left)")
    # The play stops at the first '-' of the player on turn (a claim, or a record
    # cut short); a card the file gives after that has no place in the play.
    stopped = False
    for r, row in enumerate(board.rows):
        line = lines[r] if r < len(lines) else 0
        unplayed = list(range(len(row)))
        while not stopped:
            state = current()
            if state.phase.value != "play":
                stopped = True
                break
            column = (state.next_player - first) % 4
            text = row[column] if column < len(row) else "-"
            if text == "-" or column not in unplayed:
                stopped = text == "-"
                break
            try:
                act({"type": "play", "card": text}, tag, line)
            except FormatError as exc:
                raise FormatError(exc.message + hint, line=exc.line, item=exc.item) from None
            unplayed.remove(column)
        late = [row[c] for c in unplayed if row[c] != "-"] if stopped else []
        if late:
            raise FormatError(f"{_as_written(late[0])}: a card after the end of the play",
                              line=line or board.line, item=f"{board.label}, {tag}")


@dataclass
class BoardOut:
    """One board of a stored game, as a writer needs it."""

    board: int
    dealer: int
    vulnerable: str
    deal: str  # PBN deal string from North
    calls: list[tuple[int, str, str | None]]  # seat, call, alert
    played: list[int]  # faces in play order
    contract: str | None  # None: not reached (or passed out when ``passed_out``)
    declarer: int | None
    tricks: int | None  # the declaring side's, when the board ended
    claimed: bool
    passed_out: bool
    score_ns: int | None = None  # North-South's score, when the board ended


def boards_of(record: GameRecord, game: Game[Any, Any]) -> list[BoardOut]:
    """Every board of ``record`` (a stored or imported game) replayed through
    ``game``: the finished ones and the one in progress when the record stops."""
    try:
        state = game.new(game.parse_config(record.options), record.seed)
    except IllegalAction as exc:
        raise FormatError(exc.message, item=record.title) from None
    out: list[BoardOut] = []
    alerts: dict[int, str] = {}

    def current(s: Any) -> BoardOut:
        c = s.contract
        return BoardOut(s.board, s.dealer, s.vulnerability.value,
                        make_deal(s.dealt).to_pbn(),
                        [(seat, call, alerts.get(i)) for i, (seat, call) in enumerate(s.calls)],
                        list(s.played), str(c) if c else None, c.declarer if c else None,
                        None, False, False)

    for n, (seat, action) in enumerate(record.actions, 1):
        before = state
        try:
            state, _ = game.act(state, seat, action)
        except IllegalAction as exc:
            raise FormatError(exc.message, item=f"{record.title}, action {n}") from None
        if action.get("type") == "call" and "alert" in action:
            alerts[len(before.calls)] = str(action["alert"])
        if len(state.results) > len(before.results):
            r = state.results[-1]
            done = current(before)
            done.calls = [(s, c, alerts.get(i)) for i, (s, c) in enumerate(r.calls)]
            done.played, done.contract, done.declarer = list(r.played), r.contract, r.declarer
            done.tricks, done.claimed, done.passed_out = r.tricks, r.claimed, r.contract is None
            done.score_ns = r.score_ns
            out.append(done)
            alerts = {}
    if state.phase.value != "over":
        out.append(current(state))
    return out


def board_number(text: str, default: int) -> int:
    """The board number a title or tag gives (its first digits), else ``default``."""
    m = re.search(r"[0-9]{1,6}", text)
    number = int(m.group()) if m else 0
    return number if 0 < number <= 9999 else default


def parse_contract(text: str) -> str | None:
    """A Contract value in our spelling (``4SX``, ``3NT``), ``Pass``, or None for an
    unknown one (``?``, empty)."""
    t = text.strip().upper().replace(" ", "")
    if t in ("", "?", "-"):
        return None
    if t in ("PASS", "P", "AP"):
        return "Pass"
    doubles = len(t) - len(t.rstrip("X"))
    bid = parse_call(t[: len(t) - doubles] if doubles else t)
    if not isinstance(bid, Bid) or doubles > 2:
        raise ValueError(f"not a contract: {text!r}")
    return str(bid) + "X" * doubles


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
