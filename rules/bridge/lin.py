"""LIN files (Bridge Base Online's hand records): read and write.

A LIN file is a run of ``key|value|`` pairs.  The reader takes: ``pn`` (players,
South West North East; kept for the boards that follow), ``md`` (dealer digit
1 = South, 2 = West, 3 = North, 4 = East, then the hands from South, the fourth
may be left out), ``sv`` (vulnerability: o, n, e, b), ``ah`` (``Board 12``), ``mb``
(calls: p, d, r, 1C..7N; ``!`` marks an alert) with ``an`` (the explanation of the
call before it), ``pc`` (cards), ``mc`` (a claim: the declarer's tricks in all),
``pg`` (a page break), the vugraph header's ``vg`` (event), ``pw`` (players) and
``rs`` (results, which settle a play record that stops), and tolerates ``rh``,
``st``, ``qx``, ``nt`` and any other key.  A new ``qx``, or an ``md`` or ``pn`` once
a board has its deal, starts the next board.  Lines beginning with ``%`` are
comments.  What each accepts: docs/formats.md, "LIN".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.cards import CardParseError, format_face, parse_face
from engine.formats import FormatError, GameRecord
from engine.game import Game
from rules.bridge.auction import CallError, parse_call
from rules.bridge.boards import dealer, vulnerability
from rules.bridge.records import (
    BoardOut,
    FileBoard,
    board_number,
    boards_of,
    file_card,
    to_record,
)

# LIN's dealer digits and hand order: South, West, North, East.
LIN_SEATS = (2, 3, 0, 1)
VULNERABLE = {"o": "None", "0": "None", "-": "None", "n": "NS", "e": "EW", "b": "All"}
VUL_LETTER = {"None": "o", "NS": "n", "EW": "e", "All": "b"}


@dataclass
class _Pair:
    key: str
    value: str
    line: int


@dataclass
class _Board:
    """What one board's pairs say, before the rules check it."""

    line: int
    pairs: list[_Pair] = field(default_factory=list)
    room: str = ""  # qx's o/c (open or closed room) and number: ``o1``


def _pairs(text: str) -> list[_Pair]:
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    if "|" not in text:
        raise FormatError("a LIN file is a run of key|value| pairs", line=1)
    # Lines that begin with % are comments (converters such as PbnToLin write a
    # header of them, as PBN files have); blanked so line numbers stay true.
    text = re.sub(r"(?m)^[ \t]*%.*$", "", text)
    parts = text.split("|")
    out = []
    line = 1
    for i in range(0, len(parts) - 1, 2):
        key_raw, value = parts[i], parts[i + 1]
        # The key's own line: where its text starts, not where the gap before it ends.
        at = line + key_raw[: len(key_raw) - len(key_raw.lstrip())].count("\n")
        line += key_raw.count("\n")
        key = key_raw.strip().lower()
        if not re.fullmatch(r"[a-z0-9]{1,3}", key):
            raise FormatError(f"not a LIN key: {key_raw.strip()[:20]!r}", line=at)
        out.append(_Pair(key, value.strip(), line))
        line += value.count("\n")
    if len(parts) % 2 == 1 and parts[-1].strip():
        raise FormatError(f"a key with no value at the end: {parts[-1].strip()[:20]!r}",
                          line=line + parts[-1].count("\n"))
    return out


def _hand(text: str, label: str, line: int) -> tuple[int, ...]:
    out = []
    suit = None
    for ch in re.findall(r"10|.", text.upper()):
        if ch in "SHDC":
            suit = ch
            continue
        if suit is None:
            raise FormatError(f"a hand names its suits (S, H, D, C): {text!r}",
                              line=line, item=f"{label}, md")
        try:
            out.append(parse_face(ch + suit))
        except CardParseError:
            raise FormatError(f"not a rank: {ch!r} in {text!r}", line=line,
                              item=f"{label}, md") from None
    return tuple(out)


def _card(text: str, label: str, line: int) -> str:
    t = text.strip().upper()
    if len(t) >= 2 and t[0] in "SHDC":
        t = t[1:] + t[0]
    try:
        return format_face(parse_face(t))
    except CardParseError:
        raise FormatError(f"not a card: {text!r}", line=line, item=f"{label}, pc") from None


