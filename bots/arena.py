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
- **budgets**: a tournament's game (``play_logged`` with ``strict_budget``) asks
  each bot on a daemon thread of its own and waits ``budget`` seconds at most; a late or
  failed decision gets the game's stand-in, and ``PlayedGame.faults`` tells the
  bot's author why.
- **progress** on stderr: a bar on a terminal, plain periodic lines otherwise
  (``bots/progress.py``).

Scores are ``Result.scores`` of the bot's seat times ``scale`` (e.g. 1 / big blind).
"""

from __future__ import annotations

import math
import queue
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, NamedTuple, TextIO

from scipy.special import stdtrit

from bots.base import Bot, as_action
from bots.progress import Progress
from engine.errors import IllegalAction
from engine.events import JSON
from engine.game import Action, Game
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
class SeatFaults:
    """Why one seat's decisions went to the stand-in, for its bot's author."""

    failures: int = 0  # decide() raised
    late: int = 0  # no answer within the budget (strict_budget)
    busy: int = 0  # not asked: the bot was still busy with a late decision
    illegal: int = 0  # answers the rules refused
    declined: int = 0  # decide() returned None
    first_failure: str | None = None  # the first exception, with its last frames
    # A websocket bot's actions a server table refused (no stand-in: it may act
    # again within its turn), and the first one's reason and message.
    refused: int = 0
    first_refused: str | None = None

    def summary(self) -> str:
        """The non-zero stand-in counts, e.g. ``"failures 13"`` ("" when none)."""
        counts = [(k, getattr(self, k)) for k in FAULT_KINDS]
        return ", ".join(f"{k} {n}" for k, n in counts if n)

    def plus(self, other: SeatFaults) -> SeatFaults:
        """Both seats' counts added; the earlier first failure and refusal kept."""
        both = ((f.name, getattr(self, f.name), getattr(other, f.name)) for f in fields(self))
        merged: dict[str, Any] = {k: a + b if isinstance(a, int) else a or b for k, a, b in both}
        return SeatFaults(**merged)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def of_json(cls, data: dict[str, Any]) -> SeatFaults:
        # Counts are numbers, texts texts or null; a field missing keeps its default.
        given: dict[str, Any] = {
            f.name: int(data[f.name]) if isinstance(f.default, int) else data[f.name]
            for f in fields(cls) if f.name in data
        }
        return cls(**given)


FAULT_KINDS = ("failures", "late", "busy", "illegal", "declined")


@dataclass(frozen=True)
class PlayedGame:
    """One arena game: the scores, the log it replays from, and the stand-ins."""

    scores: tuple[float, ...]
    log: tuple[tuple[int, JSON], ...]  # (seat, canonical action), in order
    illegal: int  # answers the rules refused
    stand_ins: tuple[int, ...]  # per seat: decisions the game's stand-in made
    result: JSON = field(default_factory=dict)  # Result.to_json(), as a table stores it
    # Per seat, why its stand-ins were made; () for a game played elsewhere (a
    # server's table) or read back from storage.
    faults: tuple[SeatFaults, ...] = ()
    # The places in ``log`` of the moves the stand-in made (stored with the actor
    # ``bot:NAME:stand_in``, as a table's are).
    stand_in_moves: tuple[int, ...] = ()

    @property
    def actions(self) -> int:
        return len(self.log)


# A failure's text: the innermost frames (the bot's own) and at most this many
# characters, so a recursion error cannot flood a report.
FAILURE_FRAMES = 6
FAILURE_CHARS = 4000


def failure_text(error: BaseException) -> str:
    """``error``'s type, message and last frames, capped at ``FAILURE_CHARS``."""
    text = "".join(traceback.format_exception(error, limit=-FAILURE_FRAMES))
    if len(text) <= FAILURE_CHARS:
        return text
    half = FAILURE_CHARS // 2
    # Keep both ends: the head says where, the tail holds the type and message.
    return f"{text[:half]}\n[... {len(text) - 2 * half} characters cut ...]\n{text[-half:]}"


class _Answer(NamedTuple):
    """What asking a bot gave: an action, or why there is none."""

    action: Action | None = None
    error: BaseException | None = None  # decide() raised it
    fault: str | None = None  # "late" or "busy": decide() gave no answer in time


class _Call:
    """One decide() handed to an asker's thread; ``done`` is set when it returns."""

    def __init__(self, args: tuple[Any, ...]) -> None:
        self.args = args
        self.done = threading.Event()
        self.action: Action | None = None
        self.error: BaseException | None = None


