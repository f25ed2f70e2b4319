"""Tournament parts that need no server: seatings, schedules, jobs, ratings, tally."""

from __future__ import annotations

import json
import math
import pickle
from pathlib import Path

import pytest

from bots.arena import PlayedGame, play_logged
from bots.base import bot_target, installed_bots, load_bot, make_bot
from bots.tournament import schedule
from bots.tournament.jobs import GameJob, play_job
from bots.tournament.ratings import Ratings
from bots.tournament.schedule import round_robin, seatings, swiss_round, swiss_rounds
from bots.tournament.tally import SeatedGame, Tally, match_result
from engine.errors import IllegalAction
from engine.replay import LoggedAction, replay, state_hash
from rules.registry import get_game


def test_seatings_put_each_side_in_every_seat_equally_often():
    assert seatings(2) == [(0, 1), (1, 0)]
    # Bridge and whist: partners; the same boards at two tables, sides swapped.
    assert seatings(4) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    three = seatings(3)
    assert len(three) == 6 and len(set(three)) == 6
    for seat in range(3):
        assert sum(s[seat] for s in three) == 3  # b in each seat half the time
    assert sum(sum(s) for s in three) == sum(3 - sum(s) for s in three)


def test_round_robin_meets_every_pair_once():
    pairs = round_robin(4)
    assert sorted((p.a, p.b) for p in pairs) == [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
    assert [(p.a, p.b) for p in round_robin(1)] == [(0, 0)]


def test_swiss_pairs_neighbours_avoids_rematches_and_rotates_the_bye():
    pairs, bye = swiss_round(1, [0, 1, 2, 3, 4], set())
    assert bye == 4 and [(p.a, p.b) for p in pairs] == [(0, 1), (2, 3)]
    met = {frozenset({0, 1}), frozenset({2, 3}), frozenset({4})}
    pairs, bye = swiss_round(2, [0, 2, 1, 3, 4], met)
    assert bye == 3  # 4 had the bye already
    assert [(p.a, p.b) for p in pairs] == [(0, 2), (1, 4)]
    assert swiss_rounds(2) == 1 and swiss_rounds(5) == 3 and swiss_rounds(8) == 3


def _met(*pairs: tuple[int, ...]) -> set[frozenset[int]]:
    return {frozenset(p) for p in pairs}


def test_swiss_avoids_a_rematch_when_another_pairing_does():
    # Five bots (0 low, 1 heuristic, 2 random, 3 none, 4 raise) after round 1:
    # 0-1 and 2-3 played, 4 had the bye.  Round 2's standing puts 0 last: its bye.
    met = _met((0, 1), (2, 3), (4,))
    pairs, bye = swiss_round(2, [1, 4, 2, 3, 0], met)
    assert bye == 0
    # 1-4 first would leave 2-3 to meet again: 1-2 and 4-3 meet nobody twice.
    assert [(p.a, p.b) for p in pairs] == [(1, 2), (4, 3)]
    assert all(p.round == 2 for p in pairs)
    # The same round again gives the same pairs.
    assert swiss_round(2, [1, 4, 2, 3, 0], met) == (pairs, bye)


def test_swiss_backtracks_more_than_one_level():
    # The top pairs keep their best partner only as long as the rest can be paired.
    met = _met((0, 2), (4, 5), (3, 5))
    pairs, bye = swiss_round(3, [0, 1, 2, 3, 4, 5], met)
    assert bye is None
    assert [(p.a, p.b) for p in pairs] == [(0, 1), (2, 5), (3, 4)]
    assert not any(frozenset({p.a, p.b}) in met for p in pairs)


def test_swiss_rematches_only_when_unavoidable_and_as_few_as_can_be():
    # Four bots after three rounds have all met: every pairing is a rematch, and
    # the standing order decides.
    everyone = _met((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
    pairs, _ = swiss_round(4, [2, 0, 3, 1], everyone)
    assert [(p.a, p.b) for p in pairs] == [(2, 0), (3, 1)]
    # 0 has met everybody: it meets someone again, but 0-1 would force 2-3 as
    # well; 0-2 leaves 1-3, who have not met.
    met = _met((0, 1), (0, 2), (0, 3), (2, 3))
    pairs, _ = swiss_round(4, [0, 1, 2, 3], met)
    assert [(p.a, p.b) for p in pairs] == [(0, 2), (1, 3)]
    assert sum(frozenset({p.a, p.b}) in met for p in pairs) == 1


def test_a_swiss_search_that_runs_long_settles_for_the_greedy_pairing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(schedule, "SEARCH_STEPS", 2)
    met = _met((0, 1), (2, 3), (4,))
    pairs, bye = swiss_round(2, [1, 4, 2, 3, 0], met)
    assert bye == 0 and [(p.a, p.b) for p in pairs] == [(1, 4), (2, 3)]


def test_a_job_is_picklable_and_its_log_replays_to_the_same_state():
    game = get_game("whist")
    target = bot_target("whist", "heuristic")
    job = GameJob("whist", json.dumps({}), 77, (target, "bots.base:RandomBot") * 2)
    assert pickle.loads(pickle.dumps(job)) == job
    played = play_job(job)
    again = play_job(pickle.loads(pickle.dumps(job)))
    assert played == again  # reproducible from the description alone
    config = game.parse_config({})
    log = [LoggedAction(k + 1, seat, action) for k, (seat, action) in enumerate(played.log)]
    end = replay(game, config, 77, log)
    result = game.result(end)
    assert result is not None and tuple(result.scores) == played.scores
    assert state_hash(game, end) == state_hash(game, replay(game, config, 77, log))


class Failing:
    def decide(self, view, legal, seat, seed, budget):
        raise RuntimeError("broken bot")


def test_a_failing_bot_gets_the_stand_in_and_the_game_goes_on():
    job = GameJob(
        "whist", "{}", 5, ("tests.bots.test_tournament:Failing",) + ("bots.base:RandomBot",) * 3
    )
    played = play_job(job)
    assert played.stand_ins[0] == 13 and played.stand_ins[1:] == (0, 0, 0)
    # A bench measuring a bot sees its bugs: outside a tournament the error surfaces.
    game = get_game("whist")
    with pytest.raises(RuntimeError, match="broken bot"):
        play_logged(
            game, game.parse_config({}), 5, [Failing(), *[load_bot("bots.base:RandomBot")] * 3]
        )


def test_outside_bot_specs_load_and_bad_ones_are_refused():
    assert bot_target("whist", "examples.trick_bot:TrickBot") == "examples.trick_bot:TrickBot"
    assert hasattr(load_bot("examples.trick_bot:TrickBot"), "decide")
    with pytest.raises(IllegalAction) as e:
        load_bot("examples.nowhere:Bot")
    assert e.value.code == "unknown_bot"
    with pytest.raises(IllegalAction) as e:
        load_bot("json:JSONDecoder")  # a class, but not a bot
    assert e.value.code == "bad_bot"
    with pytest.raises(IllegalAction):
        bot_target("whist", "grandmaster")


def test_ratings_move_towards_the_winner_and_narrow():
    r = Ratings()
    start = r.get("a")
    assert (start.mu, round(start.sigma, 4)) == (25.0, round(25 / 3, 4))
    r.update("a", "b", 3.0, 1.0)
    a, b = r.get("a"), r.get("b")
    assert a.mu > 25 > b.mu and a.sigma < start.sigma and b.sigma < start.sigma
    # A draw between equals changes no mean; a bot against itself changes nothing.
    d = Ratings()
    d.update("x", "y", 1.0, 1.0)
    assert d.get("x").mu == pytest.approx(25.0) and d.get("y").mu == pytest.approx(25.0)
    d.update("x", "x", 5.0, 0.0)
    assert d.get("x").mu == pytest.approx(25.0)
    assert r.leader() == "a"


def _game(scores: tuple[float, ...], stand_ins: tuple[int, ...] = (0, 0)) -> PlayedGame:
    return PlayedGame(scores, (), 0, stand_ins)


def test_a_match_scores_each_side_over_its_seats_and_seatings():
    games = [
        SeatedGame(("a", "b"), _game((3.0, -3.0))),
        SeatedGame(("b", "a"), _game((1.0, -1.0), (2, 0))),
    ]
    m = match_result(1, 1, "a", "b", 9, games, scale=0.5)
    assert (m.score_a, m.score_b) == (0.5, -0.5)  # a: (3 - 1) / 2 games * 0.5
    tally = Tally(("a", "b"), Ratings())
    tally.add(m)
    standings = {s.name: s for s in tally.standings()}
    assert standings["a"].mean == 0.5 and math.isinf(standings["a"].half_width)
    assert standings["b"].stand_ins == 2 and standings["a"].points == 1.0
    assert tally.leader() == "a"
    assert [k for k, n, _ in tally.history] == [0, 0, 1, 1]


def test_an_installed_package_registers_bots_by_entry_point(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # What `pip install` leaves behind for a package declaring
    # [project.entry-points."cardtable.bots"] trickbot = "examples.trick_bot:TrickBot".
    info = tmp_path / "trickbots-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: trickbots\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[cardtable.bots]\ntrickbot = examples.trick_bot:TrickBot\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert installed_bots()["trickbot"] == "examples.trick_bot:TrickBot"
    assert bot_target("whist", "trickbot") == "examples.trick_bot:TrickBot"
    assert bot_target("bridge", "trickbot") == "examples.trick_bot:TrickBot"
    # The registry's own names come first; a table's add_bot never sees entry points.
    with pytest.raises(IllegalAction):
        make_bot("whist", "trickbot")
