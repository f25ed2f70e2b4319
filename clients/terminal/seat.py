"""One seat at a table, as the terminal player's client sees it: what the player
knows of the table, the move prompt and what is typed at it, and the server's
messages about the table (narrated as they come).  The connection around it —
hello, create/join/resume, reconnecting, the receive loop — is client.py's.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from clients.terminal import render, views
from clients.terminal.pace import SendPace
from clients.terminal.session import PlayOptions, Session
from protocol.messages import ErrorCode

Reader = Callable[[str], Awaitable[str]]
Writer = Callable[[str], Any]

PROMPT_TEMPLATE = "Your move [1-{n} or card]: "
# While others are to act, actions the rules allow out of turn (a bridge claim) wait
# at this prompt; Enter just keeps waiting.
OUT_OF_TURN_PROMPT = "Out of turn [1-{n}, or Enter to wait]: "
QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "h", "help")
SEND_RATE, SEND_BURST = 15.0, 30  # under the server's default 20 messages/s, bursts of 40
TERMINAL = ("finished", "abandoned")


class SetupFailed(Exception):
    """The server refused hello, create, join or resume: nothing to play."""


class SetupRetry(SetupFailed):
    """A refusal that passes (a cluster still adopting a dead node's table):
    asking again in a moment may succeed."""


class Quit(Exception):
    """The player asked to leave the client (the seat stays theirs to resume)."""


class SeatClient:
    """A player's seat: table state, prompt, and the server's table messages."""

    def __init__(
        self,
        opts: PlayOptions,
        read: Reader,
        write: Writer,
        saved: Session | None,
        retitle: Callable[[str], None] | None = None,
    ):
        self.opts = opts
        self.read = read
        self.write = write
        self.retitle = retitle  # changes a pending prompt's text, where the reader can
        self.session = saved or Session(url=opts.url, name=opts.name, game=opts.game)
        self.session.url = opts.url
        self.info: dict[str, Any] | None = None
        self.view: dict[str, Any] = {}
        self.status = "waiting"
        self.to_act: list[int] = []
        self.legal: list[dict[str, Any]] | None = None
        self.hints: dict[str, Any] = {}  # the game's display hints for this view
        self.menu: list[render.MenuItem] = []
        self.events_seen: list[dict[str, Any]] = []
        self.rendered_version = -1  # the version whose table was printed last
        self.menu_version = -1  # the version whose move menu was printed last
        # After a reconnect: print the table and menu again even though the prompt
        # from before the drop still waits (its thread cannot be taken back).
        self.reshow = False
        self.input_task: asyncio.Future[str] | None = None
        self.prompt_version = -1
        self.prompt_menu: list[render.MenuItem] = []
        self.prompt_out_of_turn = False  # the prompt on screen offers out-of-turn moves
        self.out_of_turn_shown = -1  # the version whose out-of-turn menu was printed
        self.awaiting_ack = False
        self.acts = 0
        self.finished = False
        self.finishing = False  # the game ended; waiting for the table's final status
        self.result: dict[str, Any] | None = None
        # ``draw all`` in a draw where seats may declare as they go (Tractor's): the
        # declarations the player let pass by (None: off).  The client presses only
        # ``draw``; it stops for a new one.
        self.auto_draw: frozenset[str] | None = None
        self.boards_ended: set[int] = set()  # boards seen ending (games with an analysis)
        self.analysed: set[int] = set()  # boards whose analysis was shown
        self.analysis_deadline: float | None = None
        self.clock: dict[str, Any] | None = None  # the last frame's turn clock
        self.clock_at = 0.0  # when that frame arrived (monotonic)
        # The client keeps under the server's default rate limit (20 messages/s,
        # bursts of 40): a refused message gets one error at most, later ones none,
        # and a move sent into that silence would wait for its ack for ever.
        self.pace = SendPace(SEND_RATE, SEND_BURST)

    # names

    @property
    def names(self) -> list[str]:
        if self.info:
            return render.seat_names(self.info)
        if self.session.names:
            return list(self.session.names)
        sizes = self.view.get("hand_sizes") or self.view.get("stacks")
        return render.seat_names(None, len(sizes) if isinstance(sizes, list) else 4)

    @property
    def me(self) -> int | None:
        return self.session.seat

    def save(self) -> None:
        try:
            self.session.save(self.opts.state_path)
        except OSError as exc:
            self.write(f"(could not save the session to {self.opts.state_path}: {exc})")

    def _redraw(self) -> None:
        """Print the table and the move menu again at the next chance."""
        self.rendered_version = self.menu_version = -1

    async def _send(self, ws: ClientConnection, msg: dict[str, Any]) -> None:
        while not self.pace.take():
            await asyncio.sleep(1 / self.pace.rate)
        await ws.send(json.dumps(msg))

    async def _recv(self, ws: ClientConnection) -> dict[str, Any]:
        data = json.loads(await ws.recv())
        return data if isinstance(data, dict) else {}

    def _setup_error(self, msg: dict[str, Any]) -> None:
        self.write(f"error: the server refused: {msg.get('message')} [{msg.get('code')}]")
        if msg.get("code") == "bad_token":
            self.write("The saved session is unknown to this server (was its database reset?).")
        if msg.get("code") == ErrorCode.NODE_UNAVAILABLE:
            raise SetupRetry
        raise SetupFailed

    # prompting

    def _can_act(self) -> bool:
        """Whether the seat has legal moves now, on turn or out of turn."""
        return self.status == "live" and bool(self.legal) and not self.finished

    def _my_turn(self) -> bool:
        """Whether the table waits for this seat (not only allows a move out of turn)."""
        return self._can_act() and self.me in self.to_act

    async def _auto_draw(self, ws: ClientConnection) -> None:
        """Draw for the player after ``draw all`` until a decision is theirs again."""
        if self.auto_draw is None or self.input_task is not None or self.awaiting_ack:
            return
        if not self._my_turn():
            return
        step = views.auto_draw(self.legal, self.view, self.auto_draw)
        if step == "draw":
            self.rendered_version = self.session.version  # no table per card
            await self._act(ws, {"type": "draw"})
        elif step in ("stop", "off"):
            self.auto_draw = None
            if step == "stop":
                self.write("(drawing stops: your decision)")

    def _maybe_prompt(self) -> None:
        if self.awaiting_ack or not self._can_act():
            return
        if not self._my_turn():
            if self.auto_draw is None:  # ``draw all`` lets the draw run unasked
                self._prompt_out_of_turn()
            return
        if self.auto_draw is not None or not views.prompt_now(self.legal, self.view):
            return  # waiting for our next draw (see _auto_draw, views.prompt_now)
        if self.input_task is not None and not self.reshow and not self.prompt_out_of_turn:
            return  # the prompt is on screen
        if self.prompt_out_of_turn and self.retitle is None and self.input_task is not None:
            # A reader that cannot change its prompt's text is asked afresh.
            self.input_task.cancel()
            self.input_task = None
        self.prompt_out_of_turn = False
        version = self.session.version
        if self.rendered_version != version:
            self._render_state()
        if self.menu_version != version or self.reshow:
            self.menu_version = version
            self.write("Your legal moves:")
            for line in render.menu_lines(self.menu):
                self.write(line)
        self.reshow = False
        # A prompt still waiting from before a reconnect answers the menu shown now.
        self.prompt_version = version
        self.prompt_menu = list(self.menu)
        prompt = PROMPT_TEMPLATE.format(n=len(self.prompt_menu))
        if self.input_task is None:
            self.input_task = asyncio.ensure_future(self.read(prompt))
        elif self.retitle is not None:
            self.retitle(prompt)

    def _prompt_out_of_turn(self) -> None:
        """Moves the rules allow out of turn: their menu once, then a prompt that stays
        open while the table moves on (a move typed there is checked against the
        moves legal when it is sent)."""
        version = self.session.version
        if self.input_task is None and self.out_of_turn_shown != version:
            self.out_of_turn_shown = version
            self.write("Out of turn you may:")
            for line in render.menu_lines(self.menu):
                self.write(line)
        self.prompt_version = version
        self.prompt_menu = list(self.menu)
        prompt = OUT_OF_TURN_PROMPT.format(n=len(self.prompt_menu))
        if self.input_task is None:
            self.input_task = asyncio.ensure_future(self.read(prompt))
        elif not self.prompt_out_of_turn and self.retitle is not None:
            self.retitle(prompt)
        self.prompt_out_of_turn = True

    async def _on_input(self, ws: ClientConnection, text: str) -> None:
        word = text.strip().lower()
        if self.prompt_out_of_turn:
            self.prompt_out_of_turn = False
            if not word:
                return  # Enter: keep waiting
        if word in QUIT_WORDS:
            raise Quit
        if word in HELP_WORDS:
            self.write(
                "Type a menu number, a card (AS, 10h, T♥), a call (1nt, 2♥, pass, x), "
                "an amount (raise 37, bet 50, all in, claim 9), "
                "'draw all' (while cards are drawn), "
                "'auto' (a bot plays for you until you choose a move again), "
                "'end' (propose, or agree, to end the match now; 'keep' refuses), "
                "or a JSON action; "
                "'q' leaves (resume later with --resume)."
            )
            self._redraw()
            return
        if word == "auto":
            await self._send(ws, {"type": "autoplay", "id": "autoplay",
                                  "table": self.session.table,
                                  "seat_token": self.session.seat_token, "on": True})
            self.write("(a bot plays for you; choose a move at any prompt to take over)")
            return
        if word in ("end", "keep"):
            await self._send(ws, {"type": "end_match", "id": "end_match",
                                  "table": self.session.table,
                                  "seat_token": self.session.seat_token,
                                  "agree": word == "end"})
            return
        if views.wants_auto_draw(text):
            offer = views.auto_draw_offer(self.legal, self.view)
            if offer is None:
                self.write("'draw all' works only while the cards are being drawn")
            else:
                self.auto_draw = offer
                self.write("(drawing on until you can declare something new)")
            return
        out_of_turn = not self._my_turn()
        stale = self.session.version != self.prompt_version
        # A draw may go on while a seat thinks about declaring (Tractor's), and others
        # play on while a move allowed out of turn waits: an answer from the menu it
        # saw still counts if that move is legal now.
        if (stale and not views.moves_on_freely(self.view) and not out_of_turn) or (
            not self._can_act()
        ):
            self.write("(the table moved on; choose again)")
            return
        picked = views.match_input(text, self.prompt_menu, self.view)
        if isinstance(picked, str):
            self.write(picked)
            return
        if stale and picked not in (self.legal or []):
            self.write("(the table moved on; choose again)")
            return
        await self._act(ws, picked)

    async def _act(self, ws: ClientConnection, action: dict[str, Any]) -> None:
        self.acts += 1
        self.awaiting_ack = True
        await self._send(
            ws,
            {
                "type": "act",
                "id": f"act-{self.acts}",
                "table": self.session.table,
                "seat_token": self.session.seat_token,
                "version": self.session.version,
                "action": action,
            },
        )

    # server messages

    def _ours(self, msg: dict[str, Any]) -> bool:
        return msg.get("table") == self.session.table

    async def _on_message(self, ws: ClientConnection, msg: dict[str, Any]) -> int | None:
        kind = msg.get("type")
        if kind == "error":
            return self._on_error(msg)
        if kind == "table_created" and msg.get("id") == "setup":
            self.info = msg["table"]
            self.session.table = self.info["table"] if self.info else None
            self.session.game = msg["table"].get("game")
            self.session.version = 0
            self._remember_names()
            self.write(f"Created table {self.session.table}: {msg['table'].get('name')}.")
            clock = self._clock_rules()
            if clock:
                self.write(f"Turn clock: {clock}.")
        elif kind == "joined" and self._ours(msg):
            self.session.seat, self.session.seat_token = msg["seat"], msg["seat_token"]
            self.save()
            self.write(
                f"You sit at seat {msg['seat']} ({render.who(msg['seat'], self.names, None)})."
            )
        elif kind == "tables" and msg.get("id") == "info":
            ours = [t for t in msg.get("tables", []) if t.get("table") == self.session.table]
            if ours:
                self.info = ours[0]
                self._remember_names()
        elif kind == "table" and msg["table"].get("table") == self.session.table:
            self._on_table(msg["table"])
            if self.finishing and msg["table"].get("status") in TERMINAL:
                return await self._finish(ws)
        elif kind in ("snapshot", "update") and self._ours(msg):
            return await self._on_state(ws, msg)
        elif kind == "analysis" and self._ours(msg):
            return await self._on_analysis(ws, msg)
        elif kind == "ack" and str(msg.get("id", "")).startswith("act-"):
            self.awaiting_ack = False
        elif kind == "left" and self._ours(msg):
            self.write("You left the table.")
            return 0
        return None

    def _on_error(self, msg: dict[str, Any]) -> int | None:
        rid = str(msg.get("id") or "")
        reason = msg.get("reason")
        text = f"{msg.get('message')} [{msg.get('code')}" + (
            f"/{reason}]" if reason and reason != msg.get("code") else "]"
        )
        if rid == "setup":
            self._setup_error(msg)
        if msg.get("code") == "rate_limited":
            # A server with a lower limit than we assumed: slow down, no bursts. The
            # notice names no request; a move waiting for its ack may be the one
            # dropped, so offer the menu again (a repeat is refused as stale).
            self.pace = self.pace.slower()
            if self.awaiting_ack:
                self.awaiting_ack = False
                self._redraw()
        if rid.startswith("act-"):
            self.awaiting_ack = False
            self.write(f"The server refused that move: {text}")
        else:
            self.write(f"Server error: {text}")
        return None

    def _remember_names(self) -> None:
        if self.info:
            self.session.names = render.seat_names(self.info)
        self.save()

    def _on_table(self, info: dict[str, Any]) -> None:
        before = self.info
        self.info = info
        self._remember_names()
        if before is None or self.me is None:
            return
        # Tell the player when a bot takes over or gives back their seat.
        old: dict[str, Any] = next(
            (s for s in before.get("seats", []) if s.get("seat") == self.me), {}
        )
        new: dict[str, Any] = next(
            (s for s in info.get("seats", []) if s.get("seat") == self.me), {}
        )
        if new.get("kind") == "human" and old.get("bot") != new.get("bot"):
            if new.get("bot"):
                self.write(f"(bot {new['bot']} is playing your seat while you are away)")
            else:
                self.write("(your seat is yours again)")
        self._tell_end_votes(before, info)

    def _tell_end_votes(self, before: dict[str, Any], info: dict[str, Any]) -> None:
        """Say when a proposal to end the match opens, gains an agreement or is
        withdrawn (docs/protocol.md, "Ending the match")."""
        was, now = before.get("end_votes") or [], info.get("end_votes") or []
        if was == now or info.get("status") != "live":
            return
        names = self.session.names or []
        who = ", ".join(names[s] if s < len(names) else f"seat {s + 1}" for s in now)
        if not now:
            self.write("(the proposal to end the match was withdrawn; play on)")
        elif self.me in now:
            self.write(f"(ending the match: agreed {who}; waiting for the others)")
        else:
            self.write(f"(ending the match: agreed {who}; type 'end' at your prompt to "
                       "agree, 'keep' to play on)")

    async def _on_state(self, ws: ClientConnection, msg: dict[str, Any]) -> int | None:
        self.view = msg.get("view") or {}
        self.status = str(msg.get("status"))
        self.to_act = list(msg.get("to_act") or [])
        self.legal = msg.get("legal")
        self.hints = msg.get("hints") or {}
        self.menu = views.build_menu(self.legal or [], msg.get("labels"))
        events = msg.get("events", []) if msg["type"] == "update" else []
        lines = msg.get("narration") or [None] * len(events)
        elapsed = time.monotonic() - self.clock_at
        timed_out = not self.awaiting_ack and render.ran_out(self.clock, self.me, elapsed, events)
        clock = msg.get("clock")
        self.clock = clock if isinstance(clock, dict) else None
        self.clock_at = time.monotonic()
        self.session.version = int(msg.get("version", self.session.version))
        if msg.get("seat") is not None:
            self.session.seat = msg["seat"]
        self.save()
        if timed_out:
            self.write("Your time ran out: a bot played for you.")
            # The prompt still waiting answers the next turn: show its table and menu.
            self.reshow = True
        if msg["type"] == "update":
            for event, line in zip(events, lines, strict=False):
                self.events_seen.append(event)
                if event.get("kind") == "board_end" and isinstance(event.get("board"), int):
                    self.boards_ended.add(event["board"])
                if line:
                    self.write(line)
            if self.opts.verbose and not self._my_turn():
                self._render_state()
        elif self.status == "waiting":
            if self.opts.table is not None:
                self.write("Waiting for the game to start...")
        elif self.rendered_version != self.session.version or self.opts.verbose:
            # A snapshot (the start, a resume) shows the table, unless the last
            # catch-up update just drew it; the move menu follows (_maybe_prompt).
            self._render_state()
        if self.status in TERMINAL:
            # A resume replays missed versions as updates that each carry the *current*
            # view and status, so a terminal status on an update may come before the
            # rest of the catch-up; the table message the server sends after the last
            # update (or a snapshot) says the story is complete.
            if msg["type"] == "snapshot":
                return await self._finish(ws)
            self.finishing = True
        return None

    def _render_state(self) -> None:
        self.rendered_version = self.session.version
        head = f"── table {self.session.table} · {self.view.get('game', self.session.game)}"
        self.write(f"{head} · version {self.session.version} ──")
        for line in views.render_view(self.view, self.hints, self.names, self.me, self.to_act):
            self.write(line)
        banked = bool((self.info or {}).get("time_bank"))
        elapsed = time.monotonic() - self.clock_at
        clock = render.clock_line(self.clock, self.names, self.me, elapsed, banked)
        if clock:
            self.write(clock)

    def _clock_rules(self) -> str:
        """The table's turn clock as set at its creation (empty: none)."""
        info = self.info or {}
        turn, bank = info.get("turn_seconds"), info.get("time_bank")
        if not turn:
            return ""
        text = f"{render.seconds_text(float(turn))} a move"
        return text + (f", plus a bank of {render.seconds_text(float(bank))} each" if bank else "")

    async def _on_analysis(self, ws: ClientConnection, msg: dict[str, Any]) -> int | None:
        """A board's double-dummy table and par (sent again after every snapshot)."""
        board = msg.get("board")
        if not isinstance(board, int) or board in self.analysed:
            return None
        self.analysed.add(board)
        for line in views.analysis_lines(msg):
            self.write(line)
        if self.finishing and not self._analysis_missing():
            return await self._finish(ws)
        return None

    def _analysis_missing(self) -> bool:
        return bool(self.boards_ended - self.analysed)

    async def _finish(self, ws: ClientConnection) -> int | None:
        """Print the result and forget the table; None: still waiting for an analysis."""
        if self._analysis_missing() and self.opts.analysis_wait > 0:
            # The server analyses an ended board in the background (seconds to a
            # minute): wait for it so the player sees it after the result line.
            now = time.monotonic()
            if self.analysis_deadline is None:
                self.analysis_deadline = now + self.opts.analysis_wait
                self.write("(the double-dummy analysis of the board is being computed...)")
            if now < self.analysis_deadline:
                self.finishing = True
                return None
        self.finished, self.finishing = True, False
        if self.input_task is not None:
            self.input_task.cancel()
            self.input_task = None
        result = self.view.get("result")
        if not isinstance(result, dict):
            over = [e for e in self.events_seen if e.get("kind") == "game_over"]
            result = {k: v for k, v in over[-1].items() if k != "kind"} if over else None
        if result is None:
            result = await self._stored_result(ws)
        game_id = self.session.table
        self.write("")
        said = views.result_text(result, self.names, self.hints)
        self.write(f"Game {self.status}. Result: {said}")
        self.write(f"Game id: {game_id}")
        # The replay command reads the server's database, not this client's.
        self.write(f"Replay it with: cardtable replay {game_id} "
                   "(where the server runs, with the server's --db if it has one)")
        # Nothing is left to resume: keep the identity, forget the table.
        self.session.table = self.session.seat = self.session.seat_token = None
        self.session.version = 0
        self.save()
        return 0

    async def _stored_result(self, ws: ClientConnection) -> dict[str, Any] | None:
        """The result the server stored (for games whose view does not carry it)."""
        await self._send(ws, {"type": "list_games", "id": "result", "limit": 500})
        try:
            async with asyncio.timeout(3):
                while True:
                    msg = await self._recv(ws)
                    if msg.get("type") == "games":
                        for g in msg.get("games", []):
                            if g.get("game_id") == self.session.table:
                                res = g.get("result")
                                return res if isinstance(res, dict) else None
                        return None
        except (TimeoutError, ConnectionClosed):
            return None
