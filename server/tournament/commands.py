"""``cardtable tournament``, ``tournaments`` and ``standings``: what they do and
print (the parsers are in server/cli.py)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import sys
import textwrap
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TextIO

from bots.base import bot_names, bot_target, load_bot
from bots.progress import Progress
from bots.tournament.schedule import Schedule, swiss_rounds
from bots.tournament.tally import Tally
from engine.errors import IllegalAction
from engine.presentation import plural
from rules.registry import get_game
from server.persistence.results import MatchAlreadyStored, Results, StoredTournament
from server.persistence.store import Store
from server.settings import Settings
from server.tournament.interrupts import Interrupted, Interrupts
from server.tournament.page import standings_of
from server.tournament.runner import (
    Entrant,
    MatchPlayer,
    SetupError,
    TournamentReport,
    TournamentSetup,
    local_player,
    make_executor,
    run_tournament,
    starting_ratings,
    total_games,
)


def setup_from_args(args: argparse.Namespace) -> TournamentSetup:
    """The tournament the flags describe, every bot loaded once to check it."""
    try:
        game = get_game(args.game)
        options = json.loads(args.options)
        config = game.parse_config(options)
        specs = args.bots.split(",") if args.bots else bot_names(args.game)
        specs = [s.strip() for s in specs if s.strip()]
        remote = list(args.remote_seat or [])
        entrants = []
        for item in specs:
            # ``name=spec`` names a bot in the standings (default: the spec itself).
            name, _, spec = item.rpartition("=")
            target = bot_target(args.game, spec)
            load_bot(target)
            entrants.append(Entrant(name or spec, target))
        entrants += [Entrant(name, name, remote=True) for name in remote]
        for e in entrants:
            # A name is a rating's identity: one of cardtable's bots keeps its own.
            if e.name in bot_names(args.game) and e.target != bot_target(args.game, e.name):
                raise SetupError(f"{e.name!r} is the name of cardtable's own {args.game} bot; "
                                 "give yours another (--bots NAME=module:Class)")
    except IllegalAction as exc:
        raise SetupError(exc.message) from None
    except json.JSONDecodeError as exc:
        raise SetupError(f"--options is not JSON: {exc}") from None
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        raise SetupError(f"a bot is listed twice in {','.join(names)}")
    if not entrants:
        raise SetupError("no bots to play")
    if len(entrants) == 1:
        # A bot against itself scores nothing and rates nothing worth reporting.
        raise SetupError(
            f"only one bot ({names[0]}): a tournament needs two or more "
            "(--bots A,B or a --remote-seat)"
        )
    too_long = [e.name for e in entrants if len(e.name) > (60 if e.remote else 128)]
    if too_long:
        # The database keeps bot names in 128 characters and player names in 64
        # (a remote seat's second session is NAME#2).
        raise SetupError(f"bot name too long (name it with NAME=spec): {too_long[0][:40]}...")
    if args.games < 1:
        raise SetupError("--games must be at least 1")
    if not args.budget > 0:
        raise SetupError("--budget must be a positive number of seconds")
    if args.rounds is not None and args.rounds < 1:
        raise SetupError("--rounds must be at least 1")
    if args.workers < 0:
        raise SetupError("--workers must be 0 (a thread) or more processes")
    schedule = Schedule(args.schedule)
    rounds = args.rounds or swiss_rounds(len(entrants))
    return TournamentSetup(
        game=game.name,
        options=game.config_json(config),
        entrants=tuple(entrants),
        deals=args.games,
        seed=args.seed,
        schedule=schedule,
        rounds=rounds if schedule is Schedule.SWISS else None,
        budget=args.budget,
        duplicate=not args.no_duplicate,
    )


def run_command(args: argparse.Namespace, db_url: str | None) -> int:
    """Run the tournament the flags describe (or resume a stored one); store it
    unless ``db_url`` is None."""
    # ``module:Class`` bots are found like ``python -m`` finds modules: from here.
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
    try:
        check_flags(args, db_url)
        setup = None if args.resume is not None else setup_from_args(args)
    except SetupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        if setup is not None and any(e.remote for e in setup.entrants):
            from server.tournament.remote import run_remote

            found = run_remote(setup, args, db_url)
            if found is None:
                return 2
            report = found
        else:
            report = asyncio.run(_run(args, setup, db_url))
    except (SetupError, MatchAlreadyStored) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except (KeyboardInterrupt, Interrupted):
        kept = " (stored with status interrupted)" if db_url is not None else ""
        print(f"interrupted: the matches played so far are kept{kept}", file=sys.stderr)
        return 130
    print_report(report, sys.stdout)
    if args.plot is not None:
        from server.tournament.plot import PlotError, save  # matplotlib: only to draw

        try:
            save(report_chart(report), args.plot)
        except (PlotError, OSError) as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        print(f"plot written to {args.plot}")
    return 0


def check_flags(args: argparse.Namespace, db_url: str | None) -> None:
    """The flags that do not go together (``SetupError``)."""
    if args.plot is not None:
        check_plot_file(args.plot)
    if args.resume is not None and db_url is None:
        raise SetupError("--resume reads the tournament from the database: not with --no-store")
    if args.resume is not None and args.remote_seat:
        raise SetupError("--resume takes the entrants from the database: not with --remote-seat")
    if not args.remote_seat and args.resume is None:
        serving = [flag for flag, given in (("--host", args.host != "127.0.0.1"),
                                            ("--port", args.port != 0)) if given]
        if serving:
            raise SetupError(f"{' and '.join(serving)} place the server of --remote-seat "
                             "tables: there is none without one")
    if args.resume is not None:
        # setup_defaults: each setup flag's destination and default (server/cli.py).
        given = [
            flag
            for flag, (dest, default) in args.setup_defaults.items()
            if getattr(args, dest) != default
        ]
        if given:
            raise SetupError(
                f"--resume plays the stored tournament's own setup: not with {', '.join(given)}"
            )
    if not args.bus:
        return
    from server.bus.mqtt import parse_mqtt_url

    try:
        parse_mqtt_url(args.bus)
    except ValueError as exc:
        raise SetupError(str(exc)) from None
    if db_url is None:
        raise SetupError("--bus needs the database the workers record results in: not --no-store")
    if args.remote_seat:
        raise SetupError("--remote-seat and --bus do not go together")
    if args.workers:
        raise SetupError("with --bus the workers play: give --workers to `cardtable worker`")


def check_plot_file(path: Path) -> None:
    """Refuse at the start a plot file that could only fail after the whole run."""
    if path.suffix.lower() not in (".png", ".svg"):
        raise SetupError(f"{path}: the plot file must end in .png or .svg")
    folder = path.parent
    if not folder.is_dir():
        raise SetupError(f"{path}: no directory {folder} to write the plot in")
    if path.is_dir():
        raise SetupError(f"{path}: is a directory, not a plot file")
    writable = os.access(path, os.W_OK) if path.exists() else os.access(folder, os.W_OK | os.X_OK)
    if not writable:
        raise SetupError(f"{path}: cannot write the plot there (permission denied)")


async def resumable(results: Results, tournament_id: int) -> StoredTournament:
    """The stored tournament ``--resume`` names, if it can be resumed."""
    t = await results.get_tournament(tournament_id)
    if t is None:
        raise SetupError(f"no stored tournament {tournament_id}")
    if t.status == "finished":
        raise SetupError(f"tournament {tournament_id} is finished: nothing to resume")
    if any(e.get("remote") for e in t.setup.get("entrants", [])):
        raise SetupError(f"tournament {tournament_id} has websocket entrants: it cannot be resumed")
    for e in t.setup["entrants"]:
        try:
            load_bot(e["target"])
        except IllegalAction as exc:
            raise SetupError(exc.message) from None
    return t


async def _run(
    args: argparse.Namespace, setup: TournamentSetup | None, db_url: str | None
) -> TournamentReport:
    """Play (or resume) a tournament on the local pool or, with ``--bus``, on workers."""
    store = await Store.open(db_url) if db_url is not None else None
    progress: Progress | None = None
    async with Interrupts() as stop:
        try:
            results = Results(store) if store is not None else None
            resume = None
            if args.resume is not None:
                assert results is not None  # check_flags
                resume = await resumable(results, args.resume)
                setup = TournamentSetup.of_stored(resume)
            assert setup is not None
            fresh = args.fresh_ratings or resume is not None  # resumed: its own start
            start = {} if fresh else await starting_ratings(results, setup)
            before = sum(len(m.games) for m in resume.matches) if resume is not None else 0
            progress = Progress(total_games(setup), initial=before)
            async with _player(args, setup, store) as player:
                return await stop.guard(run_tournament(
                    setup, player, results=results, progress=progress, start=start,
                    resume=resume,
                ))
        finally:
            if progress is not None:
                progress.close()
            if store is not None:
                await store.close()


@contextlib.asynccontextmanager
async def _player(
    args: argparse.Namespace, setup: TournamentSetup, store: Store | None
) -> AsyncIterator[MatchPlayer]:
    """Who plays the games: the local pool, or the workers over ``--bus``."""
    if not args.bus:
        with make_executor(args.workers) as executor:
            yield local_player(setup, executor)
        return
    from server.bus import Topics, make_bus
    from server.cluster.dispatch import Dispatcher
    from server.persistence.jobs import JobResults

    assert store is not None  # check_flags
    dispatcher = Dispatcher(
        make_bus(args.bus, "coordinator"),
        JobResults(store),
        Topics(Settings.from_env().bus_prefix),
        retry_after=args.retry_after,
    )
    await dispatcher.start()
    try:
        yield dispatcher.player(setup)
    finally:
        await dispatcher.close()


def print_report(report: TournamentReport, out: TextIO) -> None:
    setup, tally = report.setup, report.tally
    game = get_game(setup.game)
    seating = "every seating" if setup.duplicate else "one seating each"
    resumed = f"; {report.resumed} stored before resuming" if report.resumed else ""
    out.write(
        f"{game.title}: {plural(tally.games, 'game')} "
        f"({plural(len(report.matches), 'match', 'matches')} of one deal, "
        f"{seating}; {setup.schedule.value}{resumed}), {plural(report.actions, 'action')}, "
        f"{report.seconds:.1f}s\n"
    )
    points = setup.schedule is Schedule.SWISS and len(setup.entrants) > 2
    w = max(16, *(len(e.name) for e in setup.entrants))
    out.write(
        f"{'bot':<{w}} {'mean score/game':>16}  {'95% CI (t)':<22} {'rating':>13}"
        f"{'  points' if points else ''}  stand-ins\n"
    )
    for s in tally.standings():
        ci = interval_text(s.mean, s.half_width)
        rating = f"{s.rating.mu:.1f} ± {s.rating.sigma:.1f}"
        extra = f"  {s.points:6.1f}" if points else ""
        out.write(
            f"{s.name:<{w}} {score_text(s.mean):>16}  {ci:<22} {rating:>13}{extra}  {s.stand_ins}\n"
        )
    print_faults(tally, out)
    if report.tournament_id is not None:
        out.write(
            f"stored as tournament {report.tournament_id}: "
            f"`cardtable standings {report.tournament_id}`\n"
        )


def print_faults(tally: Tally, out: TextIO) -> None:
    """Why each bot got its stand-ins, and the first exception it raised: what
    its author needs to fix it."""
    for name in tally.names:
        faults = tally.faults.get(name)
        if faults is None:
            continue
        if faults.summary():
            out.write(f"{name}: stand-ins for {faults.summary()}\n")
        if faults.first_failure:
            text = textwrap.indent(faults.first_failure.rstrip(), "    ")
            out.write(f"  its first failure:\n{text}\n")
        if faults.refused:
            out.write(f"{name}: {plural(faults.refused, 'action')} refused by the rules "
                      f"(each answered illegal_action; it acted again), the first: "
                      f"{faults.first_refused}\n")


def interval_text(mean: float, half_width: float | None) -> str:
    """A 95% interval, or ``–`` (as on the browser page) where one match gives none."""
    if half_width is None or not math.isfinite(half_width):
        return "–"
    return f"[{score_text(mean - half_width, '+')}, {score_text(mean + half_width, '+')}]"


def score_text(value: float, sign: str = "") -> str:
    """A mean score: an integral one as an integer (``-653``), else three decimals."""
    if math.isfinite(value) and float(value).is_integer():
        return f"{int(value):{sign}d}"
    return f"{value:{sign}.3f}"


def report_chart(report: TournamentReport) -> Any:
    from server.tournament.plot import RatingPoint, StandingPoint, chart

    title = f"{get_game(report.setup.game).title} tournament"
    if report.tournament_id is not None:
        title += f" {report.tournament_id}"
    standings = [StandingPoint(s.name, s.mean, s.half_width) for s in report.tally.standings()]
    ratings = [RatingPoint(k, n, r.mu, r.sigma) for k, n, r in report.tally.history]
    return chart(title, standings, ratings)


def print_tournaments(rows: list[tuple[StoredTournament, int]], out: TextIO) -> None:
    if not rows:
        out.write("no stored tournaments\n")
        return
    out.write(f"{'id':>5}  {'game':<12} {'status':<11} {'matches':>7}  {'created':<19}  bots\n")
    for t, n in rows:
        bots = ",".join(e["name"] for e in t.setup.get("entrants", []))
        created = t.created_at.strftime("%Y-%m-%d %H:%M:%S")
        out.write(f"{t.id:>5}  {t.game_type:<12} {t.status:<11} {n:>7}  {created:<19}  {bots}\n")


def print_standings(t: StoredTournament, out: TextIO) -> None:
    setup = t.setup
    out.write(
        f"tournament {t.id}: {get_game(t.game_type).title}, {setup.get('schedule')}, "
        f"{plural(int(setup.get('deals', 0)), 'deal')} per pairing, {t.status}, "
        f"{plural(len(t.matches), 'match', 'matches')}\n"
    )
    bots = standings_of(t)
    points = setup.get("schedule") == Schedule.SWISS and len(setup.get("entrants", [])) > 2
    w = max(16, *(len(b["name"]) for b in bots)) if bots else 16
    out.write(
        f"{'bot':<{w}} {'mean score/game':>16}  {'95% CI (t)':<22} {'rating':>13}"
        f"{'  points' if points else ''}  stand-ins\n"
    )
    for b in bots:
        ci = interval_text(b["mean"], b["half_width"])
        rating = f"{b['mu']:.1f} ± {b['sigma']:.1f}"
        mean = score_text(b["mean"])
        extra = f"  {b['points']:6.1f}" if points else ""
        out.write(f"{b['name']:<{w}} {mean:>16}  {ci:<22} {rating:>13}{extra}  {b['stand_ins']}\n")
    out.write("matches (game ids replay with `cardtable replay ID`):\n")
    for m in t.matches:
        ids = " ".join(str(g.game_id) for g in m.games)
        out.write(
            f"  #{m.number:<4} round {m.round:<3} {m.bot_a} {score_text(m.score_a)} - "
            f"{score_text(m.score_b)} {m.bot_b}   games {ids}\n"
        )
    for bye in t.byes:
        out.write(f"  bye   round {bye.round:<3} {bye.bot} (+{score_text(bye.points)} points)\n")
