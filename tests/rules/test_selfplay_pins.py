"""Random-legal self-play of the trick-taking games must not change when their
speed does: for fixed seeds, the whole trace (tests/rules/pins.py: states,
views, events, legal lists, canonical actions) and the stream the self-play
bench drives (bench/selfplay.py: deals, actions, events) hash as pinned.  A
change here means stored games would replay differently: fix the code, not
the pins."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from engine.game import Action, Game
from engine.replay import canonical_json
from engine.rng import Rng
from rules.bridge.game import BridgeGame
from rules.whist.game import WhistGame
from tests.rules.pins import trace, uniform


def rarely_claims(state: Any, seat: int, options: list[Action], rng: Rng) -> Action:
    """Random play that claims now and then (a random claim ends the board, so a
    uniform player would hardly ever play a trick out)."""
    calm = [a for a in options if a["type"] != "claim"]
    if not calm or rng.below(150) == 0:
        return rng.choice(options)
    return rng.choice(calm)


CASES: list[tuple[str, Game[Any, Any], dict[str, Any], int, int, str, str]] = [
    # name, game, options, seed, actions, final state_hash, trace digest
    # Bridge tables stored before version 2 (a claim right after a rejected one).
    ("bridge one board", BridgeGame(), {"version": 1, "boards": 1}, 1, 400,
     "65ea1f7b66fd13421eb9039c49f4acae21bd4e16e678b053a8d212c195c11d25",
     "451e7d314255b904362bbf3e61e50f641a0c19cf1ff500078409fe477fe804ce"),
    ("bridge four boards", BridgeGame(), {"version": 1, "boards": 4, "first_board": 3}, 7, 400,
     "deefce3abb0e8afafd355f94dbbcc8a16fe901c34ef25d8383a14bc1aba32c9e",
     "99c2a61baec59869cede14c93bcb77ae744e6ba0f8994d3de4000fc489404832"),
    ("bridge defenders answer claims", BridgeGame(),
     {"version": 1, "boards": 3, "claims": "defenders"},
     5, 400,
     "8f922bf0b0b968aa0bf46203283eb5975b853bc45d5edfed4ac092742c4d82cb",
     "4604b6fe21d99bd763b4dc50fbaf3afd775cd82c74496fe150164ed12e69f057"),
    # Version 2 (the default): nobody claims between a rejected claim and the next card.
    ("bridge v2 one board", BridgeGame(), {"boards": 1}, 1, 400,
     "d2f5195bc7b8351ff779244663b04d4341ee61f302a85dffc699446a2938a640",
     "43c5961c941bd1ad5f50839ea7a7eb77a7e419d078d484664a8e8102fe692691"),
    ("bridge v2 four boards", BridgeGame(), {"boards": 4, "first_board": 3}, 7, 400,
     "38881105c50149fb8b913198152b571937aae976e9e5eba891f83bb442ad1845",
     "d73b488a4bef3d294e376b88e349231d6026665d88bbaf87296f86bba78774ef"),
    ("bridge v2 defenders answer claims", BridgeGame(), {"boards": 3, "claims": "defenders"},
     5, 400,
     "cd87569da034ce99f6aa215f87963a6d0d800eeaa18c23c6e7041aec49ea0f88",
     "665ba5825a9de9520bffafc50cd2735e1657629b80541bd715321861bb075067"),
    ("whist one deal", WhistGame(), {"deals": 1}, 2, 400,
     "ac18b9056e2cbd409c5123edd6c7d7906939f454c20f6d8f410bd8c622d7bb05",
     "05a52f5f9a04858b101e9d284d5468e24c3250aee54830906eb08a749e3eb2fc"),
    ("whist three deals", WhistGame(), {"deals": 3}, 9, 400,
     "0e4cbdf3588850fe622482ccc334e90448f0c7e752308a076b187131a376c3a7",
     "8bc8198c83e65f330b41ec53acf5f5b0987e3fb8989db83a762f14ec009b406d"),
]


@pytest.mark.parametrize(("name", "game", "options", "seed", "actions", "final", "digest"),
                         CASES, ids=[c[0] for c in CASES])
def test_random_play_replays_as_pinned(
    name: str, game: Game[Any, Any], options: dict[str, Any], seed: int, actions: int,
    final: str, digest: str,
) -> None:
    choose = rarely_claims if game.name == "bridge" else uniform
    got_final, got_digest, _ = trace(game, options, seed, max_actions=actions, choose=choose)
    assert (got_final, got_digest) == (final, digest), name


def selfplay_digest(game: Game[Any, Any], options: dict[str, Any], seed: int, games: int) -> str:
    """SHA-256 over ``games`` whole games played as bench/selfplay.py plays them
    (stdlib ``random`` picks seeds and actions, claims left out): every deal, the
    raw and canonical action of each step and every event."""
    config = game.parse_config(options)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    for _ in range(games):
        state = game.new(config, rng.getrandbits(32))
        digest.update(canonical_json([[e.kind, e.data] for e in game.initial_events(state)])
                      .encode())
        while seats := game.to_act(state):
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            legal = game.legal(state, seat)
            calm = [a for a in legal if a.get("type") != "claim"]
            action = rng.choice(calm or legal)
            move = game.validate(state, seat, action)
            state, events = game.apply(state, seat, move)
            digest.update(canonical_json([seat, action, move.action,
                                          [[e.kind, e.data] for e in events]]).encode())
    return digest.hexdigest()


SELFPLAY: list[tuple[str, Game[Any, Any], dict[str, Any], int, str]] = [
    ("bridge", BridgeGame(), {"boards": 1}, 1,
     "eebf352ce23dae0f377ef31d7d23cccdac5afc196a47b5b7650ddebc75ded7e1"),
    ("bridge", BridgeGame(), {"boards": 1}, 2,
     "de10ab62736c1af2d11a1ffd8a7d8d51acb5ba71343878a0e13ac17a0ff446df"),
    ("bridge", BridgeGame(), {"boards": 2}, 3,
     "d530b0e98007ec3e4409cb8b5312b48968fc4240fcdb92e9503e32f34da05e1f"),
    ("whist", WhistGame(), {"deals": 1}, 1,
     "2b4f8411c5a64feed8fdedc1d9a92ed51ef24b832799cef6c195bea853e300dc"),
    ("whist", WhistGame(), {"deals": 2}, 2,
     "2bbdd4715d551bd01379b1faa063ae9e516ad7bc18f05166dcd6028b0b97d76f"),
]


@pytest.mark.parametrize(("name", "game", "options", "seed", "digest"), SELFPLAY,
                         ids=[f"{c[0]}-{c[3]}" for c in SELFPLAY])
def test_selfplay_stream_as_pinned(
    name: str, game: Game[Any, Any], options: dict[str, Any], seed: int, digest: str
) -> None:
    assert selfplay_digest(game, options, seed, games=20) == digest, name


def test_the_pure_python_fallback_plays_as_pinned() -> None:
    """Without the compiled generator and card-play cores (no C compiler), the
    Python paths deal and play the same games."""
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import sys\n"
        "sys.modules['engine._rng'] = None\n"  # an import of None raises ImportError
        "sys.modules['rules.bridge._play'] = None\n"
        "import engine.rng, rules.bridge.play\n"
        "assert engine.rng._CORE is None and rules.bridge.play._CORE is None\n"
        "from tests.rules import test_selfplay_pins as t\n"
        "for case in t.CASES[:1] + t.CASES[3:4] + t.CASES[6:7]:\n"
        "    t.test_random_play_replays_as_pinned(*case)\n"
        "for case in t.SELFPLAY[:1] + t.SELFPLAY[3:4]:\n"
        "    t.test_selfplay_stream_as_pinned(*case)\n"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", script], cwd=root, check=True, timeout=300)
