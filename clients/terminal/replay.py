"""``cardtable replay GAME_ID``: step through a stored game in the terminal.

Keys: Enter or ``n`` next, ``p`` previous, ``g N`` go to step N, ``v VIEWER``
change viewer (seat number, ``spectator``, ``all``), ``q`` quit.  With ``--dd``
(bridge, ended games) every card played is shown against the double-dummy score
of each legal card, and each ended board with its table and par.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from clients.terminal import render, views
from protocol.messages import TableError

ALL_STEPS = 100_000  # one page holds every step: the UI pages through them itself


@dataclass(frozen=True)
class ReplaySource:
    """One stored game as the replay UI needs it.  The CLI reads it from the
    database; the client itself knows nothing of the server or the rules."""

    game_id: int
    game_type: str
    status: str
    result: dict[str, Any] | None
    names: list[str]
    # (viewer, first step, step count, analysis) -> the ``replay`` message's fields;
    # raises TableError when the viewer may not see the game
    fetch: Callable[[int | str, int, int, bool], dict[str, Any]]


def _viewer(text: str | None, source: ReplaySource) -> int | str:
    if text is None:
        return "all" if source.status in ("finished", "abandoned") else "spectator"
    return int(text) if text.lstrip("-").isdigit() else text


def render_step(
    step: dict[str, Any], names: list[str], total: int, me: int | None = None
) -> str:
    """A readable page for one replay step: who did what (the step's ``label``), what
    happened (its ``narration``), any analysis, and the table after it."""
    lines = []
    if step["seq"] == 0:
        lines.append(f"step 0/{total - 1}: the deal")
    elif step.get("seat") is None:  # a secret step: no seat named
        lines.append(f"step {step['seq']}/{total - 1}: {step.get('label') or '?'}")
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
    source: ReplaySource,
    viewer_text: str | None,
    print_all: bool,
    read: Callable[[str], str] = input,
    write: Callable[[str], Any] = print,
    dd: bool = False,
) -> int:
    """Run the replay UI; returns the process exit code."""
    names = source.names
    viewer = _viewer(viewer_text, source)
    if dd and source.status in ("finished", "abandoned"):
        write("(computing the double-dummy analysis of every card; this may take a while)")
    try:
        data = source.fetch(viewer, 0, ALL_STEPS, dd)
    except TableError as exc:
        print(f"error: {exc.message}", file=sys.stderr)
        return 2
    if dd and not data.get("analysis"):
        # The server says whether the game has an analysis: the client names no game.
        print(f"error: --dd: {source.game_type} games have no analysis", file=sys.stderr)
        return 2
    steps, total = data["steps"], data["total"]
    # The analysis does not depend on the viewer: kept when the viewer changes.
    analyses = {s["seq"]: s.get("analysis") for s in steps}
    header = f"game {source.game_id} ({source.game_type}, {source.status}) as {viewer}"
    me = viewer if isinstance(viewer, int) else None

    def page(i: int) -> str:
        return render_step(steps[i], names, total, me)

    if print_all:
        write(header)
        for i in range(len(steps)):
            write(page(i))
        if source.result:
            hints = steps[-1].get("hints") if steps else None
            write(f"result: {views.result_text(source.result, names, hints)}")
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
                data = source.fetch(_viewer(cmd[2:].strip(), source), 0, ALL_STEPS, False)
            except TableError as exc:
                write(f"error: {exc.message}")
                continue
            steps = [{**s, "analysis": analyses.get(s["seq"])} for s in data["steps"]]
            me = data["viewer"] if isinstance(data.get("viewer"), int) else None
        elif cmd == "q":
            return 0
        else:
            write("keys: Enter/n next, p previous, g N go to step N, v VIEWER, q quit")
