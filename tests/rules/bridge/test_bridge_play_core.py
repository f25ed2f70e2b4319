"""The compiled card-play step (rules/bridge/_play.c) answers what its Python
reference (rules/bridge/play.py) answers, on many random positions: the legal
actions, whether each card may be played, and every card played (hands, trick
and the trick's winner in every strain)."""

from __future__ import annotations

import random

import pytest

from rules.bridge import play
from rules.bridge.shared import CLAIMS, PLAYS

core = play._CORE


def positions(seed: int, count: int) -> list[tuple[play.Hands4, int, tuple[int, ...]]]:
    """Random hands of equal or one-less sizes and a trick of 0..3 cards, as in play."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        deck = list(range(52))
        rng.shuffle(deck)
        left = rng.randint(1, 13)
        in_trick = rng.randint(0, 3)
        leader = rng.randrange(4)
        hands = [sorted(deck[s * 13: s * 13 + left], reverse=True) for s in range(4)]
        trick = []
        for i in range(in_trick):  # the seats before the player have played one card more
            seat = (leader + i) % 4
            trick.append(hands[seat].pop(rng.randrange(len(hands[seat]))))
        player = (leader + in_trick) % 4
        four: play.Hands4 = (tuple(hands[0]), tuple(hands[1]), tuple(hands[2]), tuple(hands[3]))
        out.append((four, player, tuple(trick)))
    return out


@pytest.mark.skipif(core is None, reason="the play core is not built (scripts/setup-env)")
def test_the_core_is_the_reference_on_random_positions() -> None:
    assert core is not None
    for hands, player, trick in positions(1, 4000):
        held = hands[player]
        assert core.legal(held, trick, PLAYS, CLAIMS) == play.legal_py(held, trick, PLAYS, CLAIMS)
        for f in range(52):
            assert core.may_play(held, trick, f) is play.may_play_py(held, trick, f)
        played = (*range(40, 40 - len(trick), -1), *trick)  # any earlier cards will do
        for f in range(52):
            for check in (True, False):
                if f not in held and not check:
                    continue
                for trump in (-1, 0, 1, 2, 3):
                    assert core.play(hands, player, trick, played, f, trump, check) == \
                        play.play_py(hands, player, trick, played, f, trump, check)


@pytest.mark.skipif(core is None, reason="the play core is not built (scripts/setup-env)")
def test_the_core_refuses_what_the_reference_cannot_do() -> None:
    assert core is not None
    hands = ((51, 50), (49, 48), (47, 46), (45, 44))
    with pytest.raises(ValueError):
        play.play_py(hands, 0, (), (), 49, -1, False)
    with pytest.raises(ValueError):
        core.play(hands, 0, (), (), 49, -1, False)
    with pytest.raises(ValueError):
        core.play(hands, 0, (), (), 52, -1, False)
    assert core.play(hands, 0, (), (), 49, -1, True) is None
    with pytest.raises(TypeError):
        core.legal([51], (), PLAYS, CLAIMS)


def test_legal_shares_the_frozen_actions() -> None:
    held, trick = (51, 38, 12), (27,)  # AS AH AC; a heart led
    for legal in (play.legal, play.legal_py):
        got = legal(held, trick, PLAYS, CLAIMS)
        assert [a["card"] for a in got if a["type"] == "play"] == ["AH"]
        assert got[0] is PLAYS[38] and got[1:] == list(CLAIMS[3])
