"""The Bot contract, the random-legal bot every game has, and the bot registry."""

from __future__ import annotations

import contextlib
import copy
import importlib
import inspect
import threading
from collections.abc import Mapping, Sequence
from importlib.metadata import entry_points
from typing import Any, Protocol

from engine.errors import IllegalAction
from engine.events import JSON
from engine.game import Action, Game
from engine.rng import Rng


class Bot(Protocol):
    """A player program: picks one of ``legal`` from what ``view`` shows its seat.

    ``seed`` makes its choices reproducible; ``budget`` is the seconds it may think
    (the server stops waiting after it).  A bot that cannot decide returns None
    (or raises) rather than picking an arbitrary action: whoever asked it then
    plays the game's stand-in (``Game.stand_in``) for the seat, as for a late bot
    or an illegal answer.  Defaults that are part of a bot's own play (pass when
    no bid is worth it) are its decisions, not fallbacks.
    """

    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action | None: ...


class RandomBot:
    """Plays a uniformly random legal action."""

    def decide(
        self, view: JSON, legal: Sequence[Action], seat: int, seed: int, budget: float
    ) -> Action:
        return Rng(seed).choice(legal)


# (game, bot name) -> "module:Class".  Every game has "random"; its first other
# entry, if any, is the default that fills empty seats.
BOTS: dict[str, dict[str, str]] = {
    "bridge": {"gib": "bots.bridge.gib:GibBot", "random": "bots.base:RandomBot"},
    "poker": {
        "equity": "bots.poker.equity:PokerEquityBot",
        "rule": "bots.poker.rule:PokerRuleBot",
        "random": "bots.base:RandomBot",
    },
    "whist": {
        "heuristic": "bots.whist.heuristic:WhistHeuristicBot",
        "random": "bots.base:RandomBot",
    },
    "tractor": {
        "heuristic": "bots.tractor.heuristic:TractorHeuristicBot",
        "montecarlo": "bots.tractor.montecarlo:TractorMonteCarloBot",
        "random": "bots.base:RandomBot",
    },
    "rummy": {
        "combo": "bots.rummy.combo:RummyComboBot",
        "greedy": "bots.rummy.greedy:RummyGreedyBot",
        "random": "bots.base:RandomBot",
    },
    "crazy_eights": {
        "heuristic": "bots.crazy_eights.heuristic:CrazyEightsHeuristicBot",
        "random": "bots.base:RandomBot",
    },
}


def bot_names(game: str) -> list[str]:
    """Bot names available for ``game`` (the default first)."""
    return list(BOTS.get(game, {"random": ""}))


def default_bot(game: str) -> str:
    return bot_names(game)[0]


# Installed packages register bots under this entry-point group: the entry's name is
# the bot's name (for every game), its value ``module:Class`` (docs/bots.md).
ENTRY_POINT_GROUP = "cardtable.bots"


def make_bot(game: str, name: str) -> Bot:
    """An instance of bot ``name`` for ``game``; ``unknown_bot`` if there is none.

    Only the registry's bots: this is what a table's ``add_bot`` reaches, so a
    remote client can never make the server import a module it names."""
    table = BOTS.get(game, {"random": "bots.base:RandomBot"})
    target = table.get(name)
    if target is None:
        raise IllegalAction("unknown_bot", f"no bot {name!r} for {game}; known: {', '.join(table)}")
    return load_bot(target)


def installed_bots() -> dict[str, str]:
    """Bots registered by installed packages: name -> ``module:Class``."""
    return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}


def bot_target(game: str, spec: str) -> str:
    """Where the bot ``spec`` lives, as ``module:Class``: a registry name, the name
    of an installed ``cardtable.bots`` entry point, or ``module:Class`` itself.
    For trusted callers only (the tournament command line), never for requests."""
    if ":" in spec:
        module, _, attr = spec.partition(":")
        if not module or not attr:
            raise IllegalAction("unknown_bot", f"bad bot spec {spec!r}: use module:Class")
        return spec
    known = BOTS.get(game, {"random": "bots.base:RandomBot"})
    target = known.get(spec) or installed_bots().get(spec)
    if target is None:
        installed = ", ".join(installed_bots())
        raise IllegalAction(
            "unknown_bot",
            f"no bot {spec!r} for {game}; known: {', '.join(known)}"
            + (f"; installed: {installed}" if installed else "")
            + " (or module:Class, or an installed cardtable.bots entry point)",
        )
    return target


