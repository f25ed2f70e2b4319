"""GIB-style card play (bots/bridge/play.py, sampling.py): the samples respect what the
seat has seen (its hand, the dummy, played cards, voids, the auction's constraints),
and double-dummy scoring over them finds the winning card in a small ending."""

from __future__ import annotations

from bots.bridge.bidding import bids_as_made, calls_by_seat, choose_call, infer
from bots.bridge.gib import GibBot
from bots.bridge.play import PlayOptions, certain_claim, choose_card, read_position
from bots.bridge.sampling import SampleSpec, every_deal, replay_play, sample_deals
from engine.cards import format_face, parse_face
from engine.rng import Rng
from rules.bridge import BridgeGame
from rules.bridge.auction import parse_call
from rules.bridge.claims import claim_holds
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


def test_late_in_the_play_every_layout_is_scored_once():
    # Before trick 9 South sees North and its own hand; 10 cards are hidden, 5 and
    # 5 (C(10, 5) = 252 splits), and nothing was shown out of yet.
    state = GAME.new(GAME.parse_config({"deal": DEAL, "dealer": "S"}), 0)
    for c in ("1NT", "P", "P", "P"):
        state, _ = GAME.act(state, GAME.to_act(state)[0], {"type": "call", "call": c})
    for card in SCRIPT_ORDER[:32]:
        state, _ = GAME.act(state, GAME.to_act(state)[0], {"type": "play", "card": card})
    pos = read_position(with_played(state, S), S)
    assert every_deal(pos.spec, 251, Rng(1)) is None  # more than the limit
    everything = every_deal(pos.spec, 252, Rng(1))
    assert everything is not None and len(set(everything.deals)) == len(everything.deals)
    # No auction constraint binds East or West (1NT by South, all pass): every
    # 5-5 split of the ten hidden cards is a layout.
    assert len(everything.deals) == 252
    assert tuple(sorted(state.hands[E])) in {d[E] for d in everything.deals}
    # Different seeds: the same layouts in another order.
    again = every_deal(pos.spec, 252, Rng(2))
    assert again is not None and set(again.deals) == set(everything.deals)
    assert again.deals != everything.deals


def test_voids_shown_leave_only_the_layouts_they_allow():
    state = ending()  # East showed out of hearts, West out of diamonds
    pos = read_position(with_played(state, S), S)
    everything = every_deal(pos.spec, 256, Rng(3))
    assert everything is not None
    assert everything.deals == [tuple(tuple(sorted(h)) for h in state.hands)]
    choice = choose_card(with_played(state, S), ["AH", "QH", "5H"], S, 7, 10.0)
    assert choice.samples == 1 and choice.card != "AH"  # West holds the king


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
    # (It would claim the certain count; with that claim just rejected it plays.)
    view = with_played(state, S) | {"claim_rejected_at": len(state.played)}
    action = bot.decide(view, GAME.legal(state, S), S, 3, 10.0)
    assert action["type"] == "play" and action["card"] in ("QH", "5H")


def test_the_declarer_claims_only_a_certain_count():
    """West is known to hold the heart king (East showed out): every layout gives
    the declarer the same count, so the bot claims exactly that; one trick earlier
    the count is not certain and it plays."""
    state = ending()
    legal = GAME.legal(state, S)
    action = GibBot(PlayOptions(samples=2)).decide(with_played(state, S), legal, S, 0, 5.0)
    assert action["type"] == "claim"
    assert claim_holds(state, S, action["tricks"])
    assert not claim_holds(state, S, action["tricks"] + 1)
    # After a rejection in the same position the bot plays on.
    view = with_played(state, S) | {"claim_rejected_at": len(state.played)}
    action = GibBot(PlayOptions(samples=2)).decide(view, legal, S, 0, 5.0)
    assert action["type"] == "play"


def test_a_certain_count_is_the_true_double_dummy_count():
    """Whenever certain_claim gives a count (the declarer's or a defender's), the
    solver on the real deal agrees: a claim of it holds and one more does not."""
    found = set()
    for seed in range(12):
        rng = Rng(seed)
        state = GAME.new(GAME.parse_config({"claims": "defenders"}), seed)
        for c in ("1N", "P", "P", "P"):
            state, _ = GAME.act(state, GAME.to_act(state)[0], {"type": "call", "call": c})
        while state.phase.value == "play":
            seat = GAME.to_act(state)[0]
            if len(state.hands[state.next_player]) <= 4:
                tricks = certain_claim(GAME.view(state, seat), seat)
                if tricks is not None:
                    found.add(seat % 2 == state.contract.declarer % 2)
                    assert claim_holds(state, seat, tricks)
                    assert tricks == len(state.hands[state.next_player]) or not claim_holds(
                        state, seat, tricks + 1)
            cards = [a for a in GAME.legal(state, seat) if a["type"] == "play"]
            state, _ = GAME.act(state, seat, rng.choice(cards))
    assert found == {True, False}  # declarers and defenders both had certain counts


