"""Claims and concessions by either side (Laws of Duplicate Bridge 2017, Laws 68 and
69; rules/bridge/claims.py)."""

from __future__ import annotations

import pytest

from engine.cards import parse_face
from engine.errors import IllegalAction
from engine.events import SPECTATOR
from engine.formats import GameRecord
from rules.bridge import BridgeGame
from rules.bridge.game import PBN
from rules.bridge.state import Phase

GAME = BridgeGame()
N, E, S, W = range(4)
# North holds every spade, East every heart, South every diamond, West every club:
# in notrump whoever is on lead with a suit takes every trick.
SUITED = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def start(contract: str, claims: str = "defenders", version: int = 2):
    s = GAME.new(GAME.parse_config({"deal": SUITED, "claims": claims, "version": version}), 0)
    for call in (contract, "P", "P", "P"):
        s, _ = GAME.act(s, GAME.to_act(s)[0], {"type": "call", "call": call})
    return s


def test_a_defender_on_lead_claims_and_the_declarer_alone_answers():
    """Law 68A: declarer or a defender may claim; Law 69A: it stands when the
    opponents agree.
    The declarer answers for the dummy, which never acts."""
    s = start("1N")  # North declares; East leads with thirteen winning hearts
    assert {"type": "claim", "tricks": 13} in GAME.legal(s, E)
    s, events = GAME.act(s, E, {"type": "claim", "tricks": 13})
    assert events[0].data["answer"] == [N] and len(events[0].data["hand"]) == 13
    assert s.phase is Phase.CLAIM and GAME.to_act(s) == (N,)
    s, events = GAME.act(s, N, {"type": "accept_claim"})
    assert s.phase is Phase.OVER and s.results[0].tricks == 0 and s.results[0].claimed
    # 1NT by North not vulnerable, seven down: -350.
    assert s.results[0].score_ns == -350


def test_a_defenders_concession_needs_partner_and_lapses_when_partner_objects():
    """Law 68B1: a claim of some tricks concedes the rest; Law 68B2: a defender's
    concession lapses when partner objects, so partner answers it too."""
    s = start("1N")
    s, _ = GAME.act(s, E, {"type": "claim", "tricks": 10})  # concedes three
    assert set(GAME.to_act(s)) == {N, W}
    s, _ = GAME.act(s, N, {"type": "accept_claim"})
    assert GAME.to_act(s) == (W,)
    s, _ = GAME.act(s, W, {"type": "reject_claim"})
    assert s.phase is Phase.PLAY and s.claim is None and GAME.to_act(s) == (E,)
    assert GAME.view(s, E)["claim_rejected_at"] == 0


def test_the_declarer_concedes_everything_and_the_defenders_answer():
    """Law 68B1: a concession of all the remaining tricks; both defenders answer it
    (Law 69A), the declarer's side speaks through the declarer (the dummy never acts)."""
    s = start("1N")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    s, _ = GAME.act(s, N, {"type": "claim", "tricks": 0})  # from dummy's turn, mid-trick
    assert set(GAME.to_act(s)) == {E, W}
    s, _ = GAME.act(s, E, {"type": "accept_claim"})
    s, _ = GAME.act(s, W, {"type": "accept_claim"})
    assert s.phase is Phase.OVER and s.results[0].tricks == 0


def test_a_mid_trick_claim_counts_the_trick_on_the_table():
    """Law 68: a claim may come at any time in the play; the trick in progress is one
    of the tricks claimed or conceded (rules/bridge/claims.py)."""
    s = start("1N")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    s, _ = GAME.act(s, N, {"type": "play", "card": "2D"})  # from dummy
    assert GAME.to_act(s) == (W,)
    assert GAME.legal(s, W)[-1] == {"type": "claim", "tricks": 13}
    s, events = GAME.act(s, W, {"type": "claim", "tricks": 13})
    assert events[0].data["remaining"] == 13
    s, _ = GAME.act(s, N, {"type": "accept_claim"})
    assert s.results[0].tricks == 0


def test_the_claimers_cards_are_faced_while_the_claim_is_answered():
    """Law 68C: "The player making the claim or concession faces his hand":
    every seat and spectator sees the claimer's cards until the claim is answered."""
    s = start("1N")
    s, _ = GAME.act(s, E, {"type": "claim", "tricks": 12})
    hearts = {f for f in range(52) if f in s.hands[E]}
    for viewer in (N, S, W, SPECTATOR):
        assert GAME.view(s, viewer)["claim"]["hand"] == [
            c for c in GAME.view(s, E)["hand"]
        ]
        assert not hearts & GAME.secrets(s, viewer)
    s, _ = GAME.act(s, N, {"type": "reject_claim"})
    assert hearts <= GAME.secrets(s, W)


