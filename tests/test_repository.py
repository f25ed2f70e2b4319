"""The repository stands alone: it cites only files it contains.

Code, tests and docs cite this repository's own docs by file and section
(``docs/tractor.md, "Following"``; docs/architecture.md has the contracts).
A reader must be able to follow every citation, so no text may point at design
notes or rule files kept outside the repository, every ``*.md`` path mentioned
must exist, and every section quoted after a cited doc must be one of its
headings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP_DIRS = {
    ".git", ".venv", "venv", "node_modules", "__pycache__", ".mypy_cache",
    ".ruff_cache", ".pytest_cache", ".hypothesis", "build", "dist",
}
MAX_BYTES = 1 << 20

# Built from pieces so that this file does not match itself.
OUTSIDE = re.compile(
    "|".join(
        [
            r"\bDESIGN" + r"(?:\.md|\s*§)",  # design notes kept outside
            r"(?<![\w/.-])" + "shared" + "/",  # a path into a folder named shared
            r"\.\./" + "shared" + r"\b",
        ]
    )
)
MD_PATH = re.compile(r"(?<![\w/.:-])((?:\.\.?/)*(?:[\w-]+/)*[\w.-]*[\w-]\.md)(?!\w)")
CITATION = re.compile(r'(docs/[\w/-]+\.md),?\s*\(?"([^"]{1,80})"')


def text_files() -> Iterator[tuple[Path, str]]:
    """Every text file of the checkout (binaries and tool caches skipped)."""
    stack = [ROOT]
    while stack:
        folder = stack.pop()
        for path in sorted(folder.iterdir()):
            if path.is_dir():
                if path.name not in SKIP_DIRS and not path.name.endswith(".egg-info"):
                    stack.append(path)
                continue
            if not path.is_file() or path.stat().st_size > MAX_BYTES:
                continue
            data = path.read_bytes()
            if b"\0" in data:
                continue
            try:
                yield path, data.decode("utf-8")
            except UnicodeDecodeError:
                continue


def where(path: Path, text: str, offset: int) -> str:
    return f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, offset) + 1}"


def headings(doc: Path) -> list[str]:
    return [
        " ".join(line.lstrip("#").split())
        for line in doc.read_text(encoding="utf-8").splitlines()
        if line.startswith("#")
    ]


@pytest.mark.parametrize(
    ("text", "outside"),
    [
        ("see DESIGN" + ".md §2", True),
        ("(DESIGN" + " §3)", True),
        ("rules in " + "shared" + "/rules/tractor.md", True),
        ("`" + "shared" + "/rules/poker.md`", True),
        ("../" + "shared" + "/DESIGN", True),
        ("the shared suite on 500 seeds", False),
        ("engine/tricks.py, shared with whist", False),
        ("server/static/" + "shared" + "/app.js", False),
    ],
)
def test_the_outside_pattern_matches_path_forms_only(text: str, outside: bool) -> None:
    assert bool(OUTSIDE.search(text)) is outside


def test_nothing_cites_a_file_kept_outside_the_repository() -> None:
    found = [
        f"{where(path, text, m.start())}: {m.group(0)!r}"
        for path, text in text_files()
        for m in OUTSIDE.finditer(text)
    ]
    assert not found, "cite the repository's own docs instead:\n" + "\n".join(found)


def test_every_markdown_path_mentioned_exists() -> None:
    missing = []
    for path, text in text_files():
        for m in MD_PATH.finditer(text):
            name = m.group(1)
            bases = (ROOT, path.parent, ROOT / "docs")
            if not any((base / name).is_file() for base in bases):
                missing.append(f"{where(path, text, m.start())}: {name}")
    assert not missing, "no such file in the repository:\n" + "\n".join(missing)


def test_every_cited_section_is_a_heading_of_its_doc() -> None:
    wrong, checked = [], 0
    for path, text in text_files():
        for m in CITATION.finditer(text):
            doc, section = ROOT / m.group(1), " ".join(m.group(2).split())
            if not doc.is_file():
                continue  # reported by the test above
            checked += 1
            if not any(h == section or h.startswith(section) for h in headings(doc)):
                wrong.append(f"{where(path, text, m.start())}: {m.group(1)} has no {section!r}")
    assert not wrong, "cited sections that do not exist:\n" + "\n".join(wrong)
    assert checked >= 20, f"only {checked} section citations found: is the pattern broken?"


def test_the_image_copies_every_package_the_install_ships() -> None:
    # `pip install .` in the image sees only what was copied: a package left out
    # installs nothing and the server fails at its first import of it.
    import tomllib

    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    packages = [p.rstrip("*") for p in find["find"]["include"]]
    copied = re.findall(r"^COPY (\S+) \1$", (ROOT / "docker" / "Dockerfile").read_text(), re.M)
    assert sorted(set(packages) - set(copied)) == []
