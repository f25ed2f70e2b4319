"""The browser client is served from clients/web at / and needs nothing from elsewhere."""

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

from rules.registry import available
from server.app import STATIC, Server
from server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
# The games games.js's registry has a drawing for, in its order; it loads their scripts.
DRAWN = re.findall(r"^  (\w+): \(\) =>", (STATIC / "games.js").read_text(), re.M)
GAME_SCRIPTS = [f"game-{g}.js" for g in DRAWN]
# The page's scripts in the order they load (they share one global scope): index.html's,
# with games.js followed by the drawings it loads.
PAGE = re.findall(r'<script src="/([^"]+)"></script>', (STATIC / "index.html").read_text())
SCRIPTS = [s for name in PAGE for s in ([name, *GAME_SCRIPTS] if name == "games.js" else [name])]


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
    missing = [
        f.name
        for f in STATIC.iterdir()
        if f.suffix != ".py"
        and f.name != "__pycache__"  # the package's own marker
        and not any(fnmatch(f.name, g) for g in globs)
    ]
    assert missing == []


def test_the_client_loads_nothing_from_other_hosts() -> None:
    # No CDN, no web fonts: the page must work on a machine without internet access.
    html = (STATIC / "index.html").read_text()
    assert re.findall(r'(?:src|href)="([^"]+)"', html) == [
        "/favicon.svg",
        "/style.css",
        "/games.js",
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


# --- the clients know no game's rules -----------------------------------------------
#
# What a game says (labels, narration, hints) comes from the server; app.js names no game
# and only games.js's registry picks a game's drawing (game-<name>.js).

GAME_NAMES = re.compile(rf"\b({'|'.join(available())})\b", re.I)


def _code(text: str) -> str:
    """A script without its comments (line comments only: the scripts use no others)."""
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())


def test_only_the_registry_names_a_game() -> None:
    for name in ("app.js", "clock.js"):
        code = _code((STATIC / name).read_text())
        assert not GAME_NAMES.search(code), (name, GAME_NAMES.findall(code))
    assert sorted(DRAWN) == ["bridge", "crazy_eights", "poker", "rummy", "tractor"]
    # A game's drawing is its registry entry and its script; neither comes without the other.
    assert sorted(p.name for p in STATIC.glob("game-*.js")) == sorted(GAME_SCRIPTS)
    assert set(DRAWN) <= set(available())
    # No script re-derives a game's card order or points: Tractor's and rummy's come
    # in the frames' hints.
    for name in GAME_SCRIPTS:
        code = _code((STATIC / name).read_text())
        for rule in ("phi", "tractorKey", "rummyPoints", "deadwood(", "getStructure"):
            assert rule not in code, (name, rule)


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
def test_buttons_and_results_read_in_the_servers_words(tmp_path: Path) -> None:
    legal = '[{type: "play", card: "AS"}, {type: "raise", to: 12}]'
    got = _eval_js(
        tmp_path,
        [
            f'(() => {{ const l = {legal}; const f = labelFor(l, ["Play A♠", "Raise to 12"]);'
            " return l.map(f); })()",
            f"(() => {{ const l = {legal}; return l.map(labelFor(l, null)); }})()",
            'resultText({summary: "seats 0 and 2 win", scores: [1, 0, 1, 0]},'
            ' ["N", "E", "S", "W"], {result: "North/South win"})',
            "plural(1, 'card') + ', ' + plural(2, 'card')",
            '[drawingOf("bridge") !== null, drawingOf("whist"), drawingOf("no-such-game")]',
        ],
    )
    assert got == [
        ["Play A♠", "Raise to 12"],
        ["A♠", "raise to=12"],  # a frame without labels (an older server): the fields
        "North/South win (scores: N 1, E 0, S 1, W 0)",
        "1 card, 2 cards",
        [True, None, None],
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


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_statistics_cells_read_in_each_columns_unit(tmp_path: Path) -> None:
    # The stats page shows any game's table: counts whole, % to 0.1, others to 0.01
    # (JSON turns 1700.0 into 1700), and a dash where a player never had the chance.
    got = _eval_js(
        tmp_path,
        ["[statCell(2, 'count'), statCell(33.3333, '%'), statCell(1.5, 'ratio'),"
         " statCell(null, '%'), statCell(-1700, 'bb/100')]"],
    )
    assert got == [["2", "33.3", "1.50", "–", "-1700.00"]]
