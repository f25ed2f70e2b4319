"""The natural bidding system of bots/bridge/bidding.py, hand by hand, as documented in
docs/bridge_bidding.md; the constraints each call shows; never an illegal call."""

from __future__ import annotations

from bots.base import bot_names, default_bot, make_bot
from bots.bridge.bidding import Ctx, choose_call, explain, infer
from bots.bridge.gib import GibBot
from engine.cards import RANKS, deck, face
from engine.rng import Rng
from rules.bridge import BridgeGame
from rules.bridge.auction import Call, check_call, format_call, is_over, legal_calls, parse_call
from rules.bridge.state import Phase
from rules.bridge.system.hand import HandInfo

N, E, S, W = range(4)


def hand(text: str) -> list[int]:
    """``"AKQ2.J54.T9.8765"``: spades.hearts.diamonds.clubs."""
    out = []
    for suit, ranks in zip((3, 2, 1, 0), text.split("."), strict=True):
        out += [face(suit, RANKS.index(r)) for r in ranks if r != "-"]
    assert len(out) == 13, text
    return out


def auction(first: int, text: str) -> list[tuple[int, Call]]:
    """``auction(N, "1NT P")``: the calls so far, ``first`` calling first."""
    return [((first + i) % 4, parse_call(c)) for i, c in enumerate(text.split())]


def call(first: int, text: str, cards: str) -> str:
    calls = auction(first, text)
    seat = (first + len(calls)) % 4
    return format_call(choose_call(calls, seat, hand(cards)))


# Openings: "1NT shows 15-17 HCP and a balanced hand".
def test_1nt_opening_is_15_to_17_balanced():
    assert call(N, "", "KQ2.AJ5.KT93.Q84") == "1NT"  # 15, 3-3-4-3
    assert call(N, "", "KQ2.AJ5.KT93.K84") == "1NT"  # 16
    assert call(N, "", "KQ2.AJ5.KT93.AK4") != "1NT"  # 18: one of a suit
    assert call(N, "", "KQ2.AJ5.KT93.J84") != "1NT"  # 14
    assert call(N, "", "KQ.AJ532.KT9.Q84") == "1NT"  # 5-3-3-2 with a five-card major: still 1NT
    assert call(N, "", "KQ2.AJ5432.K.Q84") != "1NT"  # a singleton is not balanced


def test_five_card_majors_and_the_longer_minor():
    assert call(N, "", "AKJ52.K5.Q93.984") == "1S"
    assert call(N, "", "K5.AKJ52.Q93.984") == "1H"
    assert call(N, "", "AKJ52.KQ532.9.98") == "1S"  # 5-5: spades
    assert call(N, "", "AKJ2.KQ53.93.984") == "1C"  # no five-card major, 3-2 minors... clubs
    assert call(N, "", "AKJ2.KQ53.9853.9") == "1D"
    assert call(N, "", "AK2.KQ3.9853.984") == "1D"  # 4 diamonds, 3 clubs
    assert call(N, "", "AK2.KQ3.985.9843") == "1C"
    assert call(N, "", "Q53.K84.9853.J98") == "P"  # 6 HCP
    assert call(N, "", "AKQ.AKQ.AK32.KJ4") == "2C"  # 27: strong


def test_weak_two_and_preempt():
    assert call(N, "", "KQJ952.84.932.84") == "2S"  # 6 cards, 6 HCP
    assert call(N, "", "KQJ9532.84.93.84") == "3S"  # 7 cards


# Responses to 1NT: Jacoby transfers and Stayman.
def test_jacoby_transfers():
    assert call(N, "1NT P", "J8652.43.T93.984") == "2H"  # five spades: transfer with 2H
    assert call(N, "1NT P", "43.J8652.T93.984") == "2D"  # five hearts: transfer with 2D
    assert call(N, "1NT P 2D P", "KQ2.AJ5.KT93.Q84") == "2H"  # opener completes
    assert call(N, "1NT P 2H P", "KQ2.AJ5.KT93.Q84") == "2S"
    # Responder then places the contract: 10+ with six spades bids game.
    assert call(N, "1NT P 2H P 2S P", "KJ8652.A3.T93.K4") == "4S"
    assert call(N, "1NT P 2H P 2S P", "J8652.43.T93.984") == "P"  # weak: stop in 2S


def test_stayman_and_its_answers():
    assert call(N, "1NT P", "KJ52.Q4.K93.9842") == "2C"  # 9 HCP with four spades
    assert call(N, "1NT P", "J852.Q4.T93.9842") == "P"  # 4 HCP: pass
    assert call(N, "1NT P 2C P", "KQ2.AJ54.KT3.Q84") == "2H"
    assert call(N, "1NT P 2C P", "KQ52.AJ4.KT3.Q84") == "2S"
    assert call(N, "1NT P 2C P", "KQ2.AJ4.KT93.Q84") == "2D"
    assert call(N, "1NT P 2C P 2S P", "KJ52.Q4.K93.A842") == "4S"  # fit and 13: game
    assert call(N, "1NT P 2C P 2D P", "KJ52.Q4.K93.A842") == "3NT"  # no fit: 3NT


