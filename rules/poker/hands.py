"""Hands of a game record, played through the table's rules.

What the hand-history readers, writers and statistics share: a record's actions
replayed move by move through :class:`PokerTable` (so a file that breaks the rules
is refused where it does), and the finished hands of a replay, each with the
options it was dealt under and the stacks it left.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.errors import IllegalAction
from engine.formats import GameRecord
from rules.poker.betting import Options, act
from rules.poker.options import PokerConfig
from rules.poker.state import HandState, Phase, PokerState
from rules.poker.table import PokerTable

_BETTING = ("fold", "check", "call", "bet", "raise", "sit_out")
# Board cards already dealt -> the street dealt next and how many cards it has.
_STREETS = {0: ("flop", 3), 3: ("turn", 1), 4: ("river", 1)}


class ReplayError(Exception):
    """A record the rules refuse: ``message``, and which of the file's moves
    (``index``, 0-based, when known)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.index = index


@dataclass(frozen=True)
class PlayedHand:
    """One finished hand: its options, the hand, and each seat's stack after it;
    the seats' names and the file's tags when the record has them."""

    config: PokerConfig
    hand: HandState
    final_stacks: tuple[int, ...]
    names: tuple[str, ...] = ()
    tags: Mapping[str, str] = field(default_factory=dict)


@cache
def _game() -> PokerTable:
    return PokerTable()


def start(record: GameRecord) -> tuple[PokerConfig, PokerState]:
    """The record's table, as ``new`` deals it (ReplayError on bad options)."""
    try:
        config = _game().parse_config(record.options)
    except IllegalAction as exc:
        raise ReplayError(exc.message) from None
    return config, _game().new(config, record.seed)


def replay_moves(
    draft: GameRecord,
    moves: Sequence[tuple[int, int | None, str, Any]],
    partial: bool = False,
    *,
    money: Callable[[int], str] = str,
    name: Callable[[int], str] | None = None,
) -> list[tuple[int, dict[str, Any]]]:
    """The (seat, action) log of a one-hand file's moves: ``(index, player, word,
    amount)`` with ``word`` ``f`` (fold), ``cc`` (check or call), ``cbr`` (bet or
    raise to ``amount``), or ``db`` (``amount`` more board cards: the betting
    before them must be over).  A file that names the kind of a move says so, and
    is held to it: ``k`` (check), ``c`` (call ``amount`` chips, if given), ``b``
    (bet to ``amount``: nobody has bet this round), ``r`` (raise: ``amount`` is
    ``(by, to)``).  Raises ReplayError naming the move (``name``: a player as the
    file calls it; ``money``: chips as the file writes them), or when the moves
    stop before the hand is over unless ``partial`` (a history may)."""
    _, state = start(draft)
    log: list[tuple[int, dict[str, Any]]] = []
    board = 0
    who_is = name or (lambda p: f"p{p + 1}")
    for index, who, word, amount in moves:
        hand = state.hand
        assert hand is not None
        if word == "db":
            # Hold'em deals its board three, one and one: a history that deals it
            # otherwise would shift every later card onto another street.
            street = _STREETS.get(board)
            if street is None:
                raise ReplayError("board cards dealt after the river", index)
            if amount != street[1]:
                raise ReplayError(f"a {street[0]} of {amount} card{'s' * (amount != 1)}: "
                                  f"the {street[0]} is {street[1]}", index)
            board += amount or 0
            if len(hand.board) < board:
                raise ReplayError("board cards dealt before the betting round is over", index)
            continue
        opts = _game().options(state)
        if opts is None or opts.seat != who:
            actor = "nobody" if opts is None else who_is(opts.seat)
            raise ReplayError(f"{who_is(who or 0)} acts out of turn ({actor} is to act)", index)
        wrong = _wrong_kind(word, amount, opts, money)
        if wrong:
            raise ReplayError(f"{who_is(who)} {wrong}", index)
        if word == "f":
            # A fold with nothing to call is how these rules fold a player who sat
            # out on its turn (a site may write one too): that, not a refusal.
            action: dict[str, Any] = {"type": "fold" if opts.can_fold else "sit_out"}
        elif word in ("cc", "k", "c"):
            action = {"type": "call" if opts.to_call else "check"}
        else:
            to = amount[1] if word == "r" else amount
            action = {"type": "raise", "to": to}
        try:
            move = _game().validate(state, who, action)
        except IllegalAction as exc:
            raise ReplayError(f"{who_is(who)}: {_in_money(exc, opts, money)}", index) from None
        state, _ = _game().apply(state, who, move)
        log.append((who, dict(move.action)))
    if state.phase is not Phase.OVER and not partial:
        raise ReplayError("the history stops before the hand is over")
    return log


