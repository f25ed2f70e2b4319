"""`cardtable tournament` end to end: outside bots, stored results that replay,
ratings that round-trip, standings from the CLI, plots that are real images."""

from __future__ import annotations

import asyncio
import dataclasses
import io
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from matplotlib.image import imread

from bots.arena import PlayedGame, derive_seeds
from bots.progress import Progress
from bots.tournament.schedule import Schedule
from bots.tournament.tally import SeatedGame
from engine.replay import LoggedAction, replay
from rules.registry import get_game
from server.app import Server
from server.cli import build_parser, main
from server.persistence.results import Results
from server.persistence.store import Store
from server.settings import Settings
from server.tournament.commands import setup_from_args
from server.tournament.page import standings_of, stored_chart
from server.tournament.plot import svg
from server.tournament.runner import (
    Entrant,
    MatchGames,
    MatchPlayer,
    PlayedMatchGame,
    TournamentSetup,
    local_player,
    make_executor,
    match_seatings,
    run_tournament,
    starting_ratings,
    total_games,
)
from tests.server.serverproc import ROOT, TAG_VARIABLE, new_tag, stop, survivors, tagged
from tests.server.test_static_client import _get


def _load(url: str, tid: int) -> Any:
    async def run() -> Any:
        store = await Store.open(url)
        try:
            t = await Results(store).get_tournament(tid)
            assert t is not None
            games = [await store.get_game(g.game_id) for m in t.matches for g in m.games]
            return t, games
        finally:
            await store.close()

    return asyncio.run(run())


def test_an_outside_bot_plays_a_stored_tournament_that_replays(
    sqlite_url: str, tmp_path: Path, capsys: Any
) -> None:
    png = tmp_path / "chart.png"
    args = [
        "tournament",
        "--game",
        "whist",
        "--games",
        "3",
        "--db",
        sqlite_url,
        "--bots",
        "trick=examples.trick_bot:TrickBot,heuristic",
        "--plot",
        str(png),
    ]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "stored as tournament 1" in out and f"plot written to {png}" in out
    t, games = _load(sqlite_url, 1)
    assert t.status == "finished" and t.game_type == "whist"
    assert [e["name"] for e in t.setup["entrants"]] == ["trick", "heuristic"]
    assert t.setup["entrants"][0]["target"] == "examples.trick_bot:TrickBot"
    assert len(t.matches) == 3 and all(len(m.games) == 2 for m in t.matches)
    # Every game is a stored game: its log replays to the stored result.
    game = get_game("whist")
    for stored in games:
        assert stored is not None and stored.status == "finished"
        config = game.parse_config(stored.config)
        end = replay(
            game,
            config,
            stored.seed,
            [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions],
        )
        result = game.result(end)
        assert result is not None and list(result.scores) == stored.result["scores"]
        assert {s.kind for s in stored.seats} == {"bot"}
        assert {s.bot for s in stored.seats} == {"trick", "heuristic"}
    # The seats of each match's two games are swapped: the same deal both ways.
    m = t.matches[0]
    assert m.games[0].bots == ["trick", "heuristic"] * 2
    assert m.games[1].bots == ["heuristic", "trick"] * 2
    # Ratings: a start row per bot, then one per bot per match, the last the standings'.
    assert [(r.match_number, r.bot) for r in t.ratings[:2]] == [(0, "trick"), (0, "heuristic")]
    assert len(t.ratings) == 2 + 2 * 3
    last = {r.bot: (r.mu, r.sigma) for r in t.ratings}
    for b in t.standings["bots"]:
        assert last[b["name"]] == (b["mu"], b["sigma"])
    # The PNG is a real image of the size matplotlib drew.
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert imread(str(png)).shape[:2] == (420, 1100)

    assert main(["tournaments", "--db", sqlite_url]) == 0
    listing = capsys.readouterr().out
    assert "whist" in listing and "trick,heuristic" in listing
    svg_file = tmp_path / "again.svg"
    assert main(["standings", "1", "--db", sqlite_url, "--plot", str(svg_file)]) == 0
    text = capsys.readouterr().out
    assert "tournament 1: Whist, round-robin, 3 deals per pairing, finished" in text
    assert f"games {games[0].id} {games[1].id}" in text
    root = ET.fromstring(svg_file.read_text())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert main(["standings", "7", "--db", sqlite_url]) == 2
    assert "no stored tournament 7" in capsys.readouterr().err


