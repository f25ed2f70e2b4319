"""The wire protocol: JSON text frames, one envelope ``{"type": ..., "id": ...}``.

Here: the envelope, the error and close codes, and the pydantic model of every
server -> client message (the documented schema).  The plain builder function
every sender uses is in protocol/builders.py, so what is sent is what the schema
describes (a test validates each builder's output against its model; no
validation runs on the hot path).  Client -> server messages are in
protocol/requests.py.
docs/protocol.md documents them and ``cardtable schema`` exports their JSON
Schema (docs/protocol.schema.json, kept equal to the models by a test).  ``id``
is an optional client request id that the reply (or error) to that request
echoes.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

PROTOCOL_VERSION = 1
SUPPORTED_VERSIONS = (1,)
ANALYSIS_STEPS = 200  # steps per replay request with analysis (each may cost a search)

RequestId = Annotated[
    Annotated[str, Field(max_length=128)] | Annotated[int, Field(ge=-(2**63), le=2**63 - 1)]
    | None,
    Field(default=None, description="echoed in the reply"),
]
# Ids and versions are 64-bit in the database; larger numbers are refused as
# malformed instead of overflowing a driver.
Id = Annotated[int, Field(ge=0, le=2**63 - 1)]
JSON = dict[str, Any]


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
    BAD_FILE = "bad_file"
    UNKNOWN_FORMAT = "unknown_format"
    NODE_UNAVAILABLE = "node_unavailable"  # a cluster could not reach the table's node
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
    options: dict[str, Any] = Field(description="the table's options but those that "
                                    "name cards (a fixed deal)")
    fixed_deal: bool = Field(default=False, description="its creator fixed the deal "
                             "(chose the cards), which its options do not show")
    status: Literal["waiting", "live", "finished", "abandoned"]
    version: int
    seats: list[SeatInfo]
    spectators: int = 0
    turn_seconds: float | None = None
    time_bank: float | None = None
    agreed_end: bool = Field(default=False, description="the game may be ended by "
                             "agreement of its players (end_match)")
    end_votes: list[int] = Field(default_factory=list, description="seats that agreed "
                                 "to end the match (empty: no proposal open)")
    end_needed: list[int] = Field(default_factory=list, description="while a proposal "
                                  "is open, the seats whose agreement it needs")


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
    options: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="each game's table options: option name -> its JSON Schema "
        "(type, default, enum, minimum, maximum, description)",
    )
    formats: dict[str, list[str]] = Field(
        default_factory=dict,
        description="each game's file formats by name, for import_file and export_game",
    )
    statistics: list[str] = Field(
        default_factory=list,
        description="the games that keep per-player statistics of their stored games (stats)",
    )


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


# Fields every frame that shows a table to a viewer carries.
Labels = Annotated[
    list[str] | None,
    Field(
        description="one label per entry of `legal`, in its order (the game's words); "
        "null when `legal` is",
    ),
]
Hints = Annotated[
    dict[str, Any],
    Field(
        default_factory=dict,
        description="display-only facts the game derives from `view` (a hand in the "
        "game's order, each card's points...), keyed as the protocol doc lists them",
    ),
]


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
    labels: Labels = None
    hints: Hints
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
    labels: Labels = None
    hints: Hints
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
    verdict: str = Field(description='the analysis in words: "K♥ cost 1 trick: 2 instead of 3 '
                         '(best: A♥)"')


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


class ImportedGame(BaseModel):
    game_id: int
    game: str
    title: str
    status: Literal["finished", "abandoned"] = Field(
        description="abandoned: the file's record stops before the game's end")
    result: dict[str, Any] | None = None
    stored_before: bool = Field(description=(
        "the same record was stored before (by this file or another), as game_id: "
        "not stored again"))


class Imported(Message):
    """The games of an imported file, stored (replay them by ``game_id``)."""

    type: Literal["imported"]
    format: str
    games: list[ImportedGame]


class ImportPart(Message):
    """A part of a file was received (``more``); ``received``: bytes so far."""

    type: Literal["import_part"]
    received: int


class Exported(Message):
    type: Literal["exported"]
    game_id: int
    format: str
    text: str


class StatColumn(BaseModel):
    name: str
    description: str
    unit: str = Field(description='"%", "count", "ratio", or a game\'s own unit')


class StatRow(BaseModel):
    player: str
    values: list[int | float | None] = Field(
        description="in column order; null where the player had no chance to show it"
    )


class StatsData(Message):
    type: Literal["stats"]
    game: str
    games: int = Field(description="stored games read")
    columns: list[StatColumn]
    rows: list[StatRow]


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
    | StatsData
    | Analysis
    | Imported
    | ImportPart
    | Exported
    | Pong,
    Field(discriminator="type"),
]
server_adapter: TypeAdapter[Any] = TypeAdapter(ServerMessage)
