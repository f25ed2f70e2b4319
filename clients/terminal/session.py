"""What ``cardtable play`` was asked to do, and what it keeps for ``--resume``."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_URL = "ws://127.0.0.1:8765/"
DEFAULT_STATE = Path.home() / ".cardtable" / "session.json"
ANALYSIS_WAIT = 90.0  # seconds to wait at the end for the last board's analysis


@dataclass
class PlayOptions:
    url: str
    game: str  # the CLI's default is the registry's (rules/registry.py, DEFAULT_GAME)
    options: dict[str, Any] = field(default_factory=dict)
    name: str | None = None
    seat: int | None = None
    table: int | None = None
    start: bool = False
    resume: bool = False
    state_path: Path = DEFAULT_STATE
    verbose: bool = False
    retry: float = 30.0
    analysis_wait: float = ANALYSIS_WAIT
    turn_seconds: float | None = None
    time_bank: float | None = None
    list_options: bool = False  # --options help: print the game's options and exit


@dataclass
class Session:
    """What a later ``--resume`` needs, saved after every change."""

    url: str
    token: str | None = None
    name: str | None = None
    table: int | None = None
    seat: int | None = None
    seat_token: str | None = None
    version: int = 0
    game: str | None = None
    names: list[str] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> Session | None:
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or "url" not in data:
            return None
        known = {k: v for k, v in data.items() if k in cls.__dataclass_fields__}
        return cls(**known)

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps(asdict(self), indent=2) + "\n")
        # The file holds bearer tokens: readable by its owner only.
        tmp.chmod(0o600)
        tmp.replace(path)


def options_text(game: str, schema: dict[str, Any]) -> list[str]:
    """The lines ``--options help`` prints: each option of the server's schema for
    ``game`` (welcome's ``options``) with its default, choices or bounds."""
    lines = [f"Options of {game} (pass as --options JSON; unset ones keep their default):"]
    for name, prop in schema.items():
        bits = [f"default {json.dumps(prop.get('default'))}"]
        if isinstance(prop.get("enum"), list):
            bits.append("one of " + " | ".join(str(v) for v in prop["enum"]))
        elif "minimum" in prop or "maximum" in prop:
            bits.append(f"{prop.get('minimum', '')}..{prop.get('maximum', '')}")
        lines.append(f"  {name} ({'; '.join(bits)})")
        # The first paragraph, whole: a docstring's first line may stop mid-sentence.
        paragraph = str(prop.get("description") or "").strip().split("\n\n")[0]
        if paragraph:
            lines.append("      " + " ".join(paragraph.split()))
    return lines
