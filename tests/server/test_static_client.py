"""The browser client is served from server/static at / and needs nothing from elsewhere."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
import subprocess
import tomllib
from fnmatch import fnmatch
from pathlib import Path

import pytest

from server.app import STATIC, Server
from server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
# The page's scripts in the order index.html loads them (they share one global scope).
SCRIPTS = re.findall(r'<script src="/([^"]+)"></script>', (STATIC / "index.html").read_text())
GAME_SCRIPTS = [f"game-{g}.js" for g in ("poker", "bridge", "tractor", "rummy")]


async def _get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    await writer.drain()
    raw = await reader.read()
    writer.close()
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = dict(line.split(": ", 1) for line in lines[1:])
    return int(lines[0].split()[1]), {k.lower(): v for k, v in headers.items()}, body


async def test_the_page_its_script_and_its_styles_are_served(tmp_path: Path) -> None:
    settings = Settings(
        host="127.0.0.1", port=0, db_url=f"sqlite:///{tmp_path}/t.db", bot_workers=0
    )
    server = Server(settings)
    await server.start()
    try:
        for path, kind in (
            ("/", "text/html"),
            *((f"/{name}", "text/javascript") for name in SCRIPTS),
            ("/style.css", "text/css"),
        ):
            status, headers, body = await _get(server.port, path)
            assert status == 200, path
            assert headers["content-type"].startswith(kind)
            assert body == (STATIC / ("index.html" if path == "/" else path[1:])).read_bytes()
    finally:
        await server.stop()


async def test_the_favicon_is_served(tmp_path: Path) -> None:
    # Browsers ask for one on every page load: a 404 there fills the server's log.
    settings = Settings(
        host="127.0.0.1", port=0, db_url=f"sqlite:///{tmp_path}/t.db", bot_workers=0
    )
    server = Server(settings)
    await server.start()
    try:
        for path, kind in (("/favicon.svg", "image/svg+xml"), ("/favicon.ico", "image/x-icon")):
            status, headers, body = await _get(server.port, path)
            assert (status, headers["content-type"]) == (200, kind), path
            assert body == (STATIC / path[1:]).read_bytes()
    finally:
        await server.stop()
    assert (STATIC / "favicon.ico").read_bytes()[:4] == b"\0\0\1\0"  # an icon resource
    assert '<link rel="icon" href="/favicon.svg"' in (STATIC / "index.html").read_text()


def test_every_static_file_is_shipped_in_the_package() -> None:
    # setuptools copies package data by these globs only: a file they miss is a 404
    # for everyone running an installed (non-editable) server.
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]["*"]
    missing = [f.name for f in STATIC.iterdir() if not any(fnmatch(f.name, g) for g in globs)]
    assert missing == []


def test_the_client_loads_nothing_from_other_hosts() -> None:
    # No CDN, no web fonts: the page must work on a machine without internet access.
    html = (STATIC / "index.html").read_text()
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == [
        "/favicon.svg",
        "/style.css",
        "/games.js",
        *(f"/{name}" for name in GAME_SCRIPTS),
        "/clock.js",
        "/app.js",
    ]
    for name in (*SCRIPTS, "style.css"):
        text = (STATIC / name).read_text()
        assert not re.search(r"https?://", text), name
        assert "@import" not in text and "url(" not in text.replace("URLSearchParams(", "")


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("name", ["app.js", "games.js", *GAME_SCRIPTS, "clock.js"])
def test_the_scripts_parse(name: str) -> None:
    # A syntax error would leave the page blank with no server-side symptom.
    done = subprocess.run(["node", "--check", str(STATIC / name)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


# --- the game layouts' words: the browser says what the terminal client says ----------
#
# game-tractor.js and game-rummy.js word events and actions as server/terminal/tractor_text.py
# and rummy_text.py do.  These run the scripts' pure functions under Node (no browser, no network)
# against the Python side on games played out with the rules.

_HARNESS = r"""
const fs = require("fs");
const vm = require("vm");
const scripts = process.argv.slice(2, -1);
const input = process.argv[process.argv.length - 1];
const ctx = {
  window: { addEventListener() {} }, localStorage: { getItem() { return null; } }, console,
};
vm.createContext(ctx);
const expose = "tractorNarrator, tractorLabel, rummyEventLine, rummyLabel, " +
  "rummyRules, tractorShape, tractorGroups, displayNames";
