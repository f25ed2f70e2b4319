"""Every call explained (rules/bridge/system/explain.py): the system's meaning of each
call the bots make, what it shows in words, forcing calls and alerts."""

from __future__ import annotations

from bots.bridge.gib import GibBot
from engine.rng import derive_seed
from rules.bridge import BridgeGame
from rules.bridge.state import Phase
from rules.bridge.system.explain import NO_MEANING, explain_auction, explain_calls, shows_text
from rules.bridge.system.hand import shows

GAME = BridgeGame()


def _bot_auction(seed: int) -> list[dict[str, object]]:
    """The auction four GIB bots bid on board ``seed``."""
    bot = GibBot()
    state = GAME.new(GAME.parse_config({}), seed)
    k = 0
    while state.phase is Phase.AUCTION:
        seat = GAME.to_act(state)[0]
        legal = GAME.legal(state, seat)
        action = bot.decide(GAME.view(state, seat), legal, seat, derive_seed(seed, k, seat), 1.0)
        state, _ = GAME.act(state, seat, action)
        k += 1
    return list(GAME.view(state, -1)["auction"])


def test_every_call_the_bots_make_has_a_meaning() -> None:
    bids = 0
    for seed in range(40):
        auction = _bot_auction(seed)
        explained = explain_auction(auction)
        assert explained is not None and len(explained) == len(auction)
        for call, e in zip(auction, explained, strict=True):
            assert e.rule is not None and e.meaning != NO_MEANING, (seed, call)
            bids += call["call"] != "P"
    assert bids > 40  # the seeds reach real auctions, not only passes


def test_what_a_call_shows_reads_as_words() -> None:
    assert shows_text(shows((15, 17), balanced=True)) == "15–17 HCP, balanced"
    assert shows_text(shows((22, 37))) == "22+ HCP"
    assert shows_text(shows((5, 10), H=(6, 6))) == "5–10 HCP, exactly 6 hearts"
    assert shows_text(shows(S=5, C=(0, 2))) == "5+ spades, 0–2 clubs"
    assert shows_text(shows()) == ""


def test_artificial_calls_are_alerted_and_forcing_ones_say_so() -> None:
    auction = [{"seat": s % 4, "call": c} for s, c in enumerate(["1NT", "P", "2D", "P", "2H"])]
    transfer, completion = explain_auction(auction)[2], explain_auction(auction)[4]
    assert transfer.alert and transfer.forcing and transfer.meaning.endswith("; forcing")
    assert not completion.alert  # hearts are now a known fit: natural
    opening = explain_auction([{"seat": 0, "call": "2C"}])[0]
    assert opening.alert and opening.forcing and opening.rule == "2C strong"
    one_heart = explain_auction([{"seat": 0, "call": "1H"}, {"seat": 1, "call": "P"},
                                 {"seat": 2, "call": "1S"}])
    assert not one_heart[0].forcing and one_heart[2].forcing and not one_heart[2].alert


def test_a_call_outside_the_system_has_no_agreed_meaning() -> None:
    explained = explain_calls([(0, "P"), (1, "P"), (2, "P"), (3, "P")])
    assert [e.rule for e in explained] == ["pass, no opening"] * 3 + ["pass, no opening"]
    odd = explain_auction([{"seat": 0, "call": "7C"}])
    assert odd is not None and odd[0].meaning == NO_MEANING and odd[0].rule is None
    assert explain_auction([{"seat": 0, "call": "9Z"}]) is None
