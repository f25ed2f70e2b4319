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
# The games games.js's registry has a drawing for: each is its module game-<name>.js.
DRAWN = re.findall(
    r'^import \{ drawing as (\w+) \} from "\./game-\1\.js";$',
    (STATIC / "games.js").read_text(),
    re.M,
)
GAME_SCRIPTS = [f"game-{g}.js" for g in DRAWN]
# The page loads one module, app.js; the rest are its imports, followed here.
PAGE = re.findall(
    r'<script type="module" src="/([^"]+)"></script>', (STATIC / "index.html").read_text()
)
IMPORT = re.compile(r'^import \{[^}]*\} from "\./([\w-]+\.js)";$', re.M)


def _module_graph(entries: list[str]) -> list[str]:
    seen: list[str] = []
    todo = list(entries)
    while todo:
        name = todo.pop(0)
        if name not in seen:
            seen.append(name)
            todo += IMPORT.findall((STATIC / name).read_text())
    return seen


SCRIPTS = _module_graph(PAGE)


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
        "/tournaments",  # a link to the server's own page, not something loaded
        "/app.js",
    ]
    for name in (*SCRIPTS, "style.css"):
        text = (STATIC / name).read_text()
        assert not re.search(r"https?://", text), name
        assert "@import" not in text and "url(" not in text.replace("URLSearchParams(", "")
        # Modules import only each other, by relative path.
        assert re.findall(r"\bfrom \"([^\"]+)\"", text) == [
            f"./{m}" for m in IMPORT.findall(text)
        ], name


def test_every_script_is_a_module_the_page_reaches_and_none_sets_a_global() -> None:
    assert PAGE == ["app.js"]
    assert sorted(SCRIPTS) == sorted(p.name for p in STATIC.glob("*.js"))
    for name in SCRIPTS:
        code = _code((STATIC / name).read_text())
        assert not re.search(r"\b(?:window|globalThis|self)\.\w+\s*=[^=]", code), name
        assert "document.write" not in code and '"use strict"' not in code, name


def _as_package(tmp_path: Path) -> Path:
    """The page's modules copied beside a package.json that makes Node read them as ES
    modules (the browser knows from the script tag)."""
    web = tmp_path / "web"
    web.mkdir()
    for name in SCRIPTS:
        shutil.copy(STATIC / name, web / name)
    (web / "package.json").write_text('{"type": "module"}')
    return web


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_the_modules_parse_and_link(tmp_path: Path) -> None:
    # A syntax error, or an import a module does not export, would leave the page blank
    # with no server-side symptom.
    web = _as_package(tmp_path)
    for name in SCRIPTS:
        done = subprocess.run(["node", "--check", str(web / name)], capture_output=True, text=True)
        assert done.returncode == 0, (name, done.stderr)
    (web / "link.js").write_text(
        "globalThis.window = { addEventListener() {} };\n"
        'await import("./app.js");\nprocess.stdout.write("linked");\n'
    )
    done = subprocess.run(["node", str(web / "link.js")], capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "linked"), done.stderr


IMPORT = re.compile(r'^import .* from "\./([\w-]+\.js)";$', re.M)


def test_the_modules_import_no_circle() -> None:
    # A circle makes a module's imports undefined while the circle is being evaluated,
    # depending on which module the page happens to load first.
    graph = {name: IMPORT.findall((STATIC / name).read_text()) for name in SCRIPTS}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for target in graph[name]:
            visit(target, (*path, name))
        done.add(name)

    for name in graph:
        visit(name, ())
    assert graph["connection.js"] == ["dom.js", "state.js"]


# --- the clients know no game's rules -----------------------------------------------
#
# What a game says (labels, narration, hints) comes from the server; app.js names no game
# and only games.js's registry picks a game's drawing (game-<name>.js).

GAME_NAMES = re.compile(rf"\b({'|'.join(available())})\b", re.I)


def _code(text: str) -> str:
    """A script without its comments (line comments only: the scripts use no others)."""
    return "\n".join(re.sub(r"(^|\s)//.*$", "", line) for line in text.splitlines())


def test_only_the_registry_names_a_game() -> None:
    for name in SCRIPTS:
        if name == "games.js" or name in GAME_SCRIPTS:
            continue
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
import fs from "fs";
const ns = {};
for (const m of ["cards.js", "games.js", "clock.js", "files.js", "stats.js"]) {
  Object.assign(ns, await import(`./${m}`));
}
const exprs = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const run = (e) => new Function(...Object.keys(ns), `return (${e});`)(...Object.values(ns));
process.stdout.write(JSON.stringify(exprs.map(run)));
"""


def _eval_js(tmp_path: Path, expressions: list[str]) -> list:
    """The values of JS expressions evaluated with the page's pure modules' exports in
    scope (cards.js, games.js, clock.js, files.js, stats.js; no DOM)."""
    web = _as_package(tmp_path)
    (web / "eval.js").write_text(_EVAL)
    (tmp_path / "exprs.json").write_text(json.dumps(expressions))
    done = subprocess.run(
        ["node", str(web / "eval.js"), str(tmp_path / "exprs.json")],
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
    got = _eval_js(
        tmp_path,
        [
            "[[2000, 1], [5000, 1], [20000, 1], [40000, 1], [1000, 0]].map(([t, s]) =>"
            " clockLeft({seats: [1], turn_left: 5, banks: [60, 30.5], at: 0}, s, t))"
            ".concat([[3599.2, 36000, 0.01].map(clockFormat)])",
        ],
    )[0]
    assert got == [
        {"turn": 3, "bank": 30.5},
        {"turn": 0, "bank": 30.5},
        {"turn": 0, "bank": 15.5},
        {"turn": 0, "bank": 0},
        {"turn": 4, "bank": 60},
        ["1:00:00", "10:00:00", "0:01"],
    ]


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
def test_an_imported_file_goes_in_parts_that_fit_a_frame(tmp_path: Path) -> None:
    """import_file parts: the whole text, in order, each message within 60 KiB of
    UTF-8 JSON (the server's frames are 64 KiB), however the text escapes."""
    base = '{type: "import_file", filename: "x.pbn"}'
    quote = "String.fromCharCode(34)"
    cases = [r'"[Deal Q N:AKQ Q]\n".replace(/Q/g, ' + quote + ").repeat(61680)",
             '"♠".repeat(90000)', f"{quote}.repeat(70000)", '""']
    got = _eval_js(tmp_path, [
        f"(() => {{ const t = {text}; const p = importParts(t, {base});"
        f" return [p.join('') === t, p.length, Math.max(...p.map((x) =>"
        f" utf8Length(JSON.stringify({{...{base}, text: x, more: true}}))))]; }})()"
        for text in cases
    ])
    for whole, parts, largest in got:
        assert whole and parts >= 1 and largest <= 60 * 1024
    assert got[0][1] <= 40  # a PBN-like file of 1 MiB stays within the burst of 40


def test_statistics_cells_read_in_each_columns_unit(tmp_path: Path) -> None:
    # The stats page shows any game's table: counts whole, % to 0.1, others to 0.01
    # (JSON turns 1700.0 into 1700), and a dash where a player never had the chance.
    got = _eval_js(
        tmp_path,
        ["[statCell(2, 'count'), statCell(33.3333, '%'), statCell(1.5, 'ratio'),"
         " statCell(null, '%'), statCell(-1700, 'bb/100')]"],
    )
    assert got == [["2", "33.3", "1.50", "–", "-1700.00"]]
