"""PBN (Portable Bridge Notation, version 2.1) files: read and write.

The reader takes files as other programs write them: comments (``;`` to the end
of the line, ``{...}`` over lines), ``%`` lines, games split by empty lines or by
a tag that repeats, several events in one file, tag values ``#`` copied from the
previous game, ``?`` for unknown values, a game without a Deal that is the previous
board at another table, a hand left out of the Deal, auction
notes (``=1=`` with ``[Note "1:..."]``, kept as alerts), ``AP``, ``!``/``?``
suffixes and ``$n`` annotations, ``[Play "-"]``, play records that stop anywhere
(a Result then settles the rest as a claim, by whoever is on turn), a Result with
no play, a Contract with no auction, and tags it has no use for (kept, written
back).  The writer writes every board of a record with its auction, notes and
play, and the double-dummy tags computed for it: DoubleDummyTricks, OptimumScore,
ParContract and OptimumResultTable.  What each accepts: docs/formats.md, "PBN".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engine.cards import CardParseError, format_face, parse_face
from engine.dds import dd_table
from engine.formats import FormatError, GameRecord
from engine.game import Game
from rules.bridge.auction import CallError, parse_call
from rules.bridge.boards import SEATS, Vulnerability, dealer, vulnerability
from rules.bridge.par import par
from rules.bridge.records import (
    BoardOut,
    FileBoard,
    board_number,
    boards_of,
    file_card,
    parse_contract,
    to_record,
    tricks_of,
)


class PbnError(FormatError):
    """A PBN file that cannot be read (``bad_file``), naming the line, board and tag."""


VUL_ALIASES = {"NONE": "None", "LOVE": "None", "-": "None", "NS": "NS", "EW": "EW",
               "ALL": "All", "BOTH": "All"}
# Tags the reader turns into the game (and the writer writes from it); others are kept.
STRUCTURAL = frozenset({
    "Board", "Dealer", "Vulnerable", "Deal", "Declarer", "Contract", "Result", "Auction",
    "Play", "Note", "West", "North", "East", "South",
    # computed again for every board on export
    "DoubleDummyTricks", "OptimumScore", "ParContract", "OptimumResultTable",
})
PLAYERS = ("North", "East", "South", "West")
# A game without a Deal but with any of these is the previous board at another
# table, and takes these from the game before it.
TABLE_TAGS = frozenset({"Auction", "Play", "Contract", "Declarer", "Result"})
BOARD_TAGS = ("Board", "Dealer", "Vulnerable", "Deal")


@dataclass
class _Tag:
    name: str
    value: str
    line: int
    data: list[tuple[int, str]] = field(default_factory=list)  # (line, token) after it


@dataclass
class _Game:
    tags: list[_Tag] = field(default_factory=list)

    def names(self) -> set[str]:
        return {t.name for t in self.tags}


_TAG = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\]|\\.)*)"\s*\]')


def _unescape(text: str) -> str:
    """A tag value's text: ``\\"`` is a quote and ``\\\\`` a backslash (PBN strings
    escape as PGN's do); any other backslash is itself: BridgeComposer's suit
    symbols ``\\S`` ``\\H`` ``\\D`` ``\\C``, the standard's ``Denomination\\2R``."""
    return re.sub(r'\\(["\\])', r"\1", text)


def _lex(text: str) -> list[_Game]:
    """Split a file into games of tags with the tokens that follow each tag."""
    games: list[_Game] = []
    game = _Game()
    in_comment = 0  # line where an open {...} comment started
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw
        if in_comment:
            end = line.find("}")
            if end < 0:
                continue
            line, in_comment = line[end + 1 :], 0
        elif line.startswith("%"):
            continue
        if not line.strip() and not raw.strip():
            if game.tags:
                games.append(game)
                game = _Game()
            continue
        pos = 0
        while pos < len(line):
            ch = line[pos]
            if ch.isspace():
                pos += 1
            elif ch == ";":
                break
            elif ch == "{":
                end = line.find("}", pos)
                if end < 0:
                    in_comment = number
                    break
                pos = end + 1
            elif ch == "[":
                m = _TAG.match(line, pos)
                if m is None:
                    raise PbnError("a tag is written [Name \"value\"]", line=number)
                name = m.group(1)
                value = _unescape(m.group(2))
                if name in game.names() and name != "Note":
                    games.append(game)  # a repeated tag starts the next game
                    game = _Game()
                game.tags.append(_Tag(name, value, number))
                pos = m.end()
            else:
                end = pos
                while end < len(line) and not line[end].isspace() and line[end] not in "[{;":
                    end += 1
                if not game.tags:
                    raise PbnError(f"{line[pos:end]!r} before any tag", line=number)
                game.tags[-1].data.append((number, line[pos:end]))
                pos = end
    if in_comment:
        raise PbnError("a { comment is never closed", line=in_comment)
    if game.tags:
        games.append(game)
    return games