def test_raises_and_new_suits():
    assert call(N, "1H P", "K4.Q953.J842.953") == "2H"  # 6 HCP, 4 hearts
    assert call(N, "1H P", "K4.Q953.A842.Q53") == "3H"  # 11: limit raise
    assert call(N, "1D P", "K4.Q953.J842.Q53") == "1H"  # new suit, 4 hearts, 8 HCP
    assert call(N, "1H P", "AJ54.Q9.J842.953") == "1S"
    assert call(N, "1S P", "K4.953.A842.KQ53") == "2C"  # 12, new suit at the 2 level
    assert call(N, "1S P", "4.953.Q842.J9532") == "P"  # 3 HCP
    # Opener's rebid: the raise with four-card support, 1NT with 12-14 balanced.
    assert call(N, "1D P 1H P", "K4.KJ53.AJ42.Q53") == "2H"
    assert call(N, "1D P 1S P", "K4.KJ3.AJ42.Q532") == "1NT"


def test_takeout_double_shows_shortness_in_their_suit():
    # "A takeout double: 12+ HCP, at most two cards in their suit, three+ in the others."
    assert call(E, "1H", "KQ52.4.AJ93.K984") == "X"
    assert call(E, "1H", "KQ5.432.AJ9.K984") != "X"  # three hearts: not a takeout double
    known = infer(auction(E, "1H X"))
    assert known[S].lengths[2] == (0, 2) and known[S].hcp[0] == 12
    assert all(known[S].lengths[s][0] >= 3 for s in (0, 1, 3))


def test_overcalls():
    assert call(E, "1D", "KQJ52.84.93.K984") == "1S"  # 9 HCP, five spades at the 1 level
    assert call(E, "1S", "84.93.KQJ52.K984") == "P"  # five diamonds only: not at the 2 level
    assert call(E, "1S", "84.9.AKQ952.K984") == "2D"  # six at the 2 level with 12
    assert call(E, "1D", "KQ2.AJ5.KT93.Q84") == "1NT"  # 15-18 balanced


def test_competitive_pass():
    # Opponents opened; nothing to show: pass.
    assert call(E, "1S", "842.9532.Q84.J53") == "P"


def test_constraints_are_inferred_by_everyone_from_the_same_rules():
    known = infer(auction(N, "1NT P 2D P 2H P"))
    assert known[N].hcp == (15, 17) and known[N].balanced
    assert known[S].lengths[2][0] == 5  # transfer: five hearts
    assert known[E].hcp == (0, 37)  # a pass over 1NT says nothing here
    # An opening pass shows less than an opening bid.
    assert infer(auction(N, "P"))[N].hcp == (0, 11)
    # The rule that makes a call is the rule that reads it.
    opener = HandInfo.of(hand("AKJ52.K5.Q93.984"))
    r, made = explain([], N, opener)
    assert r.name == "1S opening" and format_call(made) == "1S"
    assert r.shows(Ctx((), N)).admits(opener)
    assert infer(auction(N, "1S"))[N].lengths[3][0] == 5


def test_never_an_illegal_call_against_random_bidders():
    """Over many seeds, with random-legal opponents, every call the system makes is legal."""
    deals = 0
    for seed in range(150):
        rng = Rng(seed)
        cards = rng.shuffled(deck())
        hands = [cards[13 * i : 13 * i + 13] for i in range(4)]
        calls: list[tuple[int, Call]] = []
        seat = seed % 4
        while not is_over(calls):
            if seat % 2 == 0:
                c = choose_call(calls, seat, hands[seat])
                check_call(calls, seat, c)  # raises if illegal
            else:
                c = rng.choice(legal_calls(calls, seat))
            calls.append((seat, c))
            seat = (seat + 1) % 4
        deals += 1
    assert deals == 150


def test_the_bot_bids_a_whole_auction_through_the_rules():
    game, bot = BridgeGame(), GibBot()
    for seed in range(20):
        state = game.new(game.parse_config({}), seed)
        while state.phase is Phase.AUCTION:
            seat = game.to_act(state)[0]
            action = bot.decide(game.view(state, seat), game.legal(state, seat), seat, 0, 1.0)
            state, _ = game.act(state, seat, action)  # raises IllegalAction if illegal
        assert state.phase in (Phase.PLAY, Phase.OVER)


def test_registered_as_the_default_bridge_bot():
    assert bot_names("bridge") == ["gib", "random"] and default_bot("bridge") == "gib"
    assert isinstance(make_bot("bridge", "gib"), GibBot)