def _call(text: str, label: str, line: int) -> tuple[str, bool]:
    t = text.strip()
    alerted = "!" in t
    t = t.replace("!", "").replace("?", "").strip().upper()
    t = {"D": "X", "R": "XX"}.get(t, t)
    try:
        return str(parse_call(t)), alerted
    except CallError:
        raise FormatError(f"not a call: {text!r}", line=line, item=f"{label}, mb") from None


def _result_tricks(text: str) -> int | None:
    """``4HN+1`` -> 11, ``3NS=`` -> 9, ``2SE-2`` -> 6; None when unreadable or passed."""
    m = re.fullmatch(r"([1-7])(?:NT|[CDHSN])[NESW]?X{0,2}\s*([=+-]\d*)?", text.strip().upper())
    if m is None:
        return None
    level, diff = int(m.group(1)), m.group(2) or "="
    return level + 6 + (0 if diff in ("=", "+", "-") else int(diff))


@dataclass
class _Header:
    event: str = ""
    boards: list[str] = field(default_factory=list)  # bn, else vg's first to last board
    results: list[str] = field(default_factory=list)
    players: list[str] = field(default_factory=list)


def _split(pairs: list[_Pair]) -> tuple[_Header, list[_Board]]:
    header = _Header()
    boards: list[_Board] = []
    current: _Board | None = None
    for pair in pairs:
        if pair.key == "vg":
            # title, segment, scoring, first board, last board, teams and carry-overs
            fields = [f.strip() for f in pair.value.split(",")]
            header.event = fields[0]
            if not header.boards and len(fields) > 4 and all(
                    f.isdigit() for f in fields[3:5]) and int(fields[3]) <= int(fields[4]):
                header.boards = [str(n) for n in range(int(fields[3]), int(fields[4]) + 1)]
        elif pair.key == "bn":
            header.boards = [b.strip() for b in pair.value.split(",")]
        elif pair.key == "rs":
            header.results = pair.value.split(",")
        elif pair.key == "pw" or (pair.key == "pn" and current is None):
            header.players = [n.strip() for n in pair.value.split(",")]
        # A new qx starts a board; so does an md, or a pn (BBO writes each board's
        # players before its deal), once the board being read has its deal.
        dealt = current is not None and any(p.key == "md" for p in current.pairs)
        starts = pair.key == "qx" or (pair.key in ("md", "pn") and dealt)
        if starts or (current is None and pair.key in ("md", "ah", "sv", "mb", "pc")):
            current = _Board(pair.line)
            boards.append(current)
        if current is not None:
            if pair.key == "qx":
                current.room = pair.value.split(",")[0].strip().lower()
            current.pairs.append(pair)
    return header, [b for b in boards if any(p.key == "md" for p in b.pairs)]


def _board(raw: _Board, header: _Header, names: list[str], index: int) -> FileBoard:
    keys = {p.key: p for p in raw.pairs}
    title = keys["ah"].value if "ah" in keys else ""
    number = board_number(title, board_number(raw.room, index))
    label = f"board {number}"
    md = keys["md"]
    text = md.value
    dealer_seat = dealer(number)
    if text[:1] in ("0", "1", "2", "3", "4", "5", "6", "7", "8", "9"):
        digit = int(text[0])
        if not 1 <= digit <= 4:
            raise FormatError(f"a dealer digit is 1 to 4, not {digit}", line=md.line,
                              item=f"{label}, md")
        dealer_seat, text = LIN_SEATS[digit - 1], text[1:]
    hands_text = text.split(",")
    if len(hands_text) > 4 or len([h for h in hands_text if h.strip()]) < 3:
        raise FormatError("md gives three or four hands", line=md.line, item=f"{label}, md")
    hands: list[tuple[int, ...] | None] = [None] * 4
    for i, hand in enumerate(hands_text):
        if hand.strip():
            hands[LIN_SEATS[i]] = _hand(hand.strip(), label, md.line)
    vul = vulnerability(number).value
    if "sv" in keys:
        letter = keys["sv"].value.strip().lower()[:1]
        if letter not in VULNERABLE:
            raise FormatError(f"not a vulnerability: {keys['sv'].value!r}",
                              line=keys["sv"].line, item=f"{label}, sv")
        vul = VULNERABLE[letter]
    if "pn" in keys:
        names[:] = [n.strip() for n in keys["pn"].value.split(",")][:8]
    # A vugraph file's eight names are the open room's four, then the closed room's.
    room = names[4:8] if raw.room.startswith("c") and len(names) >= 8 else names[:4]
    seat_names = ["", "", "", ""]
    for i, name in enumerate(room):
        seat_names[LIN_SEATS[i]] = name
    board = FileBoard(board=number, dealer=dealer_seat, vulnerable=vul, hands=hands,
                      line=md.line, title=title or f"Board {number}",
                      players=(seat_names[0], seat_names[1], seat_names[2], seat_names[3]))
    if header.event:
        board.tags["Event"] = header.event
    for pair in raw.pairs:
        if pair.key == "mb":
            call, alerted = _call(pair.value, label, pair.line)
            board.calls.append((call, "" if alerted else None))
            board.call_lines.append(pair.line)
        elif pair.key == "an" and board.calls:
            call, _ = board.calls[-1]
            board.calls[-1] = (call, pair.value)
        elif pair.key == "pc":
            board.cards.append(_card(pair.value, label, pair.line))
            board.card_lines.append(pair.line)
        elif pair.key == "mc":
            if not re.fullmatch(r"[0-9]{1,2}", pair.value) or int(pair.value) > 13:
                raise FormatError(f"a claim is a number of tricks, not {pair.value!r}",
                                  line=pair.line, item=f"{label}, mc")
            board.result, board.result_line = int(pair.value), pair.line
    if board.result is None:
        board.result = _header_result(header, raw.room)
    return board


