"""``cardtable replay GAME_ID``: step through a stored game in the terminal.

Keys: Enter or ``n`` next, ``p`` previous, ``g N`` go to step N, ``v VIEWER``
change viewer (seat number, ``spectator``, ``all``), ``q`` quit.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from rules.registry import get_game
from server.persistence.store import StoredGame
from server.replay import build_replay
from server.table import TableError


def _viewer(text: str | None, stored: StoredGame) -> int | str:
    if text is None:
        return "all" if stored.status in ("finished", "abandoned") else "spectator"
    return int(text) if text.lstrip("-").isdigit() else text


def render_step(step: dict[str, Any], seat_names: list[str], total: int) -> str:
    """A readable page for one replay step."""
    lines = []
    if step["seq"] == 0:
        lines.append(f"step 0/{total - 1}: the deal")
    else:
        who = seat_names[step["seat"]] if step["seat"] is not None else "?"
        act = " ".join(f"{k}={v}" for k, v in (step["action"] or {}).items() if k != "type")
        kind = (step["action"] or {}).get("type", "")
        lines.append(f"step {step['seq']}/{total - 1}: {who} {kind} {act}".rstrip())
    for e in step["events"]:
        detail = ", ".join(f"{k}: {_short(v)}" for k, v in e.items() if k != "kind")
        lines.append(f"  * {e['kind']}  {detail}")
    lines.append("  view:")
    for k, v in step["view"].items():
        lines.append(f"    {k:<12} {_short(v)}")
    return "\n".join(lines)


def _short(v: Any) -> str:
    if isinstance(v, list) and all(isinstance(x, str) for x in v):
        return " ".join(v) if v else "-"
    return json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v


def run_replay(
    stored: StoredGame,
    viewer_text: str | None,
    print_all: bool,
    read: Callable[[str], str] = input,
    write: Callable[[str], Any] = print,
) -> int:
    """Run the replay UI; returns the process exit code."""
    game = get_game(stored.game_type)
    names = list(game.seat_names(game.parse_config(stored.config)))
    viewer = _viewer(viewer_text, stored)
    try:
        data = build_replay(stored, viewer, 0, 100_000)
    except TableError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    steps, total = data["steps"], data["total"]
    header = f"game {stored.id} ({stored.game_type}, {stored.status}) as {viewer}"
    if print_all:
        write(header)
        for step in steps:
            write(render_step(step, names, total))
        if stored.result:
            write(f"result: {stored.result.get('summary', stored.result)}")
        return 0
    i = 0
    write(header + " — Enter/n next, p previous, g N go to, v VIEWER, q quit")
    while True:
        write(render_step(steps[i], names, total))
        try:
            cmd = read("> ").strip()
        except EOFError:
            return 0
        if cmd in ("", "n"):
            i = min(i + 1, len(steps) - 1)
        elif cmd == "p":
            i = max(i - 1, 0)
        elif cmd.startswith("g ") and cmd[2:].strip().isdigit():
            i = max(0, min(int(cmd[2:]), len(steps) - 1))
        elif cmd.startswith("v "):
            try:
                data = build_replay(stored, _viewer(cmd[2:].strip(), stored), 0, 100_000)
            except TableError as exc:
                write(f"error: {exc.message}")
                continue
            steps = data["steps"]
        elif cmd == "q":
            return 0
        else:
            write("keys: Enter/n next, p previous, g N go to step N, v VIEWER, q quit")