def test_double_dummy_settles_for_the_opponents_but_not_for_partner():
    """With the double_dummy policy a claim that cannot fail needs no opponent's
    word; a defender's concession still needs partner's (Law 68B2)."""
    s = start("1N", claims="double_dummy")
    s, events = GAME.act(s, E, {"type": "claim", "tricks": 13})
    assert events[-1].kind == "game_over" and s.results[0].tricks == 0
    s = start("1N", claims="double_dummy")
    s, _ = GAME.act(s, E, {"type": "claim", "tricks": 12})
    assert GAME.to_act(s) == (W,)
    s, _ = GAME.act(s, W, {"type": "accept_claim"})
    assert s.phase is Phase.OVER and s.results[0].tricks == 1


def test_a_wrong_claim_goes_to_the_opponents_under_double_dummy():
    s = start("1N", claims="double_dummy")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    s, _ = GAME.act(s, N, {"type": "claim", "tricks": 1})  # EW hold every trick
    assert s.phase is Phase.CLAIM and set(GAME.to_act(s)) == {E, W}


def test_bad_claims_are_refused_and_the_dummy_never_claims():
    s = start("1N")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    for tricks in (-1, 14, "3", True):
        with pytest.raises(IllegalAction) as err:
            GAME.act(s, N, {"type": "claim", "tricks": tricks})
        assert err.value.code == "bad_claim"
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, S, {"type": "claim", "tricks": 1})
    assert err.value.code == "not_your_turn"
    assert parse_face("AH") not in s.hands[E]


def test_a_call_may_carry_an_alert_that_every_seat_sees():
    s = GAME.new(GAME.parse_config({"deal": SUITED}), 0)
    s, events = GAME.act(s, N, {"type": "call", "call": "2C", "alert": "strong"})
    assert events[0].data == {"seat": N, "call": "2C", "alert": "strong"}
    assert GAME.view(s, W)["auction"] == [{"seat": N, "call": "2C", "alert": "strong"}]
    line = GAME.presentation.narrate({}, events[0].to_json(), W, ["N", "E", "S", "W"])
    assert line == "N bids 2♣ (alert: strong)"
    # The players' own words explain the call, not the system's reading of it.
    (said,) = GAME.presentation.hints(GAME.view(s, W))["explanations"]
    assert said["meaning"] == "alerted: strong" and said["alert"] is True
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, E, {"type": "call", "call": "P", "alert": 3})
    assert err.value.code == "bad_alert"
    # An alert is one line, as a PBN note keeps it (a line break wrote a file that
    # its own reader refused).
    move = GAME.validate(s, E, {"type": "call", "call": "2H",
                                "alert": " 5+ hearts\n\r weak \u2028 preempt "})
    assert move.action["alert"] == "5+ hearts weak preempt"
    record = GameRecord("bridge", GAME.config_json(s.config), 0,
                        ((N, {"type": "call", "call": "2C", "alert": "strong"}),
                         (E, dict(move.action))))
    (back,) = PBN.read(PBN.write([record]))
    assert back.actions[1][1]["alert"] == "5+ hearts weak preempt"


def test_no_claim_once_the_last_trick_has_begun():
    """Law 68 (preamble): a claim must refer to tricks other than the one in
    progress; at the start of the last trick it still may."""
    s = start("1N")
    for _ in range(12):
        for _ in range(4):
            seat = GAME.to_act(s)[0]
            card = next(a for a in GAME.legal(s, seat) if a["type"] == "play")
            s, _ = GAME.act(s, seat, card)
    assert {"type": "claim", "tricks": 1} in GAME.legal(s, GAME.to_act(s)[0])
    seat = GAME.to_act(s)[0]
    s, _ = GAME.act(s, seat, next(a for a in GAME.legal(s, seat) if a["type"] == "play"))
    seat = GAME.to_act(s)[0]
    assert all(a["type"] == "play" for a in GAME.legal(s, seat))
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, seat, {"type": "claim", "tricks": 1})
    assert err.value.code == "bad_claim"


