"""Bridge as a Game: turn order, dummy, claims, scoring at the end, views, PBN, and
the conformance suite (docs/rules/bridge.md)."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from engine.cards import parse_face
from engine.errors import IllegalAction
from engine.events import OMNISCIENT, SPECTATOR
from engine.replay import state_hash
from engine.rng import Rng
from rules.bridge import BridgeGame
from rules.bridge.auction import parse_call
from rules.bridge.game import PBN
from rules.bridge.state import Phase
from tests.conformance import check_game, faces_named

read_pbn_file, write_pbn_file = PBN.read, PBN.write

GAME = BridgeGame()
N, E, S, W = range(4)
DATA = Path(__file__).with_name("data")


def bid(state, *calls):
    for c in calls:
        seat = GAME.to_act(state)[0]
        state, _ = GAME.act(state, seat, {"type": "call", "call": c})
    return state


def fixed(deal: str, **options):
    return GAME.new(GAME.parse_config({"deal": deal, "claims": "defenders", **options}), 0)


# North holds every spade, East every heart, South every diamond, West every club.
SUITED = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def test_auction_starts_with_the_dealer_and_four_passes_pass_out():
    """Rule: the board number fixes the dealer (board 2: East); four passes to start
    pass the board out (score 0)."""
    s = GAME.new(GAME.parse_config({"first_board": 2}), 1)
    assert GAME.to_act(s) == (E,)
    s = bid(s, "P", "P", "P", "P")
    assert s.phase is Phase.OVER and GAME.result(s).scores == (0, 0, 0, 0)


def test_insufficient_bid_is_refused_without_change():
    s = bid(fixed(SUITED), "1S")
    before = state_hash(GAME, s)
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, E, {"type": "call", "call": "1H"})
    assert err.value.code == "insufficient_bid" and "1H" not in err.value.message
    assert state_hash(GAME, s) == before


def test_opening_lead_from_declarers_left_and_declarer_plays_dummy():
    """Rule: declarer's left-hand opponent leads; dummy is exposed after the opening
    lead; declarer plays dummy's cards and the dummy's seat cannot act."""
    s = bid(fixed(SUITED), "1S", "P", "P", "P")  # North declares, South is dummy
    assert s.contract.declarer == N and s.dummy == S
    assert GAME.to_act(s) == (E,)
    assert "dummy_hand" not in GAME.view(s, E)  # not before the opening lead
    s, events = GAME.act(s, E, {"type": "play", "card": "AH"})
    assert [e.kind for e in events] == ["play", "dummy"]
    assert len(GAME.view(s, W)["dummy_hand"]) == 13
    # South (dummy) to play: North acts for it; South's own seat cannot.
    assert GAME.to_act(s) == (N,)
    with pytest.raises(IllegalAction) as err:
        GAME.act(s, S, {"type": "play", "card": "AD"})
    assert err.value.code == "not_your_turn"
    s, _ = GAME.act(s, N, {"type": "play", "card": "AD"})
    assert GAME.to_act(s) == (W,)


def test_follow_suit_and_trumps_win():
    """Rules: follow suit if able; the highest trump wins, else the highest card of
    the suit led."""
    deal = "N:AK.AK.AK.AKQJT98 QJT.QJ.QJ.765432 98.T9.T98765432. 765432.8765432.."
    s = bid(fixed(deal), "1S", "P", "P", "P")  # spades trump, North declares
    s, _ = GAME.act(s, E, {"type": "play", "card": "QH"})
    with pytest.raises(IllegalAction) as err:  # South (dummy) has hearts
        GAME.act(s, N, {"type": "play", "card": "9S"})
    assert err.value.code == "must_follow_suit"
    s, _ = GAME.act(s, N, {"type": "play", "card": "9H"})
    s, _ = GAME.act(s, W, {"type": "play", "card": "8H"})
    s, events = GAME.act(s, N, {"type": "play", "card": "AH"})
    assert events[-1].data["winner"] == N and s.leader == N
    s, _ = GAME.act(s, N, {"type": "play", "card": "AC"})
    s, _ = GAME.act(s, E, {"type": "play", "card": "7C"})
    s, _ = GAME.act(s, N, {"type": "play", "card": "2D"})  # dummy void in clubs: discard
    s, events = GAME.act(s, W, {"type": "play", "card": "2S"})  # West ruffs
    assert events[-1].data["winner"] == W


def test_claim_accepted_by_both_defenders_ends_the_board():
    """Rule: a claim is accepted when the defenders accept."""
    s = bid(fixed(SUITED), "7S", "P", "P", "P")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    s, _ = GAME.act(s, N, {"type": "play", "card": "2D"})
    s, _ = GAME.act(s, W, {"type": "play", "card": "2C"})
    s, _ = GAME.act(s, N, {"type": "play", "card": "2S"})
    assert s.leader == N and s.tricks == (1, 0)
    s, _ = GAME.act(s, N, {"type": "claim", "tricks": 12})
    assert s.phase is Phase.CLAIM and set(GAME.to_act(s)) == {E, W}
    s, _ = GAME.act(s, E, {"type": "accept_claim"})
    assert GAME.to_act(s) == (W,)
    s, events = GAME.act(s, W, {"type": "accept_claim"})
    assert s.phase is Phase.OVER and events[-1].kind == "game_over"
    # 7S by North not vulnerable (board 1), 13 tricks: 210 + 300 + 1000.
    assert s.results[0].score_ns == 1510 and s.results[0].claimed


def test_rejected_claim_continues_play():
    s = bid(fixed(SUITED), "1N", "P", "P", "P")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    s, _ = GAME.act(s, N, {"type": "claim", "tricks": 13})
    s, _ = GAME.act(s, W, {"type": "reject_claim"})
    assert s.phase is Phase.PLAY and s.claim is None and GAME.to_act(s) == (N,)


def test_a_stand_in_for_a_late_bot_never_bids_claims_or_accepts():
    """A seat whose bot ran out of time passes, plays a card, or rejects a claim."""
    rng = Rng(5)
    s = fixed(SUITED)
    assert {str(GAME.stand_in(GAME.legal(s, N), rng)) for _ in range(30)} == {
        str({"type": "call", "call": "P"})
    }
    s = bid(s, "7S", "P", "P", "P")
    s, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    legal = GAME.legal(s, N)  # North declares: cards and claims
    assert any(a["type"] == "claim" for a in legal)
    assert all(GAME.stand_in(legal, rng)["type"] == "play" for _ in range(30))
    s, _ = GAME.act(s, N, {"type": "claim", "tricks": 13})
    assert GAME.stand_in(GAME.legal(s, W), rng) == {"type": "reject_claim"}


def test_running_score_over_a_series_and_new_boards_rotate_dealer():
    cfg = GAME.parse_config({"boards": 3, "claims": "defenders"})
    s = GAME.new(cfg, 9)
    dealers = []
    for _ in range(3):
        dealers.append(s.dealer)
        s = bid(s, "P", "P", "P", "P")
    assert dealers == [N, E, S] and s.phase is Phase.OVER
    assert [r.board for r in s.results] == [1, 2, 3]


def test_views_hide_hands_until_the_board_ends():
    s = fixed(SUITED)
    assert GAME.view(s, N)["hand"][0] == "AS" and "hand" not in GAME.view(s, SPECTATOR)
    assert faces_named(GAME.view(s, E)) & GAME.secrets(s, E) == set()
    assert len(GAME.view(s, OMNISCIENT)["hands"]) == 4


@pytest.mark.parametrize(
    "options,message",
    [
        ({"boards": 0}, "boards"),
        ({"deal": "N:AK.."}, "deal"),
        ({"boards": 2, "deal": SUITED}, "single board"),
        ({"claims": "never"}, "claims"),
        ({"dealer": "X"}, "dealer"),
        # Files number boards to 9999: a later board would be read back as another.
        ({"first_board": 9999, "boards": 2}, "boards 9999..10000 go past board 9999"),
    ],
)
def test_bad_options_are_refused_naming_the_option(options, message):
    with pytest.raises(IllegalAction) as err:
        GAME.parse_config(options)
    assert err.value.code == "bad_option" and message in err.value.message


def test_conformance_random_auctions_and_play():
    """The spine's conformance suite: terminal, replay hash, no leaks."""
    check_game(GAME, GAME.parse_config({"claims": "defenders"}), range(200))
    check_game(GAME, GAME.parse_config({"claims": "defenders", "boards": 3}), range(10))


