"""PHH, the Poker Hand History format (TOML; pokerkit reads and writes it), in and out.

A ``.phh`` file is one hand; a ``.phhs`` file is many, each under a ``[N]``
section.  Players are numbered ``p1 .. pN`` from the first seat left of the button,
the button last (heads-up: p1 is the big blind).  Actions: ``d dh pK CARDS`` (hole
cards; ``????`` when unknown), ``d db CARDS`` (board), ``pK f`` (fold), ``pK cc``
(check or call), ``pK cbr N`` (bet or raise to a total of N this round), ``pK sm
CARDS`` (show) and ``pK sm`` (muck); ``#`` starts a comment.

Reading (docs/poker.md, "PHH"): every no-limit hold'em (``NT``) field is taken —
per-position ``antes`` and ``blinds_or_straddles`` (big-blind antes, straddles),
``min_bet``, ``ante_trimming_status``, ``starting_stacks`` — amounts exactly in the
hand's own unit (rules/poker/amounts.py), and each hand becomes a one-hand table
whose options fix the stacks, posts and cards, plus the action log that replays
it; the replay through the rules is the check, so an illegal history is refused.
Every other field (``event``, ``players``, ``currency``, user fields ``_x``...) is
kept as a tag and written back.

Writing never reveals a card nobody saw: hole cards are written when the file they
came from named them (the ``holes`` option) or they were shown at the showdown;
other hole cards are ``????``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from engine.events import OMNISCIENT
from engine.formats import FileFormat, FormatError, GameRecord
from engine.presentation import plural
from rules.poker.amounts import (
    AmountError,
    check_amount,
    from_chips,
    parse_amount,
    shown,
    to_chips,
    unit_of,
)
from rules.poker.hands import PlayedHand, ReplayError, play_record, played_hands
from rules.poker.options import PokerConfig, card_spelling, spell_cards
from rules.poker.phh_rake import (
    file_stacks,
    finishing_chips,
    rake_options,
    stacks_from_winnings,
    unknown_winners,
)
from rules.poker.phh_write import hand_lines, toml_value, write_phh
from rules.poker.state import HandState

VARIANT = "NT"  # no-limit Texas hold'em
# Fields the table takes over; every other field of a hand is kept as a tag.
_TAKEN = frozenset(
    {
        "variant",
        "antes",
        "blinds_or_straddles",
        "min_bet",
        "ante_trimming_status",
        "starting_stacks",
        "actions",
        "_board2",  # a board run twice: an option of the hand, written back from it
        "_cap",  # cap no-limit's cap: likewise
        "_pot_rakes",  # a table's percentage rake, pot by pot: likewise
        "_odd_chip",  # how a table split odd chips, where it mattered: likewise
    }
)


class PhhError(FormatError):
    """A PHH file we cannot read, or whose history breaks the rules."""

    code = "bad_phh"


@dataclass(frozen=True)
class PhhHand:
    """A hand read from PHH and replayed by the table's rules."""

    config: PokerConfig
    starting_stacks: tuple[int, ...]  # p1 .. pN (our seats 0 .. N-1; the button last)
    hand: HandState
    final_stacks: tuple[int, ...]


def read_phh(text: str) -> list[GameRecord]:
    """Every hand of a ``.phh`` or ``.phhs`` file, or :class:`PhhError`."""
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"not TOML: {exc}", line=_toml_line(str(exc), text)) from None
    if "variant" in data or not data:
        return [_record(data, _Where(text, "", 0))]
    records = []
    for key, section in data.items():
        where = _Where(text, key, _section_line(text, key))
        if not isinstance(section, dict):
            raise PhhError("a .phhs file holds only [N] hand sections", line=where.line,
                           item=where.title)
        records.append(_record(section, where))
    return records


