"""What a tournament has shown so far: per-deal scores, points, ratings, stand-ins."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from bots.arena import PlayedGame, SeatFaults, mean_ci
from bots.tournament.ratings import Rating, Ratings


@dataclass(frozen=True)
class SeatedGame:
    """One game of a match: the bot name in each seat and how it went."""

    seating: tuple[str, ...]
    played: PlayedGame


@dataclass(frozen=True)
class MatchResult:
    """``a`` against ``b`` over one deal (``seed``) in every seating: each side's
    mean score per game (times the tournament's scale), and the games."""

    number: int  # 1-based, in the order ratings were updated
    round: int
    a: str
    b: str
    seed: int
    score_a: float
    score_b: float
    games: tuple[SeatedGame, ...]


def match_result(
    number: int,
    round_no: int,
    a: str,
    b: str,
    seed: int,
    games: Sequence[SeatedGame],
    scale: float = 1.0,
) -> MatchResult:
    """Score a match: each side's seats' scores, averaged over its seats and games."""
    totals = {a: 0.0, b: 0.0}
    counts = {a: 0, b: 0}
    for g in games:
        for seat, name in enumerate(g.seating):
            totals[name] += g.played.scores[seat] * scale
            counts[name] += 1
    score_a, score_b = totals[a] / counts[a], totals[b] / counts[b]
    return MatchResult(number, round_no, a, b, seed, score_a, score_b, tuple(games))


@dataclass(frozen=True)
class BotStanding:
    """A bot's mean score per game with its Student-t 95% interval over its
    matches, its rating, its Swiss points and the stand-ins it was given."""

    name: str
    mean: float
    half_width: float
    matches: int
    rating: Rating
    points: float
    stand_ins: int

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


@dataclass
class Tally:
    """The running totals of a tournament, fed one match at a time."""

    names: tuple[str, ...]
    ratings: Ratings
    samples: dict[str, list[float]] = field(default_factory=dict)
    points: dict[str, float] = field(default_factory=dict)
    stand_ins: dict[str, int] = field(default_factory=dict)
    # Why the stand-ins were made (games played here; a server's tables say nothing)
    faults: dict[str, SeatFaults] = field(default_factory=dict)
    # (match number, bot, rating after it): the rating-over-matches history
    history: list[tuple[int, str, Rating]] = field(default_factory=list)
    met: set[frozenset[int]] = field(default_factory=set)
    rated: set[str] = field(default_factory=set)  # bots that have met another bot
    matches: int = 0
    games: int = 0

    def __post_init__(self) -> None:
        for n in self.names:
            self.samples.setdefault(n, [])
            self.points.setdefault(n, 0.0)
            self.stand_ins.setdefault(n, 0)
            self.history.append((0, n, self.ratings.get(n)))

    def add(self, m: MatchResult) -> None:
        """Count a match and update both ratings."""
        self.matches += 1
        self.games += len(m.games)
        self.samples[m.a].append(m.score_a)
        if m.b != m.a:
            self.samples[m.b].append(m.score_b)
            win = 1.0 if m.score_a > m.score_b else 0.5 if m.score_a == m.score_b else 0.0
            self.points[m.a] += win
            self.points[m.b] += 1.0 - win
        for g in m.games:
            for seat, name in enumerate(g.seating):
                self.stand_ins[name] += g.played.stand_ins[seat]
                if g.played.faults:
                    self.faults[name] = self.faults.get(name, SeatFaults()).plus(
                        g.played.faults[seat]
                    )
        self.ratings.update(m.a, m.b, m.score_a, m.score_b)
        if m.a != m.b:
            self.rated.update((m.a, m.b))
        for name in dict.fromkeys((m.a, m.b)):
            self.history.append((m.number, name, self.ratings.get(name)))

    def standings(self) -> list[BotStanding]:
        """Every bot, best mean score first."""
        out = []
        for n in self.names:
            mean, half = mean_ci(self.samples[n])
            out.append(
                BotStanding(
                    n,
                    mean,
                    half,
                    len(self.samples[n]),
                    self.ratings.get(n),
                    self.points[n],
                    self.stand_ins[n],
                )
            )
        return sorted(out, key=lambda s: (-s.mean, s.name))

    def order(self) -> list[int]:
        """Entrant indices by Swiss points, then rating (the pairing order)."""
        return sorted(
            range(len(self.names)),
            key=lambda i: (-self.points[self.names[i]], -self.ratings.get(self.names[i]).ordinal),
        )

    def leader(self) -> str | None:
        """The best bot by rating so far (None before any match between two)."""
        if not self.rated:
            return None
        return max(sorted(self.rated), key=lambda n: self.ratings.get(n).ordinal)