def test_pbn_export_then_import_replays_the_same_board():
    from engine.formats import GameRecord
    from tests.conformance import play_random

    for seed in range(12):
        config = GAME.parse_config({"claims": "defenders"})
        p = play_random(GAME, config, seed, scan=False)
        result = p.state.results[0]
        record = GameRecord("bridge", GAME.config_json(config), seed,
                            tuple((a.seat, a.action) for a in p.log), ("n", "e", "s", "w"))
        (again_record,) = read_pbn_file(write_pbn_file([record]))
        s = GAME.new(GAME.parse_config(again_record.options), 0)
        for seat, action in again_record.actions:
            s, _ = GAME.act(s, seat, action)
        again = s.results[0]
        assert (again.contract, again.declarer, again.tricks, again.score_ns) == (
            result.contract,
            result.declarer,
            result.tricks,
            result.score_ns,
        )
        assert again.played == result.played and again.calls == result.calls
        assert again_record.players == ("n", "e", "s", "w")


def test_a_club_programs_pbn_file_loads_and_replays():
    """A PBN session as club scoring software writes it: comments, notes, a deal given
    from West, a claim after nine tricks, and a passed-out board with AP."""
    records = read_pbn_file((DATA / "club_session.pbn").read_text())
    assert [r.options["first_board"] for r in records] == [7, 8]
    outcomes = []
    for r in records:
        s = GAME.new(GAME.parse_config(r.options), 0)
        for seat, action in r.actions:
            s, _ = GAME.act(s, seat, action)
        outcomes.append(GAME.result(s).summary)
    assert outcomes == ["board 7: 3NT by W, 10 tricks, NS -630", "board 8: passed out"]


