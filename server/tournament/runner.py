"""Drive a tournament: its schedule over a pool of game jobs (or a server's
tables for a remote bot, or workers over a bus), ratings after every match,
stored results, progress, and resuming a stored run that stopped.

The per-game work is ``bots.tournament.jobs.play_job`` (a picklable job in, a
played game out); how a match's games get played is a ``MatchPlayer``, so the
local pool, a live server and remote workers are interchangeable here.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from bots.arena import PlayedGame, derive_seeds
from bots.progress import Progress
from bots.tournament.jobs import GameJob, play_job
from bots.tournament.ratings import Rating, Ratings
from bots.tournament.schedule import Pairing, Schedule, round_robin, seatings, swiss_round
from bots.tournament.tally import MatchResult, SeatedGame, Tally, match_result
from rules.registry import get_game
from server.lifeline import process_pool
from server.persistence.results import (
    GameToStore,
    MatchAlreadyStored,
    Results,
    StoredBye,
    StoredMatch,
    StoredRating,
    StoredTournament,
)

# Matches in flight at once: enough to keep every worker busy, few enough that a
# long run does not queue all its games (and hold their logs) up front.
WINDOW = 64


class SetupError(ValueError):
    """A tournament that cannot start: bad bots, options or flags, or a port."""


@dataclass(frozen=True)
class Entrant:
    """A bot in the tournament: its name in the standings and where it lives
    (``module:Class``; for a remote bot, the seat name it connects as)."""

    name: str
    target: str
    remote: bool = False


@dataclass(frozen=True)
class TournamentSetup:
    game: str
    options: dict[str, Any]
    entrants: tuple[Entrant, ...]
    deals: int
    seed: int = 1
    schedule: Schedule = Schedule.ROUND_ROBIN
    rounds: int | None = None  # Swiss only
    budget: float = 1.0
    scale: float = 1.0
    duplicate: bool = True  # every seating of each deal (else one, chosen by the seed)

    def to_json(self) -> dict[str, Any]:
        return {
            "entrants": [
                {"name": e.name, "target": e.target, "remote": e.remote} for e in self.entrants
            ],
            "deals": self.deals,
            "seed": self.seed,
            "schedule": self.schedule.value,
            "rounds": self.rounds,
            "budget": self.budget,
            "scale": self.scale,
            "duplicate": self.duplicate,
        }

    @classmethod
    def of_stored(cls, t: StoredTournament) -> TournamentSetup:
        """The setup a stored tournament was run with (to resume it)."""
        s = t.setup
        return cls(
            game=t.game_type,
            options=dict(t.config),
            entrants=tuple(
                Entrant(e["name"], e["target"], bool(e.get("remote", False))) for e in s["entrants"]
            ),
            deals=int(s["deals"]),
            seed=int(s["seed"]),
            schedule=Schedule(s["schedule"]),
            rounds=s.get("rounds"),
            budget=float(s["budget"]),
            scale=float(s.get("scale", 1.0)),
            duplicate=bool(s.get("duplicate", True)),
        )


@dataclass(frozen=True)
class MatchGames:
    """The games a match plays: one deal (``seed``) in each seating (bot names).
    ``number`` is the match's place in the schedule (1-based, stable across a
    resumed run) and ``tournament`` its stored tournament's id, if stored: with
    the seating's index they name each game's job."""

    seed: int
    seatings: tuple[tuple[str, ...], ...]
    number: int = 0
    tournament: int | None = None


@dataclass(frozen=True)
class PlayedMatchGame:
    game: SeatedGame
    game_id: int | None = None  # set when a server table stored it already


class MatchPlayer(Protocol):
    """Plays a match's games; awaited once per match, concurrently with others.
    Calls ``on_game()`` as each game ends (the progress bar counts games)."""

    def __call__(
        self, match: MatchGames, on_game: Callable[[], None]
    ) -> Awaitable[list[PlayedMatchGame]]: ...


@dataclass
class TournamentReport:
    setup: TournamentSetup
    tally: Tally
    matches: list[MatchResult] = field(default_factory=list)
    tournament_id: int | None = None
    seconds: float = 0.0
    actions: int = 0  # in every game of the matches, those of a resumed run's past included
    resumed: int = 0  # matches a resumed run found stored


def game_jobs(setup: TournamentSetup, match: MatchGames) -> list[GameJob]:
    """One ``GameJob`` per seating of ``match``: what a local pool or a worker plays."""
    targets = {e.name: e.target for e in setup.entrants}
    options = json.dumps(get_game(setup.game).config_json(_config(setup)))
    return [
        GameJob(setup.game, options, match.seed, tuple(targets[n] for n in s), setup.budget)
        for s in match.seatings
    ]


# Plays one of a match's games: the match, the seating's index, the job.
JobRunner = Callable[[MatchGames, int, GameJob], Awaitable[PlayedGame]]


def job_player(setup: TournamentSetup, run_job: JobRunner) -> MatchPlayer:
    """Plays every game of a match as a ``GameJob`` handed to ``run_job``."""

    async def play(match: MatchGames, on_game: Callable[[], None]) -> list[PlayedMatchGame]:
        async def one(index: int, job: GameJob) -> PlayedGame:
            played = await run_job(match, index, job)
            on_game()
            return played

        jobs = game_jobs(setup, match)
        played = await asyncio.gather(*(one(i, j) for i, j in enumerate(jobs)))
        return [
            PlayedMatchGame(SeatedGame(seating, p))
            for seating, p in zip(match.seatings, played, strict=True)
        ]

    return play


def local_player(setup: TournamentSetup, executor: Executor) -> MatchPlayer:
    """Plays every game of a match on ``executor`` (a local pool)."""

    async def run_job(match: MatchGames, index: int, job: GameJob) -> PlayedGame:
        return await asyncio.get_running_loop().run_in_executor(executor, play_job, job)

    return job_player(setup, run_job)


def make_executor(workers: int) -> Executor:
    """``workers`` processes (they die with this one, even if it is killed), or with
    0 one thread (no process start-up: tests, tiny runs)."""
    return process_pool(workers) if workers > 0 else ThreadPoolExecutor(1)


def _config(setup: TournamentSetup) -> Any:
    return get_game(setup.game).parse_config(setup.options)


def match_seatings(
    setup: TournamentSetup, a: str, b: str, seed: int = 0
) -> tuple[tuple[str, ...], ...]:
    """Every seating of ``a`` and ``b`` for a deal (one only when a bot plays
    itself; without duplicate, the one ``seed`` picks)."""
    seats = get_game(setup.game).seat_count(_config(setup))
    if a == b:
        return ((a,) * seats,)
    every = tuple(tuple(b if x else a for x in s) for s in seatings(seats))
    return every if setup.duplicate else (every[seed % len(every)],)


def total_games(setup: TournamentSetup) -> int:
    n = len(setup.entrants)
    per_match = len(match_seatings(setup, setup.entrants[0].name, setup.entrants[-1].name))
    if setup.schedule is Schedule.SWISS and n > 2:
        return (setup.rounds or 1) * (n // 2) * setup.deals * per_match
    return len(round_robin(n)) * setup.deals * per_match


class ResumeError(ValueError):
    """A stored tournament that cannot be resumed as asked."""


async def run_tournament(
    setup: TournamentSetup,
    player: MatchPlayer,
    *,
    results: Results | None = None,
    progress: Progress | None = None,
    start: dict[str, Rating] | None = None,
    on_match: Callable[[MatchResult], None] | None = None,
    resume: StoredTournament | None = None,
) -> TournamentReport:
    """Play the whole schedule; with ``results``, store everything as it goes.

    With ``resume`` (a stored tournament of this setup that stopped), its stored
    matches are counted again in schedule order instead of played, from its
    stored starting ratings, and only the rest is played and stored: the
    standings and ratings are those an uninterrupted run gives.  ``progress``
    then counts the games played now (give it the stored ones as its initial).

    ``progress`` counts each game as it ends and shows the leader after each
    match is counted; the run closes it once its last match is counted (the
    caller still closes it if the run fails)."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    if progress is not None:
        # The last game ends before the matches still waiting are counted: the
        # end line waits for them, so its leader is the final standings' one.
        progress.end_on_close()
    names = tuple(e.name for e in setup.entrants)
    if resume is not None:
        start = {r.bot: Rating(r.mu, r.sigma) for r in resume.ratings if r.match_number == 0}
    tally = Tally(names, Ratings(start))
    report = TournamentReport(setup, tally)
    config_json = get_game(setup.game).config_json(_config(setup))
    if results is not None and resume is not None:
        report.tournament_id = resume.id
        await results.reopen(resume.id)
    elif results is not None:
        report.tournament_id = await results.create_tournament(
            setup.game, config_json, setup.to_json()
        )
        await results.add_ratings(
            report.tournament_id,
            setup.game,
            [StoredRating(0, n, r.mu, r.sigma) for _, n, r in tally.history],
        )
    run = _Run(setup, player, tally, report, results, config_json, progress, on_match)
    try:
        await run.schedule(resume.matches if resume is not None else [])
    except MatchAlreadyStored:
        raise  # another run of this tournament is live: its status is that run's
    except BaseException:
        # Interrupted (Ctrl-C, a failure): what was played stays, marked so.
        if results is not None and report.tournament_id is not None:
            await asyncio.shield(
                results.finish(report.tournament_id, "interrupted", standings_json(tally))
            )
        raise
    if results is not None and report.tournament_id is not None:
        await results.finish(report.tournament_id, "finished", standings_json(tally))
    if progress is not None:
        progress.close()
    report.seconds = loop.time() - began
    return report


