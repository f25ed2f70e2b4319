"""GIB-style card play (bots/bridge/play.py, sampling.py): the samples respect what the
seat has seen (its hand, the dummy, played cards, voids, the auction's constraints),
and double-dummy scoring over them finds the winning card in a small ending."""

from __future__ import annotations

from bots.bridge.bidding import infer
from bots.bridge.gib import GibBot
from bots.bridge.play import PlayOptions, choose_card, read_position
from bots.bridge.sampling import SampleSpec, replay_play, sample_deals
from engine.cards import format_face, parse_face
from engine.rng import Rng
from rules.bridge import BridgeGame
from rules.bridge.auction import parse_call
from rules.bridge.system.hand import HandInfo, shows

GAME = BridgeGame()
N, E, S, W = range(4)

# South declares 1NT; West leads.  South takes eight tricks with top cards, then the
# hearts: East shows out on the first heart (trick 9), West shows out of diamonds
# (trick 10).  At trick 11 South leads the 3H, West plays the 7H and dummy (North,
# AQ5 of hearts) must not rise with the ace: West holds the king.
DEAL = "N:JT9.AQT5.QJ5.JT9 8762.-.T9432.8762 AKQ.9632.AK6.AKQ 543.KJ874.87.543"
# The cards in play order (South wins tricks 1-8 and leads to the next).
SCRIPT_ORDER = [
    *["5S", "9S", "8S", "AS", "KS", "4S", "TS", "7S", "QS", "3S", "JS", "6S"],
    *["AC", "5C", "9C", "8C", "KC", "4C", "TC", "7C", "QC", "3C", "JC", "6C"],
    *["AD", "8D", "QD", "TD", "KD", "7D", "JD", "9D"],
    *["2H", "4H", "TH", "2D", "5D", "3D", "6D", "8H", "3H", "7H"],
]


def with_played(state, seat):
    view = GAME.view(state, seat)
    assert view["played"] == [format_face(f) for f in state.played]
    return view


def ending():
    state = GAME.new(GAME.parse_config({"deal": DEAL, "dealer": "S"}), 0)
    for c in ("1NT", "P", "P", "P"):
        state, _ = GAME.act(state, GAME.to_act(state)[0], {"type": "call", "call": c})
    for card in SCRIPT_ORDER:
        seat = GAME.to_act(state)[0]
        state, _ = GAME.act(state, seat, {"type": "play", "card": card})
    return state


def test_replay_finds_voids_and_the_trick_in_progress():
    state = ending()
    hist = replay_play(state.played, W, "N")
    assert 2 in hist.voids[E]  # East showed out of hearts at trick 9
    assert 1 in hist.voids[W]  # West showed out of diamonds at trick 10
    assert hist.trick == (parse_face("3H"), parse_face("7H")) and hist.trick_leader == S
    assert parse_face("AS") in hist.played_by[S]


def test_samples_respect_hands_played_cards_and_voids():
    state = ending()
    pos = read_position(with_played(state, S), S)
    assert pos.mover == N and pos.known[N] is not None and pos.known[S] is not None
    samples = sample_deals(pos.spec, 10, Rng(1))
    assert samples.deals
    played = set(state.played)
    for hands in samples.deals:
        assert hands[N] == tuple(sorted(state.hands[N]))
        assert hands[S] == tuple(sorted(state.hands[S]))
        assert not played & {f for h in hands for f in h}
        assert all(f // 13 != 2 for f in hands[E])  # East is void in hearts
        assert all(f // 13 != 1 for f in hands[W])  # West is void in diamonds
        assert [len(h) for h in hands] == [len(h) for h in state.hands]


def test_the_play_bot_takes_the_finesse_when_the_king_is_known():
    state = ending()
    choice = choose_card(with_played(state, S), ["AH", "QH", "5H"], S, 7, 10.0,
                         PlayOptions(samples=4))
    assert choice.samples >= 1
    # Every sample has the king with West: the queen (or the five) wins two of the
    # last three tricks, the ace only one.
    assert choice.averages["QH"] == 2.0 and choice.averages["AH"] == 1.0
    assert choice.card != "AH"
    bot = GibBot(PlayOptions(samples=4))
    action = bot.decide(with_played(state, S), GAME.legal(state, S), S, 3, 10.0)
    assert action["type"] == "play" and action["card"] in ("QH", "5H")


def test_the_declarer_never_claims():
    state = ending()
    legal = GAME.legal(state, S)
    assert any(a["type"] == "claim" for a in legal)
    action = GibBot(PlayOptions(samples=2)).decide(with_played(state, S), legal, S, 0, 5.0)
    assert action["type"] == "play"


def test_opening_lead_samples_respect_the_auction():
    # North opened 1NT (15-17 balanced), South raised to 3NT; East is on lead.
    state = GAME.new(GAME.parse_config({}), 14)  # East holds 6 HCP
    for c in ("1NT", "P", "3NT", "P", "P", "P"):
        seat = GAME.to_act(state)[0]
        state, _ = GAME.act(state, seat, {"type": "call", "call": c})
    view = GAME.view(state, E)
    view["played"] = []
    pos = read_position(view, E)
    assert pos.spec.hidden == [N, S, W]
    samples = sample_deals(pos.spec, 20, Rng(2))
    assert len(samples.deals) == 20 and set(samples.relaxation) == {0}
    for hands in samples.deals:
        north = HandInfo.of(hands[N])
        assert 15 <= north.hcp <= 17 and north.balanced
        assert HandInfo.of(hands[S]).hcp >= 10  # 3NT over 1NT: 10-17
        assert hands[E] == tuple(sorted(state.hands[E]))


def test_sampling_relaxes_constraints_it_cannot_meet():
    calls = [(N, parse_call("1NT"))]
    known = infer(calls)
    impossible = shows((30, 37))  # two hidden hands with 30+ HCP each cannot exist
    pool = tuple(range(13, 52))
    spec = SampleSpec(
        known=(None, None, None, tuple(range(13))),
        sizes=(13, 13, 13, 13),
        pool=pool,
        voids=(frozenset(),) * 4,
        played_by=((),) * 4,
        constraints=(known[N], impossible, impossible, known[W]),
    )
    samples = sample_deals(spec, 5, Rng(3), max_attempts=400)
    assert len(samples.deals) == 5
    assert all(step > 0 for step in samples.relaxation)

