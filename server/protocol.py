"""The wire protocol: JSON text frames, one envelope ``{"type": ..., "id": ...}``.

Every message is a pydantic model here; docs/protocol.md documents them and
``cardtable schema`` exports their JSON Schema (docs/protocol.schema.json, kept
equal to this module by a test).  ``id`` is an optional client request id that
the reply (or error) to that request echoes.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS = (1,)
ANALYSIS_STEPS = 200  # steps per replay request with analysis (each may cost a search)

RequestId = Annotated[str | int | None, Field(default=None, description="echoed in the reply")]
# Ids and versions are 64-bit in the database; larger numbers are refused as
# malformed instead of overflowing a driver.
Id = Annotated[int, Field(ge=0, le=2**63 - 1)]


class ErrorCode(StrEnum):
    """Stable machine codes of the ``error`` message (sent only to the sender)."""

    BAD_JSON = "bad_json"
    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    HELLO_REQUIRED = "hello_required"
    UNSUPPORTED_VERSION = "unsupported_version"
    BAD_TOKEN = "bad_token"
    UNKNOWN_TABLE = "unknown_table"
    UNKNOWN_GAME = "unknown_game"
    UNKNOWN_BOT = "unknown_bot"
    BAD_OPTION = "bad_option"
    BAD_SEAT = "bad_seat"
    SEAT_TAKEN = "seat_taken"
    BAD_SEAT_TOKEN = "bad_seat_token"
    NOT_STARTED = "not_started"
    ALREADY_STARTED = "already_started"
    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    STALE_VERSION = "stale_version"
    ILLEGAL_ACTION = "illegal_action"
    TABLE_BUSY = "table_busy"
    RATE_LIMITED = "rate_limited"
    UNKNOWN_GAME_ID = "unknown_game_id"
    REPLAY_HIDDEN = "replay_hidden"
    NOT_ALLOWED = "not_allowed"
    TOO_MANY_TABLES = "too_many_tables"
    STORAGE_UNAVAILABLE = "storage_unavailable"
    INTERNAL_ERROR = "internal_error"


class TableError(Exception):
    """A request the server refuses; becomes an ``error`` message to the sender."""

    def __init__(self, code: ErrorCode, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


class CloseCode(IntEnum):
    """WebSocket close codes cardtable uses (4000-4999 are application codes)."""

    NORMAL = 1000
    GOING_AWAY = 1001  # server shutting down
    PROTOCOL_ERROR = 4000  # too many malformed messages in a row
    MESSAGE_TOO_BIG = 1009  # frame over the size limit
    UNSUPPORTED_VERSION = 4002
    FLOOD = 4008  # far over the rate limit
    SLOW_CONSUMER = 4009  # outbound queue full
    IDLE_TIMEOUT = 4010
    REPLACED = 4011  # the same session connected again elsewhere


class Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    id: RequestId = None


# client -> server


class Hello(Message):
    """First message of a connection; ``token`` resumes an earlier session."""

    type: Literal["hello"]
    protocol: int = PROTOCOL_VERSION
    token: str | None = None
    name: str | None = Field(default=None, max_length=32)


class ListTables(Message):
    """Ask for the live table list; the connection then receives every update."""

    type: Literal["list_tables"]


class CreateTable(Message):
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


class Join(Message):
    """Sit at ``seat`` (or the first free seat)."""

    type: Literal["join"]
    table: Id
    seat: int | None = None


class Leave(Message):
    """Leave the table (a seat before the start; after it a bot takes over)."""

    type: Literal["leave"]
    table: Id


class Spectate(Message):
    type: Literal["spectate"]
    table: Id


class AddBot(Message):
    type: Literal["add_bot"]
    table: Id
    seat: int | None = None
    bot: str | None = None


class RemoveBot(Message):
    type: Literal["remove_bot"]
    table: Id
    seat: int


class Start(Message):
    """Start the game; empty seats are filled with the game's default bot."""

    type: Literal["start"]
    table: Id