def test_ratings_carry_over_to_the_next_tournament(sqlite_url: str, capsys: Any) -> None:
    base = ["tournament", "--game", "whist", "--games", "2", "--db", sqlite_url]
    assert main(base) == 0
    first, _ = _load(sqlite_url, 1)
    assert main([*base, "--seed", "2"]) == 0
    second, _ = _load(sqlite_url, 2)
    end_of_first = {r.bot: (r.mu, r.sigma) for r in first.ratings}
    start_of_second = {r.bot: (r.mu, r.sigma) for r in second.ratings if r.match_number == 0}
    assert start_of_second == end_of_first
    assert main([*base, "--fresh-ratings"]) == 0
    third, _ = _load(sqlite_url, 3)
    assert {(r.mu, round(r.sigma, 6)) for r in third.ratings if r.match_number == 0} == {
        (25.0, round(25 / 3, 6))
    }


def test_swiss_for_five_bots_gives_byes_and_points() -> None:
    names = ["heuristic", "random", "b3", "b4", "b5"]
    setup = TournamentSetup(
        game="whist",
        options={},
        entrants=tuple(
            Entrant(
                n,
                "bots.whist.heuristic:WhistHeuristicBot"
                if n == "heuristic"
                else "bots.base:RandomBot",
            )
            for n in names
        ),
        deals=2,
        schedule=Schedule.SWISS,
        rounds=3,
    )

    async def run() -> Any:
        with make_executor(0) as ex:
            return await run_tournament(setup, local_player(setup, ex))

    report = asyncio.run(run())
    assert report.tally.matches == 3 * 2 * 2  # rounds x pairs x deals
    assert {m.round for m in report.matches} == {1, 2, 3}
    # 5 entrants: one bye a round, each to a different bot, worth a win per deal.
    points = sum(report.tally.points.values())
    assert points == pytest.approx(3 * 2 * 2 + 3 * 2)  # a point per match, plus byes
    for rnd in (1, 2, 3):
        playing = [x for m in report.matches if m.round == rnd for x in (m.a, m.b)]
        assert len(set(playing)) == 4


def test_plain_progress_lines_when_not_a_terminal(tmp_path: Path) -> None:
    class Stream:
        def __init__(self) -> None:
            self.lines: list[str] = []

        def write(self, text: str) -> None:
            self.lines.append(text)

        def flush(self) -> None:
            pass

        def isatty(self) -> bool:
            return False

    s = Stream()
    bar = Progress(4, s, every=3600.0)  # type: ignore[arg-type]
    bar.advance(1, "heuristic 27.1±7.9")
    bar.advance(2)
    bar.advance(1, "heuristic 29.0±7.1")
    bar.close()
    assert s.lines[0] == "progress: started: 4 games to play\n"
    # Only the last update is printed within the interval: the end is always shown.
    assert len(s.lines) == 2
    assert s.lines[1].startswith("progress: 4/4 games (100%)")
    assert s.lines[1].rstrip().endswith("leader heuristic 29.0±7.1")


class _Lines(io.StringIO):
    """A stream off a terminal, read back line by line."""

    def lines(self) -> list[str]:
        return self.getvalue().splitlines()


HEADS = TournamentSetup(
    game="whist",
    options={},
    entrants=(Entrant("x", "bots.base:RandomBot"), Entrant("y", "bots.base:RandomBot")),
    deals=2,
)


