"""Played hands as PokerStars-style text (rules/poker/stars.py reads it back).

Every finished hand of the records is written as a cash hand of the site's layout:
header, table line, seats, posts, the four streets with their actions, uncalled
bets, the showdown, ``collected`` lines pot by pot (``from main pot``, ``from side
pot``) and the summary with each pot and the rake the table took; a board run
twice as the site writes one (``*** FIRST TURN ***``, ``*** SECOND TURN ***``, a
showdown and ``collected`` lines per run, ``Hand was run twice``).  Hole cards
appear where they are public: fixed by an imported file, or shown at the showdown.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Sequence

from engine.cards import face_of, format_face
from engine.formats import FormatError, GameRecord
from rules.poker.amounts import from_chips
from rules.poker.betting import hand_pots
from rules.poker.hands import PlayedHand, played_hands
from rules.poker.options import OddChip, PokerConfig, spell_cards
from rules.poker.pots import Pot, split
from rules.poker.rake import split_runs, take_rake
from rules.poker.scoring import Award
from rules.poker.state import STREET_NAMES, HandState, Street


def _card(c: int) -> str:
    text = format_face(face_of(c))
    return text[0] + text[1].lower()


def _cards(cards: Sequence[int]) -> str:
    return "[" + " ".join(_card(c) for c in cards) + "]"


def _tag(played: PlayedHand, key: str, default: object) -> object:
    text = played.tags.get(key)
    if text is None:
        return default
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return default


class StarsError(FormatError):
    """A PokerStars hand history we cannot read, or that breaks the rules (or a
    hand that PokerStars text cannot hold)."""

    code = "bad_hand_history"


def write_stars(
    records: Sequence[GameRecord], check: Callable[[PlayedHand, str], None] | None = None
) -> str:
    """The hands of ``records`` as one PokerStars-style text file; ``check`` is
    called with each hand and its text (to refuse a text that says otherwise)."""
    blocks = []
    for record in records:
        for played in played_hands(record, unfinished=True):
            if not played.hand.done:
                raise StarsError(
                    "the hand stops before it is over, and PokerStars text holds only "
                    "finished hands: export it as PHH"
                )
            blocks.append("\n".join(hand_text(played)))
            if check is not None:
                check(played, blocks[-1])
    return "\n\n\n".join(blocks) + "\n"


def hand_text(played: PlayedHand) -> list[str]:
    """The lines of one hand."""
    hand, config = played.hand, played.config
    if config.unknown_stacks:
        raise StarsError(
            "a hand whose stacks are not known cannot be written as PokerStars text, "
            "which gives every stack: export it as PHH"
        )
    symbol = str(_tag(played, "currency_symbol", ""))
    currency = str(_tag(played, "currency", ""))

    def money(chips: int) -> str:
        return symbol + from_chips(chips, config.decimals)

    def name(seat: int) -> str:
        return (played.names[seat] if played.names and played.names[seat] else "") or (
            f"Seat {seat + 1}"
        )

    order = list(hand.players)
    numbers = _tag(played, "seats", None)
    if not (isinstance(numbers, list) and len(numbers) == len(order)):
        numbers = [s + 1 for s in order]
    seat_of = dict(zip(order, numbers, strict=True))
    sb, bb = config.small_blind, config.big_blind
    cap = f" - {money(config.cap)} Cap -" if config.cap is not None else ""  # cap no-limit
    stakes = f"{money(sb)}/{money(bb)}{cap}" + (f" {currency}" if currency else "")
    number = _tag(played, "hand", hand.number)
    header = _tag(played, "_header", f"Hold'em No Limit ({stakes})")
    size = _tag(played, "seat_count", config.seats)
    lines = [
        f"PokerStars Hand #{number}:  {header}",
        f"Table '{_tag(played, 'table', 'cardtable')}' {size}-max "
        f"Seat #{seat_of[hand.button]} is the button",
    ]
    for s in sorted(order, key=seat_of.__getitem__):
        lines.append(f"Seat {seat_of[s]}: {name(s)} ({money(hand.starting[s])} in chips)")
    antes, blinds = config.posts(len(order))
    for s, ante in zip(order, antes, strict=True):
        if ante:
            lines.append(f"{name(s)}: posts the ante {money(min(ante, hand.starting[s]))}")
    new = config.new_player_posts(len(order))
    by_position = [order[1], order[0]] if len(order) == 2 else order
    for k, s in enumerate(by_position):
        chips = blinds[order.index(s)]
        if chips:
            # Past the two blinds: a missed big blind, or a straddle if larger; a
            # new player's post is the site's big blind out of position.
            word = ("small blind", "big blind")[k] if k < 2 else (
                "straddle" if chips > bb and not new[order.index(s)] else "big blind"
            )
            lines.append(f"{name(s)}: posts {word} {money(chips)}")
    lines.append("*** HOLE CARDS ***")
    fixed = config.holes or ("",) * config.seats
    for s in order:
        if hand.holes[s] and (s in hand.shown or spell_cards(fixed[s])):
            lines.append(f"Dealt to {name(s)} {_cards(hand.holes[s])}")
    posted = [min(b, hand.starting[s] - min(a, hand.starting[s]))
              for s, a, b in zip(order, antes, blinds, strict=True)]
    lines += _betting(hand, name, money, max(posted))
    return lines + _ending(hand, config, name, money, seat_of)


def _betting(
    hand: HandState, name: Callable[[int], str], money: Callable[[int], str], top: int
) -> list[str]:
    """The streets and their actions; ``top`` is the largest blind posted."""
    lines: list[str] = []
    street = Street.PREFLOP
    board = hand.board
    cuts = {Street.FLOP: 3, Street.TURN: 4, Street.RIVER: 5}

    twice = bool(hand.board2)
    # The street where the two runs part: the first card the boards differ in.
    parted = next((i for i, (a, b) in enumerate(zip(board, hand.board2, strict=False)) if a != b),
                  5)

    def deal(to: Street, cards: Sequence[int] = board, run: str = "") -> None:
        label = STREET_NAMES[to].upper()
        if twice and cuts[to] > parted:
            run = run or "FIRST "
        if to is Street.FLOP:
            lines.append(f"*** {run}{label} *** {_cards(cards[:3])}")
        else:
            before, card = cards[: cuts[to] - 1], cards[cuts[to] - 1 : cuts[to]]
            lines.append(f"*** {run}{label} *** {_cards(before)} {_cards(card)}")

    for st, seat, kind, amount in hand.history:
        while street < st:
            street = Street(street + 1)
            deal(street)
            top = 0
        if kind == "fold":
            lines.append(f"{name(seat)}: folds")
        elif kind == "check":
            lines.append(f"{name(seat)}: checks")
        elif kind == "call":
            lines.append(f"{name(seat)}: calls {money(amount)}")
        elif kind == "bet":
            lines.append(f"{name(seat)}: bets {money(amount)}")
            top = amount
        else:
            lines.append(f"{name(seat)}: raises {money(amount - top)} to {money(amount)}")
            top = amount
    while street < Street.RIVER and len(board) > {0: 0, 1: 3, 2: 4}[int(street)]:
        street = Street(street + 1)
        deal(street)
    for to in (Street.FLOP, Street.TURN, Street.RIVER):
        if twice and cuts[to] > parted:
            deal(to, hand.board2, "SECOND ")
    return lines


def _ending(
    hand: HandState,
    config: PokerConfig,
    name: Callable[[int], str],
    money: Callable[[int], str],
    seat_of: dict[int, int],
) -> list[str]:
    lines = [f"Uncalled bet ({money(chips)}) returned to {name(s)}" for s, chips in hand.refunds]
    runs = ("FIRST ", "SECOND ") if hand.board2 else ("",)
    pots = _raked_pots(hand, config)
    halves = split_runs(pots) if hand.board2 else (pots,)
    won: dict[int, int] = {}
    for k, (run, run_pots) in enumerate(zip(runs, halves, strict=True), 1):
        if len(hand.live) > 1:
            lines.append(f"*** {run}SHOW DOWN ***")
            for s in hand.live:
                if s in hand.shown:
                    lines.append(f"{name(s)}: shows {_cards(hand.holes[s])}")
                else:
                    lines.append(f"{name(s)}: mucks hand")
        awards = [a for a in hand.awards if a.run == k]
        # The site names each pot and lists the last side pot first.
        for pot, s, chips in reversed(_per_pot(awards, run_pots, config.odd_chip)):
            lines.append(f"{name(s)} collected {money(chips)} from {_pot_name(pot, len(pots))}")
            won[s] = won.get(s, 0) + chips
    lines.append("*** SUMMARY ***")
    split = "".join(
        f" {_pot_name(i, len(pots)).capitalize()} {money(p.amount)}." for i, p in enumerate(pots)
    ) if len(pots) > 1 else ""
    lines.append(f"Total pot {money(sum(won.values()) + hand.raked)}{split} | "
                 f"Rake {money(hand.raked)}")
    if hand.board2:
        lines += ["Hand was run twice", f"FIRST Board {_cards(hand.board)}",
                  f"SECOND Board {_cards(hand.board2)}"]
    elif hand.board:
        lines.append(f"Board {_cards(hand.board)}")
    for s in sorted(hand.players, key=seat_of.__getitem__):
        said = f" collected ({money(won[s])})" if s in won else ""
        lines.append(f"Seat {seat_of[s]}: {name(s)}{said}")
    return lines


def _raked_pots(hand: HandState, config: PokerConfig) -> list[Pot]:
    """The hand's pots after the rake, main pot first (as its awards were paid)."""
    pots, _ = take_rake(hand_pots(hand), config, flop_dealt=len(hand.board) >= 3)
    return pots