def _hand(text: str, board: str, line: int) -> tuple[int, ...] | None:
    if text in ("-", "?"):
        return None
    suits = text.split(".")
    if len(suits) != 4:
        raise PbnError(f"a hand has four suits split by dots: {text!r}", line=line,
                       item=f"{board}, Deal")
    out = []
    for suit, ranks in zip("SHDC", suits, strict=True):
        for rank in re.findall(r"10|.", ranks.upper()):
            if rank == "-":
                continue
            try:
                out.append(parse_face(rank + suit))
            except CardParseError:
                raise PbnError(f"not a rank: {rank!r} in {text!r}", line=line,
                               item=f"{board}, Deal") from None
    return tuple(out)


def _deal(value: str, label: str, line: int) -> list[tuple[int, ...] | None]:
    text = value.strip()
    first = 0
    if len(text) >= 2 and text[1] == ":":
        if text[0].upper() not in SEATS:
            raise PbnError(f"a deal starts with N:, E:, S: or W:, not {text[:2]!r}",
                           line=line, item=f"{label}, Deal")
        first, text = SEATS.index(text[0].upper()), text[2:]
    parts = text.split()
    if len(parts) != 4:
        raise PbnError("a deal gives four hands", line=line, item=f"{label}, Deal")
    hands: list[tuple[int, ...] | None] = [None] * 4
    for i, part in enumerate(parts):
        hands[(first + i) % 4] = _hand(part, label, line)
    return hands


def _card(token: str, label: str, line: int) -> str:
    """PBN writes suit then rank (``SA``, ``H10``); the rules rank then suit."""
    t = token.strip().upper().rstrip("!?")
    if len(t) >= 2 and t[0] in "SHDC" and t[1:] in ("10", *"AKQJT98765432"):
        t = t[1:] + t[0]
    try:
        return format_face(parse_face(t))
    except CardParseError:
        raise PbnError(f"not a card: {token!r}", line=line, item=f"{label}, Play") from None


def _unknown(value: str) -> bool:
    return value.strip() in ("", "?", "-")


def _result(value: str, declarer: int | None, label: str, line: int) -> int | None:
    text = value.strip().upper()
    if _unknown(text):
        return None
    m = re.fullmatch(r"(?:(NS|EW)\s+)?(\d{1,2})", text)
    if m is None or int(m.group(2)) > 13:
        raise PbnError(f"a result is a number of tricks, not {value!r}", line=line,
                       item=f"{label}, Result")
    tricks = int(m.group(2))
    side = m.group(1)
    if side and declarer is not None and ("NS", "EW").index(side) != declarer % 2:
        tricks = 13 - tricks
    return tricks


def _auction(tag: _Tag, notes: dict[str, str], board: FileBoard) -> None:
    refs: list[tuple[int, str]] = []
    for line, token in tag.data:
        t = token.strip()
        if t == "*":
            break
        if re.fullmatch(r"=\d+=", t):
            if t.strip("=") not in notes:
                raise PbnError(f"the note {t} has no [Note \"{t.strip('=')}:...\"]", line=line,
                               item=f"{board.label}, Auction")
            if board.calls:
                refs.append((len(board.calls) - 1, t.strip("=")))
            continue
        if t in ("-", "+") or t.startswith(("$", "^")) or set(t) <= set("!?"):
            continue
        if board.all_pass:  # "AP" closes the auction: a call after it is the file's slip
            raise PbnError(f"{token}: a call after AP (all pass)", line=line,
                           item=f"{board.label}, Auction")
        if t.upper() == "AP":
            board.all_pass = True
            continue
        try:
            call = str(parse_call(t.rstrip("!?")))
        except CallError:
            raise PbnError(f"not a call: {token!r}", line=line,
                           item=f"{board.label}, Auction") from None
        board.calls.append((call, None))
        board.call_lines.append(line)
    for index, note in refs:
        call, _ = board.calls[index]
        board.calls[index] = (call, notes[note])


