"""Client -> server messages of the wire protocol (protocol/messages.py has the
envelope, the codes and the server's messages).

Every request is a pydantic model here: ``client_adapter`` validates an inbound
message into one, and its JSON Schema is half of docs/protocol.schema.json.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, TypeAdapter, model_validator

from protocol.messages import ANALYSIS_STEPS, PROTOCOL_VERSION, Id, Message

# Characters of file text per import_file message: a part stays within the frame
# limit (64 KiB) as JSON unless it is mostly escaped characters.
IMPORT_PART_CHARS = 48 * 1024


class Request(Message):
    """A client's message: JSON types as the schema says them (``true`` is not a
    version, ``"3"`` not a seat), checked strictly."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class Hello(Request):
    """First message of a connection; ``token`` resumes an earlier session."""

    type: Literal["hello"]
    protocol: int = PROTOCOL_VERSION
    token: str | None = None
    name: str | None = Field(default=None, max_length=32)


class ListTables(Request):
    """Ask for the live table list; the connection then receives every update."""

    type: Literal["list_tables"]


class CreateTable(Request):
    """Create a table of ``game`` with ``options``; ``seat`` joins it at once and
    ``start`` starts it at once, filling empty seats with bots (without ``seat``
    the creator watches the bots play as a spectator)."""

    type: Literal["create_table"]
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    name: str | None = Field(default=None, max_length=64)
    seat: int | None = None
    start: bool = False
    turn_seconds: float | None = Field(
        default=None,
        gt=0,
        le=3600,
        description="turn clock: a human who has not acted this long after the table "
        "reached their turn draws on their time bank, then has a bot move played for "
        "them (logged)",
    )
    time_bank: float | None = Field(
        default=None,
        gt=0,
        le=36000,
        description="seconds each seat may overrun its turns over the whole game "
        "(with turn_seconds only)",
    )

    @model_validator(mode="after")
    def _bank_needs_clock(self) -> CreateTable:
        if self.time_bank is not None and self.turn_seconds is None:
            raise ValueError("time_bank needs turn_seconds")
        return self


class Join(Request):
    """Sit at ``seat`` (or the first free seat)."""

    type: Literal["join"]
    table: Id
    seat: int | None = None


class Leave(Request):
    """Leave the table (a seat before the start; after it a bot takes over)."""

    type: Literal["leave"]
    table: Id


class Spectate(Request):
    type: Literal["spectate"]
    table: Id


class AddBot(Request):
    type: Literal["add_bot"]
    table: Id
    seat: int | None = None
    bot: str | None = None


class RemoveBot(Request):
    type: Literal["remove_bot"]
    table: Id
    seat: int


class Start(Request):
    """Start the game; empty seats are filled with the game's default bot."""

    type: Literal["start"]
    table: Id


class Act(Request):
    """Play ``action`` for the seat ``seat_token`` holds, decided at ``version``."""

    type: Literal["act"]
    table: Id
    seat_token: str
    version: Id
    action: dict[str, Any]


class Autoplay(Request):
    """Let the game's default bot play for the seat ``seat_token`` holds (``on``),
    or take the seat back (``on`` false; acting again also takes it back)."""

    type: Literal["autoplay"]
    table: Id
    seat_token: str
    on: bool = True


class EndMatch(Request):
    """Propose, or agree, to end the whole match now (``agree``), or refuse, which
    withdraws the proposal (docs/protocol.md, "Ending the match")."""

    type: Literal["end_match"]
    table: Id
    seat_token: str
    agree: bool = True


class Resume(Request):
    """Re-attach to a table after a reconnect: the events after ``since`` (or a
    snapshot if they are no longer kept); with ``seat_token``, as that seat."""

    type: Literal["resume"]
    table: Id
    since: int = Field(default=0, ge=-1, le=2**63 - 1)
    seat_token: str | None = None


class Replay(Request):
    """The stored game's steps as ``viewer`` sees them: a seat number,
    ``"spectator"``, or ``"all"`` (finished games only)."""

    type: Literal["replay"]
    game_id: Id
    viewer: int | Literal["spectator", "all"] = "spectator"
    start: int = Field(default=0, ge=0)
    limit: int = Field(default=500, ge=1, le=2000)
    analysis: bool = Field(
        default=False,
        description="add the double-dummy analysis to each step (bridge; ended games "
        f"only; at most {ANALYSIS_STEPS} steps per request)",
    )


class ListGames(Request):
    type: Literal["list_games"]
    limit: int = Field(default=50, ge=1, le=500)
    status: Literal["waiting", "live", "finished", "abandoned"] | None = None


class ImportFile(Request):
    """Store every game of a file (its text); a file larger than a frame is sent
    in parts, each but the last with ``more``.  The reply names the stored games."""

    type: Literal["import_file"]
    text: str = Field(max_length=IMPORT_PART_CHARS)
    format: str | None = Field(default=None, max_length=16,
                               description="pbn, lin, … (default: from the filename)")
    filename: str | None = Field(default=None, max_length=255)
    more: bool = Field(default=False, description="more parts of this file follow")


class ExportGame(Request):
    """A stored game (ended) written in one of its game's file formats."""

    type: Literal["export_game"]
    game_id: Id
    format: str = Field(max_length=16)


class Stats(Request):
    """Per-player statistics the rules of ``game`` keep over its stored games (the
    newest ``limit``), only ``player``'s when given."""

    type: Literal["stats"]
    game: str
    player: str | None = Field(default=None, max_length=32)
    limit: int = Field(default=1000, ge=1, le=10_000)


class Ping(Request):
    type: Literal["ping"]


ClientMessage = Annotated[
    Hello
    | ListTables
    | CreateTable
    | Join
    | Leave
    | Spectate
    | AddBot
    | RemoveBot
    | Start
    | Act
    | Autoplay
    | EndMatch
    | Resume
    | Replay
    | ListGames
    | ImportFile
    | ExportGame
    | Stats
    | Ping,
    Field(discriminator="type"),
]
CLIENT_TYPES = {
    m.model_fields["type"].annotation.__args__[0]  # type: ignore[union-attr]
    for m in (
        Hello,
        ListTables,
        CreateTable,
        Join,
        Leave,
        Spectate,
        AddBot,
        RemoveBot,
        Start,
        Act,
        Autoplay,
        EndMatch,
        Resume,
        Replay,
        ListGames,
        ImportFile,
        ExportGame,
        Stats,
        Ping,
    )
}
client_adapter: TypeAdapter[Any] = TypeAdapter(ClientMessage)
