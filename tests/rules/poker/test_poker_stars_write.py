"""PokerStars text out, against the site's own: a real tournament hand read and
written back must give the site's lines (docs/poker.md, "PokerStars hand
histories")."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from engine.formats import GameRecord
from engine.rng import Rng
from rules.poker.game import PokerGame
from rules.poker.phh import PHH
from rules.poker.stars import STARS, read_stars

# pokerregion/poker, tests/handhistory/stars_hands.py, HAND2: a real PokerStars
# tournament hand (antes, two all-ins and a call all-in, an uncalled bet, a side
# pot, the hero's "Dealt to" line, the summary's positions and outcomes).
TOURNAMENT = (Path(__file__).parent / "data" / "stars_real_tournament.txt").read_text()


def test_a_real_tournament_hand_is_written_back_as_the_site_wrote_it():
    (record,) = read_stars(TOURNAMENT)
    written = STARS.write([record]).splitlines()
    # Only the tournament's finishing places are not the hand's to say.
    site = [line for line in TOURNAMENT.splitlines() if "finished the tournament" not in line]
    assert written == site


def test_without_the_sites_hero_only_cards_known_but_never_shown_are_dealt_face_up():
    (record,) = read_stars(TOURNAMENT)
    record = record.__class__(record.game, record.options, record.seed, record.actions,
                              record.players, record.title,
                              {k: v for k, v in record.tags.items() if k != "_dealt_to"})
    text = STARS.write([record])
    # The file fixed only W2lkm2n's cards before the showdown, where they show anyway.
    assert "Dealt to" not in text
    assert "W2lkm2n: shows [Jd Js] (a pair of Jacks)" in text


def _checked_down(options: dict[str, Any], seed: int) -> GameRecord:
    """One hand of ``options`` checked and called down to the showdown."""
    game = PokerGame()
    state = game.new(game.parse_config(options), seed)
    log = []
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        legal = game.legal(state, seat)
        action = next((a for a in legal if a["type"] in ("call", "check")), legal[0])
        log.append((seat, action))
        state, _ = game.act(state, seat, action)
    return GameRecord("poker", options, seed, tuple(log), ("Ann", "Bob"))


def test_a_whole_amount_is_written_without_cents_unless_all_are_whole():
    # The site writes "$50" and "Rake $0" beside "$0.50" (the published run-twice
    # hand: "Total pot $164 | Rake $2.80").  A hand in cents whose every amount is
    # whole keeps them, or it would be read back in dollars.
    cents = {"seats": 2, "hands": 1, "decimals": 2, "starting_stack": 10000}
    mixed = STARS.write([_checked_down({**cents, "small_blind": 50, "big_blind": 100}, 5)])
    assert "Seat 1: Ann (100 in chips)" in mixed and "posts small blind 0.50" in mixed
    whole = STARS.write([_checked_down({**cents, "small_blind": 100, "big_blind": 200}, 5)])
    assert "Seat 1: Ann (100.00 in chips)" in whole and "posts small blind 1.00" in whole
    (again,) = read_stars(whole)
    assert again.options["decimals"] == 2 and again.options["stacks"] == [10000, 10000]


def _played_at_a_table(seats: int, hands: int, seed: int, names: tuple[str, ...]) -> GameRecord:
    """A table's game as the server stores it: random legal moves (sitting out and
    in included), the button moving round."""
    game = PokerGame()
    state = game.new(game.parse_config({"seats": seats, "hands": hands}), seed)
    rng, log = Rng(1), []
    while game.result(state) is None:
        seat = game.to_act(state)[0]
        action = rng.choice(game.legal(state, seat))
        log.append((seat, action))
        state, _ = game.act(state, seat, action)
    return GameRecord("poker", {"seats": seats, "hands": hands}, seed, tuple(log), names)


def test_a_game_played_at_a_table_is_written_hand_by_hand():
    # Three hands at four seats, three of them the same bot: the button moves (the
    # second hand's was refused, its stacks compared seat by seat against the
    # text's order of play), a seat sits out on its turn with nothing to call (the
    # rules fold it: the text's "folds" was refused on reading), and the three
    # "equity" seats are told apart.
    record = _played_at_a_table(4, 3, 5, ("me", "equity", "equity", "equity"))
    text = STARS.write([record])
    assert text.count("PokerStars Hand #") == 3
    assert "Seat 3: equity 2 (" in text and "Seat 4: equity 3 (" in text
    assert "folds" in text.split("*** FLOP ***")[-1]
    # PHH names them the same way, each seat by one name in every hand (its players
    # are listed from the button), so statistics read back keep the seats apart.
    by_seat = {1: "me", 2: "equity", 3: "equity 2", 4: "equity 3"}
    hands = list(tomllib.loads(PHH.write([record])).values())  # sections [1], [2], [3]
    assert len(hands) == 3
    for hand in hands:
        assert hand["players"] == [by_seat[s] for s in hand["seats"]]
