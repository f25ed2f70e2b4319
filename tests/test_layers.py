"""The packages import in layers (docs/architecture.md, "Layers"): every import
counts, also one inside a function or under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

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