def _play_rows(tag: _Tag, board: FileBoard) -> None:
    value = tag.value.strip().upper()
    if _unknown(value):
        return
    if value[:1] not in SEATS:
        raise PbnError(f"a Play tag names the opening leader, not {tag.value!r}",
                       line=tag.line, item=f"{board.label}, Play")
    board.rows_first = SEATS.index(value[:1])
    by_line: dict[int, list[str]] = {}
    for line, token in tag.data:
        t = token.strip()
        if t == "*":
            break
        if re.fullmatch(r"=\d+=", t) or t.startswith(("$", "^")) or t == "+" or set(t) <= set(
            "!?"
        ):
            continue
        by_line.setdefault(line, []).append(t if t == "-" else _card(t, board.label, line))
    for line, tokens in by_line.items():
        for i in range(0, len(tokens), 4):  # a writer that puts tricks on one line
            board.rows.append(tokens[i : i + 4])
            board.card_lines.append(line)


def _board(game: _Game, previous: dict[str, str], sticky: dict[str, str],
           index: int) -> FileBoard | None:
    """One game of the file as a board (None for a game with no deal).  PBN 2.1,
    4.8: ``#`` takes the tag's value in the nearest previous game; ``##text`` is
    ``text`` here and in every later game that leaves the tag out, until a game
    gives the tag another value."""
    values: dict[str, str] = {}
    notes: dict[str, str] = {}
    for tag in game.tags:
        value = tag.value
        if value == "#":
            value = previous.get(tag.name, "")
        elif value.startswith("##"):
            value = sticky[tag.name] = value[2:]
        elif tag.name in sticky:
            sticky[tag.name] = value
        tag.value = value
        if tag.name == "Note":
            ref, _, text = value.partition(":")
            notes.setdefault(ref.strip(), text.strip())  # "1: text" and "1:text" alike
        else:
            values[tag.name] = value
    for name, value in sticky.items():
        if name not in values and game.tags:
            values[name] = value
            game.tags.append(_Tag(name, value, game.tags[0].line))
    if "Deal" not in values and TABLE_TAGS & values.keys() and not _unknown(
            previous.get("Deal", "")):
        # The previous game's board played at another table: a file that writes
        # each board's tags once (docs/formats.md, "PBN").
        for name in BOARD_TAGS:
            if name not in values and name in previous:
                values[name] = previous[name]
                game.tags.append(_Tag(name, values[name], game.tags[0].line))
    previous.update(values)
    by_name = {t.name: t for t in game.tags}
    if "Deal" not in values or _unknown(values["Deal"]):
        if "Auction" in values or "Play" in values:
            raise PbnError("a game with an auction or play has no Deal",
                           line=game.tags[0].line, item=f"game {index}")
        return None  # a file header or an event's tags alone
    number = board_number(values.get("Board", ""), index)
    label = f"board {number}"
    line = by_name["Deal"].line
    deal_dealer = values.get("Dealer", "").strip().upper()[:1]
    if deal_dealer in ("", "?"):
        # No dealer given: the auction's first seat is the dealer, else the cycle's.
        deal_dealer = values.get("Auction", "").strip().upper()[:1]
    if deal_dealer and deal_dealer not in SEATS and deal_dealer != "?":
        raise PbnError(f"a dealer is N, E, S or W, not {values['Dealer']!r}",
                       line=by_name["Dealer"].line, item=f"{label}, Dealer")
    vul_text = values.get("Vulnerable", "?").strip().upper()
    vul = VUL_ALIASES.get(vul_text)
    if vul is None and not _unknown(vul_text):
        raise PbnError(f"not a vulnerability: {values['Vulnerable']!r}",
                       line=by_name["Vulnerable"].line, item=f"{label}, Vulnerable")
    declarer_text = values.get("Declarer", "").strip().upper().lstrip("^")[:1]
    declarer = SEATS.index(declarer_text) if declarer_text and declarer_text in SEATS else None
    board = FileBoard(
        board=number,
        dealer=SEATS.index(deal_dealer) if deal_dealer in SEATS else dealer(number),
        vulnerable=vul or vulnerability(number).value,
        hands=_deal(values["Deal"], label, line),
        line=line,
        declarer=declarer,
        players=tuple(  # type: ignore[arg-type]
            "" if _unknown(values.get(p, "")) else values[p] for p in PLAYERS
        ),
        title=f"Board {number}" + (f", {values['Event']}" if not _unknown(
            values.get("Event", "")) else ""),
    )
    board.contract_line = by_name["Contract"].line if "Contract" in by_name else 0
    board.declarer_line = by_name["Declarer"].line if "Declarer" in by_name else 0
    board.irregular_declarer = values.get("Declarer", "").strip().startswith("^")
    try:
        board.contract = parse_contract(values.get("Contract", ""))
    except ValueError as exc:
        raise PbnError(str(exc), line=by_name["Contract"].line,
                       item=f"{label}, Contract") from None
    if "Result" in values:
        board.result_line = by_name["Result"].line
        board.result = _result(values["Result"], declarer, label, board.result_line)
    if "Auction" in by_name:
        auction = by_name["Auction"]
        first = auction.value.strip().upper()[:1]
        if first in SEATS and SEATS.index(first) != board.dealer:
            raise PbnError("the auction starts with the dealer", line=auction.line,
                           item=f"{label}, Auction")
        _auction(auction, notes, board)
    if "Play" in by_name:
        _play_rows(by_name["Play"], board)
    for tag in game.tags:
        if tag.name not in STRUCTURAL:
            rows = _rows(tag.data)
            board.tags[tag.name] = "\n".join([tag.value, *rows])
    return board


