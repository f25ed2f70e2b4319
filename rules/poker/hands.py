"""Hands of a game record, played through the table's rules.

What the hand-history readers, writers and statistics share: a record's actions
replayed move by move through :class:`PokerTable` (so a file that breaks the rules
is refused where it does), and the finished hands of a replay, each with the
options it was dealt under and the stacks it left.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from engine.errors import IllegalAction
from engine.formats import GameRecord
from rules.poker.betting import act
from rules.poker.options import PokerConfig
from rules.poker.state import HandState, Phase, PokerState
from rules.poker.table import PokerTable

_BETTING = ("fold", "check", "call", "bet", "raise", "sit_out")


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
    moves: Sequence[tuple[int, int | None, str, int | None]],
    partial: bool = False,
) -> list[tuple[int, dict[str, Any]]]:
    """The (seat, action) log of a one-hand file's moves: ``(index, player, word,
    amount)`` with ``word`` ``f`` (fold), ``cc`` (check or call), ``cbr`` (bet or
    raise to ``amount``), or ``db`` (``amount`` more board cards: the betting
    before them must be over).  Raises ReplayError naming the move, or when the
    moves stop before the hand is over unless ``partial`` (a history may)."""
    _, state = start(draft)
    log: list[tuple[int, dict[str, Any]]] = []
    board = 0
    for index, who, word, amount in moves:
        hand = state.hand
        assert hand is not None
        if word == "db":
            board += amount or 0
            if len(hand.board) < board:
                raise ReplayError("board cards dealt before the betting round is over", index)
            continue
        opts = _game().options(state)
        if opts is None or opts.seat != who:
            actor = "nobody" if opts is None else f"p{opts.seat + 1}"
            raise ReplayError(f"p{(who or 0) + 1} acts out of turn ({actor} is to act)", index)
        if word == "f":
            # A fold with nothing to call is how these rules fold a player who sat
            # out on its turn (a site may write one too): that, not a refusal.
            action: dict[str, Any] = {"type": "fold" if opts.can_fold else "sit_out"}
        elif word == "cc":
            action = {"type": "call" if opts.to_call else "check"}
        else:
            action = {"type": "raise", "to": amount}
        try:
            move = _game().validate(state, who, action)
        except IllegalAction as exc:
            raise ReplayError(f"p{who + 1}: {exc.message}", index) from None
        state, _ = _game().apply(state, who, move)
        log.append((who, dict(move.action)))
    if state.phase is not Phase.OVER and not partial:
        raise ReplayError("the history stops before the hand is over")
    return log


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