def test_a_defender_claims_out_of_turn_and_play_is_suspended():
    """Law 68A: declarer or a defender may claim, on turn or not; Law 68D: after a
    claim play is suspended, so no card is accepted until it is answered."""
    s = start("1N")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    assert GAME.to_act(s) == (N,)  # the declarer plays from dummy
    assert GAME.may_act(s) == (N, E, W)  # the dummy (South) never claims
    assert GAME.legal(s, W) == [{"type": "claim", "tricks": n} for n in range(14)]
    assert GAME.legal(s, S) == []
    s, events = GAME.act(s, W, {"type": "claim", "tricks": 12})  # concedes one
    assert events[0].data["seat"] == W and events[0].data["remaining"] == 13
    assert s.phase is Phase.CLAIM and set(GAME.to_act(s)) == {N, E}
    assert GAME.may_act(s) == GAME.to_act(s)
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, N, {"type": "play", "card": "2D"})
    assert err.value.code == "bad_action"
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, E, {"type": "claim", "tricks": 13})
    assert err.value.code == "bad_action"


def test_play_resumes_where_it_stopped_after_an_off_turn_claim_is_rejected():
    """Law 68D2(b): a doubted claim is void and play goes on (no Director here)."""
    s = start("1N")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    before = (s.trick, s.hands, GAME.to_act(s))
    s, _ = GAME.act(s, W, {"type": "claim", "tricks": 12})
    s, _ = GAME.act(s, N, {"type": "reject_claim"})
    assert s.phase is Phase.PLAY and (s.trick, s.hands, GAME.to_act(s)) == before
    # Nobody claims again before the next card, out of turn or on turn: claims
    # cannot hold the play up (a table has no Director to stop them).
    assert GAME.may_act(s) == (N,) and GAME.legal(s, W) == []
    assert [a for a in GAME.legal(s, N) if a["type"] == "claim"] == []
    with pytest.raises(IllegalAction, match="just rejected"):
        GAME.validate(s, N, {"type": "claim", "tricks": 13})
    s, _ = GAME.act(s, N, {"type": "play", "card": "2D"})
    assert GAME.to_act(s) == (W,) and GAME.may_act(s) == (N, E, W)
    assert {"type": "claim", "tricks": 13} in GAME.legal(s, W)


def test_a_version_1_table_lets_the_seat_on_turn_claim_again_at_once():
    """Tables stored before version 2 replay as they were played."""
    s = start("1N", version=1)
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    s, _ = GAME.act(s, W, {"type": "claim", "tricks": 12})
    s, _ = GAME.act(s, N, {"type": "reject_claim"})
    assert GAME.legal(s, W) == []
    assert {"type": "claim", "tricks": 13} in GAME.legal(s, N)


def test_an_off_turn_claim_after_playing_to_the_trick_counts_that_trick():
    """A claim made mid-trick, by a player who has played to the trick already,
    counts every trick not yet complete, the one in progress included."""
    s = start("1N")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    s, _ = GAME.act(s, N, {"type": "play", "card": "2D"})  # from dummy
    assert GAME.to_act(s) == (W,) and len(s.hands[E]) == 12
    assert GAME.legal(s, E)[-1] == {"type": "claim", "tricks": 13}
    s, events = GAME.act(s, E, {"type": "claim", "tricks": 13})
    assert events[0].data["remaining"] == 13 and len(events[0].data["hand"]) == 12
    s, _ = GAME.act(s, N, {"type": "accept_claim"})
    assert s.phase is Phase.OVER and s.results[0].tricks == 0 and s.tricks == (0, 13)


def test_the_declarer_claims_while_a_defender_is_on_turn():
    s = start("1N", claims="double_dummy")
    assert GAME.to_act(s) == (E,) and N in GAME.may_act(s)
    s, _ = GAME.act(s, N, {"type": "claim", "tricks": 0})  # concedes all, off turn
    assert s.phase is Phase.OVER and s.results[0].tricks == 0


def test_nobody_claims_in_the_auction_and_no_one_out_of_turn_in_the_last_trick():
    s = GAME.new(GAME.parse_config({"deal": SUITED}), 0)
    assert GAME.may_act(s) == GAME.to_act(s) == (N,)
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, E, {"type": "claim", "tricks": 1})
    assert err.value.code == "not_your_turn"
    s = start("1N")
    for _ in range(12 * 4 + 1):
        seat = GAME.to_act(s)[0]
        s, _ = GAME.act(s, seat, next(a for a in GAME.legal(s, seat) if a["type"] == "play"))
    assert GAME.may_act(s) == GAME.to_act(s)
