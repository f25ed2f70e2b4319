"""PokerStars-style text hand histories (the files trackers read), in.

A file holds hands one after another, each opening with a ``PokerStars Hand
#N:`` header line (``PokerStars Zoom Hand``, ``PokerStars Game`` too).  What is
read (docs/poker.md, "PokerStars hand histories"): no-limit hold'em cash and
tournament hands — the header (stakes, currency, tournament and level), the table
line (the button's seat), the seats and their stacks (a seat marked sitting out
is dealt in when its player posts or acts), the posts (antes, blinds, dead
blinds, straddles), every betting action of the four streets, the board, the
cards dealt to the hero and shown or mucked at the showdown, uncalled bets, the
``collected`` lines and the summary's rake, and boards run twice (``*** FIRST
FLOP ***``, ``*** SECOND RIVER ***``...).  Chatter (joins, timeouts, chat) is
skipped.  Each hand becomes a one-hand table record, as a PHH hand does
(rules/poker/phh.py), replayed through the rules; then what the rules pay each
player, after the site's rake and over both runs of a board run twice, is checked
against the file's ``collected`` lines, so a hand the reader misunderstood is
refused, never stored wrong (a split's odd chips go all to the first winner, or
one each when those lines say so).  Writing reads every hand back the same way.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from engine.formats import FileFormat, GameRecord
from rules.poker.amounts import AmountError, from_chips, parse_amount, to_chips, unit_of
from rules.poker.hands import PlayedHand, ReplayError, play_record, replay_moves
from rules.poker.options import spell_cards
from rules.poker.phh_write import toml_value
from rules.poker.stars_write import StarsError, write_stars

_HEADER = re.compile(r"^PokerStars (?:Home Game )?(?:Zoom )?(?:Hand|Game) #(\d+):\s*(.*)$")
_TABLE = re.compile(r"^Table '(.*)' (\d+)-max (?:\(.*?\) )?Seat #(\d+) is the button")
_SEAT = re.compile(r"^Seat (\d+): (.+) \((\S+) in chips(?:[^)]*)\)(.*)$")
_POST = re.compile(
    r"^(.+): posts (small blind|big blind|the ante|small & big blinds|straddle) (\S+)"
    r"(?: and is all-in)?$"
)
_ACTION = re.compile(
    r"^(.+): (folds|checks|calls (\S+)|bets (\S+)|raises (\S+) to (\S+))"
    r"(?: and is all-in| and has reached the \S+ cap)?(?: \[.*\])?$"
)
_STREET = re.compile(
    r"^\*\*\* (?:(FIRST|SECOND) )?(FLOP|TURN|RIVER) \*\*\* (?:\[([^\]]*)\] )?\[([^\]]*)\]$"
)
_BOARD = re.compile(r"^Board \[([^\]]+)\]$")
_DEALT = re.compile(r"^Dealt to (.+?) \[([^\]]+)\]$")
_SHOWS = re.compile(r"^(.+): shows \[([^\]]+)\]")
_MUCKS = re.compile(r"^(.+): mucks hand")
_SUMMARY_CARDS = re.compile(r"^Seat \d+: (.+?)(?: \(.*?\))* (?:showed|mucked) \[([^\]]+)\]")
_COLLECTED = re.compile(r"^(.+) collected (\S+) from (?:main |side )?pot(?:-\d+)?$")
_RAKE = re.compile(r"\| Rake (\S+)")
_STAKES = re.compile(r"\(([^()/]+)/([^()/ ]+)(?: - (\S+) Cap -)?(?: +([A-Z]{3}))?\)")
_SYMBOLS = "$€£"


def _money(text: str) -> Decimal:
    """``$1,234.50`` / ``€2`` / ``1500`` as a Decimal (AmountError otherwise)."""
    return parse_amount(text.strip().lstrip(_SYMBOLS))


@dataclass
class _Hand:
    number: str
    line: int
    header: str
    rows: list[tuple[int, str]] = field(default_factory=list)

    def error(self, message: str, line: int | None = None) -> StarsError:
        return StarsError(message, line=line or self.line, item=f"hand #{self.number}")


def read_stars(text: str) -> list[GameRecord]:
    """Every hand of a PokerStars text file, or :class:`StarsError`."""
    hands: list[_Hand] = []
    for number, raw in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        row = raw.strip()
        head = _HEADER.match(row)
        if head:
            hands.append(_Hand(head.group(1), number, head.group(2)))
        elif hands:
            hands[-1].rows.append((number, row))
        elif row and not row.startswith("*"):  # exports put "*** # 2 ***" banners first
            raise StarsError("expected a 'PokerStars Hand #' header", line=number)
    if not hands:
        raise StarsError("no PokerStars hand in the file")
    return [_record(h) for h in hands]


@dataclass
class _Seat:
    number: int
    name: str
    stack: Decimal
    away: bool = False  # marked "is sitting out" (or "out of hand")


def _record(hand: _Hand) -> GameRecord:
    if "Hold'em No Limit" not in hand.header:
        raise hand.error("only no-limit hold'em hands are read")
    stakes = _STAKES.findall(hand.header)
    if not stakes:
        raise hand.error("no stakes (small/big blind) in the header")
    sb_text, bb_text, cap_text, currency = stakes[-1]
    # The blinds' money, not the header's: a tournament's buy-in is in dollars,
    # its chips are not.
    symbol = bb_text.strip()[:1] if bb_text.strip()[:1] in tuple(_SYMBOLS) else ""
    try:
        big = _money(bb_text)
        _money(sb_text)
        cap = _money(cap_text) if cap_text else None  # cap no-limit ("$80 Cap")
    except AmountError as exc:
        raise hand.error(str(exc)) from None
    button = None
    table = ""
    seat_count = 0
    seats: list[_Seat] = []
    body: list[tuple[int, str]] = []
    for number, row in hand.rows:
        if button is None and (m := _TABLE.match(row)):
            table, seat_count, button = m.group(1), int(m.group(2)), int(m.group(3))
        elif not body and (m := _SEAT.match(row)):
            away = "sitting out" in m.group(4) or "out of hand" in m.group(4)
            try:
                seats.append(_Seat(int(m.group(1)), m.group(2), _money(m.group(3)), away))
            except AmountError as exc:
                raise hand.error(str(exc), number) from None
        elif seats:
            body.append((number, row))
    if button is None:
        raise hand.error("no table line naming the button's seat")
    # A seat whose player neither posts nor acts was not dealt in (waiting for the
    # big blind, say): every player dealt in posts or acts before a hand can end.
    # A seat marked "is sitting out" is judged the same way: a tournament player
    # sitting out is still dealt in, posts the ante and is folded by the site.
    involved = {m.group(1) for _, row in body if (m := _POST.match(row) or _ACTION.match(row))}
    if involved:
        seats = [s for s in seats if s.name in involved]
    else:  # a history cut before the posts: the seats marked away are not dealt in
        seats = [s for s in seats if not s.away]
    if not 2 <= len(seats) <= 10:
        raise hand.error("2 to 10 players must be dealt in")
    # Players from the first seat left of the button, the button (or the seat
    # before an empty button) last: the order of PHH and the table.
    seats.sort(key=lambda s: (s.number <= button, s.number))
    names = [s.name for s in seats]
    if len(set(names)) != len(names):
        raise hand.error("two seats with the same player")
    return _build(hand, seats, body, big, cap, (currency, symbol), table, seat_count)


def _build(
    hand: _Hand,
    seats: list[_Seat],
    body: list[tuple[int, str]],
    big: Decimal,
    cap: Decimal | None,
    money: tuple[str, str],
    table: str,
    seat_count: int,
) -> GameRecord:
    n = len(seats)
    index = {s.name: i for i, s in enumerate(seats)}
    antes = [Decimal(0)] * n
    blinds = [Decimal(0)] * n
    dead = False
    # (line, player, f / k / c / b / r / db, the amount (called, bet to, (by, to)
    # raised); for db the number of cards)
    moves: list[tuple[int, int | None, str, Any]] = []
    holes = [""] * n
    mucked: set[int] = set()
    dealt_to: list[str] = []  # "Dealt to" lines: the hero's, on the site
    board = ""
    second = ""  # a board run twice: the second run's own cards
    collected = [Decimal(0)] * n
    rake = Decimal(0)
    amounts: list[Decimal] = [big, *(s.stack for s in seats), *([cap] if cap else [])]

    def who(name: str, line: int) -> int:
        if name not in index:
            raise hand.error(f"{name!r} is not dealt in", line)
        return index[name]

    owners: dict[int, int | None] = {}  # face -> player holding it (None: the board)

    def cards(text: str, line: int, owner: int | None) -> str:
        spelled = text.replace(" ", "")
        if owner is not None and "?" in spelled:
            return ""  # hole cards not (all) known: unknown, as PHH's ``????``
        try:
            faces = spell_cards(spelled)
        except ValueError as exc:
            raise hand.error(str(exc), line) from None
        for face in faces:
            if owners.setdefault(face, owner) != owner:
                raise hand.error(f"a card is dealt twice: {text}", line)
        return spelled

    def hole(p: int, text: str, line: int) -> None:
        """Player ``p``'s cards as the file shows them, which must be the ones it was
        dealt (or showed) earlier in the hand, if any."""
        spelled = cards(text, line, p)
        if holes[p] and spelled and set(spell_cards(spelled)) != set(spell_cards(holes[p])):
            raise hand.error(f"{seats[p].name} shows [{text}], not the cards seen before "
                             f"({_spaced(holes[p])})", line)
        if spelled:
            holes[p] = spelled

    def same(text: str, dealt: str, line: int, what: str) -> None:
        try:
            given = spell_cards(text.replace(" ", ""))
        except ValueError as exc:
            raise hand.error(str(exc), line) from None
        if given != spell_cards(dealt):
            raise hand.error(f"[{text}] is not {what} ([{_spaced(dealt)}])", line)

    for line, row in body:
        try:
            if m := _POST.match(row):
                p, kind, value = who(m.group(1), line), m.group(2), _money(m.group(3))
                amounts.append(value)
                if kind == "the ante":
                    antes[p] += value
                elif kind == "small & big blinds":  # the small blind part is dead money
                    live = min(value, big)
                    blinds[p] += live
                    antes[p] += value - live
                    dead = True
                else:
                    blinds[p] += value
            elif m := _ACTION.match(row):
                p = who(m.group(1), line)
                word = m.group(2).split()[0]
                # Each move of the kind the file says: a check facing a bet, or a
                # raise whose increment does not add up, is refused, not mended.
                if word == "folds":
                    moves.append((line, p, "f", None))
                elif word == "checks":
                    moves.append((line, p, "k", None))
                elif word == "calls":
                    value = _money(m.group(3))
                    amounts.append(value)
                    moves.append((line, p, "c", value))
                elif word == "bets":
                    value = _money(m.group(4))
                    amounts.append(value)
                    moves.append((line, p, "b", value))
                else:
                    by, value = _money(m.group(5)), _money(m.group(6))
                    amounts += [by, value]
                    moves.append((line, p, "r", (by, value)))
            elif m := _STREET.match(row):
                if m.group(1) is None and m.group(3) is not None:
                    same(m.group(3), board, line, "the board so far")
                new = cards(m.group(4), line, None)
                if m.group(1) == "SECOND":  # dealt by the rules (option run_twice)
                    second += new
                else:
                    board += new
                    moves.append((line, None, "db", len(new) // 2))
            elif (m := _DEALT.match(row)) or (m := _SHOWS.match(row)):
                p = who(m.group(1), line)
                hole(p, m.group(2), line)
                if row.startswith("Dealt to "):
                    dealt_to.append(seats[p].name)
            elif m := _BOARD.match(row):
                same(m.group(1), board, line, "the board dealt")
            elif m := _MUCKS.match(row):
                mucked.add(who(m.group(1), line))
            elif m := _COLLECTED.match(row):
                value = _money(m.group(2))
                amounts.append(value)
                collected[who(m.group(1), line)] += value
            elif m := _RAKE.search(row):
                rake = _money(m.group(1))
                amounts.append(rake)
            elif (m := _SUMMARY_CARDS.match(row)) and m.group(1) in index:
                p = index[m.group(1)]
                kept = holes[p]
                hole(p, m.group(2), line)
                if "mucked" in row:  # checked against the rest, but not kept
                    holes[p] = kept
        except AmountError as exc:
            raise hand.error(str(exc), line) from None
    for p in mucked:
        holes[p] = ""  # a hand mucked at the showdown is not kept (the table never shows one)
    try:
        decimals = unit_of(amounts)
        for value in amounts:
            to_chips(value, decimals)  # every amount is whole in the unit, so c() is safe
    except AmountError as exc:
        raise hand.error(str(exc)) from None

    def c(value: Decimal) -> int:
        return to_chips(value, decimals)

    if n == 2:  # PHH lists heads-up posts small blind (the button) first
        antes.reverse()
        blinds.reverse()
    options: dict[str, Any] = {
        "seats": n,
        "hands": 1,
        "small_blind": min(c(blinds[0]), c(big)),
        "big_blind": max(c(big), 1),
        "antes": [c(a) for a in antes],
        "blinds_or_straddles": [c(b) for b in blinds],
        "min_bet": max(c(big), 1),
        # Antes from everyone count toward the pots' levels; a lone (big-blind)
        # ante or a dead small blind is dead money in the main pot.
        "ante_trimming": not dead and sum(1 for a in antes if a) != 1,
        "starting_stack": max(c(s.stack) for s in seats),
        "stacks": [c(s.stack) for s in seats],
        "rebuys": False,
        "button": n - 1,
        "holes": holes,
        "board": board,
        "decimals": decimals,
        "muck_losers": False,
        "odd_chip": "first_winner",
    }
    if cap is not None:
        options["cap"] = c(cap)
    if rake:  # the rake the site took, from the main pot first (rules/poker/rake.py)
        options["hand_rake"] = c(rake)
    if second:
        options["run_twice"] = True
        options["board2"] = second
    tags = _tags(hand, seats, money, table, seat_count, decimals)
    if dealt_to:
        tags["_dealt_to"] = toml_value(dealt_to)
    draft = GameRecord("poker", options, 0, (), tuple(s.name for s in seats), "", tags)
    try:
        betting = [
            (i, p, w, c(v) if isinstance(v, Decimal)
             else (c(v[0]), c(v[1])) if isinstance(v, tuple) else v)
            for i, p, w, v in moves
        ]
        log = replay_moves(draft, betting, name=lambda p: seats[p].name,
                           money=lambda chips: money[1] + from_chips(chips, decimals))
    except ReplayError as exc:
        raise hand.error(exc.message, exc.index) from None
    record = GameRecord(
        "poker", options, 0, tuple(log), draft.players, f"Hand #{hand.number}", tags
    )
    record = _unknown_winners(record, [c(v) for v in collected])
    record = _odd_chips(record, [c(v) for v in collected])
    _check_collected(hand, record, [c(v) for v in collected])
    return record


def _spaced(spelled: str) -> str:
    """Cards spelled together (``AsKd``) as the site writes them (``As Kd``)."""
    return " ".join(spelled[i:i + 2] for i in range(0, len(spelled), 2))


def _unknown_winners(record: GameRecord, collected: list[int]) -> GameRecord:
    """The record with ``showdown_winners``: the players whose cards the file never
    shows but who collected at the showdown (the rules let no unknown hand win)."""
    try:
        played = play_record(record)
    except ReplayError:
        return record  # _check_collected says why
    hand = played.hand
    winners = [s for s in hand.live if not hand.holes[s] and collected[s] > 0]
    if len(hand.live) < 2 or not winners:
        return record
    return replace(record, options={**record.options, "showdown_winners": winners})


def _odd_chips(record: GameRecord, collected: list[int]) -> GameRecord:
    """The record with ``odd_chip`` ``one_each`` when a split's odd chips went one
    each from the left of the button, as the ``collected`` lines show (card rooms
    do; the reader's default is pokerkit's, all to the first winner)."""
    if _pays(record, collected) is not False:
        return record
    other = replace(record, options={**record.options, "odd_chip": "one_each"})
    return other if _pays(other, collected) else record


def _paid(played: PlayedHand, players: int) -> list[int]:
    """What the rules paid each player, over every pot and run."""
    won = [0] * players
    for award in played.hand.awards:
        for seat, chips in award.shares:
            won[seat] += chips
    return won


def _pays(record: GameRecord, collected: list[int]) -> bool | None:
    """Whether the rules pay what the file says each player collected (None: the
    file says nothing, or the rules refuse the record: _check_collected says why)."""
    if not any(collected):
        return None
    try:
        played = play_record(record)
    except ReplayError:
        return None
    return _paid(played, len(collected)) == collected


def _tags(
    hand: _Hand,
    seats: Sequence[_Seat],
    money: tuple[str, str],
    table: str,
    seat_count: int,
    decimals: int,
) -> dict[str, str]:
    """What the file says that the table has no place for, under PHH's field names
    where PHH has one (so a PHH export writes them)."""
    tags = {
        "hand": toml_value(int(hand.number)),
        "table": toml_value(table),
        "seats": toml_value([s.number for s in seats]),
        "seat_count": toml_value(seat_count),
        "_site": toml_value("PokerStars"),
        "_header": toml_value(hand.header),
    }
    currency, symbol = money  # e.g. ("USD", "$"); either may be ""
    if currency:
        tags["currency"] = toml_value(currency)
    if symbol:
        tags["currency_symbol"] = toml_value(symbol)
    tournament = re.search(r"Tournament #(\d+)", hand.header)
    if tournament:
        tags["event"] = toml_value(f"Tournament #{tournament.group(1)}")
    return tags


def _check_collected(hand: _Hand, record: GameRecord, collected: list[int]) -> None:
    """What the rules pay each player (after the rake, over both runs of a board run
    twice) must be what the file says they collected."""
    try:
        played = play_record(record)
    except ReplayError as exc:
        raise hand.error(exc.message) from None
    won = _paid(played, len(collected))
    if not any(collected):
        return  # a file cut before the collected lines: the replay is the record
    if won != collected:
        decimals = int(record.options["decimals"])

        differ = [i for i, (a, b) in enumerate(zip(won, collected, strict=True)) if a != b]

        def listed(chips: list[int]) -> str:  # the players the two disagree on
            return ", ".join(f"{record.players[i]} {from_chips(chips[i], decimals)}"
                             for i in differ)

        raise hand.error(f"the rules pay {listed(won)} but the file says {listed(collected)} "
                         "collected")


STARS = FileFormat(
    name="pokerstars",
    title="PokerStars hand history (text)",
    suffixes=(".txt",),
    read=read_stars,
    write=lambda records: _write(records),
)


def _write(records: Sequence[GameRecord]) -> str:
    # Every hand written is read back, and a text that would not replay to the same
    # stacks is refused rather than written.  PokerStars text does not name the
    # table's options: the reader infers them from the posts (whether antes count
    # toward the pots, how odd chips went), so some hands read otherwise (a
    # big-blind ante that comes back unmatched under ante trimming, dead money in
    # the site's rules).  Reading back costs about three times the writing (some
    # milliseconds a hand), and exports run off the event loop: a slower export is
    # better than a file that says something else happened.
    return write_stars(records, check=_read_back)


def _read_back(played: PlayedHand, text: str) -> None:
    """Refuse ``text`` unless it reads back to ``played``'s stacks."""
    try:
        (record,) = read_stars(text)
        again = play_record(record)
    except (StarsError, ReplayError) as exc:
        raise _unwritable(played, str(exc)) from None
    # Both in the hand's order of play: the text numbers no seat as the table did.
    mine = [(played.hand.starting[s], played.final_stacks[s]) for s in played.hand.players]
    theirs = [(again.hand.starting[s], again.final_stacks[s]) for s in again.hand.players]
    if mine != theirs:
        raise _unwritable(played, "the stacks differ")


def _unwritable(played: PlayedHand, detail: str) -> StarsError:
    """Why a hand cannot be written as PokerStars text: the reason where it is one
    we know, and what reading it back gave."""
    config = played.config
    antes, _ = config.posts(len(played.hand.players))
    reason = ""
    if any(antes) and config.ante_trimming != (sum(1 for a in antes if a) != 1):
        reason = (
            ": an ante posted by one player is dead money in PokerStars text, but this "
            "hand's counts toward the pots and comes back when nobody matches it (ante "
            "trimming, PHH's ante_trimming_status = true)" if config.ante_trimming else
            ": antes posted by every player count toward the pots in PokerStars text as "
            "read here, but this hand's are dead money (ante_trimming_status = false)"
        )
    return StarsError(
        f"PokerStars text cannot hold hand {played.tags.get('hand') or played.hand.number} "
        f"as played{reason}; "
        f"read back, it would not be the same ({detail}): export it as PHH"
    )
