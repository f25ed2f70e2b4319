"""Tracker statistics over stored hands, per player (docs/poker.md, "Tracker
statistics"): a pure function of game records.

The definitions are the ones hand trackers (PokerTracker, Hold'em Manager) use:

- **Hands**: hands the player was dealt in.
- **VPIP** (voluntarily put money in pot): % of hands with a call, bet or raise
  before the flop (posting a blind is not voluntary; a big blind who checks did not).
- **PFR** (pre-flop raise): % of hands with a bet or raise before the flop.
- **3-bet**: % of the times the player acted before the flop facing exactly one
  raise (an open raise over the blinds) that they re-raised.
- **AF** (aggression factor): (bets + raises) / calls after the flop; none while
  the player has made no call after the flop.
- **WTSD** (went to showdown): % of the hands the player saw the flop in that they
  were still in at the showdown.
- **W$SD** (won money at showdown): % of those showdowns in which they won chips.
- **bb/100**: chips won per hand in big blinds, times 100.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine.formats import GameRecord
from engine.statistics import Column, StatTable, Value
from rules.poker.hands import PlayedHand, played_hands
from rules.poker.state import Street

COLUMNS = (
    Column("Hands", "hands dealt in", "count"),
    Column("VPIP", "voluntarily put money in the pot before the flop", "%"),
    Column("PFR", "raised before the flop", "%"),
    Column("3-bet", "re-raised an open raise, when facing one", "%"),
    Column("AF", "(bets + raises) / calls after the flop", "ratio"),
    Column("WTSD", "went to showdown, of the hands that saw the flop", "%"),
    Column("W$SD", "won money at showdown, of the showdowns", "%"),
    Column("bb/100", "big blinds won per 100 hands", "bb/100"),
)


@dataclass
class _Tally:
    hands: int = 0
    vpip: int = 0
    pfr: int = 0
    three_bet: int = 0
    three_bet_chances: int = 0
    aggressive: int = 0
    calls: int = 0
    saw_flop: int = 0
    showdowns: int = 0
    won_showdowns: int = 0
    big_blinds: float = 0.0

    def values(self) -> tuple[Value, ...]:
        return (
            self.hands,
            _percent(self.vpip, self.hands),
            _percent(self.pfr, self.hands),
            _percent(self.three_bet, self.three_bet_chances),
            round(self.aggressive / self.calls, 2) if self.calls else None,
            _percent(self.showdowns, self.saw_flop),
            _percent(self.won_showdowns, self.showdowns),
            round(100 * self.big_blinds / self.hands, 2) if self.hands else None,
        )


def _percent(part: int, whole: int) -> float | None:
    return round(100 * part / whole, 1) if whole else None


def statistics(records: Sequence[GameRecord], player: str | None = None) -> StatTable:
    """Each named player's statistics over every finished hand of ``records``
    (only ``player``'s when given).  Seats without a name are not counted."""
    tallies: dict[str, _Tally] = {}
    for record in records:
        for played in played_hands(record):
            _count(played, tallies, player)
    return StatTable(COLUMNS, {name: t.values() for name, t in sorted(tallies.items())})


def _count(played: PlayedHand, tallies: dict[str, _Tally], only: str | None) -> None:
    hand = played.hand
    names = played.names
    seats = [
        s
        for s in hand.players
        if s < len(names) and names[s] and (only is None or names[s] == only)
    ]
    if not seats:
        return
    preflop = [(seat, kind) for st, seat, kind, _ in hand.history if st == Street.PREFLOP]
    later = [(seat, kind) for st, seat, kind, _ in hand.history if st > Street.PREFLOP]
    folded_preflop = {seat for seat, kind in preflop if kind == "fold"}
    showdown = len(hand.live) > 1
    won = {s for award in hand.awards for s, chips in award.shares if chips}
    for s in seats:
        t = tallies.setdefault(names[s], _Tally())
        t.hands += 1
        mine = [kind for seat, kind in preflop if seat == s]
        t.vpip += any(k in ("call", "bet", "raise") for k in mine)
        t.pfr += any(k in ("bet", "raise") for k in mine)
        chance, took = _three_bet(preflop, s)
        t.three_bet_chances += chance
        t.three_bet += took
        post = [kind for seat, kind in later if seat == s]
        t.aggressive += sum(k in ("bet", "raise") for k in post)
        t.calls += sum(k == "call" for k in post)
        if s not in folded_preflop and len(hand.board) >= 3:
            t.saw_flop += 1
            if showdown and s in hand.live:
                t.showdowns += 1
                t.won_showdowns += s in won
        net = played.final_stacks[s] - hand.starting[s]
        t.big_blinds += net / played.config.big_blind


def _three_bet(preflop: Iterable[tuple[int, str]], seat: int) -> tuple[bool, bool]:
    """(had the chance, took it): ``seat``'s first decision facing exactly one raise."""
    raises = 0
    for actor, kind in preflop:
        if actor == seat and raises == 1:
            return True, kind == "raise"
        if kind in ("bet", "raise"):
            if actor == seat:
                return False, False  # the opener: a re-raise now is a 4-bet
            raises += 1
    return False, False
