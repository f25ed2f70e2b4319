"""PokerStars text out, against the site's own: a real tournament hand read and
written back must give the site's lines (docs/poker.md, "PokerStars hand
histories")."""

from __future__ import annotations

from pathlib import Path

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
