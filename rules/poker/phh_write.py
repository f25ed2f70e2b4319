"""Played hands to PHH text (rules/poker/phh.py reads it back).

Amounts are written in the hand's own unit with its decimals (``1.50``), so a file
read and written keeps its unit (docs/poker.md, "Amounts"); a stack the history did
not know is written ``inf`` again, before and after the hand.  Hole cards are written
only where they are public: fixed by the file they came from, or shown.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Sequence
from decimal import Decimal

from engine.events import OMNISCIENT
from rules.poker.amounts import from_chips
from rules.poker.betting import hand_pots
from rules.poker.hands import PlayedHand, told_apart
from rules.poker.options import OddChip, PokerConfig, card_spelling, spell_cards
from rules.poker.phh_rake import finishing_chips
from rules.poker.pots import split
from rules.poker.rake import take_rake
from rules.poker.scoring import showing_order
from rules.poker.state import HandState, Street

_DEALT = {Street.PREFLOP: 0, Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}


def toml_value(value: object) -> str:
    """A TOML value's text (strings, numbers, booleans, dates and times, lists and
    inline tables: what a PHH field can hold)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal) and not value.is_finite():
        return "nan" if value.is_nan() else "inf" if value > 0 else "-inf"
    if isinstance(value, Decimal):
        text = f"{value:f}"
        return text if "." in text else text + ".0"
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{json.dumps(str(k))} = {toml_value(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def _cards(cards: Sequence[int]) -> str:
    return "".join(card_spelling(c) for c in cards)


def hand_lines(played: PlayedHand, viewer: int = OMNISCIENT) -> list[str]:
    """The PHH lines (``key = value``) of one hand."""
    hand, config = played.hand, played.config
    d = config.decimals
    order = list(hand.players)
    n = len(order)
    label = {s: f"p{i + 1}" for i, s in enumerate(order)}
    fixed = config.holes or ("",) * config.seats

    def money(chips: int) -> str:
        return from_chips(chips, d)

    unknown = set(config.unknown_stacks or ())

    def money_list(values: Sequence[int]) -> str:
        return "[" + ", ".join(money(v) for v in values) + "]"

    def stack_list(values: Sequence[int]) -> str:
        """Stacks by player: ``inf`` where the history did not know the stack."""
        texts = ("inf" if s in unknown else money(v) for s, v in zip(order, values, strict=True))
        return "[" + ", ".join(texts) + "]"

    actions: list[str] = []
    for s in order:
        known = s in hand.shown or s == viewer or bool(spell_cards(fixed[s]))
        cards = _cards(hand.holes[s]) if known and hand.holes[s] else "????"
        actions.append(f"d dh {label[s]} {cards}")
    board = hand.board
    boards = {Street.FLOP: board[:3], Street.TURN: board[3:4], Street.RIVER: board[4:5]}
    street = Street.PREFLOP
    for st, seat, kind, amount in hand.history:
        while street < st:
            street = Street(street + 1)
            actions.append(f"d db {_cards(boards[street])}")
        word = {"fold": "f", "check": "cc", "call": "cc"}.get(kind)
        actions.append(f"{label[seat]} {word}" if word else f"{label[seat]} cbr {money(amount)}")
    while street < Street.RIVER and len(hand.board) > _DEALT[street] and (
        hand.done or street < hand.street
    ):  # the board dealt after the last action (a partial history: up to its street)
        street = Street(street + 1)
        actions.append(f"d db {_cards(boards[street])}")
    if hand.done and len(hand.live) > 1:
        for s in _showing(hand):
            shown = s in hand.shown
            actions.append(f"{label[s]} sm {_cards(hand.holes[s])}" if shown else f"{label[s]} sm")
    antes = config.antes if config.antes is not None else (config.ante,) * n
    blinds = config.blinds_or_straddles
    if blinds is None:
        blinds = (config.small_blind, config.big_blind)
    lines = [
        "variant = 'NT'",
        f"ante_trimming_status = {toml_value(config.ante_trimming)}",
        f"antes = {money_list(_fit(antes, n))}",
        f"blinds_or_straddles = {money_list(_fit(blinds, n))}",
        f"min_bet = {money(config.min_raise)}",
        f"starting_stacks = {stack_list([hand.starting[s] for s in order])}",
        f"actions = {toml_value(actions)}",
    ]
    tags = dict(played.tags)
    computed: dict[str, str] = {}
    if played.final_stacks:
        said = tags.pop("finishing_stacks", None)
        ours = [played.final_stacks[s] for s in order]
        # The replay's stacks, always: a file's own text only where it says the same
        # (it may also name a final stack the hand did not know at the start).
        computed["finishing_stacks"] = (
            said if said is not None and _agrees(said, ours, order, unknown, d)
            else stack_list(ours)
        )
    if played.names and any(played.names):
        # Told apart by seat, not by position: a seat keeps its name hand after hand.
        named = told_apart(played.names)
        computed["players"] = toml_value([named[s] for s in order])
    if config.cap is not None:  # nor for cap no-limit
        computed["_cap"] = money(config.cap)
    if hand.raked and config.rake_percent:
        # A table's percentage rake, pot by pot: the reader could not always find it
        # from the finishing stacks alone (split pots, a board run twice).
        computed["_pot_rakes"] = money_list(pot_rakes(hand, config))
    if hand.done and _odd_chips_matter(hand, config):  # nor how a split's odd chips go
        computed["_odd_chip"] = toml_value(str(config.odd_chip))
    if hand.board2:  # PHH has no notation for a second run: a user field keeps it
        common = next((i for i, (a, b) in enumerate(zip(hand.board, hand.board2, strict=False))
                       if a != b), len(hand.board2))
        computed["_board2"] = toml_value(_cards(hand.board2[common:]))
    if config.holes is None:  # a hand played here: where it sat in its session
        computed["hand"] = str(hand.number)
        computed["seats"] = toml_value([s + 1 for s in order])
        computed["seat_count"] = str(config.seats)
    for key, value in {**computed, **tags}.items():
        lines.append(f"{_key(key)} = {value}")
    return lines


def write_phh(hands: Sequence[PlayedHand], keys: Sequence[str] = ()) -> str:
    """One hand as a ``.phh`` text; several as a ``.phhs`` text of ``[N]`` sections
    (named by ``keys`` when they are distinct and given for every hand: the
    sections a file was read from)."""
    if len(hands) == 1:
        return "\n".join(hand_lines(hands[0])) + "\n"
    if len(keys) != len(hands) or len(set(keys)) != len(keys) or not all(keys):
        keys = [str(i) for i in range(1, len(hands) + 1)]
    return "\n".join(
        "\n".join([f"[{_key(k)}]", *hand_lines(h)]) + "\n" for k, h in zip(keys, hands, strict=True)
    )


def _key(key: str) -> str:
    bare = key and all(c.isalnum() or c in "_-" for c in key) and key.isascii()
    return key if bare else json.dumps(key)


def _agrees(said: str, ours: Sequence[int], order: Sequence[int], unknown: set[int],
            decimals: int) -> bool:
    """Whether a file's ``finishing_stacks`` text gives every known stack as ``ours``."""
    theirs = finishing_chips(said, decimals)
    return theirs is not None and len(theirs) == len(ours) and all(
        s in unknown or v == mine for s, v, mine in zip(order, theirs, ours, strict=True))


def pot_rakes(hand: HandState, config: PokerConfig) -> list[int]:
    """The chips the house took from each pot of a finished hand, main pot first."""
    raked, _ = take_rake(hand_pots(hand), config, flop_dealt=len(hand.board) >= 3)
    return [p.amount - r.amount for p, r in zip(hand_pots(hand), raked, strict=True)]


def _odd_chips_matter(hand: HandState, config: PokerConfig) -> bool:
    """Whether the hand paid otherwise with the odd chips of a split all to the first
    winner (the reader's rule, pokerkit's)."""
    if config.odd_chip is OddChip.FIRST_WINNER:
        return False
    return any(split(a.amount, a.winners, OddChip.FIRST_WINNER) != dict(a.shares)
               for a in hand.awards)


def _fit(values: Sequence[int], n: int) -> list[int]:
    return [*values[:n], *[0] * (n - len(values))]


def _showing(hand: HandState) -> list[int]:
    """Live seats in the order they showed or mucked (as the events were written)."""
    done = [*hand.shown, *hand.mucked]
    order = showing_order(list(hand.live), hand.players, hand.aggressor)
    return [s for s in order if s in done]
