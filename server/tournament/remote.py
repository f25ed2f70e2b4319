"""Tournaments with websocket bots: the tables run in a real server.

Each remote entrant is a player with one session token per seat it takes at a
table (a bot in a partnership game sits twice; a connection sees one seat).  The
server seats a connected remote by pushing ``joined`` and a ``snapshot``, as if it
had joined; a remote that is not connected is seated all the same, and the turn
clock plays the game's stand-in for every move it does not make in time
(docs/bots.md, "Websocket bots").
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import secrets
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from bots.arena import PlayedGame, SeatFaults
from bots.base import BOTS
from bots.progress import Progress
from bots.tournament.tally import SeatedGame
from protocol.messages import ErrorCode, TableError
from rules.registry import get_game
from server.app import Server
from server.connection import Connection, Reply
from server.persistence.results import Results
from server.persistence.store import SeatRecord, token_hash
from server.seats import Seat
from server.settings import Settings
from server.table import Table
from server.table_moves import is_stand_in
from server.tournament.interrupts import Interrupts
from server.tournament.runner import (
    MatchGames,
    MatchPlayer,
    PlayedMatchGame,
    SetupError,
    TournamentReport,
    TournamentSetup,
    run_tournament,
    starting_ratings,
    total_games,
)

log = logging.getLogger("cardtable.tournament")

TABLES_AT_ONCE = 4  # tables in play together (a remote bot plays them concurrently)


@dataclass(frozen=True)
class RemoteSlot:
    """One session of a remote entrant: the ``k``-th seat it takes at a table."""

    entrant: str
    k: int
    player_id: int
    token: str

    @property
    def label(self) -> str:
        return self.entrant if self.k == 0 else f"{self.entrant}#{self.k + 1}"


def slots_needed(setup: TournamentSetup) -> int:
    """Seats a remote entrant takes at one table: two bots alternate round it, and
    a lone entrant plays itself in every seat."""
    seats = get_game(setup.game).seat_count(get_game(setup.game).parse_config(setup.options))
    return seats if len(setup.entrants) == 1 else (seats + 1) // 2


def run_remote(
    setup: TournamentSetup, args: argparse.Namespace, db_url: str | None
) -> TournamentReport | None:
    """Serve the tournament's tables, wait for the remote bots, play it all."""
    # The server's per-move warnings (a bot's illegal answer, replaced by the
    # stand-in) would bury the progress lines; errors still show.
    logging.getLogger("cardtable").setLevel(logging.ERROR)
    with tempfile.TemporaryDirectory() as scratch:
        # The tables are stored games even with --no-store: a scratch database.
        url = db_url if db_url is not None else f"sqlite:///{Path(scratch) / 'tournament.db'}"
        settings = Settings.from_env(
            db_url=url,
            host=args.host,
            port=args.port,
            bot_delay=0.0,
            bot_budget=setup.budget,
            bot_workers=args.workers,
            # The turn clock, not the grace period, handles an absent bot.
            disconnect_policy="wait",
            grace=3600.0,
            # One connection plays many tables at bot speed.
            rate=1000.0,
            burst=2000,
        )
        return asyncio.run(
            _serve_and_play(setup, settings, args.connect_timeout, db_url, args.fresh_ratings)
        )


