"""Drive a tournament: its schedule over a pool of game jobs (or a server's
tables for a remote bot), ratings after every match, stored results, progress.

The per-game work is ``bots.tournament.jobs.play_job`` (a picklable job in, a
played game out); how a match's games get played is a ``MatchPlayer``, so the
local pool, a live server and a remote worker are interchangeable here.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from collections import deque
from collections.abc import Awaitable, Callable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from bots.arena import derive_seeds
from bots.progress import Progress
from bots.tournament.jobs import GameJob, play_job
from bots.tournament.ratings import Rating, Ratings
from bots.tournament.schedule import Pairing, Schedule, round_robin, seatings, swiss_round
from bots.tournament.tally import MatchResult, SeatedGame, Tally, match_result
from rules.registry import get_game
from server.persistence.results import GameToStore, Results, StoredMatch, StoredRating

# Matches in flight at once: enough to keep every worker busy, few enough that a
# long run does not queue all its games (and hold their logs) up front.
WINDOW = 64


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


@dataclass(frozen=True)
class MatchGames:
    """The games a match plays: one deal (``seed``) in each seating (bot names)."""

    seed: int
    seatings: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class PlayedMatchGame:
    game: SeatedGame
    game_id: int | None = None  # set when a server table stored it already


class MatchPlayer(Protocol):
    """Plays a match's games; awaited once per match, concurrently with others."""

    def __call__(self, match: MatchGames) -> Awaitable[list[PlayedMatchGame]]: ...


@dataclass
class TournamentReport:
    setup: TournamentSetup
    tally: Tally
    matches: list[MatchResult] = field(default_factory=list)
    tournament_id: int | None = None
    seconds: float = 0.0


def local_player(setup: TournamentSetup, executor: Executor) -> MatchPlayer:
    """Plays every game of a match as a ``GameJob`` on ``executor``."""
    targets = {e.name: e.target for e in setup.entrants}
    options = json.dumps(get_game(setup.game).config_json(_config(setup)))

    async def play(match: MatchGames) -> list[PlayedMatchGame]:
        loop = asyncio.get_running_loop()
        futures = [
            loop.run_in_executor(
                executor,
                play_job,
                GameJob(
                    setup.game,
                    options,
                    match.seed,
                    tuple(targets[n] for n in seating),
                    setup.budget,
                ),
            )
            for seating in match.seatings
        ]
        played = await asyncio.gather(*futures)
        return [
            PlayedMatchGame(SeatedGame(seating, p))
            for seating, p in zip(match.seatings, played, strict=True)
        ]

    return play


def make_executor(workers: int) -> Executor:
    """``workers`` processes, or with 0 one thread (no process start-up: tests, tiny runs)."""
    return ProcessPoolExecutor(workers) if workers > 0 else ThreadPoolExecutor(1)


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


async def run_tournament(
    setup: TournamentSetup,
    player: MatchPlayer,
    *,
    results: Results | None = None,
    progress: Progress | None = None,
    start: dict[str, Rating] | None = None,
    on_match: Callable[[MatchResult], None] | None = None,
) -> TournamentReport:
    """Play the whole schedule; with ``results``, store everything as it goes."""
    loop = asyncio.get_running_loop()
    began = loop.time()
    names = tuple(e.name for e in setup.entrants)
    tally = Tally(names, Ratings(start))
    report = TournamentReport(setup, tally)
    config_json = get_game(setup.game).config_json(_config(setup))
    if results is not None:
        report.tournament_id = await results.create_tournament(
            setup.game, config_json, setup.to_json()
        )
        await results.add_ratings(
            report.tournament_id,
            setup.game,
            [StoredRating(0, n, r.mu, r.sigma) for _, n, r in tally.history],
        )
    try:
        await _play_schedule(setup, player, tally, report, results, config_json, progress, on_match)
    except BaseException:
        # Interrupted (Ctrl-C, a failure): what was played stays, marked so.
        if results is not None and report.tournament_id is not None:
            await asyncio.shield(
                results.finish(report.tournament_id, "interrupted", standings_json(tally))
            )
        raise
    if results is not None and report.tournament_id is not None:
        await results.finish(report.tournament_id, "finished", standings_json(tally))
    report.seconds = loop.time() - began
    return report


async def _play_schedule(
    setup: TournamentSetup,
    player: MatchPlayer,
    tally: Tally,
    report: TournamentReport,
    results: Results | None,
    config_json: dict[str, Any],
    progress: Progress | None,
    on_match: Callable[[MatchResult], None] | None,
) -> None:
    names = tuple(e.name for e in setup.entrants)
    seeds = derive_seeds(setup.seed, setup.deals * (setup.rounds or 1))
    for round_pairings, round_seeds in _rounds(setup, tally, seeds):
        planned = iter([(p, seed) for p in round_pairings for seed in round_seeds])
        # Up to WINDOW matches play at once (the executor bounds the work); they
        # are counted in schedule order, so ratings are reproducible.
        window: deque[InFlight] = deque()

        _fill(window, planned, setup, player)
        try:
            while window:
                pairing, seed, task = window.popleft()
                played = await task
                _fill(window, planned, setup, player)
                a, b = names[pairing.a], names[pairing.b]
                match = match_result(
                    len(report.matches) + 1,
                    pairing.round,
                    a,
                    b,
                    seed,
                    [g.game for g in played],
                    setup.scale,
                )
                tally.add(match)
                tally.met.add(frozenset({pairing.a, pairing.b}))
                report.matches.append(match)
                if results is not None and report.tournament_id is not None:
                    await _store_match(
                        results, report.tournament_id, setup, config_json, match, played, tally
                    )
                if progress is not None:
                    progress.advance(len(played), _leader_text(tally))
                if on_match is not None:
                    on_match(match)
        finally:
            for _, _, task in window:
                task.cancel()


InFlight = tuple[Pairing, int, "asyncio.Future[list[PlayedMatchGame]]"]


def _fill(
    window: deque[InFlight],
    planned: Iterator[tuple[Pairing, int]],
    setup: TournamentSetup,
    player: MatchPlayer,
) -> None:
    """Start planned matches until ``WINDOW`` are in flight."""
    names = [e.name for e in setup.entrants]
    for p, seed in itertools.islice(planned, WINDOW - len(window)):
        games = MatchGames(seed, match_seatings(setup, names[p.a], names[p.b], seed))
        window.append((p, seed, asyncio.ensure_future(player(games))))


def _rounds(setup: TournamentSetup, tally: Tally, seeds: Sequence[int]) -> Any:
    """(pairings, deal seeds) per round.  Round robin: every pair in one batch
    on the same deals (so pairs are compared on the same cards); Swiss: each
    round paired from the standings so far, on deals of its own."""
    n = len(setup.entrants)
    if setup.schedule is Schedule.ROUND_ROBIN or n <= 2:
        yield round_robin(n), seeds[: setup.deals]
        return
    for r in range(setup.rounds or 1):
        pairs, bye = swiss_round(r + 1, tally.order(), tally.met)
        if bye is not None:
            tally.met.add(frozenset({bye}))
            # A bye scores as if every deal of the round were won.
            tally.points[setup.entrants[bye].name] += float(setup.deals)
        yield pairs, seeds[r * setup.deals : (r + 1) * setup.deals]


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
    """Each bot's rating from the runs before (none without a database)."""
    if results is None:
        return {}
    found = await results.latest_ratings(setup.game, [e.name for e in setup.entrants])
    return {name: Rating(mu, sigma) for name, (mu, sigma) in found.items()}