SUITED = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"


def test_bots_accept_right_claims_and_reject_wrong_ones():
    """The claimer's cards are faced, so the answer is exact: opponents accept a
    claim that holds double dummy and reject one that does not; a defender's
    partner rejects a concession of tricks the side would win (Law 68B2)."""
    bot = GibBot(PlayOptions(samples=2))
    s = GAME.new(GAME.parse_config({"deal": SUITED, "claims": "defenders"}), 0)
    for c in ("1N", "P", "P", "P"):
        s, _ = GAME.act(s, GAME.to_act(s)[0], {"type": "call", "call": c})

    def answer(state, seat):
        return bot.decide(GAME.view(state, seat), GAME.legal(state, seat), seat, 1, 5.0)["type"]

    s1, _ = GAME.act(s, E, {"type": "claim", "tricks": 13})  # East runs thirteen hearts
    assert answer(s1, N) == "accept_claim"
    s2, _ = GAME.act(s, E, {"type": "claim", "tricks": 12})
    assert answer(s2, N) == "accept_claim" and answer(s2, W) == "reject_claim"
    s3, _ = GAME.act(s, E, {"type": "play", "card": "AH"})
    s4, _ = GAME.act(s3, N, {"type": "claim", "tricks": 1})  # dummy's turn: wrong claim
    assert answer(s4, E) == "reject_claim" and answer(s4, W) == "reject_claim"
    s5, _ = GAME.act(s3, N, {"type": "claim", "tricks": 0})
    assert answer(s5, E) == "accept_claim"
    # Out of turn, mid-trick, by a player who has played to the trick already: East
    # claims every trick, the one in progress included, while the declarer is to
    # play from dummy (Law 68A: at any time in the play).
    s6, _ = GAME.act(s3, E, {"type": "claim", "tricks": 13})
    assert answer(s6, N) == "accept_claim"
    s7, _ = GAME.act(s3, W, {"type": "claim", "tricks": 13})  # West for the side: right
    assert answer(s7, N) == "accept_claim"
    s8, _ = GAME.act(s3, W, {"type": "claim", "tricks": 0})  # conceding the side's tricks
    assert answer(s8, E) == "reject_claim"


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


def test_scoring_samples_on_threads_gives_the_same_choice():
    """PlayOptions.threads: the samples scored on a pool of threads average the
    same as one at a time (same seed, same samples)."""
    state = ending()
    view = with_played(state, S)
    # A close choice draws more samples (max_samples): the same number either way.
    # (exhaustive=0: sampled deals, not the one layout this ending allows.)
    opts = PlayOptions(samples=6, exhaustive=0)
    one = choose_card(view, ["AH", "QH", "5H"], S, 7, 10.0, opts)
    two = choose_card(view, ["AH", "QH", "5H"], S, 7, 10.0, PlayOptions(
        samples=6, exhaustive=0, threads=2))
    assert two.samples == one.samples >= 6
    assert two.averages == one.averages and two.card == one.card


