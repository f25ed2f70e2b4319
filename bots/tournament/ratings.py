"""Ratings with uncertainty: OpenSkill's Plackett-Luce model, one rating per bot
per game, updated after every match (why OpenSkill: docs/decisions.md)."""

from __future__ import annotations

from dataclasses import dataclass

from openskill.models import PlackettLuce


@dataclass(frozen=True)
class Rating:
    """A skill estimate: ``mu`` and its standard deviation ``sigma``; ``ordinal``
    (mu - 3 sigma) is the conservative figure leaderboards sort by."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class Ratings:
    """The current rating of every bot of one game."""

    def __init__(self, start: dict[str, Rating] | None = None) -> None:
        self.model = PlackettLuce()
        self.current: dict[str, Rating] = dict(start or {})

    def get(self, name: str) -> Rating:
        default = self.model.rating()
        return self.current.get(name, Rating(default.mu, default.sigma))

    def update(self, a: str, b: str, score_a: float, score_b: float) -> None:
        """Record a match of ``a`` against ``b``: the higher score wins, equal
        scores draw.  A bot playing itself learns nothing."""
        if a == b:
            return
        ra, rb = self.get(a), self.get(b)
        ranks = (
            [1.0, 1.0] if score_a == score_b else ([1.0, 2.0] if score_a > score_b else [2.0, 1.0])
        )
        [[na], [nb]] = self.model.rate(
            [
                [self.model.rating(mu=ra.mu, sigma=ra.sigma)],
                [self.model.rating(mu=rb.mu, sigma=rb.sigma)],
            ],
            ranks=ranks,
        )
        self.current[a] = Rating(float(na.mu), float(na.sigma))
        self.current[b] = Rating(float(nb.mu), float(nb.sigma))

    def leader(self) -> str | None:
        """The bot with the best ordinal, if any has played."""
        if not self.current:
            return None
        return max(self.current, key=lambda n: self.current[n].ordinal)