# A match in flight: its pairing, deal, number, and its games (stored ones when
# a resumed run counts a match played before).
InFlight = tuple[Pairing, int, int, "asyncio.Future[list[PlayedMatchGame]] | StoredMatch"]


@dataclass
class _Run:
    """One run of a schedule: plays (or, resuming, recounts) its matches in order."""

    setup: TournamentSetup
    player: MatchPlayer
    tally: Tally
    report: TournamentReport
    results: Results | None
    config_json: dict[str, Any]
    progress: Progress | None
    on_match: Callable[[MatchResult], None] | None
    numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    async def schedule(self, stored: Sequence[StoredMatch]) -> None:
        setup, tally = self.setup, self.tally
        seeds = derive_seeds(setup.seed, setup.deals * (setup.rounds or 1))
        for round_no, (round_pairings, round_seeds, bye) in enumerate(
            _rounds(setup, tally, seeds), 1
        ):
            if bye is not None:
                await self._bye(round_no, bye)
            planned = iter([(p, seed) for p in round_pairings for seed in round_seeds])
            # Up to WINDOW matches play at once (the executor bounds the work); they
            # are counted in schedule order, so ratings are reproducible.
            window: deque[InFlight] = deque()
            self._fill(window, planned, stored)
            try:
                while window:
                    pairing, seed, number, games = window.popleft()
                    if isinstance(games, StoredMatch):
                        # A stored match leaves the window too: refill it, or a run
                        # resumed past a window of stored matches stopped there.
                        self._fill(window, planned, stored)
                        match = self._recount(pairing, seed, number, games)
                    else:
                        played = await games
                        self._fill(window, planned, stored)
                        match = await self._count(pairing, seed, played)
                    self._counted(match)
            finally:
                for *_, games in window:
                    if not isinstance(games, StoredMatch):
                        games.cancel()

    def _fill(
        self,
        window: deque[InFlight],
        planned: Iterator[tuple[Pairing, int]],
        stored: Sequence[StoredMatch],
    ) -> None:
        """Start planned matches until ``WINDOW`` are in flight."""
        names = [e.name for e in self.setup.entrants]
        for p, seed in itertools.islice(planned, WINDOW - len(window)):
            number = next(self.numbers)
            if number <= len(stored):
                window.append((p, seed, number, stored[number - 1]))
                continue
            seatings = match_seatings(self.setup, names[p.a], names[p.b], seed)
            games = MatchGames(seed, seatings, number, self.report.tournament_id)
            window.append((p, seed, number, asyncio.ensure_future(self.player(games, self._game))))

    def _game(self) -> None:
        # A game's end changes no rating: the leader moves when its match is counted.
        if self.progress is not None:
            self.progress.advance(1)

    def _counted(self, match: MatchResult) -> None:
        """A match is in the tally: the progress shows the leader it makes."""
        if self.progress is not None:
            self.progress.lead(_leader_text(self.tally))
        if self.on_match is not None:
            self.on_match(match)

    async def _count(
        self, pairing: Pairing, seed: int, played: list[PlayedMatchGame]
    ) -> MatchResult:
        """Count a match just played, and store it."""
        names = [e.name for e in self.setup.entrants]
        a, b = names[pairing.a], names[pairing.b]
        match = match_result(
            len(self.report.matches) + 1,
            pairing.round,
            a,
            b,
            seed,
            [g.game for g in played],
            self.setup.scale,
        )
        self._add(pairing, match, sum(g.game.played.actions for g in played))
        if self.results is not None and self.report.tournament_id is not None:
            await _store_match(
                self.results,
                self.report.tournament_id,
                self.setup,
                self.config_json,
                match,
                played,
                self.tally,
            )
        return match

    def _recount(self, pairing: Pairing, seed: int, number: int, m: StoredMatch) -> MatchResult:
        """Count a match a resumed run finds stored: the same match the schedule
        plans there, or the tournament is not the one this setup describes."""
        names = [e.name for e in self.setup.entrants]
        planned = (pairing.round, names[pairing.a], names[pairing.b], seed)
        if (m.number, (m.round, m.bot_a, m.bot_b, m.seed)) != (number, planned):
            raise ResumeError(
                f"stored match {m.number} is not the one the schedule plans there: "
                "the tournament cannot be resumed"
            )
        games = tuple(
            SeatedGame(tuple(g.bots), PlayedGame(tuple(g.scores), (), 0, tuple(g.stand_ins)))
            for g in m.games
        )
        match = MatchResult(
            m.number, m.round, m.bot_a, m.bot_b, m.seed, m.score_a, m.score_b, games
        )
        self._add(pairing, match, sum(g.actions for g in m.games))
        self.report.resumed += 1  # its games are the progress's initial count
        return match

    def _add(self, pairing: Pairing, match: MatchResult, actions: int) -> None:
        self.tally.add(match)
        self.tally.met.add(frozenset({pairing.a, pairing.b}))
        self.report.matches.append(match)
        self.report.actions += actions

    async def _bye(self, round_no: int, bye: int) -> None:
        """A bye scores as if every deal of the round were won."""
        name = self.setup.entrants[bye].name
        points = float(self.setup.deals)
        self.tally.met.add(frozenset({bye}))
        self.tally.points[name] += points
        if self.results is not None and self.report.tournament_id is not None:
            await self.results.add_bye(self.report.tournament_id, StoredBye(round_no, name, points))


