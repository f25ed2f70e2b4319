"""Takebacks (option ``takeback_allowed``; docs/tractor.md, "Options").

The rule as docs/tractor.md ("Takebacks") defines it: after a play that does
not complete its trick (and is not a failed throw), the player who made it may
``takeback`` (or ``confirm``) until the next player acts; a takeback restores
the position before the play and closes the window; the log stays append-only.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bots.tractor.heuristic import TractorHeuristicBot
from engine.errors import IllegalAction
from engine.events import Event
from engine.replay import LoggedAction, replay, state_hash
from rules.tractor.game import TractorGame, sort_hand
from rules.tractor.options import TractorConfig
from rules.tractor.order import Trump
from rules.tractor.state import FriendCall, Phase, TractorState
from tests.rules.tractor.tractor_cases import ids

GAME = TractorGame()
H2 = Trump(0, 2)
HANDS = ["3C 4C AD", "5C KC 6D", "7C 8C 7D", "9C TC 8D"]


def config(**options: Any) -> TractorConfig:
    return GAME.parse_config({"takeback_allowed": True, **options})


def playing(hands: list[str], cfg: TractorConfig | None = None, leader: int = 0) -> TractorState:
    taken: set[int] = set()
    hs = tuple(sort_hand(ids(h, taken), H2) for h in hands)
    base = GAME.new(cfg or config(), 7)
    return replace(base, phase=Phase.PLAY, stock=(), hands=hs, trump=H2, landlord=0,
                   starter=0, leader=leader)


def act(state: TractorState, seat: int, kind: str,
        cards: str = "") -> tuple[TractorState, list[Event]]:
    action: dict[str, Any] = {"type": kind}
    if cards:
        action["cards"] = cards.split()
    return GAME.act(state, seat, action)


def code(state: TractorState, seat: int, kind: str, cards: str = "") -> str:
    with pytest.raises(IllegalAction) as err:
        act(state, seat, kind, cards)
    return err.value.code


def test_off_by_default() -> None:
    s = playing(HANDS, GAME.parse_config({}))
    s, _ = act(s, 0, "play", "3C")
    assert GAME.to_act(s) == (1,) and GAME.legal(s, 0) == []
    assert code(s, 0, "takeback") == "not_your_turn"
    assert code(s, 1, "takeback") == "nothing_to_take_back"
    assert "takeback" not in GAME.view(s, 0)


def test_the_window_opens_after_a_play_for_that_seat_only() -> None:
    s = playing(HANDS)
    assert GAME.view(s, 0)["takeback"] is None
    s, _ = act(s, 0, "play", "3C")
    assert GAME.to_act(s) == (0, 1)
    assert GAME.legal(s, 0) == [{"type": "confirm"}, {"type": "takeback"}]
    assert all(a["type"] == "play" for a in GAME.legal(s, 1))  # the next seat may play
    assert GAME.view(s, 2)["takeback"] == 0
    assert code(s, 1, "takeback") == "nothing_to_take_back"
    assert code(s, 0, "play", "4C") == "bad_action"  # no second play meanwhile
    assert code(s, 2, "takeback") == "not_your_turn"


def test_a_takeback_restores_the_position_before_the_play() -> None:
    before = playing(HANDS)
    s, _ = act(before, 0, "play", "3C")
    s, _ = act(s, 1, "play", "KC")
    assert s.winning == 1
    back, ev = act(s, 1, "takeback")
    assert [e.kind for e in ev] == ["takeback"] and ev[0].visibility.seats is None
    assert ev[0].data == {"seat": 1, "cards": ["KC"]}
    assert back.hands == (*s.hands[:1], before.hands[1], *s.hands[2:])
    assert [p.seat for p in back.trick] == [0] and back.winning == 0
    # The window does not pass back to seat 0: a takeback never cascades.
    assert back.takeback is None and GAME.to_act(back) == (1,)
    # Apart from the public memory of the withdrawn card, the state is the
    # one after seat 0's play with its window closed.
    after_lead, _ = act(before, 0, "play", "3C")
    assert replace(back, retracted=()) == replace(after_lead, takeback=None)
    assert GAME.view(back, 2)["takeback"] is None


def test_the_next_play_or_a_confirm_closes_the_window() -> None:
    s, _ = act(playing(HANDS), 0, "play", "3C")
    nxt, _ = act(s, 1, "play", "5C")
    assert code(nxt, 0, "takeback") == "not_your_turn"
    assert nxt.takeback is not None and nxt.takeback.seat == 1  # now seat 1's window
    kept, ev = act(s, 0, "confirm")
    assert [e.kind for e in ev] == ["confirm"] and kept.takeback is None
    assert GAME.to_act(kept) == (1,) and kept.trick == s.trick
    assert code(kept, 0, "takeback") == "not_your_turn"


def test_a_play_that_completes_the_trick_cannot_be_taken_back() -> None:
    s = playing(HANDS)
    for seat, card in [(0, "3C"), (1, "5C"), (2, "7C")]:
        s, _ = act(s, seat, "play", card)
    s, _ = act(s, 3, "play", "9C")
    assert s.trick == () and s.takeback is None and GAME.to_act(s) == (3,)


def test_a_failed_throw_cannot_be_taken_back() -> None:
    s = playing(["3C 4C AD", "5C KC 6D", "7C 8C 7D", "9C TC 8D"], leader=1)
    s, ev = act(s, 1, "play", "5C KC")  # seat 3's TC beats the 5C: fails
    assert any(e.kind == "throw_failed" for e in ev)
    assert s.takeback is None and GAME.to_act(s) == (2,)


def test_a_takeback_undoes_a_friend_reveal() -> None:
    cfg = GAME.parse_config({"finding_friends": True, "seats": 5, "takeback_allowed": True})
    s = playing(["3C 4C", "AC 6C", "7C 8C", "9C TC", "JC QC"], cfg)
    s = replace(s, calls=(FriendCall(12, 1),), called_by=(None,),  # 12 = AC
                seat_points=(0,) * 5, failed_throws=(0,) * 5)
    s, _ = act(s, 0, "play", "3C")
    s, ev = act(s, 1, "play", "AC")
    assert s.called_by == (1,) and any(e.kind == "friend" for e in ev)
    s, _ = act(s, 1, "takeback")
    assert s.called_by == (None,) and s.landlord_side == {0}
    s, _ = act(s, 1, "play", "6C")
    assert s.called_by == (None,)


def test_the_log_with_takebacks_replays_to_the_same_state() -> None:
    cfg = config(rounds=1)
    bot = TractorHeuristicBot()
    state = GAME.new(cfg, 21)
    log: list[LoggedAction] = []
    takebacks = 0
    while GAME.to_act(state):
        acting = GAME.to_act(state)
        seat = acting[-1] if len(acting) > 1 and len(log) % 3 == 0 else acting[0]
        legal = GAME.legal(state, seat)
        if {"type": "takeback"} in legal and len(log) % 2 == 0:
            action: dict[str, Any] = {"type": "takeback"}
            takebacks += 1
        else:
            action = dict(bot.decide(GAME.view(state, seat), legal, seat, 1, 1.0))
        move = GAME.validate(state, seat, action)
        state, _ = GAME.apply(state, seat, move)
        log.append(LoggedAction(len(log) + 1, seat, move.action))
    assert takebacks > 5 and state.phase is Phase.OVER
    again = replay(GAME, cfg, 21, log)
    assert state_hash(GAME, again) == state_hash(GAME, state)


def test_the_bot_keeps_its_play() -> None:
    s, _ = act(playing(HANDS), 0, "play", "3C")
    action = TractorHeuristicBot().decide(GAME.view(s, 0), GAME.legal(s, 0), 0, 1, 1.0)
    assert action == {"type": "confirm"}
