"""The end of a hand as a pure function: the rake, who shows, and each pot's winners
on each run of the board (docs/poker.md, "Table rules (no-limit hold'em)")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from engine.cards import format_card
from engine.events import Event
from rules.poker.evaluator import describe, evaluate
from rules.poker.options import PokerConfig
from rules.poker.pots import Pot
from rules.poker.rake import split_runs, take_rake
from rules.poker.scoring import Award, award, showdown, showing_order

UNKNOWN = 10_000  # the rank of a hand whose cards are not known (worse than any)
WON_UNKNOWN = 0  # an unknown hand the history says won (``showdown_winners``): above any


@dataclass(frozen=True)
class Payout:
    """What ending a hand decided: the seats shown and mucked, the awards (each pot
    of each run), the chips raked, and the events saying so."""

    shown: list[int]
    mucked: list[int]
    awards: list[Award]
    raked: int
    events: list[Event]


def pay(
    config: PokerConfig,
    pots: Sequence[Pot],
    live: Sequence[int],
    players: Sequence[int],
    holes: Sequence[tuple[int, ...]],
    boards: Sequence[Sequence[int]],
    aggressor: int | None,
) -> Payout:
    """Rake the pots, show down on every board (one, or two when run twice) and
    award each pot, halved between the runs when there are two."""
    events: list[Event] = []
    pots, raked = take_rake(pots, config, flop_dealt=len(boards[0]) >= 3)
    if raked:
        events.append(Event("rake", {"chips": raked}))
    if len(live) == 1:
        awards = award(pots, {}, [], config.odd_chip)
        return Payout([], [], awards, raked, events + _win_events(awards, 1))
    # A hand whose cards are unknown (imported from a history that never showed them)
    # cannot win: it is mucked; unless the history says it won (``showdown_winners``,
    # found from its payouts): then it beats every known hand, level with the others.
    won = set(config.showdown_winners or ()) & set(live)

    def rank(s: int, board: Sequence[int]) -> int:
        if holes[s]:
            return evaluate([*holes[s], *board])
        return WON_UNKNOWN if s in won else UNKNOWN

    ranks = [{s: rank(s, board) for s in live} for board in boards]
    order = showing_order(live, players, aggressor)
    showing: set[int] = set()
    for board_ranks in ranks:  # a hand is shown when it could win on some run
        showing.update(showdown(pots, board_ranks, order, config.muck_losers)[0])
    shown = [s for s in order if s in showing and holes[s]]
    mucked = [s for s in order if s not in shown and s not in won]
    contenders = [*shown, *won]  # the unknown winners show nothing, and win
    for s in order:
        if s in shown:
            data: dict[str, object] = {"seat": s, "cards": [format_card(c) for c in holes[s]],
                    "hand": describe(ranks[0][s])}
            if len(boards) > 1:
                data["hand2"] = describe(ranks[1][s])
            events.append(Event("show", data))
        elif s not in won:
            events.append(Event("muck", {"seat": s}))
    if len(boards) == 1:
        awards = award(pots, ranks[0], contenders, config.odd_chip)
        return Payout(shown, mucked, awards, raked, events + _win_events(awards, 1))
    halves = split_runs(pots)
    awards = []
    for run, (half, run_ranks) in enumerate(zip(halves, ranks, strict=True), 1):
        paid = [replace(a, run=run) for a in award(half, run_ranks, contenders, config.odd_chip)]
        awards += paid
        events += _win_events(paid, run, runs=2)
    return Payout(shown, mucked, awards, raked, events)


def _win_events(awards: Sequence[Award], run: int, runs: int = 1) -> list[Event]:
    out = []
    for a in awards:
        data: dict[str, object] = {"pot": a.pot, "chips": a.amount, "winners": list(a.winners),
                "shares": [[s, c] for s, c in a.shares]}
        if runs > 1:
            data["run"] = run
        out.append(Event("win", data))
    return out
