"""Stored tournaments that stop halfway and are resumed (`cardtable tournament
--resume ID`), and Swiss byes stored as they happen (docs/bots.md, "Results"):
a resumed run stores what an uninterrupted run of the same setup stores, and a
running Swiss tournament's standings count its byes."""

from __future__ import annotations

import asyncio
import dataclasses
import io
from typing import Any

import pytest

from bots.progress import Progress
from bots.tournament.schedule import Schedule
from server.cli import main
from server.persistence.results import MatchAlreadyStored, Results, StoredTournament
from server.persistence.store import Store
from server.tournament.page import standings_of, tournament_page
from server.tournament.runner import (
    Entrant,
    ResumeError,
    TournamentSetup,
    local_player,
    make_executor,
    run_tournament,
)

# Three bots, Swiss: a bye every round, and pairings that depend on the results.
SWISS = TournamentSetup(
    game="whist",
    options={"deals": 1},
    entrants=(
        Entrant("h", "bots.whist.heuristic:WhistHeuristicBot"),
        Entrant("r1", "bots.base:RandomBot"),
        Entrant("r2", "bots.base:RandomBot"),
    ),
    deals=2,
    seed=7,
    schedule=Schedule.SWISS,
    rounds=3,
)


def stored_outcome(t: StoredTournament) -> dict[str, Any]:
    """What a tournament stored, less its id, times and game ids."""
    return {
        "status": t.status,
        "setup": t.setup,
        "standings": t.standings,
        "matches": [
            (m.number, m.round, m.bot_a, m.bot_b, m.seed, m.score_a, m.score_b) for m in t.matches
        ],
        "games": [(g.bots, g.scores, g.stand_ins, g.actions) for m in t.matches for g in m.games],
        "ratings": [(r.match_number, r.bot, r.mu, r.sigma) for r in t.ratings],
        "byes": t.byes,
    }


async def run_stored(url: str, setup: TournamentSetup, stop_at: int | None = None) -> int:
    """Run ``setup`` stored on ``url``; with ``stop_at``, the run fails as that
    match is played (the matches before it are stored). Returns the id."""
    store = await Store.open(url)
    try:
        results = Results(store)
        with make_executor(0) as ex:
            local = local_player(setup, ex)

            async def player(match: Any, on_game: Any) -> Any:
                if match.number == stop_at:
                    raise RuntimeError("coordinator lost")
                return await local(match, on_game)

            try:
                report = await run_tournament(setup, player, results=results)
            except RuntimeError:
                ((t, _),) = await results.list_tournaments(1)
                return t.id
            assert report.tournament_id is not None
            return report.tournament_id
    finally:
        await store.close()


async def load_tournament(url: str, tid: int) -> StoredTournament:
    store = await Store.open(url)
    try:
        t = await Results(store).get_tournament(tid)
        assert t is not None
        return t
    finally:
        await store.close()


def test_a_resumed_swiss_tournament_stores_what_an_uninterrupted_one_does(
    tmp_path: Any, capsys: Any
) -> None:
    whole_url = f"sqlite:///{tmp_path}/whole.db"
    cut_url = f"sqlite:///{tmp_path}/cut.db"
    whole = asyncio.run(load_tournament(whole_url, asyncio.run(run_stored(whole_url, SWISS))))
    assert whole.status == "finished" and len(whole.byes) == 3
    # 3 rounds, one pair each, 2 deals: 6 matches; stop at the 4th (round 2's second).
    cut_id = asyncio.run(run_stored(cut_url, SWISS, stop_at=4))
    cut = asyncio.run(load_tournament(cut_url, cut_id))
    assert cut.status == "interrupted" and len(cut.matches) == 3
    assert [b.round for b in cut.byes] == [1, 2]

    assert main(["tournament", "--resume", str(cut_id), "--db", cut_url]) == 0
    out = capsys.readouterr().out
    assert "3 stored before resuming" in out
    resumed = asyncio.run(load_tournament(cut_url, cut_id))
    assert stored_outcome(resumed) == stored_outcome(whole)
    assert main(["tournament", "--resume", str(cut_id), "--db", cut_url]) == 2
    assert f"tournament {cut_id} is finished: nothing to resume" in capsys.readouterr().err


def test_a_run_resumed_past_a_window_of_stored_matches_plays_the_rest(
    tmp_path: Any, capsys: Any
) -> None:
    """More stored matches than play at once (64): each one recounted leaves room
    for a planned match, so the resumed run plays every match left (it stopped after
    the first 64 and was marked finished)."""
    from server.tournament.runner import WINDOW

    setup = TournamentSetup(
        game="whist", options={"deals": 1},
        entrants=(Entrant("a", "bots.base:RandomBot"), Entrant("b", "bots.base:RandomBot")),
        deals=WINDOW + 6, seed=3)
    url = f"sqlite:///{tmp_path}/t.db"
    tid = asyncio.run(run_stored(url, setup, stop_at=WINDOW + 3))
    assert len(asyncio.run(load_tournament(url, tid)).matches) == WINDOW + 2
    assert main(["tournament", "--resume", str(tid), "--db", url]) == 0
    assert f"{WINDOW + 2} stored before resuming" in capsys.readouterr().out
    resumed = asyncio.run(load_tournament(url, tid))
    assert resumed.status == "finished"
    assert [m.number for m in resumed.matches] == list(range(1, WINDOW + 7))


