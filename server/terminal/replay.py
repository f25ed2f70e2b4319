"""``cardtable replay GAME_ID``: step through a stored game in the terminal.

Keys: Enter or ``n`` next, ``p`` previous, ``g N`` go to step N, ``v VIEWER``
change viewer (seat number, ``spectator``, ``all``), ``q`` quit.  With ``--dd``
(bridge, ended games) every card played is shown against the double-dummy score
of each legal card, and each ended board with its table and par.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from rules.registry import get_game
from server.persistence.store import StoredGame
from server.protocol import TableError
from server.replay import build_replay
from server.terminal import render, views


def _viewer(text: str | None, stored: StoredGame) -> int | str:
    if text is None:
        return "all" if stored.status in ("finished", "abandoned") else "spectator"
    return int(text) if text.lstrip("-").isdigit() else text


def render_step(
    step: dict[str, Any], names: list[str], total: int, me: int | None = None
) -> str:
    """A readable page for one replay step: who did what (the step's ``label``), what
    happened (its ``narration``), any analysis, and the table after it."""
    lines = []
    if step["seq"] == 0:
        lines.append(f"step 0/{total - 1}: the deal")
    else:
        actor = render.who(step["seat"], names, me)
        lines.append(f"step {step['seq']}/{total - 1}: {actor}: {step.get('label') or '?'}")
    for line in step.get("narration") or []:
        if line:
            lines.append(f"  * {line}")
    analysis = step.get("analysis") or {}
    if analysis.get("play"):
        lines += views.play_analysis_lines(analysis["play"])
    if analysis.get("board"):
        lines += ["  " + line for line in views.analysis_lines(analysis["board"])]
    view = step["view"]
    to_act = [int(s) for s in view.get("to_act") or []]
    lines += ["  " + line for line in views.render_view(view, step.get("hints"), names, me, to_act)]
    return "\n".join(lines)


def run_replay(
    stored: StoredGame,
    viewer_text: str | None,
    print_all: bool,
    read: Callable[[str], str] = input,
    write: Callable[[str], Any] = print,
    dd: bool = False,
) -> int:
    """Run the replay UI; returns the process exit code."""
    game = get_game(stored.game_type)
    names = list(game.seat_names(game.parse_config(stored.config)))
    viewer = _viewer(viewer_text, stored)
    if dd and game.name != "bridge":
        print(f"error: --dd is for bridge; this game is {game.name}", file=sys.stderr)
        return 2
    if dd and stored.status in ("finished", "abandoned"):
        write("(computing the double-dummy analysis of every card; this may take a while)")
    try:
        data = build_replay(stored, viewer, 0, 100_000, analysis=dd)
    except TableError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    steps, total = data["steps"], data["total"]
    # The analysis does not depend on the viewer: kept when the viewer changes.
    analyses = {s["seq"]: s.get("analysis") for s in steps}
    header = f"game {stored.id} ({stored.game_type}, {stored.status}) as {viewer}"
    me = viewer if isinstance(viewer, int) else None

    def page(i: int) -> str:
        return render_step(steps[i], names, total, me)

    if print_all:
        write(header)
        for i in range(len(steps)):
            write(page(i))
        if stored.result:
            hints = steps[-1].get("hints") if steps else None
            write(f"result: {views.result_text(stored.result, names, hints)}")
        return 0
    i = 0
    write(header + " — Enter/n next, p previous, g N go to, v VIEWER, q quit")
    while True:
        write(page(i))
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
            steps = [{**s, "analysis": analyses.get(s["seq"])} for s in data["steps"]]
            me = data["viewer"] if isinstance(data.get("viewer"), int) else None
        elif cmd == "q":
            return 0
        else:
            write("keys: Enter/n next, p previous, g N go to step N, v VIEWER, q quit")