class Act(Message):
    """Play ``action`` for the seat ``seat_token`` holds, decided at ``version``."""

    type: Literal["act"]
    table: Id
    seat_token: str
    version: Id
    action: dict[str, Any]


class Resume(Message):
    """Re-attach to a table after a reconnect: the events after ``since`` (or a
    snapshot if they are no longer kept); with ``seat_token``, as that seat."""

    type: Literal["resume"]
    table: Id
    since: int = Field(default=0, ge=-1, le=2**63 - 1)
    seat_token: str | None = None


class Replay(Message):
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


class ListGames(Message):
    type: Literal["list_games"]
    limit: int = Field(default=50, ge=1, le=500)
    status: Literal["waiting", "live", "finished", "abandoned"] | None = None


class Ping(Message):
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
    | Resume
    | Replay
    | ListGames
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
        Resume,
        Replay,
        ListGames,
        Ping,
    )
}
client_adapter: TypeAdapter[Any] = TypeAdapter(ClientMessage)


# server -> client


class SeatInfo(BaseModel):
    seat: int
    name: str
    kind: Literal["empty", "human", "bot"]
    player: str | None = None
    bot: str | None = None
    connected: bool = True


class TableInfo(BaseModel):
    table: int
    name: str
    game: str
    options: dict[str, Any]
    status: Literal["waiting", "live", "finished", "abandoned"]
    version: int
    seats: list[SeatInfo]
    spectators: int = 0
    turn_seconds: float | None = None
    time_bank: float | None = None


class SeatClaim(BaseModel):
    table: int
    seat: int


class Welcome(Message):
    type: Literal["welcome"]
    protocol: int
    token: str
    player: int
    name: str
    resumed: bool
    games: list[str]
    seats: list[SeatClaim]


class Tables(Message):
    type: Literal["tables"]
    tables: list[TableInfo]


class TableCreated(Message):
    type: Literal["table_created"]
    table: TableInfo


class Joined(Message):
    """You hold ``seat``; keep ``seat_token``: every ``act`` must carry it."""

    type: Literal["joined"]
    table: int
    seat: int
    seat_token: str


class Left(Message):
    type: Literal["left"]
    table: int


class TableStatus(Message):
    """The table's seats or status changed (pushed to everyone at the table)."""

    type: Literal["table"]
    table: TableInfo


class ClockState(BaseModel):
    """The turn clock when the frame was built; clients count down from it."""

    seats: list[int] = Field(description="seats on the clock (humans to act)")
    turn_left: float | None = Field(description="seconds of plain turn time left")
    banks: list[float] = Field(description="seconds of time bank left, one per seat")


class Snapshot(Message):
    """The whole view of a table for one viewer, at ``version``."""

    type: Literal["snapshot"]
    table: int
    version: int
    seat: int | None
    status: str
    view: dict[str, Any]
    to_act: list[int]
    legal: list[dict[str, Any]] | None = None
    labels: list[str] | None = Field(
        default=None,
        description="one label per entry of `legal`, in its order (the game's words); "
        "null when `legal` is",
    )
    hints: dict[str, Any] = Field(
        default_factory=dict,
        description="display-only facts the game derives from `view` (a hand in the "
        "game's order, each card's points...), keyed as the protocol doc lists them",
    )
    clock: ClockState | None = None


class Update(Message):
    """After an accepted action: the events this viewer may see and its new view."""

    type: Literal["update"]
    table: int
    version: int
    seat: int | None
    status: str
    events: list[dict[str, Any]]
    narration: list[str | None] = Field(
        default_factory=list,
        description="one line (or null) per entry of `events`, as this viewer reads it",
    )
    view: dict[str, Any]
    to_act: list[int]
    legal: list[dict[str, Any]] | None = None
    labels: list[str] | None = Field(
        default=None,
        description="one label per entry of `legal`, in its order (the game's words); "
        "null when `legal` is",
    )
    hints: dict[str, Any] = Field(
        default_factory=dict,
        description="display-only facts the game derives from `view` (a hand in the "
        "game's order, each card's points...), keyed as the protocol doc lists them",
    )
    clock: ClockState | None = None


