"""A token bucket per connection."""

from __future__ import annotations

from server.clock import Clock


class TokenBucket:
    """``rate`` messages per second on average, bursts of up to ``burst``.

    :meth:`take` answers whether a message may pass; :attr:`debt` counts messages
    refused since the bucket last had tokens, which is how a flood is told apart
    from a client that is merely a little too fast.
    """

    def __init__(self, rate: float, burst: int, clock: Clock) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.updated = clock.now()
        self.debt = 0

    def take(self) -> bool:
        now = self.clock.now()
        self.tokens = min(self.burst, self.tokens + (now - self.updated) * self.rate)
        self.updated = now
        if self.tokens >= 1:
            self.tokens -= 1
            self.debt = 0
            return True
        self.debt += 1
        return False