def _scripted(winner: dict[int, str], wait: float = 0.0) -> MatchPlayer:
    """Plays no cards: each deal's ``winner`` scores 1 a seat, the other -1, a
    game ending ``wait`` seconds after the one before."""

    async def play(match: MatchGames, on_game: Any) -> list[PlayedMatchGame]:
        games = []
        for seating in match.seatings:
            await asyncio.sleep(wait)
            scores = tuple(1.0 if n == winner[match.seed] else -1.0 for n in seating)
            games.append(SeatedGame(seating, PlayedGame(scores, (), 0, (0,) * len(seating))))
            on_game()
        return [PlayedMatchGame(g) for g in games]

    return play


def test_the_last_progress_line_names_the_leader_of_the_final_standings() -> None:
    # x wins the first deal, y the second: the lead changes with the last match,
    # which is counted after the last game ends.
    first, second = derive_seeds(HEADS.seed, HEADS.deals)
    stream = _Lines()
    progress = Progress(total_games(HEADS), stream, every=3600.0)
    report = asyncio.run(
        run_tournament(HEADS, _scripted({first: "x", second: "y"}), progress=progress)
    )
    assert report.tally.leader() == "y"
    y = report.tally.ratings.get("y")
    lines = stream.lines()
    assert lines[-1].startswith("progress: 4/4 games (100%)")
    assert lines[-1].endswith(f"leader y {y.mu:.1f}±{y.sigma:.1f}")
    assert len(lines) == 2  # the start and the end: the end printed once
    assert progress._timer is None  # the run closed it


def test_progress_lines_keep_coming_while_a_game_is_slow() -> None:
    setup = dataclasses.replace(HEADS, deals=1)
    (first,) = derive_seeds(setup.seed, setup.deals)
    stream = _Lines()
    progress = Progress(total_games(setup), stream, every=0.05)
    asyncio.run(run_tournament(setup, _scripted({first: "x"}, wait=0.5), progress=progress))
    # The first game takes half a second: no game counted, lines all the same.
    waiting = [line for line in stream.lines() if line.startswith("progress: 0/2 games")]
    assert len(waiting) >= 2
    assert progress._timer is None


def test_the_stored_chart_is_an_svg_with_both_panels(sqlite_url: str) -> None:
    assert main(["tournament", "--game", "whist", "--games", "2", "--db", sqlite_url]) == 0
    t, _ = _load(sqlite_url, 1)
    root = ET.fromstring(svg(stored_chart(t)))
    text = "".join(root.itertext())
    assert "Standings" in text and "Rating over matches" in text


async def test_results_round_trip_on_both_databases(db_url: str) -> None:
    setup = TournamentSetup(
        game="poker",
        options={"seats": 2, "hands": 2},
        entrants=(
            Entrant("rule", "bots.poker.rule:PokerRuleBot"),
            Entrant("mod:Random", "bots.base:RandomBot"),
        ),
        deals=3,
    )
    store = await Store.open(db_url)
    try:
        results = Results(store)
        with make_executor(0) as ex:
            report = await run_tournament(setup, local_player(setup, ex), results=results)
        assert report.tournament_id is not None
        t = await results.get_tournament(report.tournament_id)
        assert t is not None and t.status == "finished" and t.setup == setup.to_json()
        assert [(m.number, m.score_a, m.score_b) for m in t.matches] == [
            (m.number, m.score_a, m.score_b) for m in report.matches
        ]
        for stored, played in zip(t.matches, report.matches, strict=True):
            assert [g.scores for g in stored.games] == [list(g.played.scores) for g in played.games]
            assert [g.bots for g in stored.games] == [list(g.seating) for g in played.games]
        assert [(r.match_number, r.bot, r.mu, r.sigma) for r in t.ratings] == [
            (k, n, r.mu, r.sigma) for k, n, r in report.tally.history
        ]
        latest = await results.latest_ratings("poker", ["rule", "mod:Random", "nobody"])
        final = report.tally.ratings
        assert latest == {
            "rule": (final.get("rule").mu, final.get("rule").sigma, "bots.poker.rule:PokerRuleBot"),
            "mod:Random": (final.get("mod:Random").mu, final.get("mod:Random").sigma,
                           "bots.base:RandomBot"),
        }
        # A rating follows the bot its name stood for: the same name given to
        # another class starts afresh rather than take that bot's rating over.
        carried = await starting_ratings(results, setup)
        assert carried == {n: final.get(n) for n in ("rule", "mod:Random")}
        impostor = dataclasses.replace(setup, entrants=(
            Entrant("rule", "bots.base:RandomBot"), Entrant("mod:Random", "bots.base:RandomBot")))
        assert set(await starting_ratings(results, impostor)) == {"mod:Random"}
        # A running tournament's page works its standings out from the matches:
        # the same figures as the ones stored at the end.
        running = dataclasses.replace(t, standings=None)
        assert t.standings is not None
        for live, final in zip(standings_of(running), t.standings["bots"], strict=True):
            assert live == pytest.approx(final)
        listed = await results.list_tournaments()
        assert [(x.id, n) for x, n in listed] == [(report.tournament_id, 3)]
    finally:
        await store.close()


