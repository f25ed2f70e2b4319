"""A token bucket per connection, with a flood meter behind it."""

from __future__ import annotations

from server.clock import Clock


class TokenBucket:
    """``rate`` messages per second on average, bursts of up to ``burst``.

    :meth:`take` answers whether a message may pass.  :attr:`debt` counts the
    refusals of the current run (one ``rate_limited`` notice per run).  Refusals
    also fill a flood meter that drains at ``rate`` whatever happens in between:
    a client a little too fast never fills it, one far beyond the rate does
    within seconds even when a token trickles back between its refusals (a run
    counter alone is reset by every returning token, so a client at 200 times
    the rate was never called a flood).
    """

    def __init__(self, rate: float, burst: int, clock: Clock, flood_limit: int = 200) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.flood_limit = flood_limit
        self.tokens = float(burst)
        self.flood = 0.0
        self.updated = clock.now()
        self.debt = 0

    def take(self) -> bool:
        now = self.clock.now()
        elapsed = now - self.updated
        self.updated = now
        self.tokens = min(self.burst, self.tokens + elapsed * self.rate)
        self.flood = max(0.0, self.flood - elapsed * self.rate)
        if self.tokens >= 1:
            self.tokens -= 1
            self.debt = 0
            return True
        self.debt += 1
        self.flood += 1
        return False

    @property
    def flooding(self) -> bool:
        """Refused messages came faster than the rate for long enough to be a flood."""
        return self.flood >= self.flood_limit