async def _serve_and_play(
    setup: TournamentSetup,
    settings: Settings,
    connect_timeout: float,
    db_url: str | None,
    fresh: bool,
) -> TournamentReport | None:
    # Its own tables only: a server of the same database may be playing the others.
    server = Server(settings, resume=False)
    try:
        await server.start()
    except OSError as exc:  # the port taken, the address not this machine's...
        await server.stop()  # what did start (the bot pool, the store) ends here
        raise SetupError(f"cannot serve the remote seats on {settings.host}:{settings.port}: "
                         f"{exc.strerror or exc}") from None
    progress: Progress | None = None
    opened = OpenedGames()

    async def play() -> TournamentReport | None:
        nonlocal progress
        slots: list[RemoteSlot] = []
        for e in (e for e in setup.entrants if e.remote):
            for k in range(slots_needed(setup)):
                # Never starting with "-": bots take it as a command-line argument.
                token = "t" + secrets.token_urlsafe(24)
                slot = RemoteSlot(e.name, k, 0, token)
                pid = await server.store.create_player(slot.label, token)
                slots.append(RemoteSlot(e.name, k, pid, token))
        url = f"ws://{settings.host}:{server.port}/"
        for slot in slots:
            print(f"remote seat {slot.label}: connect to {url} with token {slot.token}", flush=True)
        if not await _wait_for(server, slots, connect_timeout):
            missing = [s.label for s in slots if _connection(server, s) is None]
            print(
                f"error: no connection from {', '.join(missing)} within {connect_timeout:g}s",
                file=sys.stderr,
            )
            return None
        config_json = get_game(setup.game).config_json(get_game(setup.game).parse_config(
            setup.options))
        await server.bots.warm(setup.game, config_json, sorted(set(table_bots(setup).values())))
        results = Results(server.store) if db_url is not None else None
        start = {} if fresh else await starting_ratings(results, setup)
        progress = Progress(total_games(setup))
        return await run_tournament(
            setup,
            server_player(setup, server, slots, opened),
            results=results,
            progress=progress,
            start=start,
        )

    async with Interrupts() as stop:
        try:
            return await stop.guard(play())
        finally:
            if progress is not None:
                progress.close()
            await _abandon_open_tables(server, opened)
            await server.stop()


@dataclass
class OpenedGames:
    """The games a run stores: each one's table once it has one, and the stores in
    flight (an interrupt must not lose a game stored as it came)."""

    tables: dict[int, Table] = field(default_factory=dict)
    storing: set[asyncio.Task[int]] = field(default_factory=set)


async def _abandon_open_tables(server: Server, opened: OpenedGames) -> None:
    """A run that stops early (interrupted, failed) leaves no table to play on: its
    games not over (a table still open, or one stopped before it was set up) are
    stored abandoned, so that a server on the same database neither plays them on
    nor offers their empty seats (a run with websocket entrants cannot be resumed)."""
    stored = await asyncio.gather(*opened.storing, return_exceptions=True)
    for game_id in sorted({g for g in stored if isinstance(g, int)}):
        table = opened.tables.get(game_id)
        if table is None or table.status in ("waiting", "live"):
            try:
                await server.store.set_status(
                    game_id, "abandoned", {"summary": "the tournament stopped before it"})
            except Exception:  # the store itself failing: nothing more to do here
                log.exception("game %d of the stopped tournament stays open", game_id)


async def _wait_for(server: Server, slots: list[RemoteSlot], timeout: float) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while any(_connection(server, s) is None for s in slots):
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


def _connection(server: Server, slot: RemoteSlot) -> Connection | None:
    return next((c for c in server.connections if c.player_id == slot.player_id), None)


def table_bots(setup: TournamentSetup) -> dict[str, str]:
    """Each local entrant's bot as a table seats it: a registry bot by its name, an
    outside bot by its module:Class, which the server's bot pool loads."""
    registry = BOTS.get(setup.game, {})
    return {
        e.name: e.name if registry.get(e.name) == e.target else e.target
        for e in setup.entrants
        if not e.remote
    }


def server_player(
    setup: TournamentSetup, server: Server, slots: list[RemoteSlot], opened: OpenedGames
) -> MatchPlayer:
    """Plays each game of a match at a table of ``server`` (each game stored is
    noted in ``opened``, with its table once it has one)."""
    game = get_game(setup.game)
    config = game.parse_config(setup.options)
    bots = table_bots(setup)
    by_entrant: dict[str, list[RemoteSlot]] = {}
    for slot in slots:
        by_entrant.setdefault(slot.entrant, []).append(slot)
    gate = asyncio.Semaphore(TABLES_AT_ONCE)

    async def play_one(seed: int, seating: tuple[str, ...]) -> PlayedMatchGame:
        async with gate:
            taken: dict[str, int] = {}
            plan: list[tuple[int, str | RemoteSlot]] = []
            for i, name in enumerate(seating):
                if name in by_entrant:
                    k = taken.get(name, 0)
                    taken[name] = k + 1
                    plan.append((i, by_entrant[name][k]))
                else:
                    plan.append((i, bots[name]))
            table = await _open_table(server, setup, game, config, seed, plan, opened)
            while table.status not in ("finished", "abandoned"):
                await asyncio.sleep(0.02)
            return await _played(server, table, seating)

    async def play(match: MatchGames, on_game: Callable[[], None]) -> list[PlayedMatchGame]:
        async def one(seating: tuple[str, ...]) -> PlayedMatchGame:
            played = await play_one(match.seed, seating)
            on_game()
            return played

        return list(await asyncio.gather(*(one(s) for s in match.seatings)))

    return play