def from_phh(text: str) -> PhhHand:
    """Read a one-hand PHH text and play it through the table's rules."""
    records = read_phh(text)
    if len(records) != 1:
        raise PhhError(f"expected one hand, found {len(records)}")
    played = _replay(records[0], _Where(text, "", 0))
    hand = played.hand
    return PhhHand(played.config, hand.starting, hand, played.final_stacks)


def to_phh(hand: HandState, config: PokerConfig, viewer: int = OMNISCIENT) -> str:
    """The PHH text of a finished hand as ``viewer`` may know it."""
    return "\n".join(hand_lines(PlayedHand(config, hand, ()), viewer=viewer)) + "\n"


class _Where:
    """Where in the file a hand is, for error messages."""

    def __init__(self, text: str, key: str, line: int) -> None:
        self.text = text
        self.key = key
        self.line = line or None
        self.title = f"hand [{key}]" if key else ""

    def error(self, message: str, field: str = "", line: int | None = None) -> PhhError:
        item = " ".join(p for p in (self.title, field) if p)
        return PhhError(message, line=line or self._field_line(field) or self.line, item=item)

    def _field_line(self, field: str) -> int | None:
        start = self.text.find("\n", _offset(self.text, self.line)) if self.line else 0
        for number, row in enumerate(self.text[start:].split("\n")):
            head = row.split("=")[0].strip()
            if field and head == field:
                return _line_at(self.text, start) + number
            if self.key and row.strip().startswith("[") and number:
                break
        return None

    def action_line(self, index: int, actions: Sequence[str]) -> int | None:
        """The line of the ``index``-th action (found by its text, in order)."""
        pos = _offset(self.text, self.line) if self.line else 0
        for i, action in enumerate(actions[: index + 1]):
            found = self.text.find(action, pos)
            if found < 0:
                return None
            pos = found + len(action)
            if i == index:
                return _line_at(self.text, found)
        return None


def _toml_line(message: str, text: str) -> int | None:
    """The line a TOML error names ("... (at line 3, column 7)")."""
    found = re.search(r"at line (\d+)", message)
    if found:
        return int(found.group(1))
    return text.rstrip("\n").count("\n") + 1 if "end of document" in message else None


def _offset(text: str, line: int | None) -> int:
    pos = 0
    for _ in range((line or 1) - 1):
        pos = text.find("\n", pos) + 1
    return pos


