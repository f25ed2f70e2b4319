"""Server settings: defaults, environment variables (CARDTABLE_*), then flags."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Literal

Policy = Literal["bot", "wait", "forfeit"]


def default_db_path() -> Path:
    """The SQLite file used when no database is named, the same wherever a command runs:
    ``cardtable.db`` at the root of the source checkout cardtable runs from (where
    ``./scripts/serve`` has always kept it), else ``~/.cardtable/cardtable.db``."""
    root = Path(__file__).resolve().parents[1]
    if (root / "pyproject.toml").is_file() and (root / "scripts" / "serve").is_file():
        return root / "cardtable.db"
    return Path.home() / ".cardtable" / "cardtable.db"


def sqlite_file(url: str) -> Path | None:
    """The absolute file a SQLite URL names (relative paths from the current
    directory), or None for other databases and in-memory SQLite."""
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).expanduser().resolve()


class BadSetting(ValueError):
    """A setting (a flag or a ``CARDTABLE_*`` variable) whose value is not of its
    type, range or choices; ``setting`` names it and ``problem`` says what is wrong."""

    def __init__(self, message: str, setting: str = "", problem: str = "") -> None:
        super().__init__(message)
        self.setting = setting
        self.problem = problem

    @classmethod
    def of(cls, setting: str, problem: str) -> BadSetting:
        """The error for ``setting`` named by its variable (a flag, where there is one,
        bears the name; ``from_env`` names the flag when the value came from one)."""
        return cls(f"setting {setting} (CARDTABLE_{setting.upper()}): {problem}", setting, problem)


def flag_of(setting: str) -> str:
    """The command-line flag that sets ``setting``."""
    return "--db" if setting == "db_url" else "--" + setting.replace("_", "-")


def corrupt_database(exc: BaseException) -> str | None:
    """The driver's words when ``exc`` says the database file is damaged (SQLite:
    "database disk image is malformed"), else None."""
    from sqlalchemy.exc import DatabaseError

    if not isinstance(exc, DatabaseError):
        return None
    words = str(exc.orig).strip()
    return words if ("malformed" in words or "not a database" in words) else None


class DatabaseUnavailable(Exception):
    """The database ``db_url`` names cannot be opened: down, not there, or a URL that
    does not work (the message says which, in one line)."""


LOG_LEVELS = ("debug", "info", "warning", "error", "critical")
_SMALL = 1e-6  # "more than nothing", for settings that must be positive
# (setting, least, most) of every number.
_BOUNDS = (
    ("port", 0, 65535),
    ("grace", 0, math.inf),
    ("bot_delay", 0, 3600),
    ("bot_budget", _SMALL, 3600),
    ("bot_workers", 0, 256),
    ("analysis_workers", 1, 256),
    ("max_frame", 1024, math.inf),
    ("rate", _SMALL, math.inf),
    ("burst", 1, math.inf),
    ("flood_limit", 1, math.inf),
    ("outbound_queue", 1, math.inf),
    ("idle_timeout", _SMALL, math.inf),
    ("table_queue", 1, math.inf),
    ("history", 0, math.inf),
    ("waiting_timeout", _SMALL, math.inf),
    ("max_waiting_tables", 1, math.inf),
    ("lease_seconds", _SMALL, 3600),
    ("forward_timeout", _SMALL, 3600),
)


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8765
    db_url: str = f"sqlite:///{default_db_path()}"
    log_level: str = "info"
    grace: float = 60.0  # seconds a disconnected player keeps their seat to themselves
    disconnect_policy: Policy = "bot"  # what happens to the seat after the grace period
    bot_delay: float = 0.4  # pause before a bot moves, so humans can follow
    bot_budget: float = 2.0  # seconds a bot may think per decision
    bot_workers: int = 2  # processes in the bot pool (0: decide in a thread)
    analysis_workers: int = 2  # double-dummy analyses running at once (threads)
    max_frame: int = 64 * 1024
    rate: float = 20.0  # messages per second per connection
    burst: int = 40
    flood_limit: int = 200  # refusals (draining at ``rate``) before closing with 4008
    outbound_queue: int = 512  # frames queued for a slow client before closing with 4009
    idle_timeout: float = 600.0  # close connections silent this long (4010)
    table_queue: int = 1024  # pending commands per table before table_busy
    history: int = 1000  # versions of events kept per table for reconnects
    waiting_timeout: float = 1800.0  # a waiting table unchanged this long is abandoned
    max_waiting_tables: int = 5  # waiting tables one player may have created at once
    # A cluster (docs/cluster.md): the bus URL (empty: a single node, no bus), this
    # node's unique name, how long a table's lease lasts unrenewed, how long a
    # forwarded request may wait for its owner, and the topics' prefix.
    bus: str = ""
    node: str = ""
    lease_seconds: float = 5.0
    forward_timeout: float = 5.0
    bus_prefix: str = "cardtable"

    def __post_init__(self) -> None:
        # Every value checked once, wherever it came from (a flag, the environment,
        # code): a port past 65535 wrapped round, a history of -1 failed every table.
        for name, low, high in _BOUNDS:
            value = getattr(self, name)
            if not (isinstance(value, int | float) and math.isfinite(value)
                    and low <= value <= high):
                least = "more than 0" if low == _SMALL else f"at least {low:g}"
                span = least if high == math.inf else f"{least} and at most {high:g}"
                raise BadSetting.of(name, f"{value!r} must be {span}")
        if self.log_level.lower() not in LOG_LEVELS:
            raise BadSetting.of("log_level", f"{self.log_level!r} is not one of "
                                f"{', '.join(LOG_LEVELS)}")
        object.__setattr__(self, "log_level", self.log_level.lower())
        from server.bus.topics import valid_prefix

        if not valid_prefix(self.bus_prefix):  # a wildcard in it subscribed to nothing
            raise BadSetting.of("bus_prefix", f"{self.bus_prefix!r} is not a topics' prefix: "
                                "letters, digits, _ and -, levels joined by /")
        if self.disconnect_policy not in ("bot", "wait", "forfeit"):
            raise BadSetting.of("disconnect_policy", f"{self.disconnect_policy!r} is "
                                "not one of bot, wait, forfeit")

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None, **overrides: object) -> Settings:
        """Defaults, overridden by ``CARDTABLE_<FIELD>`` variables, then by ``overrides``
        (flags given on the command line; None means "not given")."""
        env = os.environ if environ is None else environ
        values: dict[str, object] = {}
        for f in fields(cls):
            name = f"CARDTABLE_{f.name.upper()}"
            raw = env.get(name)
            if raw is not None:
                kind = type(getattr(cls, f.name))
                try:
                    values[f.name] = kind(raw)
                except ValueError:
                    what = {int: "a whole number", float: "a number"}.get(kind, kind.__name__)
                    raise BadSetting(f"{name}={raw!r}: not {what} "
                                     f"(default {getattr(cls, f.name)!r})") from None
        flags = {k: v for k, v in overrides.items() if v is not None}
        values.update(flags)
        if "db_url" in values:
            _check_db_url(str(values["db_url"]))
        try:
            return cls(**values)  # type: ignore[arg-type]
        except BadSetting as exc:
            if exc.setting not in flags:
                raise
            raise BadSetting(f"{flag_of(exc.setting)}: {exc.problem}", exc.setting,
                             exc.problem) from None


def shown_url(url: str) -> str:
    """A database URL fit to print: its password, if any, as ``***``."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


def _check_db_url(url: str) -> None:
    """A database URL, or BadSetting naming the URL a plain file path was meant as."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        make_url(url)
    except ArgumentError:
        hint = f"sqlite:///{Path(url).expanduser().resolve()}" if "://" not in url else None
        raise BadSetting(
            f"{url!r} is not a database URL"
            + (f": for that SQLite file, {hint}" if hint else "")
            + " (or postgresql://USER:PASSWORD@HOST/NAME)"
        ) from None