def test_a_running_swiss_tournament_counts_its_byes(tmp_path: Any, capsys: Any) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    tid = asyncio.run(run_stored(url, SWISS, stop_at=4))
    t = asyncio.run(load_tournament(url, tid))
    final = {b["name"]: b["points"] for b in t.standings["bots"]}  # type: ignore[index]
    # Read as a running tournament (no stored standings): the byes' points count.
    running = dataclasses.replace(t, standings=None)
    assert {b["name"]: b["points"] for b in standings_of(running)} == final
    byes = {b.bot: b.points for b in t.byes}
    assert all(final[bot] >= points for bot, points in byes.items())
    assert sum(final.values()) == pytest.approx(len(t.matches) + sum(byes.values()))
    page = tournament_page(running, "<svg></svg>")
    assert "<h2>Byes</h2>" in page and f"round 1: {t.byes[0].bot}" in page
    assert main(["standings", str(tid), "--db", url]) == 0
    text = capsys.readouterr().out
    assert "points" in text.splitlines()[1]
    assert f"bye   round 1   {t.byes[0].bot} (+2 points)" in text


def test_a_resume_that_does_not_match_the_stored_matches_is_refused(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    tid = asyncio.run(run_stored(url, SWISS, stop_at=3))

    async def resume_other() -> None:
        t = await load_tournament(url, tid)
        # The same tournament with other deals: its stored matches are not this plan's.
        other = dataclasses.replace(SWISS, seed=8)
        store = await Store.open(url)
        try:
            with make_executor(0) as ex:
                await run_tournament(
                    other, local_player(other, ex), results=Results(store), resume=t
                )
        finally:
            await store.close()

    with pytest.raises(ResumeError, match="stored match 1 is not the one the schedule plans"):
        asyncio.run(resume_other())


def test_two_runs_of_one_tournament_store_each_match_once(tmp_path: Any) -> None:
    # Two processes resume one stopped tournament: the one that stores a match number
    # second stops with a clear error and leaves the other run's status alone.
    whole_url = f"sqlite:///{tmp_path}/whole.db"
    url = f"sqlite:///{tmp_path}/t.db"
    whole = asyncio.run(load_tournament(whole_url, asyncio.run(run_stored(whole_url, SWISS))))
    tid = asyncio.run(run_stored(url, SWISS, stop_at=4))

    async def race() -> None:
        t = await load_tournament(url, tid)
        store = await Store.open(url)
        try:
            results = Results(store)
            with make_executor(0) as ex:
                local = local_player(SWISS, ex)

                async def late(match: Any, on_game: Any) -> Any:
                    if match.number == 4:  # the other run gets there first, and finishes
                        await run_tournament(SWISS, local, results=results, resume=t)
                    return await local(match, on_game)

                await run_tournament(SWISS, late, results=results, resume=t)
        finally:
            await store.close()

    with pytest.raises(MatchAlreadyStored, match=f"tournament {tid}: match 4 is stored already"):
        asyncio.run(race())
    assert stored_outcome(asyncio.run(load_tournament(url, tid))) == stored_outcome(whole)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--resume", "1", "--no-store"], "--resume reads the tournament from the database"),
        (["--resume", "1", "--remote-seat", "x"], "--resume takes the entrants"),
        (["--resume", "9"], "no stored tournament 9"),
        (["--resume", "1", "--games", "4"], "setup: not with --games"),
        (["--resume", "1", "--seed", "2", "--fresh-ratings"], "not with --seed, --fresh-ratings"),
        (["--bus", "http://x"], "not an mqtt://[USER:PASSWORD@]HOST:PORT URL"),
        (["--bus", "mqtt://127.0.0.1:1", "--no-store"], "--bus needs the database"),
        (["--bus", "mqtt://127.0.0.1:1", "--workers", "2"], "give --workers to `cardtable worker`"),
        (["--bus", "mqtt://127.0.0.1:1", "--remote-seat", "x"], "--remote-seat and --bus"),
    ],
)
def test_flags_that_do_not_go_together(
    flags: list[str], message: str, tmp_path: Any, capsys: Any
) -> None:
    url = f"sqlite:///{tmp_path}/t.db"
    assert main(["tournament", "--db", url, *flags]) == 2
    assert message in capsys.readouterr().err


def test_a_resumed_runs_progress_starts_from_the_games_stored() -> None:
    stream = io.StringIO()
    bar = Progress(10, stream, every=3600.0, initial=4)
    assert bar.done == 4
    bar.advance(6)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "progress: started: 10 games to play (4 done before)"
    assert lines[-1].startswith("progress: 10/10 games (100%)")
