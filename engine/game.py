"""The Game contract every game implements (docs/architecture.md, "The Game contract").

A game is a deterministic state machine.  States are immutable values, so a
rejected action cannot half-change one; every method is a pure function of its
arguments.  Actions are JSON objects (``{"type": "play", "card": "AS"}``) so the
log, the wire and the rules speak the same language; each game parses them into
its own typed values: :meth:`Game.validate` checks an action once and returns a
:class:`Move` (the canonical action, plus whatever the check worked out), and
:meth:`Game.apply` performs that move without checking it again.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
)

from engine.errors import IllegalAction
from engine.events import JSON, OMNISCIENT, Event
from engine.formats import FileFormat, GameRecord
from engine.presentation import Presentation
from engine.rng import Rng
from engine.secrecy import faces_named, redact
from engine.statistics import StatTable
from engine.tools import Tool

Action = Mapping[str, Any]

END_MATCH = "end_match"
"""The action type a table logs when its players agreed to end the match
(docs/architecture.md, "Ending a match by agreement").  No game takes it as a
move from a seat: :func:`apply_logged` hands it to :meth:`Game.end_by_agreement`."""
S = TypeVar("S")
C = TypeVar("C", bound="GameConfig")


class GameConfig(BaseModel):
    """Base of every game's settings: frozen, unknown options rejected, versioned."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_enum_values=False)

    # The rules' version a table was made under: stored with it so that it replays
    # as played; each game raises the bound as its rules change.
    version: int = Field(default=1, ge=1, le=1)

    @field_validator("*", mode="before")
    @classmethod
    def _no_boolean_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        # Lax conversion would read ``true`` as 1: ``{"seats": true}`` is a slip, not
        # a count, so a number option refuses a boolean (``"2"`` still converts).
        if isinstance(value, bool) and info.field_name is not None:
            annotation = cls.model_fields[info.field_name].annotation
            if annotation is not None and _is_number(annotation):
                raise ValueError("a number is needed, not true or false")
        return value


def _is_number(annotation: Any) -> bool:
    """Whether an option's type is a number, or a number or nothing."""
    if annotation in (int, float):
        return True
    args = getattr(annotation, "__args__", ())
    return any(a in (int, float) for a in args) and bool not in args


@dataclass(frozen=True)
class Move:
    """A checked action: what :meth:`Game.validate` returns and :meth:`Game.apply`
    consumes, so the rules check each action once.

    ``action`` is the canonical JSON form (what the log stores and the wire
    shows).  The seat and the state it was checked against travel with it:
    ``apply`` refuses a move checked for another seat or position.  A game
    subclasses it to carry what its check computed (Tractor's decomposed lead,
    bridge's parsed call), so ``apply`` need not work it out again.
    """

    action: Action
    seat: int
    state: Any = field(compare=False, repr=False)


@dataclass(frozen=True)
class Result:
    """Final outcome: a score per seat, and ranks (1 = best; ties share a rank)."""

    scores: tuple[float, ...]
    summary: str

    @property
    def ranks(self) -> tuple[int, ...]:
        # 1 + how many scored more, in plain loops: a generator per seat cost three
        # times as much at the end of every self-played game.
        scores = self.scores
        ranks = []
        for s in scores:
            rank = 1
            for o in scores:
                if o > s:
                    rank += 1
            ranks.append(rank)
        return tuple(ranks)

    def to_json(self) -> JSON:
        return {"scores": list(self.scores), "ranks": list(self.ranks), "summary": self.summary}


@dataclass(frozen=True)
class EndedBoard:
    """A board (one deal of a session) that an action ended: its number, the
    version of that action at its table (None: not known, as after a restart),
    and what the game's analysis of it needs (JSON-ready, the game's own)."""

    board: int
    version: int | None
    facts: Mapping[str, Any]


class GameAnalysis(ABC, Generic[S]):
    """The optional analysis a game offers of its ended boards and of the actions
    of a replay (bridge: double dummy).  Pure but CPU-heavy: a server runs
    ``board`` and the replay analyser off its event loop."""

    @abstractmethod
    def ended_boards(self, events: Sequence[Event], version: int | None) -> list[EndedBoard]:
        """The boards the events of one action (made ``version``) ended."""

    @abstractmethod
    def last_ended_board(self, state: S) -> EndedBoard | None:
        """The newest board ``state`` has ended (for a table resumed after a restart)."""

    @abstractmethod
    def board(self, ended: EndedBoard) -> JSON:
        """The analysis of an ended board: the protocol's ``analysis`` fields."""

    @abstractmethod
    def action_analyser(self) -> Callable[[S, Action], JSON | None]:
        """For one replay: a function of an action and the state it was decided
        in, giving that action's analysis (None: nothing to say about it).  It may
        keep what the positions of one replay share (a solver's tables)."""