def load_bot(target: str) -> Bot:
    """An instance of the class at ``module:Class``; ``unknown_bot`` if it cannot be
    found, ``bad_bot`` if its module fails as it runs (a syntax error too), its
    class fails to start or has no ``decide``."""
    module, _, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise IllegalAction("unknown_bot", f"cannot load bot {target!r}: {exc}") from None
    except (Exception, SystemExit) as exc:  # the module's own code failed as it ran
        raise IllegalAction("bad_bot", f"bot {target!r} failed to load: "
                            f"{type(exc).__name__}: {exc}") from None
    try:
        bot = obj()
    except Exception as exc:
        raise IllegalAction("bad_bot", f"bot {target!r} failed to start: {exc}") from None
    if not callable(getattr(bot, "decide", None)):
        raise IllegalAction("bad_bot", f"{target!r} has no decide(view, legal, seat, seed, budget)")
    result: Bot = bot
    return result


# A bot's first decision in a process (its warm-up) is waited for this long,
# however small its budget: imports and tables built on first use may take
# seconds, but a bot that never returns must not hold a tournament for ever.
WARM_UP_LIMIT = 60.0

def warm_up_limit(budget: float) -> float:
    """How long a bot's first decision is waited for: ``WARM_UP_LIMIT``, or the
    budget if longer."""
    return max(WARM_UP_LIMIT, budget)


# (game, bot) pairs that have decided once in this process (see warm_up).
_WARM: set[tuple[str, str]] = set()
# (game, bot) pairs whose warm-up outlasted its limit: set once it returns.
_WARMING: dict[tuple[str, str], threading.Event] = {}


def warm_up(
    game: Game[Any, Any], config: Any, seed: int, bots: Sequence[tuple[str, Bot]], budget: float,
    limit: float | None = None,
) -> frozenset[str]:
    """Let each bot (named by its key) decide once, thrown away, the first time
    this process meets it in ``game``: its first decision pays for imports and
    tables built on first use, which must not run out its budget.  Each is waited
    for ``limit`` seconds at most (default: :func:`warm_up_limit`).  Returns the
    keys of those still deciding; :func:`warming` stays true for them until that
    call returns, and until then they are not to be asked again.  A tournament's
    game worker and the server's bot pool both do this."""
    state = game.new(config, seed)
    seat = game.to_act(state)[0]
    view, legal = game.view(state, seat), [dict(a) for a in game.legal(state, seat)]
    wait = warm_up_limit(budget) if limit is None else limit
    for key, bot in bots:
        if (game.name, key) in _WARM:
            continue
        _WARM.add((game.name, key))
        done = threading.Event()

        def first(bot: Bot = bot, done: threading.Event = done) -> None:
            # A failing bot fails again in the game, where it counts.
            with contextlib.suppress(BaseException):
                as_action(bot.decide(dict(view), legal, seat, seed, budget))
            done.set()

        # A daemon thread: a bot that never returns cannot keep the process alive.
        threading.Thread(target=first, name="warm-up", daemon=True).start()
        if not done.wait(min(wait, threading.TIMEOUT_MAX)):
            _WARMING[(game.name, key)] = done
    return frozenset(key for key, _ in bots if warming(game.name, key))


def warming(game: str, key: str) -> bool:
    """Whether bot ``key``'s warm-up in ``game`` outlasted its limit and still runs."""
    done = _WARMING.get((game, key))
    return done is not None and not done.is_set()


def bot_named(game: str, name: str) -> Bot:
    """A registry bot by name, or an outside bot by its ``module:Class``."""
    return load_bot(name) if ":" in name else make_bot(game, name)


def decide(
    game: str, name: str, view: JSON, legal: list[Any], seat: int, seed: int, budget: float
) -> Action | None:
    """Top-level entry point for the server's process pool (must be picklable);
    None when the bot cannot decide.  ``name`` is a registry name, or the
    ``module:Class`` of an outside bot a tournament seated (never a client: a
    table's ``add_bot`` accepts registry names only)."""
    # A copy of the legal actions: the caller's list is what the stand-in is chosen
    # from, and a bot may sort, pop or clear what it is given.
    return as_action(bot_named(game, name).decide(view, copy.deepcopy(legal), seat, seed,
                                                  budget))


def as_action(answer: Any) -> Action | None:
    """What ``decide`` returned, checked: an action (a mapping) or None; anything
    else is the bot's fault, a ``TypeError`` that names what it returned."""
    if answer is None or isinstance(answer, Mapping):
        return None if answer is None else dict(answer)
    if inspect.iscoroutine(answer):
        answer.close()  # never run: decide is called, not awaited
        raise TypeError("decide is a coroutine function (async def); it must return "
                        "an action (a dict) or None")
    raise TypeError(f"decide returned {type(answer).__name__} {str(answer)[:40]!r}, "
                    "not an action (a dict) or None")