def test_the_server_shows_the_standings_page_with_charts_and_replay_links(
    sqlite_url: str, tmp_path: Path
) -> None:
    args = ["tournament", "--game", "whist", "--games", "2", "--db", sqlite_url]
    assert main([*args, "--bots", "heuristic,b<i>=bots.base:RandomBot"]) == 0
    t, games = _load(sqlite_url, 1)

    async def fetch() -> dict[str, tuple[int, dict[str, str], bytes]]:
        server = Server(Settings(host="127.0.0.1", port=0, db_url=sqlite_url, bot_workers=0))
        await server.start()
        try:
            paths = [
                "/tournaments",
                "/tournaments/",
                "/tournaments/1",
                "/tournaments/9",
                "/tournaments/x",
                "/tournaments/99999999999999999999999",
                "/tournaments/%C2%B2",  # "²", a digit to str.isdigit
            ]
            return {p: await _get(server.port, p) for p in paths}
        finally:
            await server.stop()

    pages = asyncio.run(fetch())
    for p in ("/tournaments", "/tournaments/", "/tournaments/1"):
        status, headers, _ = pages[p]
        assert status == 200 and headers["content-type"] == "text/html; charset=utf-8"
    for missing in ("/tournaments/9", "/tournaments/x", "/tournaments/99999999999999999999999",
                    "/tournaments/%C2%B2"):
        assert pages[missing][0] == 404, missing
    listing = pages["/tournaments"][2].decode()
    assert 'href="/tournaments/1"' in listing and "b&lt;i&gt;" in listing
    page = pages["/tournaments/1"][2].decode()
    assert "<b<i>" not in page and "b&lt;i&gt;" in page  # names are escaped
    links = re.findall(r'href="/#replay=(\d+)"', page)
    assert sorted(int(x) for x in links) == sorted(g.id for g in games)
    svg_text = page[page.index("<svg") : page.index("</svg>") + len("</svg>")]
    root = ET.fromstring(svg_text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert "Rating over matches" in "".join(root.itertext())
    for b in t.standings["bots"]:
        assert f"{b['mu']:.1f} ± {b['sigma']:.1f}" in page


def test_a_progress_bar_on_a_terminal_shows_rate_eta_and_leader() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    term = Terminal()
    bar = Progress(4, term)
    bar.advance(2, "heuristic 27.1±7.9")
    bar.update(4, "heuristic 29.0±7.1")
    bar.close()
    text = term.getvalue()
    assert "4/4" in text and "game/s" in text and "leader heuristic 29.0±7.1" in text
    assert "<00:00" in text  # the estimated time left
    assert "progress:" not in text  # the bar, not the plain lines


async def test_a_run_that_stops_keeps_what_was_played_marked_interrupted(sqlite_url: str) -> None:
    setup = TournamentSetup(
        game="whist",
        options={},
        entrants=(
            Entrant("h", "bots.whist.heuristic:WhistHeuristicBot"),
            Entrant("r", "bots.base:RandomBot"),
        ),
        deals=3,
    )
    store = await Store.open(sqlite_url)
    try:
        results = Results(store)
        with make_executor(0) as ex:
            local = local_player(setup, ex)
            second_deal = derive_seeds(setup.seed, setup.deals)[1]

            async def failing(match: Any, on_game: Any) -> Any:
                if match.seed == second_deal:
                    raise RuntimeError("worker lost")
                return await local(match, on_game)

            with pytest.raises(RuntimeError, match="worker lost"):
                await run_tournament(setup, failing, results=results)
        ((t, n),) = await results.list_tournaments()
        assert t.status == "interrupted" and n == 1
        stored = await results.get_tournament(t.id)
        assert stored is not None and stored.standings is not None
        assert stored.standings["matches"] == 1
    finally:
        await store.close()


def test_seatings_per_deal_and_game_counts() -> None:
    def setup(game: str, options: dict[str, Any], n: int, **kw: Any) -> TournamentSetup:
        entrants = tuple(Entrant(f"b{i}", "bots.base:RandomBot") for i in range(n))
        return TournamentSetup(game=game, options=options, entrants=entrants, deals=5, **kw)

    bridge = setup("bridge", {}, 2)
    assert match_seatings(bridge, "x", "y") == (("x", "y", "x", "y"), ("y", "x", "y", "x"))
    assert total_games(bridge) == 5 * 2  # the same boards at two tables
    one = setup("bridge", {}, 2, duplicate=False)
    assert len({match_seatings(one, "x", "y", seed)[0] for seed in range(4)}) == 2
    assert total_games(one) == 5
    three = setup("crazy_eights", {"seats": 3}, 4)
    assert total_games(three) == 6 * 5 * 6  # 6 pairs, 5 deals, 6 seatings
    swiss = setup("crazy_eights", {"seats": 2}, 5, schedule=Schedule.SWISS, rounds=3)
    assert total_games(swiss) == 3 * 2 * 5 * 2
    assert match_seatings(setup("whist", {}, 1), "s", "s") == (("s",) * 4,)


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--bots", "heuristic,heuristic"], "listed twice"),
        (["--bots", "nowhere.mod:Bot"], "cannot load bot 'nowhere.mod:Bot'"),
        (["--bots", "json:JSONDecoder"], "has no decide"),
        (["--games", "0"], "--games must be at least 1"),
        (["--budget", "0"], "--budget must be a positive"),
        (["--schedule", "swiss", "--rounds", "0"], "--rounds must be at least 1"),
        (["--workers", "-1"], "--workers must be 0"),
        (["--options", "{nope"], "--options is not JSON"),
        (["--options", '{"deals": -3}'], "deals"),
        (["--options", "[1]"], "options are a JSON object"),
        (["--port", "9000"], "--port place the server of --remote-seat tables"),
        (["--bots", "heuristic=bots.base:RandomBot,random"], "'heuristic' is the name of"),
        (["--bots", "random", "--remote-seat", "heuristic"], "'heuristic' is the name of"),
        (["--options", "5"], "options are a JSON object"),
        (["--bots", "tests.server.broken_bot:Bot,heuristic"], "failed to load: NameError"),
        (["--plot", "chart.gif"], "must end in .png or .svg"),
        (["--remote-seat", "r" * 61], "bot name too long"),
        (["--bots", "heuristic"], "only one bot (heuristic): a tournament needs two or more"),
        (["--games", "1", "--plot", "/nonexistent/dir/x.png"], "no directory /nonexistent/dir"),
    ],
)
def test_bad_tournament_flags_are_clear_errors(flags: list[str], message: str, capsys: Any) -> None:
    assert main(["tournament", "--game", "whist", "--no-store", *flags]) == 2
    assert message in capsys.readouterr().err