def test_imported_deal_is_the_deal_given():
    s = fixed(SUITED)
    assert s.hands[0] == tuple(sorted((parse_face(c + "S") for c in "AKQJT98765432"), reverse=True))
    assert replace(s, hands=s.dealt) == s


def test_the_carried_auction_is_the_parsed_calls() -> None:
    # The state carries its calls parsed (rules/bridge/state.py, ``auction``); a state
    # whose calls were changed without it (dataclasses.replace) is parsed afresh.
    game = BridgeGame()
    rng = random.Random(3)
    for seed in range(20):
        state = game.new(game.parse_config({}), seed)
        while state.phase is Phase.AUCTION:
            assert state.auction == tuple((s, parse_call(c)) for s, c in state.calls)
            seat = game.to_act(state)[0]
            state, _ = game.act(state, seat, rng.choice(game.legal(state, seat)))
    state = game.new(game.parse_config({}), 1)
    state, _ = game.act(state, state.dealer, {"type": "call", "call": "1H"})
    stale = replace(state, calls=(*state.calls, ((state.dealer + 1) % 4, "2S")))
    legal = game.legal(stale, (state.dealer + 2) % 4)
    assert {"type": "call", "call": "2S"} not in legal
    assert {"type": "call", "call": "2NT"} in legal


def test_a_boards_pbn_is_the_solvers_spelling_of_its_deal() -> None:
    """deal_pbn spells the dealt hands itself, as make_deal(...).to_pbn() does."""
    from engine.dds.deal import make_deal
    from rules.bridge.dealing import deal_board, deal_pbn

    config = BridgeGame().parse_config({"boards": 4})
    for seed in range(300):
        state = deal_board(config, seed, seed % 4, ())
        assert deal_pbn(state) == make_deal(state.dealt).to_pbn()


def test_act_is_validate_then_apply_for_every_action_legal_or_not() -> None:
    """act() plays a legal card or call in one step; it must answer what validate
    then apply answer: the same state and events, or the same refusal, for the
    legal actions and for junk (other seats, revokes, cards not held, spellings
    the fast path leaves to the parser, alerts, insufficient bids)."""
    game = BridgeGame()
    config = game.parse_config({"boards": 2, "claims": "defenders"})
    rng = random.Random(12)

    def outcome(fn: Any, *args: Any) -> Any:
        try:
            state, events = fn(*args)
        except IllegalAction as exc:
            return ("refused", exc.code)
        return (state_hash(game, state), [(e.kind, e.data, e.visibility) for e in events])

    junk_cards = ["AS", "as", "10h", "2C", "KD", "ZZ", 7, None]
    junk_calls = ["P", "pass", "1NT", "1C", "X", "XX", "7NT", "2h", 3]
    for seed in range(12):
        state = game.new(config, seed)
        while seats := game.to_act(state):
            trials: list[tuple[int, dict[str, Any]]] = []
            for seat in range(4):
                trials += [(seat, {"type": "play", "card": c}) for c in junk_cards]
                trials += [(seat, {"type": "call", "call": c}) for c in junk_calls]
                trials.append((seat, {"type": "call", "call": "1NT", "alert": "strong"}))
            seat = rng.choice(seats)
            legal = game.legal(state, seat)
            trials += [(seat, dict(a)) for a in legal]
            for who, action in trials:
                fast = outcome(game.act, state, who, action)
                slow = outcome(lambda s, w, a: game.apply(s, w, game.validate(s, w, a)),
                               state, who, action)
                assert fast == slow, (who, action)
            calm = [a for a in legal if a["type"] != "claim"] or legal
            state, _ = game.act(state, seat, rng.choice(calm))
