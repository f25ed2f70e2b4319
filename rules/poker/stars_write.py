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

from engine.formats import FormatError, GameRecord
from rules.poker.amounts import from_chips
from rules.poker.betting import hand_pots
from rules.poker.evaluator import evaluate, hand_class
from rules.poker.hands import PlayedHand, played_hands, told_apart
from rules.poker.options import OddChip, PokerConfig, card_spelling, spell_cards
from rules.poker.pots import Pot, split
from rules.poker.rake import split_runs, take_rake
from rules.poker.scoring import Award
from rules.poker.state import STREET_NAMES, HandState, Street
from rules.poker.tables.classes import Category


def _cards(cards: Sequence[int]) -> str:
    return "[" + " ".join(card_spelling(c) for c in cards) + "]"


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
    """The lines of one hand.  As the site does, a whole amount is written without
    its cents ("$50", "Rake $0") and any other with all of them ("$0.50"), unless
    every amount of the hand is whole: a reader then could not tell the unit (a
    hand in cents would come back in dollars), so they all keep their cents."""
    cents: list[bool] = []
    lines = _hand_lines(played, cents.append, trim=True)
    if played.config.decimals and not any(cents):
        return _hand_lines(played, cents.append, trim=False)
    return lines


def _hand_lines(played: PlayedHand, seen: Callable[[bool], None], trim: bool) -> list[str]:
    """The lines of one hand, telling ``seen`` for each amount whether it has cents."""
    hand, config = played.hand, played.config
    if config.unknown_stacks:
        raise StarsError(
            "a hand whose stacks are not known cannot be written as PokerStars text, "
            "which gives every stack: export it as PHH"
        )
    symbol = str(_tag(played, "currency_symbol", ""))
    currency = str(_tag(played, "currency", ""))

    def money(chips: int) -> str:
        whole = chips % 10 ** config.decimals == 0
        seen(not whole)
        return symbol + (str(chips // 10 ** config.decimals) if whole and trim
                         else from_chips(chips, config.decimals))

    unique = told_apart([
        (played.names[s] if played.names and played.names[s] else "") or f"Seat {s + 1}"
        for s in range(len(hand.starting))])

    def name(seat: int) -> str:
        return unique[seat]

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
    # The site writes one space before a tournament's header, two before a cash game's.
    gap = " " if str(header).startswith("Tournament") else "  "
    lines = [
        f"PokerStars Hand #{number}:{gap}{header}",
        f"Table '{_tag(played, 'table', 'cardtable')}' {size}-max "
        f"Seat #{seat_of[hand.button]} is the button",
    ]
    for s in sorted(order, key=seat_of.__getitem__):
        lines.append(f"Seat {seat_of[s]}: {name(s)} ({money(hand.starting[s])} in chips)")
    antes, blinds = config.posts(len(order))
    for s, ante in sorted(zip(order, antes, strict=True), key=lambda sa: seat_of[sa[0]]):
        if ante:
            lines.append(f"{name(s)}: posts the ante {money(min(ante, hand.starting[s]))}")
    new = config.new_player_posts(len(order))
    by_position = [order[1], order[0]] if len(order) == 2 else order
    roles: dict[int, list[str]] = {hand.button: ["button"]}
    for k, s in enumerate(by_position):
        chips = blinds[order.index(s)]
        if chips:
            # Past the two blinds: a missed big blind, or a straddle if larger; a
            # new player's post is the site's big blind out of position.
            word = ("small blind", "big blind")[k] if k < 2 else (
                "straddle" if chips > bb and not new[order.index(s)] else "big blind"
            )
            lines.append(f"{name(s)}: posts {word} {money(chips)}")
            if k < 2:
                roles.setdefault(s, []).append(word)
    lines.append("*** HOLE CARDS ***")
    fixed = config.holes or ("",) * config.seats
    hero = _tag(played, "_dealt_to", None)
    for s in order:
        # The site deals face up only to the hero; others' cards show at the showdown.
        known = (name(s) in hero if isinstance(hero, list)
                 else spell_cards(fixed[s]) and s not in hand.shown)
        if hand.holes[s] and known:
            lines.append(f"Dealt to {name(s)} {_cards(hand.holes[s])}")
    in_front = {s: min(b, hand.starting[s] - min(a, hand.starting[s]))
                for s, a, b in zip(order, antes, blinds, strict=True)}
    behind = {s: hand.starting[s] - min(a, hand.starting[s]) - in_front[s]
              for s, a in zip(order, antes, strict=True)}
    lines += _betting(hand, name, money, in_front, behind)
    blinded = {s for s, chips in in_front.items() if chips}
    return lines + _ending(hand, config, name, money, seat_of, roles, blinded)


def _betting(
    hand: HandState, name: Callable[[int], str], money: Callable[[int], str],
    in_front: dict[int, int], behind: dict[int, int],
) -> list[str]:
    """The streets and their actions (``in_front``: each seat's blind, ``behind``:
    its stack after the posts), an uncalled bet's return after the action it ends."""
    lines: list[str] = []
    put, left = dict(in_front), dict(behind)
    top = max(put.values(), default=0)
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
            put = dict.fromkeys(put, 0)
        if kind == "fold":
            lines.append(f"{name(seat)}: folds")
            continue
        if kind == "check":
            lines.append(f"{name(seat)}: checks")
            continue
        # A call's amount is what it adds; a bet's or a raise's, the street's total.
        added = amount if kind == "call" else amount - put[seat]
        put[seat] += added
        left[seat] -= added
        all_in = " and is all-in" if left[seat] <= 0 else ""
        if kind == "call":
            lines.append(f"{name(seat)}: calls {money(amount)}{all_in}")
        elif kind == "bet":
            lines.append(f"{name(seat)}: bets {money(amount)}{all_in}")
        else:
            lines.append(f"{name(seat)}: raises {money(amount - top)} to {money(amount)}{all_in}")
        if kind != "call":
            top = amount
    # An uncalled bet ends the betting: it comes back before any card still to come.
    lines += [f"Uncalled bet ({money(chips)}) returned to {name(s)}" for s, chips in hand.refunds]
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
    roles: dict[int, list[str]],
    blinded: set[int],
) -> list[str]:
    lines: list[str] = []
    runs = ("FIRST ", "SECOND ") if hand.board2 else ("",)
    pots = _raked_pots(hand, config)
    halves = split_runs(pots) if hand.board2 else (pots,)
    won: dict[int, int] = {}
    won_in: list[dict[int, int]] = [{} for _ in runs]  # each run's winnings
    for k, (run, run_pots) in enumerate(zip(runs, halves, strict=True), 1):
        showdown = len(hand.live) > 1
        if showdown:
            lines.append(f"*** {run}SHOW DOWN ***")
        awards = [a for a in hand.awards if a.run == k]
        paid = _per_pot(awards, run_pots, config.odd_chip)
        # The site goes pot by pot from the last side pot: the hands that contest it
        # (in the order they show) and not yet shown, then who collects it.
        order = [*hand.shown, *(s for s in hand.live if s not in hand.shown)]
        said: set[int] = set()
        for i in sorted({*range(len(run_pots)), *(pot for pot, _, _ in paid)}, reverse=True):
            eligible = run_pots[i].eligible if i < len(run_pots) else ()
            for s in order if showdown else ():
                if s in eligible and s not in said:
                    said.add(s)
                    lines.append(_shows(hand, s, k, name))
            for pot, s, chips in reversed([x for x in paid if x[0] == i]):
                lines.append(f"{name(s)} collected {money(chips)} from "
                             f"{_pot_name(pot, len(pots))}")
                won[s] = won.get(s, 0) + chips
                won_in[k - 1][s] = won_in[k - 1].get(s, 0) + chips
        lines += [_shows(hand, s, k, name) for s in order if showdown and s not in said]
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
        role = "".join(f" ({r})" for r in roles.get(s, []))
        outcome = _outcome(hand, s, won_in, money, s in blinded)
        lines.append(f"Seat {seat_of[s]}: {name(s)}{role} {outcome}")
    return lines