def _rounds(setup: TournamentSetup, tally: Tally, seeds: Sequence[int]) -> Any:
    """(pairings, deal seeds, the bye or None) per round.  Round robin: every
    pair in one batch on the same deals (so pairs are compared on the same
    cards); Swiss: each round paired from the standings so far (its byes
    counted), on deals of its own."""
    n = len(setup.entrants)
    if setup.schedule is Schedule.ROUND_ROBIN or n <= 2:
        yield round_robin(n), seeds[: setup.deals], None
        return
    for r in range(setup.rounds or 1):
        pairs, bye = swiss_round(r + 1, tally.order(), tally.met)
        yield pairs, seeds[r * setup.deals : (r + 1) * setup.deals], bye


async def _store_match(
    results: Results,
    tid: int,
    setup: TournamentSetup,
    config_json: dict[str, Any],
    match: MatchResult,
    played: Sequence[PlayedMatchGame],
    tally: Tally,
) -> None:
    games = [
        GameToStore(
            bots=p.game.seating,
            seed=match.seed,
            log=p.game.played.log,
            result=p.game.played.result,
            stand_ins=p.game.played.stand_ins,
            game_id=p.game_id,
            stand_in_moves=p.game.played.stand_in_moves,
        )
        for p in played
    ]
    ratings = [
        StoredRating(match.number, n, tally.ratings.get(n).mu, tally.ratings.get(n).sigma)
        for n in dict.fromkeys((match.a, match.b))
    ]
    stored = StoredMatch(
        match.number, match.round, match.a, match.b, match.seed, match.score_a, match.score_b
    )
    await results.add_match(tid, setup.game, config_json, stored, games, ratings)


