"""No import circles among the project's packages (docs/architecture.md, "Layers").

Every import counts, also one inside a function or under ``TYPE_CHECKING``: a
circle hidden that way is still two modules that each need the other, which is
what makes them hard to read, test and change apart.  ``from package import
module`` is an edge to that module only: a package's ``__init__`` re-exporting
its own modules is not a circle with them.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "rules", "bots", "protocol", "server", "clients")


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(tree: ast.AST, name: str, is_package: bool, modules: set[str]) -> set[str]:
    """The project modules one module's source imports (``from pkg import mod``
    names the submodule when there is one)."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from base import name``: the module ``name`` if there is one, else ``base``.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        for target in targets:
            if target in modules:
                found.add(target)
    found.discard(name)
    return found


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module -> the project modules it imports."""
    files = {
        module_name(path, root): path
        for package in PACKAGES
        for path in (root / package).rglob("*.py")
    }
    compiled = {
        module_name(path.with_name(path.name.split(".")[0] + ".py"), root)
        for package in PACKAGES
        for path in (root / package).rglob("*.so")
    }
    modules = set(files) | compiled
    graph: dict[str, set[str]] = {name: set() for name in compiled}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        graph[name] = imports_of(tree, name, path.name == "__init__.py", modules)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative: the graph is a few hundred modules, but recursion limits vary.
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def test_no_import_circles() -> None:
    assert circles(import_graph()) == []


def test_the_check_finds_a_circle_hidden_in_a_function_or_type_checking(tmp_path: Path) -> None:
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "__init__.py").write_text("")
    (tmp_path / "server" / "a.py").write_text("from server.b import f\n")
    (tmp_path / "server" / "b.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from server import c\n"
        "def f():\n    from . import a\n"
    )
    (tmp_path / "server" / "c.py").write_text("import server.a\n")
    for package in PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
    assert circles(import_graph(tmp_path)) == [["server.a", "server.b", "server.c"]]
