"""scripts/setup-env installs only when an install input changed, or the venv is gone.

It runs on a copy of the project's install inputs with a stand-in Python that records
what it is asked to do, so no real venv is created and nothing is downloaded.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FAKE_PYTHON = """#!/bin/bash
# Records its arguments; "-m venv ... DIR" makes a venv that holds this same script.
echo "$*" >> "$SETUP_LOG"
if [ "$1 $2" = "-m venv" ]; then
  dir="${@: -1}"
  mkdir -p "$dir/bin"
  cp "$0" "$dir/bin/python"
  printf '#!/bin/sh\\n' > "$dir/bin/cardtable"
  chmod +x "$dir/bin/cardtable"
fi
"""


def project_copy(tmp: Path) -> Path:
    root = tmp / "project"
    (root / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup-env", root / "scripts" / "setup-env")
    shutil.copy(ROOT / "pyproject.toml", root)
    shutil.copy(ROOT / "setup.py", root)
    shutil.copytree(ROOT / "engine" / "dds" / "src", root / "engine" / "dds" / "src")
    shutil.copy(ROOT / "engine" / "_rng.c", root / "engine" / "_rng.c")  # the shuffle core
    for core in ("rummy/_deadwood.c", "poker/_eval.c"):  # the rules' compiled cores
        (root / "rules" / core).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "rules" / core, root / "rules" / core)
    fake = tmp / "python3"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(0o755)
    return root


def installs(root: Path, extras: str | None = None) -> list[str]:
    """Run setup-env; the pip commands it ran."""
    log = root.parent / "log"
    log.unlink(missing_ok=True)
    env = {
        **os.environ,
        "PYTHON": str(root.parent / "python3"),
        "SETUP_LOG": str(log),
    }
    env.pop("CARDTABLE_EXTRAS", None)
    if extras is not None:
        env["CARDTABLE_EXTRAS"] = extras
    subprocess.run([root / "scripts" / "setup-env"], env=env, check=True, timeout=30)
    lines = log.read_text().splitlines() if log.exists() else []
    return [line for line in lines if " pip install " in f" {line} "]


def test_installs_once_then_only_when_an_input_changes(tmp_path: Path) -> None:
    root = project_copy(tmp_path)
    # A fresh machine: the venv is created and everything installed.
    first = installs(root)
    assert first[-1] == "-m pip install -q -e .[dev]"
    # Nothing changed: no pip at all, for the test command and for the server.
    assert installs(root) == []
    assert installs(root, extras="") == []
    # The server's plain install after a dev install is covered; the other way round
    # is not: the dev tools were never installed.
    (root / "pyproject.toml").write_text((root / "pyproject.toml").read_text() + "\n")
    assert installs(root, extras="")[-1] == "-m pip install -q -e ."
    assert installs(root, extras="") == []
    assert installs(root)[-1] == "-m pip install -q -e .[dev]"
    assert installs(root, extras="") == [] and installs(root) == []
    # A change to the solver's C sources reinstalls (the extension is rebuilt).
    with (root / "engine" / "dds" / "src" / "solver.c").open("a") as f:
        f.write("\n")
    assert installs(root) != []
    # So does a change to the engine's other cores (the shuffle) ...
    with (root / "engine" / "_rng.c").open("a") as f:
        f.write("\n")
    assert installs(root) != []
    # ... and to a rules core's C source.
    with (root / "rules" / "poker" / "_eval.c").open("a") as f:
        f.write("\n")
    assert installs(root) != []
    assert installs(root) == []
    # Another extras set is installed once, then remembered beside the first.
    assert installs(root, extras="bench") != []
    assert installs(root, extras="bench") == [] and installs(root) == []


def test_a_broken_venv_is_rebuilt(tmp_path: Path) -> None:
    root = project_copy(tmp_path)
    installs(root)
    (root / ".venv" / "bin" / "cardtable").unlink()
    assert installs(root) != []
    (root / ".venv" / "bin" / "python").unlink()
    log_before = installs(root)
    assert log_before[-1] == "-m pip install -q -e .[dev]"
    assert (root / ".venv" / "bin" / "python").exists()