class Game(ABC, Generic[S, C]):
    """One game's rules.  Subclasses are stateless; all state lives in ``S``."""

    name: ClassVar[str]
    title: ClassVar[str]
    config_model: ClassVar[type[GameConfig]]
    # Keys of views and events whose strings are not cards although they may look
    # like them (bridge's "4S" contract); the leak scanner skips them.
    non_card_keys: ClassVar[frozenset[str]] = frozenset()
    # Options whose values name cards (a fixed deal): a table's listing says that
    # such a deal is set (``fixed_deal``), never its cards, hidden from its players.
    dealing_options: ClassVar[frozenset[str]] = frozenset()
    # Whether an ended game still keeps cards from its players (poker's folded and
    # mucked hands): a replay from a seat's view is then for that seat's player alone.
    secret_after_end: ClassVar[bool] = False
    # Per action type, the fields besides ``type`` its actions may carry (the rules
    # read no others); a type not named is not checked (the rules judge it).  A
    # table refuses an action with any other field (check_fields), so a typo or a
    # field of another type ({"type": "all_in", "to": 5}) is an error, not an
    # action taken without it.
    action_fields: ClassVar[Mapping[str, frozenset[str]]] = {}
    # Action types whose very making is the actor's secret (Tractor's pass at the
    # last word would tell that the seat could have declared): a replay shows others
    # neither the action nor who made it, and the rules send its events to the
    # actor alone.
    secret_actions: ClassVar[frozenset[str]] = frozenset()
    # Action types a seat may make out of turn against the table as it is when the
    # action arrives, whatever version it names (Tractor's declaration while others
    # draw: each draw moves the version, faster than a person answers).  The rules
    # judge it against the current state; other actions must name the current
    # version (``stale_version``), so that none is made on a position already gone.
    unversioned_actions: ClassVar[frozenset[str]] = frozenset()
    # Event kinds that make cards public (a card played, a hand shown, a board card
    # dealt); the leak scanner lets such events name cards that were secret before.
    revealing_kinds: ClassVar[frozenset[str]] = frozenset({"play"})
    # The Move subclass this game's validate returns (and the only one apply takes).
    move_type: ClassVar[type[Move]] = Move
    # How the game reads to people (labels, event lines, display hints), from what
    # each viewer sees; rules/<game>/presentation.py holds each game's.
    presentation: ClassVar[Presentation] = Presentation()
    # The analysis of ended boards and replayed actions, for games that have one.
    analysis: ClassVar[GameAnalysis[Any] | None] = None
    # The file formats this game reads and writes (engine/formats.py).
    formats: ClassVar[tuple[FileFormat, ...]] = ()
    # The command-line tools this game offers (engine/tools.py): `cardtable` runs
    # them by name through the registry.
    tools: ClassVar[tuple[Tool, ...]] = ()
    # Whether the players may end the whole match by agreement (end_by_agreement).
    ends_by_agreement: ClassVar[bool] = False

    def new_table_config(self, options: Mapping[str, Any] | None) -> C:
        """The options of a new table: as :meth:`parse_config`, and at the rules'
        current version (an older one is only for the tables stored under it)."""
        config = self.parse_config(options)
        current = self.config_model.model_fields["version"].default
        if config.version != current:
            raise IllegalAction("bad_option", f"option 'version': new tables are made at "
                                f"version {current}, set by the server (leave it out)")
        return config

    def parse_config(self, options: Mapping[str, Any] | None) -> C:
        """Validate table options; a bad one raises ``bad_option`` naming it."""
        if options is not None and not isinstance(options, Mapping):
            raise IllegalAction("bad_option", "options are a JSON object of names and values, "
                                f"not {type(options).__name__} {str(options)[:30]!r}")
        try:
            return self.config_model.model_validate(dict(options or {}))  # type: ignore[return-value]
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            # A rule between options (no one field to blame) says which in its text.
            text = str(err["msg"]).removeprefix("Value error, ")
            if err["type"] == "extra_forbidden":  # a typo: name the options there are
                text = f"no such option ({self.name}'s: {', '.join(self.options_schema())})"
            raise IllegalAction(
                "bad_option", f"option {where!r}: {text}" if where else f"options: {text}"
            ) from None

    def config_json(self, config: C) -> JSON:
        return config.model_dump(mode="json")

    def options_schema(self) -> JSON:
        """The table options as clients render them: each option's JSON Schema
        (``type``, ``default``, ``enum``, bounds, ``description``) with references
        resolved, ``version`` left out, and any option marked ``stored_only`` (kept
        so that tables stored with it load, offered to no new table)
        (docs/protocol.md, "Session")."""
        schema = self.config_model.model_json_schema()
        defs = schema.get("$defs", {})
        out: dict[str, Any] = {}
        for name, prop in schema.get("properties", {}).items():
            if name == "version" or prop.get("stored_only"):
                continue
            ref = prop.get("$ref") or next(
                (a["$ref"] for a in prop.get("allOf", []) if "$ref" in a), None)
            resolved = {**defs[ref.rsplit("/", 1)[-1]], **prop} if ref else dict(prop)
            resolved.pop("$ref", None)
            resolved.pop("allOf", None)
            if ref:  # the option's title, not its type's ("Odd Chip", not "OddChip")
                resolved["title"] = prop.get("title") or name.replace("_", " ").title()
            # A docstring's first paragraph, on one line: what a form shows.
            text = str(resolved.get("description") or "").strip()
            if text:
                resolved["description"] = " ".join(text.split("\n\n")[0].split())
            out[name] = resolved
        return out

    @abstractmethod
    def seat_count(self, config: C) -> int:
        """How many seats a table of this configuration has."""

    @abstractmethod
    def new(self, config: C, seed: int) -> S:
        """The initial state; all randomness derives from ``seed``."""

    def initial_events(self, state: S) -> list[Event]:
        """What ``new`` did, as events (the opening deal, private to each seat)."""
        return []

    @abstractmethod
    def to_act(self, state: S) -> tuple[int, ...]:
        """Seats that may act now (empty when the game is over)."""

    def may_act(self, state: S) -> tuple[int, ...]:
        """Every seat that may act now: ``to_act``, plus the seats the rules let act
        out of turn (a bridge claim).  Nothing waits for the extra seats (no bot is
        asked, no clock runs for them); their ``legal`` lists what they may do."""
        return self.to_act(state)

    def to_act_visible(self, state: S, viewer: int) -> tuple[int, ...]:
        """What ``viewer`` may know of ``to_act``.  Where being able to act reveals a
        hidden card (Tractor: who could declare trump during the draw), a game shows
        each viewer only the seats everyone must know about, plus itself."""
        return self.to_act(state)

    @abstractmethod
    def legal(self, state: S, seat: int) -> list[Action]:
        """Legal actions for ``seat``: all of them where the set is small, else a
        non-empty representative subset (``validate`` is the authority)."""

    @abstractmethod
    def validate(self, state: S, seat: int, action: Action) -> Move:
        """Check ``action`` for ``seat`` at ``state``: the checked move (of
        ``move_type``, canonical action in ``move.action``), or :class:`IllegalAction`."""

    def apply(self, state: S, seat: int, move: Move) -> tuple[S, list[Event]]:
        """Perform a move :meth:`validate` returned for this state and seat: the new
        state and what happened.  The rules are not checked again, so anything
        else (a raw action, a move of another game, state or seat) is a
        programming error: ``TypeError`` / ``ValueError``, never a silent re-check."""
        if type(move) is not self.move_type:
            raise TypeError(
                f"{self.name}: apply takes the {self.move_type.__name__} that validate "
                f"returned, not {type(move).__name__}"
            )
        if move.state is not state or move.seat != seat:
            raise ValueError(f"{self.name}: a move applies only to the state and seat "
                             "it was validated for")
        return self.perform(state, seat, move)

    @abstractmethod
    def perform(self, state: S, seat: int, move: Any) -> tuple[S, list[Event]]:
        """Carry out ``move`` (of ``move_type``, checked for this state and seat by
        :meth:`apply`); only :meth:`apply` calls it."""

    def end_by_agreement(self, state: S) -> tuple[S, list[Event]]:
        """The match ended now because its players agreed to: a finished state whose
        ``result`` gives the standings as they stand, and what happened.  Only for
        games with ``ends_by_agreement``, and only while the game is not over; the
        table decides when the players agreed, the log keeps it as ``END_MATCH``."""
        raise IllegalAction("not_allowed", f"{self.title} cannot be ended by agreement")

    def act(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """Validate, then apply, a raw action: for callers that keep no canonical form
        (replays, bots simulating, tests).  Raises :class:`IllegalAction`."""
        return self.apply(state, seat, self.validate(state, seat, action))

    @abstractmethod
    def view(self, state: S, viewer: int) -> JSON:
        """What ``viewer`` (seat, SPECTATOR or OMNISCIENT) may see, JSON-ready."""

    def views(self, state: S, viewers: Iterable[int]) -> dict[int, JSON]:
        """:meth:`view` for each of ``viewers`` (the server's broadcast after an
        action).  A game whose views share a public part may build it once here;
        each view must equal ``view(state, viewer)``, and views may share the
        values of their keys (they are encoded, never changed)."""
        return {v: self.view(state, v) for v in viewers}

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """None until the game is over; then the result."""

    @abstractmethod
    def encode(self, state: S) -> JSON:
        """Every bit of the state as JSON (what the final-state hash covers)."""

    @abstractmethod
    def secrets(self, state: S, viewer: int) -> frozenset[int]:
        """Faces ``viewer`` must not learn now (other hands, stock, kitty...).

        The conformance suite's leak scanner checks every view, event and error
        message against this set, so it excludes faces the viewer legitimately
        sees (with two decks, a face the viewer holds itself is not secret).
        """

    def check_fields(self, action: Action) -> None:
        """:class:`IllegalAction` (``bad_action``) for a field that an action of
        its type never carries (``action_fields``)."""
        kind = action.get("type")
        allowed = self.action_fields.get(kind) if isinstance(kind, str) else None
        if allowed is None:
            return
        extra = sorted(set(action) - allowed - {"type"})
        if extra:
            fields = ", ".join(sorted(allowed)) or "no field but type"
            raise IllegalAction(
                "bad_action", f"unknown field {extra[0]!r}: a {kind!r} action has {fields}"
            )

    def action_view(self, state: S, seat: int, action: Action, viewer: int) -> JSON | None:
        """``action`` (just applied by ``seat``, leading to ``state``) as ``viewer``
        may see it in a replay: whole for the actor and the omniscient viewer;
        for anyone else None for a secret action (``secret_actions``: not even who
        acted), and withheld when it names a card still secret from them
        (Tractor's buried kitty, the cards of a failed throw)."""
        if viewer in (seat, OMNISCIENT):
            return dict(action)
        if action.get("type") in self.secret_actions:
            return None
        hidden = faces_named(action, self.non_card_keys) & self.secrets(state, viewer)
        return redact(action, hidden)

    def stand_in(self, legal: Sequence[Action], rng: Rng) -> Action:
        """The one action made for a seat whose bot gave no legal answer in time
        (late, failed, undecided or illegal; a bot's seat, or a human's whose turn
        clock ran out): a random legal one, unless the game knows some legal
        actions are rash for a stand-in.  Nothing else picks a fallback move."""
        return dict(rng.choice(list(legal)))

    def statistics(self, records: Sequence[GameRecord]) -> StatTable | None:
        """Per-player statistics over stored games of this game (None: the game
        keeps none; a game that keeps some returns a table even for no records).
        A pure function of the records."""
        return None

    def seat_names(self, config: C) -> Sequence[str]:
        """Display names of the seats: the presentation's (``Seat 1``.. unless a
        game names them, as bridge's ``North``..)."""
        return self.presentation.seat_names(self.seat_count(config))


def apply_logged(game: Game[Any, Any], state: Any, seat: int,
                 action: Action) -> tuple[Any, list[Event]]:
    """Re-apply one logged action: a move checked as it was when played, or the
    match ended by agreement (``END_MATCH``, which the table logs)."""
    if action.get("type") == END_MATCH:
        if game.result(state) is not None:
            raise IllegalAction("game_over", "the game is over")
        return game.end_by_agreement(state)
    return game.apply(state, seat, game.validate(state, seat, action))