def _leader_text(tally: Tally) -> str | None:
    leader = tally.leader()
    if leader is None:
        return None
    r = tally.ratings.get(leader)
    return f"{leader} {r.mu:.1f}±{r.sigma:.1f}"


def standings_json(tally: Tally) -> dict[str, Any]:
    """The final standings as stored with the tournament."""
    return {
        "matches": tally.matches,
        "games": tally.games,
        "bots": [
            {
                "name": s.name,
                "mean": s.mean,
                "half_width": _finite(s.half_width),
                "matches": s.matches,
                "mu": s.rating.mu,
                "sigma": s.rating.sigma,
                "points": s.points,
                "stand_ins": s.stand_ins,
            }
            for s in tally.standings()
        ],
    }


def _finite(x: float) -> float | None:
    """JSON has no infinity: an interval of one sample is stored as null."""
    return x if x != float("inf") else None


async def starting_ratings(results: Results | None, setup: TournamentSetup) -> dict[str, Rating]:
    """Each bot's rating from the runs before (none without a database), where its
    name stood for the same bot then: a name given to another class starts afresh
    rather than take over that bot's rating."""
    if results is None:
        return {}
    targets = {e.name: e.target for e in setup.entrants}
    found = await results.latest_ratings(setup.game, list(targets))
    return {
        name: Rating(mu, sigma)
        for name, (mu, sigma, target) in found.items()
        if target in (None, targets[name])
    }
