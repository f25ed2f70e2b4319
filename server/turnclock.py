"""Per-seat turn clocks with a time bank, as plain values (no timers here).

A human who must act has ``turn_seconds`` each turn; past that the seat's bank
(``time_bank`` seconds for the whole game) is drawn on; when both are gone the
table plays the expiry action for the seat.  The table owns the timer; this
module only does the arithmetic, so it is tested without sleeping.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class TurnClock:
    turn_seconds: float
    banks: list[float]  # bank left per seat
    seats: tuple[int, ...] = ()  # seats on the clock now
    started: float = 0.0  # when they went on it
    version: int = -1  # the table version they are timed at
    changed: dict[int, float] = field(default_factory=dict)  # banks drawn, not yet stored

    @classmethod
    def new(cls, turn_seconds: float, time_bank: float | None, seats: int) -> TurnClock:
        return cls(turn_seconds, [float(time_bank or 0.0)] * seats)

    def settled(self, now: float) -> dict[int, float]:
        """The banks not yet stored if the timed seats stopped at ``now`` (each pays
        its overrun from its bank); nothing changes."""
        over = max(0.0, now - self.started - self.turn_seconds)
        changed = dict(self.changed)
        if over > 0:
            for s in self.seats:
                left = max(0.0, self.banks[s] - over)
                if left != self.banks[s]:
                    changed[s] = left
        return changed

    def settle(self, now: float) -> None:
        """The timed seats stop: each pays its overrun from its bank."""
        self.changed = self.settled(now)
        for s, left in self.changed.items():
            self.banks[s] = left
        self.seats = ()

    def start(self, version: int, seats: tuple[int, ...], now: float) -> None:
        """Put ``seats`` on the clock at ``version`` (settling the previous turn)."""
        self.settle(now)
        self.version, self.seats, self.started = version, seats, now

    def expiry(self) -> tuple[float, int] | None:
        """Seconds from the start of the turn until the first timed seat runs out
        of time, and that seat (the one with the smallest bank)."""
        if not self.seats:
            return None
        seat = min(self.seats, key=lambda s: (self.banks[s], s))
        return self.turn_seconds + self.banks[seat], seat

    def view(self, now: float, visible: tuple[int, ...] | None = None) -> dict[str, Any]:
        """The clock as a frame shows it; ``visible`` limits the timed seats to
        those the viewer may know are to act."""
        elapsed = max(0.0, now - self.started)
        over = max(0.0, elapsed - self.turn_seconds)
        seats = [s for s in self.seats if visible is None or s in visible]
        banks = [max(0.0, b - over) if s in seats else b for s, b in enumerate(self.banks)]
        return {
            "seats": seats,
            "turn_left": round(max(0.0, self.turn_seconds - elapsed), 3) if seats else None,
            "banks": [round(b, 3) for b in banks],
        }

    def take_changes(self) -> dict[int, float]:
        """Banks drawn since the last call (to be stored)."""
        changed, self.changed = self.changed, {}
        return changed


def bank_detail(banks: dict[int, float]) -> dict[str, Any]:
    """The ``time_bank`` table event of banks drawn (seat -> seconds left)."""
    return {"banks": {str(s): left for s, left in banks.items()}}


def restored_clock(
    table_options: dict[str, Any], seats: int, events: list[tuple[str, dict[str, Any]]]
) -> TurnClock | None:
    """A stored table's turn clock, its banks as its ``time_bank`` events last left
    them (a turn in progress at a restart starts afresh); None without a clock."""
    turn = table_options.get("turn_seconds")
    if turn is None:
        return None
    clock = TurnClock.new(turn, table_options.get("time_bank"), seats)
    for kind, detail in events:
        if kind == "time_bank":
            for seat, left in detail.get("banks", {}).items():
                clock.banks[int(seat)] = float(left)
    return clock
