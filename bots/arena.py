"""The local arena: bots play a game against each other, no server.

Every game's bot-strength report uses it (docs/architecture.md, "Bots and the
arena"):

- **seeds**: game ``k`` of a run deals from seed ``seeds[k]``; bots get per-decision
  seeds derived from it, so a run is reproducible.
- **seat rotation and duplicate deals**: with ``duplicate=True`` each seed is played
  once per rotation of the lineup round the table (heads-up: the same cards with the
  seats swapped), so every bot plays every seat of every deal and the luck of the
  cards cancels out of the comparison.
- **confidence intervals**: a bot's sample for a seed is its mean score over the
  rotations of that seed; the standing is the mean over seeds with a Student-t 95%
  interval (seeds are independent; t rather than the normal 1.96 because a
  tournament often has only a handful of deals).
- **progress** on stderr: a bar on a terminal, plain periodic lines otherwise
  (``bots/progress.py``).

Scores are ``Result.scores`` of the bot's seat times ``scale`` (e.g. 1 / big blind).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from scipy.special import stdtrit

from bots.base import Bot
from bots.progress import Progress
from engine.errors import IllegalAction
from engine.events import JSON
from engine.game import Game
from engine.rng import Rng, derive_seed


@dataclass(frozen=True)
class Standing:
    """A bot's mean score per game and its 95% confidence interval."""

    name: str
    mean: float
    half_width: float  # the interval is mean ± half_width
    samples: int  # independent samples (seeds)
    games: int  # games played (seeds x rotations)

    @property
    def low(self) -> float:
        return self.mean - self.half_width

    @property
    def high(self) -> float:
        return self.mean + self.half_width


@dataclass(frozen=True)
class ArenaResult:
    standings: tuple[Standing, ...]
    games: int
    actions: int
    illegal: int  # bot answers the rules rejected (replaced by the game's stand-in)
    seconds: float
    per_seed: dict[str, list[float]] = field(repr=False)

    def standing(self, name: str) -> Standing:
        return next(s for s in self.standings if s.name == name)

    def difference(self, a: str, b: str) -> Standing:
        """``a``'s score minus ``b``'s, paired by seed (the duplicate comparison)."""
        diffs = [x - y for x, y in zip(self.per_seed[a], self.per_seed[b], strict=True)]
        return _standing(f"{a} - {b}", diffs, self.standing(a).games)


