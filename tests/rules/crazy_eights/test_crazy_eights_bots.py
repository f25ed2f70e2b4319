"""Crazy Eights bots: registered heuristic first, always legal, keep eights for last,
and beat random play."""

from __future__ import annotations

from bots.arena import derive_seeds, run
from bots.base import bot_names, default_bot, make_bot
from rules.crazy_eights import CrazyEightsGame

GAME = CrazyEightsGame()
BOT = make_bot("crazy_eights", "heuristic")


def test_registered_heuristic_first() -> None:
    assert bot_names("crazy_eights") == ["heuristic", "random"]
    assert default_bot("crazy_eights") == "heuristic"


def test_plays_its_longest_suit_and_keeps_its_eights() -> None:
    view = {"hand": ["8S", "4H", "9H", "KH", "5C", "9C"]}
    legal = [
        {"type": "play", "card": "9H"}, {"type": "play", "card": "9C"},
        *({"type": "play", "card": "8S", "suit": s} for s in "CDHS"), {"type": "draw"},
    ]  # fmt: skip
    assert BOT.decide(view, legal, 0, 1, 1.0) == {"type": "play", "card": "9H"}
    # Nothing but the eight fits: draw rather than spend it...
    eights = [a for a in legal if "suit" in a]
    assert BOT.decide(view, [*eights, {"type": "draw"}], 0, 1, 1.0) == {"type": "draw"}
    # ...unless there is nothing to draw: then name the longest suit (hearts).
    assert BOT.decide(view, eights, 0, 1, 1.0) == {"type": "play", "card": "8S", "suit": "H"}


def test_beats_random_play_heads_up_without_an_illegal_move() -> None:
    config = GAME.parse_config({"seats": 2})
    lineup = [("heuristic", BOT), ("random", make_bot("crazy_eights", "random"))]
    result = run(GAME, config, lineup, derive_seeds(7, 40), progress=False)
    assert result.illegal == 0
    heuristic, rand = result.standings
    assert heuristic.low > rand.high  # fewer penalty points, beyond the 95% intervals
