"""Replays of stored games, as a chosen viewer sees them.

Hidden cards are revealed only once a game has ended: while a game is live,
its replay is available to spectators' eyes only.  A game's analysis (bridge's
double dummy: every card's score) knows every hand, so it too is for ended
games only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.events import OMNISCIENT, SPECTATOR, visible
from engine.game import Action, GameAnalysis
from engine.replay import LoggedAction, Step, steps
from protocol import builders as p
from protocol.messages import ErrorCode, TableError
from rules.registry import get_game
from server.jsontext import encode
from server.persistence.store import StoredGame

ViewerName = int | str
# A replay page stays near this size however long the game: big frames stall the
# client that reads them and the server's writer alike.
PAGE_BYTES = 512 * 1024  # well under the 1 MiB a websockets client accepts by default
# The label of a step whose action and actor are a secret from the viewer.
SECRET_STEP = "A step not shown to this viewer"


def viewer_id(viewer: ViewerName, seats: int) -> int:
    """Map ``"spectator"``, ``"all"`` or a seat number to an engine viewer id."""
    if viewer == "spectator":
        return SPECTATOR
    if viewer == "all":
        return OMNISCIENT
    if isinstance(viewer, int) and 0 <= viewer < seats:
        return viewer
    raise TableError(ErrorCode.BAD_SEAT, f"viewer must be 0..{seats - 1}, 'spectator' or 'all'")


def check_replay(
    stored: StoredGame, viewer: ViewerName, analysis: bool = False, player: int | None = None
) -> int:
    """The engine viewer id, or the error that refuses this replay to ``player``
    (a session's player id; None: the operator, reading the database itself)."""
    game = get_game(stored.game_type)
    vid = viewer_id(viewer, game.seat_count(game.parse_config(stored.config)))
    ended = stored.status in ("finished", "abandoned")
    if not ended and vid != SPECTATOR:
        raise TableError(
            ErrorCode.REPLAY_HIDDEN, "a game still in play can only be replayed as a spectator"
        )
    if not ended and analysis:
        raise TableError(
            ErrorCode.REPLAY_HIDDEN,
            "the double-dummy analysis shows every hand: only for games that have ended",
        )
    if player is not None and vid >= 0 and game.secret_after_end and not any(
        s.seat == vid and s.player_id == player for s in stored.seats
    ):
        # A seat's view shows that seat's own cards, which this game never reveals
        # (a hand folded): to its player, and to nobody else.
        raise TableError(ErrorCode.REPLAY_HIDDEN, "in this game a seat's cards are its "
                         "player's alone: replay it as 'all' or 'spectator'")
    return vid


def build_replay(
    stored: StoredGame,
    viewer: ViewerName,
    start: int = 0,
    limit: int = 500,
    analysis: bool = False,
    max_bytes: int = PAGE_BYTES,
) -> dict[str, Any]:
    """The ``replay`` message for a stored game: one step per logged action, from
    ``start``, at most ``limit`` steps and about ``max_bytes`` of JSON (``next``
    names the first step left out).  Runs off the event loop: re-applying a long
    log takes seconds.  With ``analysis``, for a game that has one (bridge: the
    double-dummy score of every legal card, the table of each ended board),
    steps carry it."""
    game = get_game(stored.game_type)
    config = game.parse_config(stored.config)
    vid = check_replay(stored, viewer, analysis)
    hook = game.analysis if analysis else None
    analysed = hook is not None
    analyser = hook.action_analyser() if hook is not None else None
    log = [LoggedAction(a.seq, a.seat, a.action) for a in stored.actions]
    words = game.presentation
    names = list(game.seat_names(config))
    out: list[dict[str, Any]] = []
    size = 0
    following: int | None = None
    before: Any = None  # the state the step's action was decided in
    opening: dict[str, Any] | None = None  # its view, as this viewer sees it
    for step in steps(game, config, stored.seed, log):
        if step.seq < start:
            before = step.state
            continue
        if len(out) >= limit:
            following = step.seq
            break
        # The action as this viewer may see it: a live game's replay must not show a
        # buried kitty or the cards of a failed throw.
        action = game.action_view(step.state, step.seat, step.action, vid) if step.seq else None
        # A secret step (Game.secret_actions) shows this viewer neither what was done
        # nor by whom.
        secret = bool(step.seq) and action is None
        # Words are read from the position the step started from (a first card leads).
        if opening is None and before is not None:
            opening = game.view(before, vid)
        view = game.view(step.state, vid)
        events = visible(step.events, vid)
        item: dict[str, Any] = {
            "seq": step.seq,
            "seat": step.seat if step.seq and not secret else None,
            "action": action,
            "label": (words.step_label(opening or view, action) if action is not None
                      else SECRET_STEP if secret else None),
            "events": events,
            # The deal has no position before it: its words read the table it dealt
            # (a post's chips in the file's money need the view's decimals).
            "narration": words.narration(opening if step.seq else view, events, vid, names),
            "view": view,
            "hints": words.hints(view),
        }
        if hook is not None and analyser is not None:
            item["analysis"] = _step_analysis(step, before, hook, analyser)
        size += len(encode(item))
        if out and size > max_bytes:
            following = step.seq
            break
        out.append(item)
        before, opening = step.state, view
    return p.replay_page(
        game_id=stored.id,
        game=stored.game_type,
        viewer=viewer,
        status=stored.status,
        seat_names=names,
        total=len(log) + 1,
        steps=out,
        following=following,
        result=stored.result,
        analysed=analysed,
    )


def _step_analysis(
    step: Step,
    before: Any,
    hook: GameAnalysis[Any],
    analyser: Callable[[Any, Action], dict[str, Any] | None],
) -> dict[str, Any] | None:
    """The step's action against the alternatives; an ended board's analysis."""
    play = analyser(before, step.action) if step.seq and before is not None else None
    ended = hook.ended_boards(step.events, step.seq)
    board = hook.board(ended[-1]) if ended else None
    if play is None and board is None:
        return None
    return {"play": play, "board": board}