class _Asker:
    """Asks one bot on its own daemon thread, call after call, waiting at most the
    budget for each: a bot that never returns holds only that thread, which cannot
    keep the process from exiting.  While a late call still runs, the bot is busy
    (a bot object is not assumed to be thread-safe) and is not asked again.  One
    parked thread per bot and game: a thread per decision cost more than a fast
    bot's thinking."""

    def __init__(self, bot: Bot) -> None:
        self._calls: queue.SimpleQueue[_Call | None] = queue.SimpleQueue()
        self._current: _Call | None = None
        threading.Thread(target=self._serve, args=(bot,), name="bot", daemon=True).start()

    def _serve(self, bot: Bot) -> None:
        while (call := self._calls.get()) is not None:
            try:
                call.action = as_action(bot.decide(*call.args))
            except BaseException as exc:  # even SystemExit: the caller decides what it means
                call.error = exc
            call.args = ()
            call.done.set()

    def ask(self, args: tuple[Any, ...], budget: float) -> _Answer:
        if self._current is not None and not self._current.done.is_set():
            return _Answer(fault="busy")
        call = self._current = _Call(args)
        self._calls.put(call)
        if not call.done.wait(min(max(budget, 0.0), threading.TIMEOUT_MAX)):
            return _Answer(fault="late")
        return _Answer(call.action, call.error)

    def close(self) -> None:
        """The thread ends once its call in hand (if any) returns."""
        self._calls.put(None)


def _ask_here(bot: Bot, args: tuple[Any, ...]) -> _Answer:
    """Ask ``bot`` on the caller's thread, untimed (the benches)."""
    try:
        return _Answer(as_action(bot.decide(*args)))
    except Exception as exc:
        return _Answer(error=exc)


def play_logged(
    game: Game[Any, Any],
    config: Any,
    seed: int,
    seats: Sequence[Bot],
    budget: float = 1.0,
    *,
    strict_budget: bool = False,
    contain_errors: bool = False,
    busy: Callable[[int], bool] | None = None,
) -> PlayedGame:
    """One game with ``seats[i]`` playing seat ``i``, keeping its log.

    A bot that returns None, answers illegally, (with ``contain_errors``) raises
    or (with ``strict_budget``) has not answered after ``budget`` seconds gets the
    game's stand-in for that decision, as at a table.  With ``strict_budget`` each
    bot is asked on a daemon thread of its own and a late answer is not waited
    for; until it comes its bot gets the stand-in without being asked.  Without
    ``contain_errors`` a bot's exception propagates: a bench measuring a bot must
    not hide its bugs.  A seat for which ``busy(seat)`` is true gets the stand-in
    without being asked, counted busy: its bot is still on a call made before the
    game (its warm-up, :func:`bots.base.warm_up`).  ``PlayedGame.faults`` says
    why each stand-in was made."""
    askers: dict[int, _Asker] = {}  # by id(): a bot object may sit in two seats

    def ask(bot: Bot, args: tuple[Any, ...]) -> _Answer:
        if busy is not None and busy(args[2]):
            return _Answer(fault="busy")
        if not strict_budget:
            return _ask_here(bot, args)
        asker = askers.get(id(bot))
        if asker is None:
            asker = askers[id(bot)] = _Asker(bot)
        return asker.ask(args, budget)

    try:
        return _play(game, config, seed, seats, budget, ask, contain_errors)
    finally:
        for asker in askers.values():
            asker.close()


def _play(
    game: Game[Any, Any],
    config: Any,
    seed: int,
    seats: Sequence[Bot],
    budget: float,
    ask: Callable[[Bot, tuple[Any, ...]], _Answer],
    contain_errors: bool,
) -> PlayedGame:
    state = game.new(config, seed)
    log: list[tuple[int, JSON]] = []
    stand_ins = [0] * len(seats)
    stood_in: list[int] = []
    faults = [SeatFaults()] * len(seats)
    while True:
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        legal = game.legal(state, seat)
        decision_seed = derive_seed(seed, len(log), seat)
        view = game.view(state, seat)
        answer = ask(seats[seat], (view, legal, seat, decision_seed, budget))
        if answer.error is not None and not (
            contain_errors and isinstance(answer.error, Exception)
        ):
            raise answer.error
        move, fault = _checked(game, state, seat, answer)
        if fault is not None:
            faults[seat] = _counted(faults[seat], fault, answer.error)
        if move is None:  # no answer or an illegal one: the stand-in, as at a table
            # The legal actions again: the bot may have changed the list it was given.
            legal = game.legal(state, seat)
            move = game.validate(state, seat, game.stand_in(legal, Rng(decision_seed)))
            stand_ins[seat] += 1
            stood_in.append(len(log))
        state, _ = game.apply(state, seat, move)
        log.append((seat, dict(move.action)))
    result = game.result(state)
    assert result is not None
    illegal = sum(f.illegal for f in faults)
    return PlayedGame(
        tuple(result.scores),
        tuple(log),
        illegal,
        tuple(stand_ins),
        result.to_json(),
        tuple(faults),
        tuple(stood_in),
    )


def _checked(
    game: Game[Any, Any], state: Any, seat: int, answer: _Answer
) -> tuple[Any, str | None]:
    """The validated move of ``answer`` (None if it has none) and its fault kind."""
    if answer.error is not None:
        return None, "failures"
    if answer.fault is not None:
        return None, answer.fault
    if answer.action is None:
        return None, "declined"
    try:
        return game.validate(state, seat, answer.action), None
    except IllegalAction:
        return None, "illegal"


def _counted(faults: SeatFaults, kind: str, error: BaseException | None) -> SeatFaults:
    """``faults`` with one more of ``kind`` (and ``error``'s text if it is the first)."""
    counted = replace(faults, **{kind: getattr(faults, kind) + 1})
    if error is not None and faults.first_failure is None:
        counted = replace(counted, first_failure=failure_text(error))
    return counted


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