vm.runInContext(scripts.map((f) => fs.readFileSync(f, "utf8")).join("\n") +
  `\n;globalThis.__api = { ${expose} };`, ctx);
const api = ctx.__api;
const data = JSON.parse(fs.readFileSync(input, "utf8"));
const out = {};
if (data.tractor) out.tractor = data.tractor.map((g) => {
  const narrate = api.tractorNarrator(g.view0);
  return { lines: g.events.map((e) => narrate(e, g.names, g.me)),
    labels: g.actions.map(([a, v]) => api.tractorLabel(a, v)) };
});
if (data.rummy) out.rummy = data.rummy.map((g) => ({
  lines: g.events.map((e) => api.rummyEventLine(e, g.names, g.me)),
  labels: g.actions.map(([a, v]) => api.rummyLabel(a, v)),
}));
const trump = (f) => ([cards, rank, suit]) => f(cards, { rank, suit });
if (data.shapes) out.shapes = data.shapes.map(trump(api.tractorShape));
if (data.groups) out.groups = data.groups.map(trump(api.tractorGroups));
if (data.names) out.names = data.names.map(([names, game]) => api.displayNames(names, game));
process.stdout.write(JSON.stringify(out));
"""


def _run_js(tmp_path: Path, data: dict) -> dict:
    harness = tmp_path / "harness.js"
    harness.write_text(_HARNESS)
    (tmp_path / "input.json").write_text(json.dumps(data))
    done = subprocess.run(
        [
            "node",
            str(harness),
            *(str(STATIC / name) for name in SCRIPTS),
            str(tmp_path / "input.json"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _first_lower(text: str) -> str:
    """Buttons are capitalised (``Take back your play``), menu lines not."""
    return text[:1].lower() + text[1:]


def _play(game_name: str, options: dict, seed: int, me: int, pick, limit: int = 3000):
    """Play a game out; the events and views seat ``me`` saw, and sampled (action, view)."""
    import random

    from engine.events import visible
    from rules.registry import get_game

    game = get_game(game_name)
    config = game.parse_config(options)
    state = game.new(config, seed)
    rng = random.Random(seed)
    view0 = game.view(state, me)
    events = visible(game.initial_events(state), me)
    actions = []
    for _ in range(limit):
        to_act = game.to_act(state)
        if not to_act:
            break
        seat = rng.choice(sorted(to_act))
        legal = game.legal(state, seat)
        view = game.view(state, seat)
        action = pick(rng, view, legal, seat)
        if rng.random() < 0.3:
            actions.append((rng.choice(legal), view))
        state, new = game.act(state, seat, action)
        events += visible(new, me)
    return view0, events, actions


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_tractor_and_rummy_read_as_in_the_terminal(tmp_path: Path) -> None:
    from bots.base import make_bot
    from server.terminal.rummy_text import rummy_event, rummy_label
    from server.terminal.tractor_text import TractorNarrator, tractor_label
    from server.terminal.views import display_names

    def random_pick(rng, view, legal, seat):
        return rng.choice(legal)

    greedy = make_bot("rummy", "greedy")

    def rummy_pick(rng, view, legal, seat):
        return greedy.decide(view, legal, seat, rng.randrange(1 << 30), 1.0)

    tractor_games = []
    for options, seed in (
        ({"rounds": 1, "takeback_allowed": True}, 3),
        ({"rounds": 1, "finding_friends": True, "seats": 5}, 4),
    ):
        view0, events, actions = _play("tractor", options, seed, 0, random_pick)
        n = len(view0["hand_sizes"])
        names = display_names([str(i) for i in range(n)], "tractor")
        tractor_games.append(
            {"view0": view0, "events": events, "names": names, "me": 0, "actions": actions[:150]}
        )
    rummy_games = []
    rummy_tables: tuple[tuple[dict[str, object], int], ...] = (
        ({"pool": 0, "players": 3}, 5),
        ({"variant": "gin", "target": 0}, 6),
    )
    for rummy_options, seed in rummy_tables:
        view0, events, actions = _play("rummy", rummy_options, seed, 1, rummy_pick)
        names = display_names([str(i) for i in range(len(view0["hand_sizes"]))], "rummy")
        rummy_games.append({"events": events, "names": names, "me": 1, "actions": actions[:150]})
    got = _run_js(tmp_path, {"tractor": tractor_games, "rummy": rummy_games})

    for g, js in zip(tractor_games, got["tractor"], strict=True):
        narrator = TractorNarrator()
        narrator.sync(g["view0"])
        want = [narrator.line(e, g["names"], g["me"]) for e in g["events"]]
        assert js["lines"] == want
        assert any(line and "wins the trick" in line for line in want)
        for (action, view), label in zip(g["actions"], js["labels"], strict=True):
            if action["type"] != "draw":  # the terminal's also explains its "draw all"
                assert _first_lower(label) == _first_lower(tractor_label(action, view))
    for g, js in zip(rummy_games, got["rummy"], strict=True):
        assert js["lines"] == [rummy_event(e, g["names"], g["me"]) for e in g["events"]]
        for (action, view), label in zip(g["actions"], js["labels"], strict=True):
            assert _first_lower(label) == _first_lower(rummy_label(action, view))


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_tractor_plays_are_named_and_hands_sorted_in_trump_order(tmp_path: Path) -> None:
    got = _run_js(
        tmp_path,
        {
            "shapes": [
                [["5S", "5S"], "2", "H"],
                [["5S", "5S", "6S", "6S"], "2", "H"],
                [["AH", "AH", "2S", "2S", "2H", "2H"], "2", "H"],  # A, off-suit 2, trump 2
                [["AS", "AS", "KS", "3S"], "2", "H"],
                [["5S", "6H"], "2", "H"],  # two suits: a follow, no shape
                [["QS", "QS", "AS", "AS"], "K", "H"],  # K is the rank: Q and A are adjacent
            ],
            "groups": [[["3S", "BJ", "2H", "AS", "KD", "2S", "AH", "SJ", "5C"], "2", "H"]],
            "names": [
                [["0", "1", "2", "3"], "tractor"],
                [["0", "1"], "rummy"],
                [["North", "East", "South", "West"], "bridge"],
            ],
        },
    )
    assert got["shapes"] == [
        "pair",
        "tractor of 2 pairs",
        "tractor of 3 pairs",
        "1 pair + 2 singles",
        "",
        "tractor of 2 pairs",
    ]
    assert got["groups"] == [
        [
            ["trumps", ["BJ", "SJ", "2H", "2S", "AH"]],
            ["♠", ["AS", "3S"]],
            ["♣", ["5C"]],
            ["♦", ["KD"]],
        ]
    ]
    assert got["names"] == [
        ["North", "East", "South", "West"],
        ["Seat 1", "Seat 2"],
        ["North", "East", "South", "West"],
    ]


# --- small words checked on the scripts' pure functions ------------------------------

_EVAL = r"""
const fs = require("fs");
const vm = require("vm");
const scripts = process.argv.slice(2, -1);
const input = process.argv[process.argv.length - 1];
const ctx = { window: { addEventListener() {} }, localStorage: { getItem() { return null; } } };
vm.createContext(ctx);
vm.runInContext(scripts.map((f) => fs.readFileSync(f, "utf8")).join("\n"), ctx);
const out = JSON.parse(fs.readFileSync(input, "utf8")).map((e) => vm.runInContext(e, ctx));
process.stdout.write(JSON.stringify(out));
"""


def _eval_js(tmp_path: Path, expressions: list[str]) -> list:
    """The values of JS expressions evaluated with the page's scripts loaded (no DOM)."""
    (tmp_path / "eval.js").write_text(_EVAL)
    (tmp_path / "exprs.json").write_text(json.dumps(expressions))
    scripts = [str(STATIC / name) for name in SCRIPTS]
    done = subprocess.run(
        ["node", str(tmp_path / "eval.js"), *scripts, str(tmp_path / "exprs.json")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_a_count_of_one_is_singular(tmp_path: Path) -> None:
    names = '["North", "East", "South", "West"]'
    got = _eval_js(
        tmp_path,
        [
            f'eventLine({{kind: "hand", seat: 0, cards: ["AS"]}}, {names}, 0)',
            f'bridgeNarrator()({{kind: "hand", seat: 0, cards: ["AS"]}}, {names}, 0)',
            f'rummyEventLine({{kind: "hand", seat: 1, cards: ["AS"]}}, {names}, 1)',
            f'rummyEventLine({{kind: "reshuffle", cards: 1}}, {names}, 0)',
            f'rummyEventLine({{kind: "drop", seat: 0, points: 1}}, {names}, 1)',
            'parText({score_ns: 50, contracts: [{contract: "1N", declarers: "N", tricks: 1}]})',
            'gameActionLabel("bridge", {type: "claim", tricks: 1})',
            f'tractorNarrator()({{kind: "buried", seat: 0, count: 1}}, {names}, 1)',
            'tractorNarrator()({kind: "trick", winner: 1, points: 1, attacker_points: 1},'
            ' ["North", "East", "South", "West", "Fifth"], 0)',
            "plural(2, 'card')",
        ],
    )
    assert got == [
        "You are dealt 1 card",
        "You are dealt 1 card",
        "You are dealt 1 card",
        "The stock ran out: the discard pile is shuffled into a new stock (1 card)",
        "North drops out of the deal (1 point)",
        "Par NS +50: 1NT by N (1 trick)",
        "claim 1 more trick",
        "North buries 1 card",
        "East wins the trick (1 point; attackers 1)",
        "2 cards",
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_scores_stored_as_floats_read_as_integers(tmp_path: Path) -> None:
    # Results store scores as floats (-653.0 in the JSON); the page shows -653.
    result = json.dumps({"scores": [-653.0, 653.0], "summary": "Seat 2 wins"})
    got = _eval_js(tmp_path, [f"resultText(JSON.parse({json.dumps(result)}), ['N', 'E'])"])
    assert got == ["Seat 2 wins (scores: N -653, E 653)"]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_turn_clock_runs_the_turn_then_the_bank(tmp_path: Path) -> None:
    (tmp_path / "clock.js").write_text(
        (STATIC / "clock.js").read_text()
        + "\nconst c = {seats: [1], turn_left: 5, banks: [60, 30.5], at: 0};"
        + "\nglobalThis.out = [[2000, 1], [5000, 1], [20000, 1], [40000, 1], [1000, 0]]"
        + ".map(([t, s]) => clockLeft(c, s, t));"
        + "\nglobalThis.out.push([3599.2, 36000, 0.01].map(clockFormat));"
        + "\nprocess.stdout.write(JSON.stringify(globalThis.out));"
    )
    done = subprocess.run(
        ["node", str(tmp_path / "clock.js")], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        {"turn": 3, "bank": 30.5},
        {"turn": 0, "bank": 30.5},
        {"turn": 0, "bank": 15.5},
        {"turn": 0, "bank": 0},
        {"turn": 4, "bank": 60},
        ["1:00:00", "10:00:00", "0:01"],
    ]
