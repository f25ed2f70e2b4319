"""How fast the terminal client sends: a token bucket kept under the server's
rate limit, so a burst of typed moves is delayed here instead of refused there."""

from __future__ import annotations

import time


class SendPace:
    """``rate`` sends per second on average, bursts of up to ``burst``."""

    def __init__(self, rate: float, burst: int, tokens: float | None = None) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst) if tokens is None else tokens
        self.updated = time.monotonic()

    def take(self) -> bool:
        """Whether a message may go now (spending a token if so)."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def slower(self) -> SendPace:
        """Half the rate, no burst: for a server whose limit is lower than assumed."""
        return SendPace(self.rate / 2, 1, tokens=0)