def test_a_plot_file_that_is_a_directory_is_refused_at_the_start(
    tmp_path: Path, capsys: Any
) -> None:
    (tmp_path / "x.png").mkdir()
    args = ["tournament", "--game", "whist", "--games", "1", "--no-store"]
    assert main([*args, "--plot", str(tmp_path / "x.png")]) == 2
    captured = capsys.readouterr()
    assert "is a directory" in captured.err and "progress:" not in captured.err


def test_one_bot_and_a_remote_seat_make_two_entrants() -> None:
    parser = build_parser(with_tools=False)
    args = parser.parse_args(
        ["tournament", "--game", "whist", "--bots", "heuristic", "--remote-seat", "mybot"]
    )
    setup = setup_from_args(args)
    assert [(e.name, e.remote) for e in setup.entrants] == [("heuristic", False), ("mybot", True)]


def test_the_help_gives_the_default_number_of_deals(capsys: Any) -> None:
    with pytest.raises(SystemExit):
        main(["tournament", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--games GAMES deals per pairing (Swiss: per round; default 100)" in text


def test_one_deal_reads_in_the_singular_and_one_match_has_no_interval(
    sqlite_url: str, capsys: Any
) -> None:
    args = ["tournament", "--game", "whist", "--bots", "heuristic,random", "--games", "1"]
    assert main([*args, "--db", sqlite_url]) == 0
    out = capsys.readouterr().out
    assert "Whist: 2 games (1 match of one deal, every seating; round-robin)" in out
    assert main(["standings", "1", "--db", sqlite_url]) == 0
    text = capsys.readouterr().out
    assert "tournament 1: Whist, round-robin, 1 deal per pairing, finished, 1 match\n" in text
    for printed in (out, text):
        assert "inf" not in printed
        rows = [line for line in printed.splitlines() if line.startswith(("heuristic", "random"))]
        assert len(rows) == 2 and all(row.split()[2] == "–" for row in rows)


def test_a_killed_tournaments_game_processes_end_with_it(tmp_path: Path) -> None:
    """``cardtable tournament --workers 2`` killed with SIGKILL mid-run leaves none of
    its game processes behind (they would wait on their job queue for ever)."""
    tag = new_tag()
    with (tmp_path / "out").open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server.cli", "tournament", "--game", "whist",
             "--bots", "heuristic,random", "--games", "400", "--workers", "2",
             "--db", f"sqlite:///{tmp_path / 't.db'}"],
            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT), TAG_VARIABLE: tag},
            stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while len(tagged(tag)) < 3:  # the tournament and its two game processes
            assert proc.poll() is None and time.monotonic() < deadline, \
                (tmp_path / "out").read_text()
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        assert survivors(tag) == {}
    finally:
        stop(proc)


def test_a_run_stopped_by_sigterm_is_stored_as_interrupted(sqlite_url: str) -> None:
    """A service manager stops with SIGTERM: the run ends as after Ctrl-C, its
    matches kept and the tournament marked interrupted, not left running."""
    import signal
    import subprocess
    import sys
    import time

    from server.lifeline import set_parent_death_signal
    from tests.server.serverproc import ROOT

    proc = subprocess.Popen(
        [sys.executable, "-m", "server.cli", "tournament", "--game", "whist", "--games",
         "400", "--bots", "heuristic,random", "--workers", "1", "--db", sqlite_url],
        cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=set_parent_death_signal,
    )

    async def listed() -> list[tuple[str, int]]:
        store = await Store.open(sqlite_url, migrate=False)
        try:
            return [(t.status, n) for t, n in await Results(store).list_tournaments()]
        finally:
            await store.close()

    try:
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "no match was stored"
            assert proc.poll() is None, proc.communicate()
            try:
                if any(n > 0 for _, n in asyncio.run(listed())):
                    break
            except Exception:  # not created yet
                pass
            time.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and "interrupted" in err, err
    ((status, played),) = asyncio.run(listed())
    assert status == "interrupted" and 0 < played < 400