def _header_result(header: _Header, room: str) -> int | None:
    """A vugraph header's result for the board of ``qx`` (``o3``: open room, board 3)."""
    m = re.fullmatch(r"([oc])(\d+)", room)
    if m is None or m.group(2) not in header.boards:
        return None
    at = header.boards.index(m.group(2)) * 2 + (m.group(1) == "c")
    return _result_tricks(header.results[at]) if at < len(header.results) else None


def read(text: str, game: Game[Any, Any]) -> list[GameRecord]:
    """Every board of a LIN file as a record that replays through ``game``."""
    header, raws = _split(_pairs(text))
    if not raws:
        raise FormatError("no board (md) in the file")
    names = list(header.players[:8])
    boards = [_board(raw, header, names, i) for i, raw in enumerate(raws, 1)]
    return [to_record(b, game, tag_auction="mb", tag_play="pc", tag_deal="md",
                      tag_result="mc") for b in boards]


def _lin_hand(cards: Sequence[int]) -> str:
    out = ""
    for suit in "SHDC":
        ranks = [format_face(f)[0] for f in sorted(cards, reverse=True)
                 if format_face(f)[1] == suit]
        out += suit + "".join(ranks)
    return out


def _board_text(record: GameRecord, board: BoardOut) -> str:
    from engine.dds import parse_pbn

    names = list(record.players) + [""] * (4 - len(record.players))
    hands = parse_pbn(board.deal).hands
    digit = LIN_SEATS.index(board.dealer) + 1
    parts = [
        "pn|" + ",".join(names[s] for s in LIN_SEATS) + "|st||",
        f"md|{digit}" + ",".join(_lin_hand(hands[s]) for s in LIN_SEATS) + "|rh||",
        f"ah|Board {board.board}|sv|{VUL_LETTER[board.vulnerable]}|",
    ]
    for _, call, alert in board.calls:
        word = {"P": "p", "X": "d", "XX": "r"}.get(call, call.replace("NT", "N"))
        parts.append(f"mb|{word}{'' if alert is None else '!'}|")
        if alert:
            parts.append(f"an|{alert.replace('|', '/')}|")
    for i in range(0, len(board.played), 4):
        parts.append("pg||" + "".join(f"pc|{file_card(f)}|" for f in board.played[i:i + 4]))
    if board.claimed and board.tricks is not None:
        parts.append(f"mc|{board.tricks}|")
    parts.append("pg||")
    return "".join(parts) + "\n"


def write(records: Sequence[GameRecord], game: Game[Any, Any]) -> str:
    """A LIN file of every board of ``records`` (replayed through ``game``), one
    board a line."""
    lines = [_board_text(r, b) for r in records for b in boards_of(r, game)]
    return "".join(lines)

