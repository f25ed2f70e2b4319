"""The packages import in layers (docs/architecture.md, "Layers"): every import
counts, also one inside a function or under ``TYPE_CHECKING``.  And above the game
packages nothing names a game (the same section), outside each
client's table of drawings and its drawing modules."""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from rules.registry import GAMES
from tests.test_import_cycles import PACKAGES, ROOT, import_graph

# What each package's modules may import of the project's own packages.
MAY_IMPORT = {
    "engine": {"engine"},
    "rules": {"engine", "rules"},
    "bots": {"engine", "rules", "bots"},
    "protocol": {"protocol"},
    "server": {"engine", "rules", "bots", "protocol", "server"},
    "clients": {"protocol", "clients"},
}
# The few allowed crossings, module by module, and why:
EXCEPTIONS = {
    # the CLI entry starts the terminal client (`play`, `replay`)
    "server.cli": {"clients"},
    # the card notation on the wire (`Ah`, `10s`) is engine.cards' and only its
    "clients.terminal.render": {"engine.cards"},
    "clients.terminal.tractor_text": {"engine.cards"},
    "clients.terminal.rummy_text": {"engine.cards"},
    "clients.terminal.crazy_eights_text": {"engine.cards"},
}
# Outside the project, the protocol package needs only the standard library and
# pydantic, so a client can speak it without the server's dependencies.
PROTOCOL_THIRD_PARTY = {"pydantic"}


def allowed(module: str, target: str) -> bool:
    """Whether ``module`` may import the project module ``target``."""
    top = target.split(".")[0]
    if top in MAY_IMPORT[module.split(".")[0]]:
        return True
    extra = EXCEPTIONS.get(module, set())
    return any(target == e or target.startswith(e + ".") for e in extra)


def breaches(root: Path = ROOT) -> list[str]:
    """Every import that crosses a layer it may not."""
    return sorted(
        f"{module} imports {target}"
        for module, targets in import_graph(root).items()
        for target in targets
        if not allowed(module, target)
    )


def outside_imports(package: Path) -> set[str]:
    """The top-level names a package imports from outside the project."""
    found: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module.split(".")[0])
    return found - set(PACKAGES)


def test_the_layers_hold() -> None:
    assert breaches() == []


def test_protocol_needs_only_the_standard_library_and_pydantic() -> None:
    needs = outside_imports(ROOT / "protocol") - set(sys.stdlib_module_names)
    assert needs <= PROTOCOL_THIRD_PARTY


def test_the_check_finds_a_crossing_in_a_function_or_type_checking(tmp_path: Path) -> None:
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "engine" / "cards.py").write_text("")
    (tmp_path / "server" / "app.py").write_text("def f():\n    from clients import web\n")
    (tmp_path / "clients" / "web.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import server.app\n"
    )
    (tmp_path / "clients" / "cards.py").write_text("from engine import cards\n")
    (tmp_path / "rules" / "x.py").write_text("from protocol import x\n")
    (tmp_path / "protocol" / "x.py").write_text("")
    assert breaches(tmp_path) == [
        "clients.cards imports engine.cards",
        "clients.web imports server.app",
        "rules.x imports protocol.x",
        "server.app imports clients.web",
    ]


# Above rules/ and bots/, where a game may be named: each client's table of
# drawings (a registry line per game) and its drawing modules, one per game.
DRAWING_TABLES = {"clients/terminal/views.py", "clients/web/games.js"}
DRAWING_MODULE = re.compile(r"(.+)_text\.py|game-(.+)\.js")
# A JavaScript string literal or comment (comments are skipped, strings checked).
JS_TOKEN = re.compile(
    r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`|//[^\n]*|/\*.*?\*/',
    re.S,
)


def _word(names: list[str]) -> re.Pattern[str]:
    return re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(names) + r")(?![A-Za-z0-9_])", re.I)


def _docstrings(tree: ast.AST) -> set[int]:
    found: set[int] = set()
    for node in ast.walk(tree):
        kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
        if isinstance(node, kinds) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _python_names(path: Path, names: list[str]) -> Iterator[tuple[int, str]]:
    """Non-docstring string literals naming a game, and imports of a game's modules."""
    word = _word(names)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
            id(node) not in docs and word.search(node.value)
        ):
            yield node.lineno, repr(node.value[:60])
        if isinstance(node, ast.Import | ast.ImportFrom):
            for module in _modules(node):
                parts = module.split(".")
                if any(p == n or p.startswith(n + "_") for p in parts for n in names):
                    yield node.lineno, f"import {module}"


def _modules(node: ast.Import | ast.ImportFrom) -> list[str]:
    """What an import names (``from a import b``: ``a.b``, module or not)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    return [f"{node.module or ''}.{alias.name}" for alias in node.names]


def _javascript_names(path: Path, names: list[str]) -> Iterator[tuple[int, str]]:
    """String literals (import paths too) naming a game."""
    word = _word(names)
    text = path.read_text(encoding="utf-8")
    for token in JS_TOKEN.finditer(text):
        literal = token.group(0)
        if not literal.startswith("/") and word.search(literal):
            yield text.count("\n", 0, token.start()) + 1, literal[:60]


def games_named_above_the_rules(root: Path = ROOT, names: list[str] | None = None) -> list[str]:
    """Every place in server/ and clients/ that names a game outside the drawings."""
    names = names if names is not None else list(GAMES)
    found: list[str] = []
    for package in ("server", "clients"):
        for path in sorted((root / package).rglob("*")):
            where = path.relative_to(root).as_posix()
            if where in DRAWING_TABLES or DRAWING_MODULE.fullmatch(path.name):
                continue
            if path.suffix == ".py":
                hits = _python_names(path, names)
            elif path.suffix in (".js", ".html"):
                hits = _javascript_names(path, names)
            else:
                continue
            found += [f"{where}:{line}: {what}" for line, what in hits]
    return sorted(found)


def test_nothing_above_the_rules_names_a_game() -> None:
    assert games_named_above_the_rules() == []


def test_the_game_name_check_finds_a_literal_an_import_and_a_script_string(
    tmp_path: Path,
) -> None:
    (tmp_path / "server").mkdir()
    (tmp_path / "clients" / "web").mkdir(parents=True)
    (tmp_path / "clients" / "terminal").mkdir()
    (tmp_path / "server" / "cli.py").write_text(
        '"""Docstrings may give an example: whist."""\n'
        'DEFAULT = "whist"\n'
        "def f():\n    from rules.whist.game import WhistGame\n"
    )
    (tmp_path / "clients" / "terminal" / "views.py").write_text('DRAWINGS = {"whist": 1}\n')
    (tmp_path / "clients" / "terminal" / "whist_text.py").write_text('TITLE = "Whist"\n')
    (tmp_path / "clients" / "terminal" / "seat.py").write_text(
        "from clients.terminal.whist_text import TITLE\n"
    )
    (tmp_path / "clients" / "web" / "lobby.js").write_text(
        "// a comment may say whist\nconst g = game === 'Whist' ? 1 : 2;\n"
    )
    (tmp_path / "clients" / "web" / "game-whist.js").write_text('const n = "whist";\n')
    assert games_named_above_the_rules(tmp_path, ["whist"]) == [
        "clients/terminal/seat.py:1: import clients.terminal.whist_text.TITLE",
        "clients/web/lobby.js:2: 'Whist'",
        "server/cli.py:2: 'whist'",
        "server/cli.py:4: import rules.whist.game.WhistGame",
    ]