def _wrong_kind(word: str, amount: Any, opts: Options, money: Callable[[int], str]) -> str:
    """Why a move of a named kind is not that kind here ("" when it is)."""
    if word == "k" and opts.to_call:
        return f"checks facing a bet: {money(opts.to_call)} to call"
    if word == "c" and not opts.to_call:
        return "calls with nothing to call"
    if word == "c" and amount is not None and amount != opts.to_call:
        return f"calls {money(amount)}, but the call is {money(opts.to_call)}"
    if word == "b" and opts.current:
        return f"bets facing a bet of {money(opts.current)}: a raise"
    if word == "r" and not opts.current:
        return "raises with no bet to raise: a bet"
    if word == "r" and amount[1] - amount[0] != opts.current:
        return (f"raises {money(amount[0])} to {money(amount[1])}, but the bet to raise "
                f"is {money(opts.current)}")
    return ""


def _in_money(exc: IllegalAction, opts: Options, money: Callable[[int], str]) -> str:
    """The rules' refusal, its amounts in the file's money where it names one."""
    if exc.code == "raise_too_small" and opts.min_to is not None:
        return f"the minimum is to {money(opts.min_to)}"
    if exc.code == "raise_too_large" and opts.max_to is not None:
        return f"the maximum (all-in) is to {money(opts.max_to)}"
    return exc.message


def told_apart(names: Sequence[str]) -> list[str]:
    """Names as a hand history writes them, where a name stands for its seat: two
    seats of one name (three "equity" bots) are told apart, "equity", "equity 2",
    "equity 3"; an empty name stays empty."""
    taken: set[str] = set()
    out: list[str] = []
    for text in names:
        k, candidate = 1, text
        while candidate and candidate in taken:
            k += 1
            candidate = f"{text} {k}"
        taken.add(candidate)
        out.append(candidate)
    return out


def played_hands(record: GameRecord, unfinished: bool = False) -> list[PlayedHand]:
    """Every finished hand of a record, in order (ReplayError if the log breaks the
    rules); ``unfinished``: and the hand in progress where the record stops, with
    no ``final_stacks`` (a partial history, stored unfinished)."""
    config, state = start(record)
    names = tuple(record.players)
    out: list[PlayedHand] = []

    def keep(hand: HandState, stacks: tuple[int, ...]) -> None:
        if not out or out[-1].hand.number != hand.number:
            out.append(PlayedHand(config, hand, stacks, names, record.tags))

    if state.hand is not None and state.hand.done:
        keep(state.hand, state.stacks)
    for index, (seat, action) in enumerate(record.actions):
        try:
            move = _game().validate(state, seat, action)
        except IllegalAction as exc:
            raise ReplayError(f"seat {seat + 1}: {exc.message}", index) from None
        canon = move.action
        if state.phase is Phase.BETTING and canon["type"] in _BETTING and state.hand:
            kind = "fold" if canon["type"] == "sit_out" else str(canon["type"])
            hand, stacks, _ = act(state.hand, state.stacks, config, kind, canon.get("to", 0))
            if hand.done:
                keep(hand, stacks)
        state, _ = _game().apply(state, seat, move)
        if state.hand is not None and state.hand.done:
            keep(state.hand, state.stacks)
    if unfinished and state.hand is not None and not state.hand.done:
        out.append(PlayedHand(config, state.hand, (), names, record.tags))
    return out


def play_record(record: GameRecord) -> PlayedHand:
    """The one finished hand of a one-hand record."""
    hands = played_hands(record)
    if len(hands) != 1 or hands[0].hand.number != 1:
        raise ReplayError("the record does not play exactly one finished hand")
    return hands[0]
