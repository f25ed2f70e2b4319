"""Hands to and from PHH, the Poker Hand History format (TOML; pokerkit reads and
writes it).

Players are numbered ``p1 .. pN`` from the first seat left of the button, the button
last (heads-up: p1 is the big blind).  Actions: ``d dh pK CARDS`` (hole cards; ``????``
when unknown), ``d db CARDS`` (board), ``pK f`` (fold), ``pK cc`` (check or call),
``pK cbr N`` (bet or raise to a total of N this round), ``pK sm CARDS`` (show) and
``pK sm`` (muck).

Export never reveals a card nobody saw: hole cards that were not shown at the
showdown (folded, mucked, or winning uncontested) are written ``????``, except the
``viewer``'s own.  Import plays the actions through the same betting engine as the
table (so an illegal history is refused); a hand whose cards are unknown cannot win
at the showdown.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import CardParseError, face_of, format_face, parse_face
from engine.events import OMNISCIENT
from rules.poker.betting import act, deal_hand, options
from rules.poker.options import PokerConfig
from rules.poker.scoring import showing_order
from rules.poker.state import HandState, Street

VARIANT = "NT"  # no-limit Texas hold'em


class PhhError(ValueError):
    """A hand history we cannot read or that breaks the rules."""

    code = "bad_phh"


def _card(c: int) -> str:
    text = format_face(face_of(c))
    return text[0] + text[1].lower()


def _cards(cards: Sequence[int]) -> str:
    return "".join(_card(c) for c in cards)


def _toml_list(values: Sequence[object]) -> str:
    return "[" + ", ".join(repr(v) if isinstance(v, str) else str(v) for v in values) + "]"


def to_phh(hand: HandState, config: PokerConfig, viewer: int = OMNISCIENT) -> str:
    """The PHH text of a finished (or running) hand as ``viewer`` may know it."""
    order = list(hand.players)
    label = {s: f"p{i + 1}" for i, s in enumerate(order)}
    n = len(order)
    actions: list[str] = []
    for s in order:
        known = s in hand.shown or s == viewer
        actions.append(f"d dh {label[s]} {_cards(hand.holes[s]) if known else '????'}")
    boards = {
        Street.FLOP: hand.board[:3],
        Street.TURN: hand.board[3:4],
        Street.RIVER: hand.board[4:5],
    }
    street = Street.PREFLOP
    for st, seat, kind, amount in hand.history:
        while street < st:
            street = Street(street + 1)
            actions.append(f"d db {_cards(boards[street])}")
        word = {"fold": "f", "check": "cc", "call": "cc"}.get(kind)
        actions.append(f"{label[seat]} {word}" if word else f"{label[seat]} cbr {amount}")
    while hand.done and street < Street.RIVER and len(hand.board) > _dealt(street):
        street = Street(street + 1)
        actions.append(f"d db {_cards(boards[street])}")
    if hand.done and len(hand.live) > 1:
        for s in _showing(hand):
            shown = s in hand.shown
            actions.append(f"{label[s]} sm {_cards(hand.holes[s])}" if shown else f"{label[s]} sm")
    blinds = [0] * n
    if n == 2:
        blinds[:2] = [config.small_blind, config.big_blind]
    else:
        blinds[0], blinds[1] = config.small_blind, config.big_blind
    lines = [
        f"variant = '{VARIANT}'",
        "ante_trimming_status = false",
        f"antes = {_toml_list([config.ante] * n)}",
        f"blinds_or_straddles = {_toml_list(blinds)}",
        f"min_bet = {config.big_blind}",
        f"starting_stacks = {_toml_list([hand.starting[s] for s in order])}",
        f"actions = {_toml_list(actions)}",
        f"hand = {hand.number}",
        f"seats = {_toml_list([s + 1 for s in order])}",
        f"seat_count = {config.seats}",
    ]
    return "\n".join(lines) + "\n"


def _dealt(street: Street) -> int:
    return {Street.PREFLOP: 0, Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}[street]


def _showing(hand: HandState) -> list[int]:
    """Live seats in the order they showed or mucked (as the events were written)."""
    done = [*hand.shown, *hand.mucked]
    order = showing_order(list(hand.live), hand.players, hand.aggressor)
    return [s for s in order if s in done]


@dataclass(frozen=True)
class PhhHand:
    """A hand read from PHH and replayed by our engine."""

    config: PokerConfig
    starting_stacks: tuple[int, ...]  # p1 .. pN (our seats 0 .. N-1; the button last)
    hand: HandState
    final_stacks: tuple[int, ...]


def from_phh(text: str) -> PhhHand:
    """Read a no-limit hold'em PHH hand and play it through the table's engine."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PhhError(f"not TOML: {exc}") from None
    if data.get("variant") != VARIANT:
        raise PhhError(f"only variant {VARIANT!r} (no-limit hold'em) is supported")
    stacks = [int(x) for x in data["starting_stacks"]]
    n = len(stacks)
    if not 2 <= n <= 10:
        raise PhhError("2 to 10 players")
    antes = data.get("antes", 0)
    antes = [antes] * n if isinstance(antes, int) else list(antes)
    blinds = list(data.get("blinds_or_straddles") or [0] * n)
    if len(set(antes)) != 1 or any(blinds[2:]):
        raise PhhError("only equal antes and two blinds (no straddles) are supported")
    sb, bb = int(blinds[0]), int(blinds[1])
    if int(data.get("min_bet", bb)) != bb:
        raise PhhError("the minimum bet must be the big blind")
    config = PokerConfig(
        seats=n,
        small_blind=sb,
        big_blind=bb,
        ante=int(antes[0]),
        starting_stack=max(stacks),
        hands=1,
        muck_losers=False,
    )
    holes: list[tuple[int, ...]] = [() for _ in range(n)]
    board: list[int] = []
    moves: list[tuple[int, str, int]] = []
    for raw in data["actions"]:
        words = raw.split("#")[0].split()
        match words:
            case ["d", "dh", who, cards]:
                holes[_player(who, n)] = _parse_cards(cards, 2)
            case ["d", "db", cards]:
                board.extend(_parse_cards(cards, None))
            case [who, "f"]:
                moves.append((_player(who, n), "fold", 0))
            case [who, "cc"]:
                moves.append((_player(who, n), "cc", 0))
            case [who, "cbr", amount]:
                moves.append((_player(who, n), "raise", int(amount)))
            case [who, "sm", cards] if cards != "-":
                holes[_player(who, n)] = _parse_cards(cards, 2)
            case [_, "sm"] | [_, "sm", "-"] | []:
                pass
            case _:
                raise PhhError(f"unsupported action {raw!r}")
    used = {c for h in holes for c in h} | set(board)
    if len(used) != sum(len(h) for h in holes) + len(board):
        raise PhhError("a card appears twice")
    spare = [c for c in range(52) if c not in used]
    padded = board + spare[: 5 - len(board)]
    del spare[: 5 - len(board)]
    stub = [spare.pop(), *padded[:3], spare.pop(), padded[3], spare.pop(), padded[4], *spare]
    hand, after, _ = deal_hand(config, stacks, tuple(range(n)), 1, holes, stub)
    for seat, kind, amount in moves:
        opts = options(hand, after, config)
        if opts is None or opts.seat != seat:
            raise PhhError(f"p{seat + 1} acts out of turn")
        if kind == "cc":
            kind = "call" if opts.to_call else "check"
        elif kind == "raise":
            if (
                opts.min_to is None
                or opts.max_to is None
                or not (opts.min_to <= amount <= opts.max_to)
            ):
                raise PhhError(f"p{seat + 1} cannot bet or raise to {amount}")
        elif kind == "fold" and not opts.can_fold:
            raise PhhError(f"p{seat + 1} folds with nothing to call")
        hand, after, _ = act(hand, after, config, kind, amount)
    if not hand.done:
        raise PhhError("the history stops before the hand is over")
    if len(board) and list(hand.board[: len(board)]) != board:
        raise PhhError("the board does not match the betting")
    return PhhHand(config, tuple(stacks), hand, tuple(after))


def _player(word: str, n: int) -> int:
    if not word.startswith("p") or not word[1:].isdigit() or not 1 <= int(word[1:]) <= n:
        raise PhhError(f"bad player {word!r}")
    return int(word[1:]) - 1


def _parse_cards(text: str, count: int | None) -> tuple[int, ...]:
    if set(text) == {"?"}:
        return ()
    if len(text) % 2:
        raise PhhError(f"bad cards {text!r}")
    try:
        cards = tuple(parse_face(text[i : i + 2]) for i in range(0, len(text), 2))
    except CardParseError as exc:
        raise PhhError(str(exc)) from None
    if count is not None and len(cards) != count:
        raise PhhError(f"expected {count} cards, got {text!r}")
    return cards