def mean_ci(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """Mean and the half-width of its Student-t confidence interval at ``level``:
    ``t(1 - (1 - level) / 2, n - 1) * s / sqrt(n)``, right for small samples
    (with 3 deals the 95% factor is 4.30, not the normal 1.96)."""
    n = len(values)
    if n == 0:
        return 0.0, math.inf
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    # stdtrit is the inverse of Student's t CDF (scipy.stats.t.ppf without
    # importing all of scipy.stats, which costs a second at start-up).
    factor = float(stdtrit(n - 1, 1 - (1 - level) / 2))
    return mean, factor * math.sqrt(var / n)


def _standing(name: str, values: Sequence[float], games: int) -> Standing:
    mean, half = mean_ci(values)
    return Standing(name, mean, half, len(values), games)


@dataclass(frozen=True)
class PlayedGame:
    """One arena game: the scores, the log it replays from, and the stand-ins."""

    scores: tuple[float, ...]
    log: tuple[tuple[int, JSON], ...]  # (seat, canonical action), in order
    illegal: int  # answers the rules refused
    stand_ins: tuple[int, ...]  # per seat: decisions the game's stand-in made
    result: JSON = field(default_factory=dict)  # Result.to_json(), as a table stores it

    @property
    def actions(self) -> int:
        return len(self.log)


def play_logged(
    game: Game[Any, Any],
    config: Any,
    seed: int,
    seats: Sequence[Bot],
    budget: float = 1.0,
    *,
    strict_budget: bool = False,
    contain_errors: bool = False,
) -> PlayedGame:
    """One game with ``seats[i]`` playing seat ``i``, keeping its log.

    A bot that returns None, answers illegally, (with ``strict_budget``) takes
    longer than ``budget`` or (with ``contain_errors``) raises gets the game's
    stand-in for that decision, as at a table.  Without ``contain_errors`` a bot's
    exception propagates: a bench measuring a bot must not hide its bugs."""
    state = game.new(config, seed)
    log: list[tuple[int, JSON]] = []
    illegal = 0
    stand_ins = [0] * len(seats)
    while True:
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        legal = game.legal(state, seat)
        decision_seed = derive_seed(seed, len(log), seat)
        view = game.view(state, seat)
        start = time.perf_counter()
        try:
            action = seats[seat].decide(view, legal, seat, decision_seed, budget)
        except Exception:
            if not contain_errors:
                raise
            action = None
        late = strict_budget and time.perf_counter() - start > budget
        move = None
        if action is not None and not late:
            try:
                move = game.validate(state, seat, action)
            except IllegalAction:
                illegal += 1
        if move is None:  # no answer or an illegal one: the stand-in, as at a table
            move = game.validate(state, seat, game.stand_in(legal, Rng(decision_seed)))
            stand_ins[seat] += 1
        state, _ = game.apply(state, seat, move)
        log.append((seat, dict(move.action)))
    result = game.result(state)
    assert result is not None
    return PlayedGame(
        tuple(result.scores), tuple(log), illegal, tuple(stand_ins), result.to_json()
    )


def play_game(
    game: Game[Any, Any],
    config: Any,
    seed: int,
    seats: Sequence[Bot],
    budget: float = 1.0,
) -> tuple[tuple[float, ...], int, int]:
    """One game with ``seats[i]`` playing seat ``i``: (scores, actions, illegal)."""
    played = play_logged(game, config, seed, seats, budget)
    return played.scores, played.actions, played.illegal


def run(
    game: Game[Any, Any],
    config: Any,
    lineup: Sequence[tuple[str, Bot]],
    seeds: Sequence[int],
    *,
    duplicate: bool = True,
    budget: float = 1.0,
    scale: float = 1.0,
    progress: bool | TextIO = True,
    on_game: Callable[[int, tuple[float, ...]], None] | None = None,
) -> ArenaResult:
    """Play ``lineup`` (one (name, bot) per seat, names distinct) over ``seeds``.

    With ``duplicate`` every seed is played once per rotation of the lineup (bot ``i``
    in seat ``(i + r) % seats`` in rotation ``r``); otherwise rotation ``seed % seats``
    only.  Returns standings (mean score per game, 95% CI) in lineup order.
    """
    seats = game.seat_count(config)
    if len(lineup) != seats:
        raise ValueError(
            f"{game.name} with this config has {seats} seats, lineup has {len(lineup)}"
        )
    names = [n for n, _ in lineup]
    if len(set(names)) != len(names):
        raise ValueError("lineup names must be distinct")
    rotations = list(range(seats)) if duplicate else None
    total = len(seeds) * (seats if duplicate else 1)
    stream = progress if not isinstance(progress, bool) else None
    bar = Progress(total, stream, enabled=progress is not False)
    per_seed: dict[str, list[float]] = {n: [] for n in names}
    played = actions = illegal = 0
    start = time.perf_counter()
    for seed in seeds:
        sums = [0.0] * seats
        rots = rotations if rotations is not None else [seed % seats]
        for r in rots:
            by_seat: list[Bot] = [lineup[0][1]] * seats
            seat_of = [(i + r) % seats for i in range(seats)]
            for i, (_, bot) in enumerate(lineup):
                by_seat[seat_of[i]] = bot
            scores, n_actions, n_illegal = play_game(game, config, seed, by_seat, budget)
            for i in range(seats):
                sums[i] += scores[seat_of[i]] * scale
            actions += n_actions
            illegal += n_illegal
            played += 1
            if on_game is not None:
                on_game(seed, scores)
            bar.update(played)
        for i, name in enumerate(names):
            per_seed[name].append(sums[i] / len(rots))
    standings = tuple(_standing(n, per_seed[n], len(seeds) * len(rots)) for n in names)
    return ArenaResult(standings, played, actions, illegal, time.perf_counter() - start, per_seed)


def derive_seeds(base: int, count: int) -> list[int]:
    """``count`` distinct reproducible seeds from ``base``."""
    rng = Rng(base)
    return [rng.next64() >> 1 for _ in range(count)]
