"""``cardtable replay GAME_ID``: step through a stored game in the terminal.

Keys: Enter or ``n`` next, ``p`` previous, ``g N`` go to step N, ``v VIEWER``
change viewer (seat number, ``spectator``, ``all``), ``q`` quit.  With ``--dd``
(bridge, ended games) every card played is shown against the double-dummy score
of each legal card, and each ended board with its table and par.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from rules.registry import get_game
from server.persistence.store import StoredGame
from server.protocol import TableError
from server.replay import build_replay
from server.terminal import render, views
from server.terminal.bridge_text import analysis_lines, play_analysis_lines

# Games whose tables and events the terminal client draws in their own words;
# the rest are shown as the view's fields.
_DRAWN = ("whist", "poker", "bridge", "tractor", "rummy")


def _viewer(text: str | None, stored: StoredGame) -> int | str:
    if text is None:
        return "all" if stored.status in ("finished", "abandoned") else "spectator"
    return int(text) if text.lstrip("-").isdigit() else text


def render_step(
    step: dict[str, Any],
    seat_names: list[str],
    total: int,
    game: str = "",
    before: dict[str, Any] | None = None,
    me: int | None = None,
) -> str:
    """A readable page for one replay step; ``before`` is the previous step's view
    (games drawn like the play client narrate their events from it)."""
    drawn = game in _DRAWN
    names = views.display_names(seat_names, game) if drawn else seat_names
    lines = []
    if step["seq"] == 0:
        lines.append(f"step 0/{total - 1}: the deal")
    elif drawn:
        lines.append(f"step {step['seq']}/{total - 1}: {_told(step, names, me)}")
    else:
        who = names[step["seat"]] if step["seat"] is not None else "?"
        act = " ".join(f"{k}={v}" for k, v in (step["action"] or {}).items() if k != "type")
        kind = (step["action"] or {}).get("type", "")
        lines.append(f"step {step['seq']}/{total - 1}: {who} {kind} {act}".rstrip())
    if drawn:
        narrator = views.Narrator(game)
        if before is not None:
            narrator.sync(before)
        for e in step["events"]:
            line = narrator.line(e, names, me)
            if line:
                lines.append(f"  * {line}")
    else:
        for e in step["events"]:
            detail = ", ".join(f"{k}: {_short(v)}" for k, v in e.items() if k != "kind")
            lines.append(f"  * {e['kind']}  {detail}")
    analysis = step.get("analysis") or {}
    if analysis.get("play"):
        lines += play_analysis_lines(analysis["play"])
    if analysis.get("board"):
        lines += ["  " + line for line in analysis_lines(analysis["board"])]
    view = step["view"]
    if drawn:
        to_act = [int(s) for s in view.get("to_act") or []]
        lines += ["  " + line for line in views.render_view(view, names, me, to_act)]
    else:
        lines.append("  view:")
        for k, v in view.items():
            lines.append(f"    {k:<12} {_short(v)}")
    return "\n".join(lines)


def _told(step: dict[str, Any], names: list[str], me: int | None) -> str:
    """Who chose the step's action, and what it was: ``East plays A♠``.  A bridge
    declarer chooses dummy's cards: the card is said to come from dummy (the play
    event names the hand it left), as the live table's narration says it."""
    seat, action = step["seat"], step["action"] or {}
    actor = "You" if seat is not None and seat == me else render.who(seat, names, me)
    card = action.get("card")
    if action.get("type") == "play" and len(action) == 2 and render.is_card(card):
        hand = next((e.get("seat") for e in step["events"] if e.get("kind") == "play"), seat)
        verb = "play" if actor == "You" else "plays"
        where = " from dummy" if hand != seat else ""
        return f"{actor} {verb} {render.card_text(str(card))}{where}"
    return f"{actor} {render.action_label(action)}"


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
        before = steps[i - 1]["view"] if i > 0 else None
        return render_step(steps[i], names, total, game.name, before, me)

    if print_all:
        write(header)
        for i in range(len(steps)):
            write(page(i))
        if stored.result:
            shown = views.display_names(names, game.name)
            write(f"result: {views.result_text(stored.result, shown, game.name)}")
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