def _pot_name(index: int, count: int) -> str:
    """``pot`` alone; else ``main pot``, ``side pot`` or ``side pot-1``, ``-2``..."""
    if count == 1:
        return "pot"
    if index == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{index}"


def _per_pot(
    awards: Sequence[Award], pots: Sequence[Pot], odd_chip: OddChip
) -> list[tuple[int, int, int]]:
    """``(pot, seat, chips)`` of one run, pot by pot.  The rules pay adjacent pots
    won by the same players as one award; each of its pots is split as the award
    was, its last pot taking what the players' shares of the award still lack."""
    if sum(p.amount for p in pots) != sum(a.amount for a in awards):
        return [(a.pot, s, chips) for a in awards for s, chips in a.shares if chips]
    out: list[tuple[int, int, int]] = []
    ends = [a.pot for a in awards[1:]] + [len(pots)]
    for a, end in zip(awards, ends, strict=True):
        group = range(a.pot, max(end, a.pot + 1))
        paid = [split(pots[i].amount, a.winners, odd_chip) for i in group]
        for s, chips in a.shares:
            paid[-1][s] += chips - sum(p[s] for p in paid)
        if sum(sum(p.values()) for p in paid) != a.amount or any(
            v < 0 for p in paid for v in p.values()
        ):  # pots not as the award paid them: the award as one line per winner
            paid, group = [dict(a.shares)], range(a.pot, a.pot + 1)
        out += [(i, s, chips) for i, p in zip(group, paid, strict=True)
                for s, chips in p.items() if chips]
    return out