def _shows(hand: HandState, seat: int, run: int, name: Callable[[int], str]) -> str:
    if seat in hand.shown:
        return f"{name(seat)}: shows {_cards(hand.holes[seat])} ({_made(hand, seat, run)})"
    return f"{name(seat)}: mucks hand"


def _outcome(hand: HandState, seat: int, won_in: list[dict[int, int]],
             money: Callable[[int], str], blinded: bool) -> str:
    """A seat's summary: ``folded on the Flop``, ``showed [..] and won (X) with ..``
    (``blinded``: it posted a blind, so folding first it still bet); a board run
    twice says each run's outcome, ``and lost with .., and won (X) with ..``."""
    if hand.folded[seat]:
        street = next(st for st, s, kind, _ in hand.history if s == seat and kind == "fold")
        if street == Street.PREFLOP:
            acted = any(s == seat and kind in ("call", "bet", "raise")
                        for _, s, kind, _ in hand.history)
            return "folded before Flop" + ("" if acted or blinded else " (didn't bet)")
        return f"folded on the {STREET_NAMES[street].capitalize()}"
    if seat in hand.shown and len(hand.live) > 1:
        runs = [
            f"won ({money(won[seat])}) with {_made(hand, seat, k)}" if seat in won
            else f"lost with {_made(hand, seat, k)}"
            for k, won in enumerate(won_in, 1)
        ]
        return f"showed {_cards(hand.holes[seat])} and " + ", and ".join(runs)
    if len(hand.live) > 1:
        return "mucked"
    return f"collected ({money(sum(won.get(seat, 0) for won in won_in))})"


# The site's words for the ranks: "a pair of Deuces", "a straight, Ten to Ace".
_RANK_WORDS = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
               "Jack", "Queen", "King", "Ace")


def _made(hand: HandState, seat: int, run: int) -> str:
    """The seat's best five cards in the site's words, on run ``run``'s board."""
    board = hand.board2 if run == 2 and hand.board2 else hand.board
    hc = hand_class(evaluate([*hand.holes[seat], *board]))
    r, c = hc.ranks, hc.category

    def many(i: int) -> str:
        return _RANK_WORDS[i] + ("es" if i == 4 else "s")  # Sixes

    if c is Category.STRAIGHT_FLUSH:
        return "a Royal Flush" if r[0] == 12 else f"a straight flush, {_run_of(r[0])}"
    if c is Category.FOUR_OF_A_KIND:
        return f"four of a kind, {many(r[0])}"
    if c is Category.FULL_HOUSE:
        return f"a full house, {many(r[0])} full of {many(r[1])}"
    if c is Category.FLUSH:
        return f"a flush, {_RANK_WORDS[r[0]]} high"
    if c is Category.STRAIGHT:
        return f"a straight, {_run_of(r[0])}"
    if c is Category.THREE_OF_A_KIND:
        return f"three of a kind, {many(r[0])}"
    if c is Category.TWO_PAIR:
        return f"two pair, {many(r[0])} and {many(r[1])}"
    if c is Category.ONE_PAIR:
        return f"a pair of {many(r[0])}"
    return f"high card {_RANK_WORDS[r[0]]}"


def _run_of(high: int) -> str:
    """``Nine to King``; a five-high straight is ``Ace to Five``."""
    low = "Ace" if high == 3 else _RANK_WORDS[high - 4]
    return f"{low} to {_RANK_WORDS[high]}"


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