class Ack(Message):
    """Your action was accepted and committed as ``version``."""

    type: Literal["ack"]
    table: int
    version: int


class Error(Message):
    type: Literal["error"]
    code: ErrorCode
    message: str
    reason: str | None = Field(default=None, description="the rules' own code")


class ParContract(BaseModel):
    contract: str = Field(description='e.g. "4S", "5DX" (a doubled sacrifice)')
    declarers: str = Field(description='the seats that get the par result, e.g. "NS", "E"')
    doubled: bool
    tricks: int


class Par(BaseModel):
    score_ns: int = Field(description="par score for North-South (East-West: its negative)")
    contracts: list[ParContract]
    text: str = Field(description='e.g. "Par +620: 4S NS ="')


class BoardAnalysisFields(BaseModel):
    """The double-dummy analysis of a board that ended."""

    board: int
    version: int | None = Field(description="the table version whose action ended the board")
    deal: str = Field(description="PBN deal of the board as dealt")
    dealer: int
    vulnerability: Literal["None", "NS", "EW", "All"]
    dd_table: dict[str, dict[str, int]] = Field(
        description="tricks per strain (S H D C N) and declarer (N E S W)"
    )
    par: Par


class Analysis(Message, BoardAnalysisFields):
    """Pushed to everyone at the table once a board that ended there is analysed
    (computed in the background; sent again after snapshots to late viewers)."""

    type: Literal["analysis"]
    table: int


class CardAnalysis(BaseModel):
    """A card played, against every legal card the player had."""

    seat: int = Field(description="the hand the card came from (the dummy's seat for dummy)")
    scores: dict[str, int] = Field(
        description="legal card -> tricks the side to play takes from this trick on"
    )
    best: int
    played: str
    cost: int = Field(description="tricks the played card lost against the best card")
    taken: int = Field(description="tricks that side had already won this board")


class StepAnalysis(BaseModel):
    play: CardAnalysis | None = None
    board: BoardAnalysisFields | None = None


class ReplayStep(BaseModel):
    seq: int
    seat: int | None
    action: dict[str, Any] | None
    label: str | None = Field(
        default=None, description="`action` in the game's words (null for step 0)"
    )
    events: list[dict[str, Any]]
    narration: list[str | None] = Field(
        default_factory=list, description="one line (or null) per entry of `events`"
    )
    view: dict[str, Any]
    hints: dict[str, Any] = Field(
        default_factory=dict, description="display-only facts the game derives from `view`"
    )
    analysis: StepAnalysis | None = None


class ReplayData(Message):
    type: Literal["replay"]
    game_id: int
    game: str
    viewer: int | Literal["spectator", "all"]
    status: str
    seat_names: list[str]
    total: int
    steps: list[ReplayStep]
    next: int | None = Field(
        default=None, description="the `start` of the next page; null when this is the last"
    )
    result: dict[str, Any] | None = None
    analysis: bool = False


class GameSummary(BaseModel):
    game_id: int
    game: str
    name: str
    status: str
    actions: int
    created_at: str
    result: dict[str, Any] | None = None


class Games(Message):
    type: Literal["games"]
    games: list[GameSummary]


class Pong(Message):
    type: Literal["pong"]


ServerMessage = Annotated[
    Welcome
    | Tables
    | TableCreated
    | Joined
    | Left
    | TableStatus
    | Snapshot
    | Update
    | Ack
    | Error
    | ReplayData
    | Games
    | Analysis
    | Pong,
    Field(discriminator="type"),
]
server_adapter: TypeAdapter[Any] = TypeAdapter(ServerMessage)


def json_schema() -> dict[str, Any]:
    """The JSON Schema of both directions (what ``cardtable schema`` writes)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"cardtable protocol v{PROTOCOL_VERSION}",
        "client_to_server": client_adapter.json_schema(),
        "server_to_client": server_adapter.json_schema(),
    }
