"""The hand engine: blinds, betting rounds, streets and showdown.

Pure functions from (hand, stacks) to (hand, stacks, events); the Game wraps them.
Betting follows the no-limit rules of docs/poker.md, "Table rules (no-limit
hold'em)":

- A bet or raise must add at least the largest bet/raise increment made so far this
  round, and at least the big blind (the minimum raise is the last full raise); a
  player may always go all-in for less.
- An all-in raise smaller than that (a *short* all-in) does not reopen the betting to
  players who already acted since the last full raise: they may call or fold only,
  unless consecutive short all-ins add up to a full raise.  Players yet to act may
  raise as usual.
- No one may raise when every other player still in is all-in (nothing to raise
  against), or when their chips only cover a call.
- Heads-up the button posts the small blind and acts first before the flop; after
  the flop the first player left of the button acts first.
- An uncalled part of a bet goes back to its owner when the round closes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

from engine.cards import format_card
from engine.events import Event
from rules.poker.options import PokerConfig
from rules.poker.payout import pay
from rules.poker.pots import Pot, build_pots, uncalled
from rules.poker.state import STREET_NAMES, HandState, Street

_BOARD_SIZES = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}
_DEALT_BEFORE = {Street.FLOP: 0, Street.TURN: 3, Street.RIVER: 4}  # board cards before


@dataclass(frozen=True)
class Options:
    """What the player to act may do: check or call ``call`` chips, fold (only when
    facing a bet), and bet/raise to any total from ``min_to`` to ``max_to`` this round
    (None when raising is not allowed)."""

    seat: int
    to_call: int  # chips a call puts in (0: a check)
    can_fold: bool
    bet: int  # the seat's bet this round
    current: int  # the largest bet this round
    min_to: int | None
    max_to: int | None


class _Work:
    """A mutable copy of a hand and the stacks, for one transition."""

    def __init__(self, hand: HandState, stacks: Sequence[int], config: PokerConfig) -> None:
        for f in fields(HandState):
            value = getattr(hand, f.name)
            setattr(self, f.name, list(value) if isinstance(value, tuple) else value)
        self.acted = set(hand.acted)
        self.stacks = list(stacks)
        self.config = config
        self.events: list[Event] = []

    # The attributes mirror HandState (as lists); declared for the type checker.
    starting: list[int]
    number: int
    button: int
    small_blind_seat: int
    big_blind_seat: int
    players: list[int]
    holes: list[tuple[int, ...]]
    stub: list[int]
    board: list[int]
    street: Street
    bets: list[int]
    contributed: list[int]
    folded: list[bool]
    queue: list[int]
    acted: set[int]
    raise_size: int
    short_all_ins: list[int]
    aggressor: int | None
    done: bool
    shown: list[int]
    mucked: list[int]
    awards: list[object]
    refunds: list[tuple[int, int]]
    history: list[tuple[int, int, str, int]]
    dead: list[int]
    board2: list[int]
    raked: int
    aside: list[int]

    def freeze(self) -> tuple[HandState, tuple[int, ...], list[Event]]:
        values: dict[str, Any] = {}
        for f in fields(HandState):
            v = getattr(self, f.name)
            values[f.name] = (
                frozenset(v) if f.name == "acted" else tuple(v) if isinstance(v, list) else v
            )
        return HandState(**values), tuple(self.stacks), self.events

    @property
    def live(self) -> list[int]:
        return [s for s in self.players if not self.folded[s]]

    def put(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.bets[seat] += chips
        self.contributed[seat] += chips

    def effective(self, seat: int) -> int:
        """Chips ``seat`` could still lose to another live player this hand."""
        totals = sorted(self.bets[s] + self.stacks[s] for s in self.live)
        second = totals[-2] if len(totals) > 1 else 0
        return min(self.stacks[seat], max(0, second - self.bets[seat]))


def deal_hand(
    config: PokerConfig,
    stacks: Sequence[int],
    players: Sequence[int],
    number: int,
    holes: Sequence[tuple[int, ...]],
    stub: Sequence[int],
) -> tuple[HandState, tuple[int, ...], list[Event]]:
    """Start a hand: ``players`` are the seats dealt in from the first seat left of
    the button (the button last), ``holes`` the two cards of each chair (``()`` for
    chairs not dealt in), ``stub`` the rest of the deck in dealing order.  Posts the
    antes and blinds and opens the preflop betting."""
    seats = len(stacks)
    order = list(players)
    antes, blinds = config.posts(len(order))
    # The two blind positions by PHH's list (heads-up the button is the small blind).
    first, second = (order[1], order[0]) if len(order) == 2 else (order[0], order[1])
    hand = HandState(
        starting=tuple(stacks),
        number=number,
        button=order[-1],
        small_blind_seat=first,
        big_blind_seat=second,
        players=tuple(order),
        holes=tuple(holes),
        stub=tuple(stub),
        board=(),
        street=Street.PREFLOP,
        bets=(0,) * seats,
        contributed=(0,) * seats,
        folded=tuple(s not in order for s in range(seats)),
        queue=(),
        acted=frozenset(),
        raise_size=0,
        short_all_ins=(),
        aggressor=None,
    )
    w = _Work(hand, stacks, config)
    if config.cap is not None:  # cap no-limit: what is above the cap sits this hand out
        w.aside = [max(0, w.stacks[s] - config.cap) if s in order else 0 for s in range(seats)]
        w.stacks = [st - a for st, a in zip(w.stacks, w.aside, strict=True)]
    posted = [0] * seats
    for s, size in zip(order, antes, strict=True):
        chips = min(size, w.stacks[s])
        if chips:
            w.stacks[s] -= chips
            w.contributed[s] += chips
            posted[s] = chips
            w.events.append(Event("post", {"seat": s, "blind": "ante", "chips": chips}))
    if config.ante_trimming:
        back = uncalled(posted)
        if back is not None:  # an ante nobody matched (pokerkit's ante trimming)
            seat, chips = back
            w.stacks[seat] += chips
            w.contributed[seat] -= chips
            w.refunds.append((seat, chips))
            w.events.append(Event("refund", {"seat": seat, "chips": chips}))
    elif any(posted):
        w.dead = posted
    new = config.new_player_posts(len(order))
    by_position = [order[1], order[0]] if len(order) == 2 else order
    for k, seat in enumerate(by_position):
        chips = min(blinds[order.index(seat)], w.stacks[seat])
        if chips:
            w.put(seat, chips)
            name = ("small", "big")[k] if k < 2 else "straddle"
            if new[order.index(seat)]:
                name = "post"  # a new player's post
            w.events.append(Event("post", {"seat": seat, "blind": name, "chips": chips}))
    _begin_round(w)
    return w.freeze()


def _begin_round(w: _Work) -> None:
    """Open a betting round (or close it at once if nobody can act)."""
    n = len(w.players)
    if w.street is Street.PREFLOP:
        # Action starts left of the largest blind or straddle posted (pokerkit's
        # rule, which also covers a big blind too short to exceed the small blind).
        # Past the two blinds a post moves the first to act only if it is larger
        # than every post before it (a straddle): a missed big blind posted out of
        # position does not, nor ever does a post written as a new player's (a
        # negative entry: pokerkit's notation).
        _, blinds = w.config.posts(n)
        new = w.config.new_player_posts(n)
        top, last = 0, n - 1  # nothing posted: the first seat left of the button
        for i, s in enumerate(w.players):
            bet = w.bets[s] if blinds[i] and not new[i] else 0
            if bet > top or (i < 2 and bet == top > 0):
                top, last = bet, i
        opener = (last + 1) % n
    else:
        opener = 0
    rotated = [*w.players[opener:], *w.players[:opener]]
    w.queue = [s for s in rotated if not w.folded[s] and w.stacks[s] > 0 and w.effective(s) > 0]
    w.acted = set()
    w.raise_size = 0
    w.short_all_ins = []
    w.aggressor = None
    top = max(w.bets)
    if len(w.live) <= 1 or not w.queue or (len(w.queue) == 1 and w.bets[w.queue[0]] >= top):
        _end_round(w)


def options(hand: HandState, stacks: Sequence[int], config: PokerConfig) -> Options | None:
    """What the player to act may do now (None when nobody is to act)."""
    seat = hand.actor
    if seat is None:
        return None
    current = max(hand.bets)
    bet = hand.bets[seat]
    stack = stacks[seat]
    to_call = min(stack, current - bet)
    min_to = max_to = None
    if _may_raise(hand, stacks, seat, to_call):
        max_to = stack + bet
        min_to = min(max_to, current + max(hand.raise_size, config.min_raise))
    return Options(seat, to_call, current > bet, bet, current, min_to, max_to)


def _may_raise(hand: HandState, stacks: Sequence[int], seat: int, to_call: int) -> bool:
    current = max(hand.bets)
    if to_call < hand.raise_size:
        return False  # facing only a short all-in since this seat's last full action
    if hand.short_all_ins and sum(hand.short_all_ins) < hand.raise_size and seat in hand.acted:
        return False  # a short all-in does not reopen the betting
    if stacks[seat] <= current - hand.bets[seat]:
        return False  # only enough for a call
    return any(
        s != seat and not hand.folded[s] and stacks[s] + hand.bets[s] > current
        for s in hand.players
    )


def act(
    hand: HandState, stacks: Sequence[int], config: PokerConfig, kind: str, to: int = 0
) -> tuple[HandState, tuple[int, ...], list[Event]]:
    """Apply an already validated action of the player to act: ``fold``, ``check``,
    ``call`` or ``raise`` (to a total of ``to`` this round; also a first bet)."""
    w = _Work(hand, stacks, config)
    seat = w.queue.pop(0)
    w.acted.add(seat)
    current = max(w.bets)
    data: dict[str, object] = {"seat": seat, "type": kind}
    if kind == "fold":
        w.folded[seat] = True
    elif kind in ("check", "call"):
        chips = min(w.stacks[seat], current - w.bets[seat])
        w.put(seat, chips)
        if kind == "call":
            data["chips"] = chips
    else:
        increment = to - current
        w.put(seat, to - w.bets[seat])
        data["type"] = "raise" if current else "bet"
        data["to"] = to
        rotated = [*w.players, *w.players]
        at = w.players.index(seat)
        w.queue = [
            s for s in rotated[at + 1 : at + len(w.players)] if not w.folded[s] and w.stacks[s] > 0
        ]
        w.aggressor = seat
        if increment >= w.raise_size:
            w.acted = {seat}
        w.raise_size = max(w.raise_size, increment)
        if w.stacks[seat]:
            w.short_all_ins = []
        else:
            w.short_all_ins.append(increment)
        if sum(w.short_all_ins) >= w.raise_size:
            w.short_all_ins = []
    if w.stacks[seat] == 0 and kind != "fold" and kind != "check":
        data["all_in"] = True
    amount = int(data.get("to", data.get("chips", 0)))  # type: ignore[call-overload]
    w.history.append((int(w.street), seat, str(data["type"]), amount))
    w.events.append(Event("action", data))
    if not w.queue or len(w.live) <= 1:
        _end_round(w)
    return w.freeze()


def _end_round(w: _Work) -> None:
    back = uncalled(w.bets)
    if back is not None:
        seat, chips = back
        w.bets[seat] -= chips
        w.contributed[seat] -= chips
        w.stacks[seat] += chips
        w.refunds.append((seat, chips))
        w.events.append(Event("refund", {"seat": seat, "chips": chips}))
    w.bets = [0] * len(w.bets)
    w.queue = []
    live = w.live
    if len(live) <= 1:
        _finish(w)
        return
    if w.street is Street.RIVER:
        _finish(w)
        return
    w.street = Street(w.street + 1)
    _deal_street(w)
    if sum(1 for s in live if w.stacks[s] > 0) <= 1:
        # Nobody left to bet against: run the board out (twice with run_twice),
        # then show down.
        first = w.street
        while w.street < Street.RIVER:
            w.street = Street(w.street + 1)
            _deal_street(w)
        if w.config.run_twice:
            _second_run(w, first)
        # No betting round is played on the streets run out, so the showdown order
        # comes from the last round that was (its last aggressor shows first).
        _finish(w)
        return
    _begin_round(w)


def _deal_street(w: _Work) -> None:
    count = _BOARD_SIZES[w.street]
    cards = w.stub[1 : 1 + count]  # burn one, then turn the cards up
    del w.stub[: 1 + count]
    w.board.extend(cards)
    w.events.append(
        Event(
            "street",
            {
                "street": STREET_NAMES[w.street],
                "cards": [format_card(c) for c in cards],
                "board": [format_card(c) for c in w.board],
            },
        )
    )


def _second_run(w: _Work, first: Street) -> None:
    """Deal the streets from ``first`` on again, for the second run: the cards come
    off the stub without burns, so a history's second board sits right after the
    first run's cards whatever street the runs parted on (table._fixed_deal)."""
    w.board2 = w.board[: _DEALT_BEFORE[first]]
    for street in range(first, Street.RIVER + 1):
        count = _BOARD_SIZES[Street(street)]
        cards = w.stub[:count]
        del w.stub[:count]
        w.board2 = [*w.board2, *cards]
        w.events.append(
            Event(
                "street",
                {
                    "street": STREET_NAMES[street],
                    "cards": [format_card(c) for c in cards],
                    "board": [format_card(c) for c in w.board2],
                    "run": 2,
                },
            )
        )


def hand_pots(hand: HandState) -> list[Pot]:
    """The pots as collected so far (the current round's bets not included)."""
    live = [not f for f in hand.folded]
    collected = [c - b for c, b in zip(hand.contributed, hand.bets, strict=True)]
    return build_pots(collected, live, hand.players, hand.dead) if any(collected) else []


def _finish(w: _Work) -> None:
    live = w.live
    pots = build_pots(w.contributed, [not f for f in w.folded], w.players, w.dead)
    boards = [w.board, w.board2] if w.board2 else [w.board]
    out = pay(w.config, pots, live, w.players, w.holes, boards, w.aggressor)
    if len(live) > 1:
        w.mucked = out.mucked
    w.shown = out.shown
    w.raked = out.raked
    for a in out.awards:
        for s, chips in a.shares:
            w.stacks[s] += chips
    for s, chips in enumerate(w.aside):
        w.stacks[s] += chips
    w.events += out.events
    w.awards = list(out.awards)
    w.done = True
    w.queue = []