def _rows(data: list[tuple[int, str]]) -> list[str]:
    rows: dict[int, list[str]] = {}
    for line, token in data:
        rows.setdefault(line, []).append(token)
    return [" ".join(r) for r in rows.values()]


def read_boards(text: str) -> list[FileBoard]:
    """Every board of a PBN file (games without a deal, such as headers, skipped)."""
    previous: dict[str, str] = {}
    sticky: dict[str, str] = {}
    out = []
    for index, game in enumerate(_lex(text), 1):
        board = _board(game, previous, sticky, index)
        if board is not None:
            out.append(board)
    return out


def read(text: str, game: Game[Any, Any]) -> list[GameRecord]:
    """Every board of a PBN file as a record that replays through ``game``."""
    boards = read_boards(text)
    if not boards:
        # PBN's tag names are case-sensitive; say so to a file that
        # wrote them in another case, rather than that it has no deal.
        names = {m.group(1) for m in _TAG.finditer(text)}
        other = sorted(n for n in names if n.lower() == "deal" and n != "Deal")
        hint = (f" (tag names are case-sensitive: [Deal \"...\"], not [{other[0]} ...])"
                if other else "")
        raise PbnError(f"no board with a Deal tag in the file{hint}")
    return [to_record(b, game) for b in boards]


def _quote(value: str) -> str:
    """Escape what ``_unescape`` reads back: a quote, and a backslash before a quote,
    a backslash or the end; any other backslash is written as it is."""
    return re.sub(r'\\(?=["\\]|$)', r"\\\\", value).replace('"', '\\"')


DD_STRAINS = "NSHDC"  # DoubleDummyTricks and OptimumResultTable order, per declarer
# Declarers N, S, E, W, as RealBridge's and BBO's exports and PBNCreator write them.
DD_SEATS = "NSEW"


@lru_cache(maxsize=64)
def _table(deal: str) -> Mapping[str, Mapping[str, int]]:
    # A deal is solved once however often it is written (a second or so each).
    return dd_table(deal)