def test_the_bots_scorer_agrees_with_solve_position_mid_trick():
    # The scorer hands the core its masks directly; solve_position replays the
    # trick's cards from the hands before it.  Both must score every card alike.
    from bots.bridge.play import solver_scorer
    from engine.dds import Solver, make_deal, solve_position
    from engine.dds.deal import as_deal

    rng = Rng(17)
    score = solver_scorer(Solver(tt_bytes=1 << 20))
    for _ in range(40):
        cards = rng.shuffled(list(range(52)))
        size = 2 + rng.below(4)
        hands = [sorted(cards[s * 13:s * 13 + size]) for s in range(4)]
        leader = rng.below(4)
        strain = "SHDCN"[rng.below(5)]
        trick: list[int] = []
        after = [list(h) for h in hands]
        for i in range(rng.below(4)):  # a few legal cards of the trick in progress
            seat = (leader + i) % 4
            follow = [f for f in after[seat] if trick and f // 13 == trick[0] // 13]
            f = (follow or after[seat])[0]
            after[seat].remove(f)
            trick.append(f)
        expected = solve_position(as_deal(make_deal(hands)), strain, "NESW"[leader],
                                  trick).scores
        got = score(tuple(tuple(h) for h in after), strain, leader, tuple(trick))
        assert got == expected
        assert list(got) == list(expected)  # the same order too


def test_the_declarer_counts_a_deal_less_where_a_defender_gave_a_trick_away():
    """West leads ♠2 at no trumps, two cards each.  Holding ♠A with it, the lead
    gives North's ♠K a trick double dummy: a defender who sees his own hand rarely
    does that, so that layout counts ``unsound_weight``.  Holding ♦4 instead (East
    the ♠A), both leads take the same two tricks: the layout counts in full."""
    from bots.bridge.play import Position, _soundness, dds_scorer

    def hand(*cards: str) -> tuple[int, ...]:
        return tuple(sorted(parse_face(c) for c in cards))

    north, south = hand("KS", "3H"), hand("QS", "4H")
    spec = SampleSpec((north, None, south, None), (2, 2, 2, 1), (), (frozenset(),) * 4,
                      ((),) * 4, ())
    lead = (parse_face("2S"),)
    pos = Position("N", 2, 0, spec.known, spec.sizes, (), lead, 3, spec)
    gave_away = (north, hand("2D", "3D"), south, hand("AS"))
    sound = (north, hand("AS", "2D"), south, hand("4D"))
    assert _soundness(pos, gave_away, dds_scorer, 0.2) == 0.2
    assert _soundness(pos, sound, dds_scorer, 0.2) == 1.0
    assert _soundness(pos, gave_away, dds_scorer, 1.0) == 1.0  # the assumption off


def _bid_out(hands):
    """The auction the system bids with ``hands`` (North deals)."""
    calls = []
    while not (len(calls) >= 4 and all(c == "P" for _, c in calls[-3:])):
        seat = len(calls) % 4
        calls.append((seat, choose_call(calls, seat, hands[seat])))
    return calls


def test_the_hands_that_bid_an_auction_would_bid_it_again():
    # The sampler's first step keeps only hands the system makes each seat's calls
    # with; the hands that really made the auction must always be among them.
    for seed in range(150):
        deck = Rng(seed).shuffled(list(range(52)))
        hands = [deck[i * 13:(i + 1) * 13] for i in range(4)]
        by_seat = calls_by_seat(_bid_out(hands))
        for seat in range(4):
            assert bids_as_made(by_seat[seat], HandInfo.of(hands[seat])), (seed, seat)


def test_a_defenders_pass_over_an_opening_says_what_the_hand_lacks():
    # North opens 1S and South jumps to game; East passed twice.  Sampled East hands
    # are hands the system passes with there: none that would have overcalled or
    # doubled.  Without the check (the next step) some would have.
    # North and South hold 16 HCP between them: East and West the other 24.
    north = [parse_face(c) for c in ("AS", "KS", "9S", "8S", "7S", "AH", "2H", "3H",
                                     "QD", "2D", "3D", "4C", "5C")]
    south = [parse_face(c) for c in ("QS", "JS", "6S", "4H", "5H", "4D", "5D", "6D",
                                     "6C", "7C", "8C", "9C", "TC")]
    calls = [((N + i) % 4, parse_call(c)) for i, c in enumerate(("1S", "P", "4S", "P", "P", "P"))]
    by_seat = calls_by_seat(calls)
    pool = tuple(f for f in range(52) if f not in north and f not in south)
    spec = SampleSpec(
        known=(tuple(north), None, tuple(south), None),
        sizes=(13, 13, 13, 13),
        pool=pool,
        voids=(frozenset(),) * 4,
        played_by=((),) * 4,
        constraints=infer(calls),
        auction=by_seat,
    )
    checked = sample_deals(spec, 60, Rng(5))
    assert set(checked.relaxation) == {0}
    for deal in checked.deals:
        assert choose_call(calls[:1], E, deal[E]) == "P"
        assert choose_call(calls[:3], E, deal[E]) == "P"
    unchecked = sample_deals(SampleSpec(**{**spec.__dict__, "auction": ((),) * 4}), 60, Rng(5))
    assert any(choose_call(calls[:1], E, deal[E]) != "P" for deal in unchecked.deals)