def _line_at(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _section_line(text: str, key: str) -> int:
    for number, row in enumerate(text.split("\n"), 1):
        inner = row.strip()
        if inner.startswith("[") and inner.rstrip("]").lstrip("[").strip().strip("'\"") == key:
            return number
    return 0


def _record(data: Mapping[str, Any], where: _Where) -> GameRecord:
    variant = data.get("variant")
    if variant != VARIANT:
        raise where.error(
            "only variant 'NT' (no-limit hold'em) is read, not "
            + ("a hand without one" if variant is None else shown(variant)), "variant"
        )
    for name in ("starting_stacks", "actions"):
        if name not in data:
            raise where.error("required field missing", name)
    # ``inf``: a stack the history does not know (the PHH standard's notation; every
    # iPoker hand of the HandHQ data).  The table counts with a stack that covers
    # every bet of the hand, and marks the chair (``unknown_stacks``) so neither it
    # nor the stack after the hand is shown or written as real.
    given = data["starting_stacks"]
    unknown = [i for i, v in enumerate(given) if _infinite(v)] if isinstance(given, list) else []
    if unknown:
        given = [Decimal(0) if i in unknown else v for i, v in enumerate(given)]
    stacks = _amounts(given, "starting_stacks", where)
    n = len(stacks)
    if not 2 <= n <= 10:
        raise where.error("2 to 10 players", "starting_stacks")
    antes = _amounts(data.get("antes", 0), "antes", where, n)
    # A negative entry is a new player's post (pokerkit's notation): its size, kept
    # negative in the option so it never moves the first to act.
    blinds = _amounts(data.get("blinds_or_straddles", [0, 0]), "blinds_or_straddles", where, n,
                      signed=True)
    sizes = [abs(b) for b in blinds]
    min_bet = _amounts(data.get("min_bet", max([*sizes[:2], Decimal(0)])), "min_bet", where, 1)
    trimming = data.get("ante_trimming_status", False)
    if not isinstance(trimming, bool):
        raise where.error("true or false", "ante_trimming_status")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise where.error("a list of strings", "actions")
    parsed = [_parse_action(a, i, n, where, actions) for i, a in enumerate(actions)]
    raises = [p.amount for p in parsed if p.amount is not None]
    try:
        decimals = unit_of([*stacks, *antes, *blinds, *min_bet, *raises])
    except AmountError as exc:
        raise where.error(str(exc), "actions") from None

    def chips(values: Sequence[Decimal], field: str) -> list[int]:
        try:
            return [to_chips(v, decimals) for v in values]
        except AmountError as exc:
            raise where.error(str(exc), field) from None

    stack_chips = chips(stacks, "starting_stacks")
    if any(s <= 0 for i, s in enumerate(stack_chips) if i not in unknown):
        raise where.error("every starting stack must be positive", "starting_stacks")
    if unknown:  # more than any player can put in: every post and every bet, and one
        cover = 1 + sum(chips([*antes, *sizes, *raises], "actions"))
        stack_chips = [cover if i in unknown else s for i, s in enumerate(stack_chips)]
    blind_chips = chips(blinds, "blinds_or_straddles")
    blind_sizes = [abs(b) for b in blind_chips]
    bet = chips(min_bet, "min_bet")[0] or max(blind_sizes) or 1
    holes, board = _cards(parsed, n, where, actions)
    big = max(blind_sizes[:2]) or bet
    options: dict[str, Any] = {
        "seats": n,
        "hands": 1,
        "small_blind": min(blind_sizes[0], big),
        "big_blind": big,
        "antes": chips(antes, "antes"),
        "blinds_or_straddles": blind_chips,
        "min_bet": bet,
        "ante_trimming": trimming,
        "starting_stack": max(stack_chips),  # (the cover when every stack is unknown)
        "stacks": stack_chips,
        "rebuys": False,
        "button": n - 1,
        "holes": holes,
        "board": board,
        "decimals": decimals,
        # Every known hand shows, as a history's showdown does; odd chips go to the
        # first winner left of the button, as pokerkit splits (docs/decisions.md).
        "muck_losers": False,
        "odd_chip": "first_winner",
    }
    if unknown:
        options["unknown_stacks"] = unknown
    tags = {k: toml_value(v) for k, v in data.items() if k not in _TAKEN}
    names = data.get("players")
    players = (
        tuple(names)
        if isinstance(names, list) and len(names) == n and all(isinstance(x, str) for x in names)
        else ()
    )
    # A list per player that names another number of players is the file's slip:
    # its names (or seats) would go to the wrong players, or to none.
    for field in ("players", "seats"):
        listed = data.get(field)
        if isinstance(listed, list) and len(listed) != n:
            raise where.error(f"{plural(len(listed), 'entry', 'entries')} for {n} players "
                              "(starting_stacks)", field)
    if "_cap" in data:  # PHH has no cap no-limit: our user field
        options["cap"] = chips(_amounts(data["_cap"], "_cap", where, 1), "_cap")[0]
    options.update(_user_options(data, where, chips))
    second = data.get("_board2")
    if second is not None:  # PHH has no notation for a second run: our user field
        if not isinstance(second, str):
            raise where.error("the second run's cards as a string", "_board2")
        options.update(run_twice=True, board2=second)
    draft = GameRecord("poker", options, 0, (), players, where.key, tags)
    moves = _moves(draft, parsed, where, actions)
    record = GameRecord("poker", options, 0, tuple(moves), players, where.key, tags)
    if not _finished(record, where):
        return record  # a partial history (the standard allows one): stored unfinished
    played = _replay(record, where)
    finishing = file_stacks(tags.get("finishing_stacks"), decimals)
    if finishing is None:
        finishing = stacks_from_winnings(played, file_stacks(tags.get("winnings"), decimals))
    record, played = _explained(record, played, finishing, where)
    _check_finishing(record, played, tags.get("finishing_stacks"), where)
    return replace(record, tags=_settled(tags, played, decimals))


def _user_options(
    data: Mapping[str, Any], where: _Where, chips: Callable[[Sequence[Decimal], str], list[int]]
) -> dict[str, Any]:
    """The options our own user fields ``_pot_rakes`` and ``_odd_chip`` keep (what a
    table played here did that PHH has no field for)."""
    out: dict[str, Any] = {}
    if "_pot_rakes" in data:
        out["pot_rakes"] = chips(_amounts(data["_pot_rakes"], "_pot_rakes", where), "_pot_rakes")
    if "_odd_chip" in data:
        if data["_odd_chip"] not in ("one_each", "first_winner"):
            raise where.error("'one_each' or 'first_winner'", "_odd_chip")
        out["odd_chip"] = data["_odd_chip"]
    return out


def _explained(
    record: GameRecord, played: PlayedHand, finishing: list[int] | None, where: _Where
) -> tuple[GameRecord, PlayedHand]:
    """The record with the options that make its replay end at the file's stacks:
    a rake (phh_rake.py), and winners at the showdown whose cards the file never
    shows (``showdown_winners``); unchanged when none do."""
    tries = [record]
    winners = unknown_winners(played, finishing)
    if winners:
        tries.append(replace(record, options={**record.options, "showdown_winners": winners}))
    for base in tries:
        first = played if base is record else _replay(base, where)
        if [first.final_stacks[s] for s in first.hand.players] == finishing:
            return base, first
        for rake in rake_options(first, finishing):
            raked = replace(base, options={**base.options, **rake})
            again = _replay(raked, where)
            if [again.final_stacks[s] for s in again.hand.players] == finishing:
                return raked, again
    return record, played


def _check_finishing(
    record: GameRecord, played: PlayedHand, said: str | None, where: _Where
) -> None:
    """The file's ``finishing_stacks`` must be the replay's stacks (after the rake
    they show, found by :func:`_explained`): a hand whose figures the rules do not
    give is refused, never stored to pay otherwise, as the PokerStars reader
    refuses ``collected`` lines the rules do not pay."""
    if said is None:
        return
    decimals = played.config.decimals
    order = played.hand.players
    theirs = finishing_chips(said, decimals)
    if theirs is None or len(theirs) != len(order):
        raise where.error(f"not the stacks of {len(order)} players in the hand's unit "
                          f"({from_chips(1, decimals)})", "finishing_stacks")
    unknown = set(played.config.unknown_stacks or ())
    wrong = [(i, played.final_stacks[s], v) for i, (s, v) in enumerate(zip(order, theirs,
                                                                           strict=True))
             if s not in unknown and v is not None and v != played.final_stacks[s]]
    if not wrong:
        return
    names = record.players or ("",) * len(order)
    said_text = "; ".join(
        f"p{i + 1}{f' ({names[i]})' if names[i] else ''} {from_chips(ours, decimals)} but "
        f"the file says {from_chips(v, decimals)}" for i, ours, v in wrong
    )
    raise where.error(f"the rules leave {said_text}{_trimming_hint(record, theirs)}",
                      "finishing_stacks")


def _trimming_hint(record: GameRecord, theirs: list[int | None]) -> str:
    """A note when the file's stacks are those of the other ``ante_trimming_status``
    (published files that keep a big-blind ante as dead money yet say ``true``)."""
    if not any(record.options["antes"]):
        return ""
    flipped = not record.options["ante_trimming"]
    try:
        other = play_record(replace(record, options={**record.options, "ante_trimming": flipped}))
    except ReplayError:
        return ""
    if all(v is None or v == other.final_stacks[s]
           for s, v in zip(other.hand.players, theirs, strict=True)):
        return (" (they are the stacks with ante_trimming_status = "
                f"{toml_value(flipped)})")
    return ""


def _settled(tags: dict[str, str], played: PlayedHand, decimals: int) -> dict[str, str]:
    """Without ``finishing_stacks`` when the replay gives the same (the writer writes
    them from the replay); with the file's text when it names a stack the hand
    does not know (``inf`` at the start) that the replay cannot check."""
    said = tags.get("finishing_stacks")
    if said is None:
        return tags
    unknown = set(played.config.unknown_stacks or ())
    ours = [None if s in unknown else played.final_stacks[s] for s in played.hand.players]
    same = finishing_chips(said, decimals) == ours
    return {k: v for k, v in tags.items() if not (same and k == "finishing_stacks")}


def _amounts(
    value: object, field: str, where: _Where, n: int = 0, signed: bool = False
) -> list[Decimal]:
    """A number or a list of numbers, as ``n`` Decimals (lists padded with 0);
    ``signed``: a negative number is read too (and stays negative)."""
    items = value if isinstance(value, list) else [value] * max(n, 1)
    try:
        out = [_signed(v) if signed else check_amount(v) for v in items]
    except AmountError as exc:
        raise where.error(str(exc), field) from None
    if n:
        if len(out) > 10:
            raise where.error("more entries than players", field)
        out = [*out[:n], *[Decimal(0)] * (n - len(out))]
    if not out:
        raise where.error("no values", field)
    return out


def _infinite(value: object) -> bool:
    """PHH's ``inf`` (read as a Decimal, or a float by another TOML reader)."""
    return isinstance(value, Decimal | float) and value == Decimal("Infinity")


def _signed(value: object) -> Decimal:
    """A blind or a new player's post (negative): an amount either way."""
    if isinstance(value, int | Decimal) and not isinstance(value, bool) and value < 0:
        return -check_amount(-value)
    return check_amount(value)


@dataclass(frozen=True)
class _Action:
    index: int
    who: int | None  # the player acting, or dealt to (``dh``); None: the board
    word: str
    cards: str = ""
    amount: Decimal | None = None


def _parse_action(
    raw: str, index: int, n: int, where: _Where, actions: Sequence[str]
) -> _Action:
    words = raw.split("#")[0].split()

    def bad(message: str) -> PhhError:
        return where.error(message, f"action {index + 1}", where.action_line(index, actions))

    def player(word: str) -> int:
        if not word.startswith("p") or not word[1:].isdigit() or not 1 <= int(word[1:]) <= n:
            raise bad(f"bad player {word!r} in {raw!r}")
        return int(word[1:]) - 1

    match words:
        case ["d", "dh", who, cards]:
            return _Action(index, player(who), "dh", cards)
        case ["d", "db", cards]:
            return _Action(index, None, "db", cards)
        case [who, "f"]:
            return _Action(index, player(who), "f")
        case [who, "cc"]:
            return _Action(index, player(who), "cc")
        case [who, "cbr", amount]:
            try:
                value = parse_amount(amount)
            except AmountError as exc:
                raise bad(str(exc)) from None
            return _Action(index, player(who), "cbr", amount=value)
        case [who, "sm", cards]:
            return _Action(index, player(who), "sm", "" if cards == "-" else cards)
        case [who, "sm"]:
            return _Action(index, player(who), "sm")
        case []:
            return _Action(index, None, "")
        case _:
            raise bad(f"unsupported action {raw!r}")


def _cards(
    parsed: Sequence[_Action], n: int, where: _Where, actions: Sequence[str]
) -> tuple[list[str], str]:
    """Hole cards per player and the board, as the ``holes``/``board`` options."""
    holes = [""] * n
    board = ""
    for a in parsed:
        if a.word not in ("dh", "db", "sm") or not a.cards or "?" in a.cards:
            if a.word == "sm" and a.who is not None and not a.cards:
                holes[a.who] = ""  # a mucked hand is not kept (the table never shows one)
            continue
        try:
            count = len(spell_cards(a.cards))
        except ValueError as exc:
            raise where.error(str(exc), f"action {a.index + 1}",
                              where.action_line(a.index, actions)) from None
        if a.word == "db":
            board += a.cards
        elif count != 2:
            raise where.error(f"two hole cards, not {a.cards!r}", f"action {a.index + 1}",
                              where.action_line(a.index, actions))
        else:
            who = a.who
            assert who is not None
            dealt = spell_cards(holes[who])
            if a.word == "sm" and dealt and set(dealt) != set(spell_cards(a.cards)):
                raise where.error(f"p{who + 1} shows {a.cards}, not the cards dealt",
                                  f"action {a.index + 1}", where.action_line(a.index, actions))
            holes[who] = a.cards
    spelled = [spell_cards(h) for h in holes] + [spell_cards(board)]
    faces = [c for cards in spelled for c in cards]
    if len(set(faces)) != len(faces):
        twice = sorted({card_spelling(c) for c in faces if faces.count(c) > 1})
        raise where.error(f"a card is dealt twice: {' '.join(twice)}", "actions")
    if len(spelled[-1]) > 5:
        raise where.error("more than five board cards", "actions")
    return holes, board


def _moves(
    draft: GameRecord, parsed: Sequence[_Action], where: _Where, actions: Sequence[str]
) -> list[tuple[int, dict[str, Any]]]:
    """The betting actions as the table's (seat, action) log, checked move by move."""
    from rules.poker.hands import replay_moves  # the table's rules, one move at a time

    decimals = int(draft.options["decimals"])
    betting = []
    for a in parsed:
        if a.word in ("f", "cc", "cbr"):
            chips = None if a.amount is None else to_chips(a.amount, decimals)
            betting.append((a.index, a.who, a.word, chips))
        elif a.word == "db":  # cards checked by _cards; unknown ones (``??``) count too
            betting.append((a.index, None, "db", len(a.cards) // 2))
    try:
        return replay_moves(draft, betting, partial=True)
    except ReplayError as exc:
        line = where.action_line(exc.index, actions) if exc.index is not None else None
        label = f"action {exc.index + 1}" if exc.index is not None else "actions"
        raise where.error(exc.message, label, line) from None


def _finished(record: GameRecord, where: _Where) -> bool:
    try:
        return bool(played_hands(record))
    except ReplayError as exc:
        raise where.error(exc.message, "actions") from None


def _replay(record: GameRecord, where: _Where) -> PlayedHand:
    try:
        return play_record(record)
    except ReplayError as exc:
        raise where.error(exc.message, "actions") from None


def _write(records: Sequence[GameRecord]) -> str:
    try:
        # A partial history (a record that stops mid-hand) is written as far as it goes.
        per_record = [(r, played_hands(r, unfinished=True)) for r in records]
        hands = [hand for _, played in per_record for hand in played]
        # A record of one hand keeps its section's name (its title) where it has one.
        keys = [r.title if len(played) == 1 else "" for r, played in per_record for _ in played]
        text = write_phh(hands, keys)
    except ReplayError as exc:
        raise PhhError(exc.message) from None
    # Read back before it is handed out: the reader replays every hand and checks
    # its finishing_stacks (written from our replay), so a text that would replay
    # otherwise is refused, never written.  PHH, with our user fields, names every
    # option a hand was played under, so this only catches our own mistakes; it
    # costs about three times the writing, off the event loop.
    try:
        read_phh(text)
    except PhhError as exc:
        raise PhhError(f"written as PHH, a hand would not read back the same ({exc})") from None
    return text


PHH = FileFormat(
    name="phh",
    title="Poker Hand History (PHH)",
    suffixes=(".phh", ".phhs"),
    read=read_phh,
    write=_write,
)