def dd_tags(board: BoardOut) -> list[str]:
    """DoubleDummyTricks, OptimumScore, ParContract and OptimumResultTable."""
    table = _table(board.deal)
    digits = "".join(f"{table[st][s]:x}" for s in DD_SEATS for st in DD_STRAINS)
    result = par(table, Vulnerability(board.vulnerable), board.dealer)
    contracts = "; ".join(
        f"{'NS' if c.declarers[0] % 2 == 0 else 'EW'} {c.call}" for c in result.contracts
    )
    lines = [
        f'[DoubleDummyTricks "{digits}"]',
        f'[OptimumScore "NS {result.score}"]',
        f'[ParContract "{contracts or "Pass"}"]',
        '[OptimumResultTable "Declarer;Denomination\\2R;Result\\2R"]',
    ]
    for s in DD_SEATS:
        for st in DD_STRAINS:
            lines.append(f"{s} {'NT' if st == 'N' else st:>2} {table[st][s]:>2}")
    return lines


def _board_text(record: GameRecord, board: BoardOut) -> str:
    tags = dict(record.tags)
    # The score is the board's, computed like the double-dummy tags: a file's
    # Score that says otherwise is not written back beside the result.
    tags.pop("Score", None)
    names = list(record.players) + [""] * (4 - len(record.players))
    lines = [f'[{n} "{_quote(tags.pop(n, "?").split(chr(10))[0])}"]'
             for n in ("Event", "Site", "Date")]
    lines.append(f'[Board "{board.board}"]')
    for seat in (3, 0, 1, 2):
        lines.append(f'[{PLAYERS[seat]} "{_quote(names[seat] or "?")}"]')
    lines += [f'[Dealer "{SEATS[board.dealer]}"]', f'[Vulnerable "{board.vulnerable}"]',
              f'[Deal "{board.deal}"]']
    for name, value in tags.items():
        head, *rows = value.split("\n")
        lines.append(f'[{name} "{_quote(head)}"]')
        lines += rows
    if board.passed_out:
        lines += ['[Declarer ""]', '[Contract "Pass"]', '[Result ""]']
    elif board.contract is not None and board.declarer is not None:
        lines += [f'[Declarer "{SEATS[board.declarer]}"]', f'[Contract "{board.contract}"]',
                  f'[Result "{"" if board.tricks is None else board.tricks}"]']
    else:  # still in the auction: PBN's roster has the tags, their values not known yet
        lines += ['[Declarer ""]', '[Contract ""]', '[Result ""]']
    if board.score_ns is not None:
        lines.append(f'[Score "NS {board.score_ns}"]')
    lines += dd_tags(board)
    if board.calls or board.passed_out:
        lines.append(f'[Auction "{SEATS[board.dealer]}"]')
        notes: list[str] = []
        words = []
        for _, call, alert in board.calls:
            word = {"P": "Pass"}.get(call, call)
            if alert is not None:
                notes.append(alert)
                word += f" ={len(notes)}="
            words.append(word)
        lines += [" ".join(words[i : i + 4]) for i in range(0, len(words), 4)]
        if board.contract is None and not board.passed_out:
            lines.append("+")  # the auction goes on
        lines += [f'[Note "{i}:{_quote(text)}"]' for i, text in enumerate(notes, 1)]
    if board.contract is not None and board.declarer is not None and board.played:
        lines += _play_lines(board)
    return "\n".join(lines) + "\n"


def _play_lines(board: BoardOut) -> list[str]:
    assert board.contract is not None and board.declarer is not None
    leader = (board.declarer + 1) % 4
    strain = board.contract.rstrip("X")[1:].replace("NT", "N")
    lines = [f'[Play "{SEATS[leader]}"]']
    for trick_leader, cards in tricks_of(tuple(board.played), strain, leader):
        row = ["-"] * 4
        for i, card in enumerate(cards):
            row[((trick_leader + i) - leader) % 4] = file_card(card)
        lines.append(" ".join(row))
    lines.append("*")
    return lines


def write(records: Sequence[GameRecord], game: Game[Any, Any]) -> str:
    """A PBN 2.1 file of every board of ``records`` (replayed through ``game``)."""
    games = [_board_text(r, b) for r in records for b in boards_of(r, game)]
    return "% PBN 2.1\n% EXPORT\n\n" + "\n".join(games)