async def _open_table(
    server: Server,
    setup: TournamentSetup,
    game: Any,
    config: Any,
    seed: int,
    plan: list[tuple[int, str | RemoteSlot]],
    opened: OpenedGames,
) -> Table:
    """A table with the bots seated, then each remote slot seated (pushed to its
    connection, or held for it absent); the last seat filled starts the game."""
    name = "Tournament table"
    options = {"turn_seconds": setup.budget, "timeout_stand_in": True, "tournament": True}
    count = game.seat_count(config)
    storing = asyncio.ensure_future(server.store.create_game(
        game.name, game.config_json(config), seed, name, count, options
    ))
    opened.storing.add(storing)
    game_id = await asyncio.shield(storing)  # interrupted, it is still stored and known
    seats = [Seat(i) for i in range(count)]
    for i, who in plan:
        if isinstance(who, str):
            await server.store.set_seat(game_id, SeatRecord(i, "bot", bot=who))
            seats[i].kind, seats[i].bot = "bot", who
    table = Table(
        ctx=server.ctx,
        id=game_id,
        name=name,
        game=game,
        config=config,
        seed=seed,
        seats=seats,
        state=game.new(config, seed),
        turn_seconds=setup.budget,
        timeout_stand_in=True,
    )
    opened.tables[game_id] = table
    server.lobby.add(table)
    table.start_actor()
    for i, who in plan:
        if isinstance(who, RemoteSlot):
            conn = _connection(server, who)
            try:
                if conn is None:
                    raise TableError(ErrorCode.NOT_ALLOWED, "not connected")
                await table.submit(partial(table.join, Reply(conn), i))
            except TableError:  # gone, or going as it was seated: held for it absent
                await table.submit(partial(_seat_absent, table, i, who))
    await table.submit(partial(_start_if_full, table))  # a match of local bots only
    return table


async def _start_if_full(table: Table) -> None:
    if table.status == "waiting" and all(s.kind != "empty" for s in table.seats):
        await table.start()


async def _seat_absent(table: Table, index: int, slot: RemoteSlot) -> None:
    """Hold seat ``index`` for a remote that is not connected: its turns run out
    on the clock and get the stand-in."""
    if table.status != "waiting" or table.seats[index].kind != "empty":
        return
    hidden = token_hash(secrets.token_urlsafe(24))  # nobody holds it: it was never sent
    await table.ctx.store.set_seat(
        table.id, SeatRecord(index, "human", slot.player_id, None, hidden)
    )
    seat = table.seats[index]
    seat.kind, seat.player_id, seat.player_name = "human", slot.player_id, slot.label
    seat.token_hash, seat.connected = hidden, False
    await _start_if_full(table)


async def _played(server: Server, table: Table, seating: tuple[str, ...]) -> PlayedMatchGame:
    stored = await server.store.get_game(table.id)
    assert stored is not None
    result = table.game.result(table.state)
    if result is None:  # abandoned: nobody moves it on; count it as nothing won
        scores = tuple(0.0 for _ in seating)
        result_json: dict[str, Any] = {"scores": list(scores), "summary": "abandoned"}
    else:
        scores, result_json = tuple(result.scores), result.to_json()
    stand_ins = [0] * len(seating)
    late = [0] * len(seating)
    for a in stored.actions:
        # A remote's expired turn, and a local bot's late, failed or illegal answer.
        if is_stand_in(a.actor):
            stand_ins[a.seat] += 1
            late[a.seat] += a.actor.startswith("timeout:")  # its turn clock ran out
    # What a websocket bot's author can learn here: its turns that ran out, and the
    # actions the rules refused it (a local bot's reasons go to the server's log).
    faults = []
    for s in table.seats:
        refused, first = table.refused.get(s.index, (0, None))
        faults.append(SeatFaults(late=late[s.index], refused=refused, first_refused=first)
                      if s.kind == "human" else SeatFaults())
    played = PlayedGame(
        scores,
        tuple((a.seat, a.action) for a in stored.actions),
        0,
        tuple(stand_ins),
        result_json,
        tuple(faults),
    )
    return PlayedMatchGame(SeatedGame(seating, played), game_id=table.id)
