"""FrozenAction: a shared legal action that no caller can change, and that every
consumer (json, orjson, pickle, copies, equality) takes as the dict it was."""

from __future__ import annotations

import copy
import json
import pickle
from collections.abc import Callable
from typing import Any

import orjson
import pytest

from engine.actions import FrozenAction
from rules.bridge.game import BridgeGame


def test_every_way_of_changing_one_is_refused() -> None:
    a = FrozenAction(type="play", card="AS")
    changes: list[Callable[[], Any]] = [
        lambda: a.__setitem__("card", "KS"), lambda: a.__delitem__("card"), a.clear,
        lambda: a.pop("card"), a.popitem, lambda: a.setdefault("x", 1),
        lambda: a.update(card="KS"), lambda: a.__ior__({"x": 1}),
    ]
    for change in changes:
        with pytest.raises(TypeError):
            change()
    b = a
    with pytest.raises(TypeError):
        b |= {"x": 1}
    with pytest.raises(AttributeError):
        a.note = 1  # type: ignore[attr-defined]
    assert a == {"type": "play", "card": "AS"}


def test_only_plain_values() -> None:
    with pytest.raises(ValueError):
        FrozenAction(type="meld", cards=["AS", "KS"])
    assert FrozenAction({"type": "claim"}, tricks=3, ok=True, x=None, f=1.5)["tricks"] == 3


def test_it_encodes_copies_and_compares_as_a_plain_dict() -> None:
    a = FrozenAction(type="call", call="1NT")
    plain = {"type": "call", "call": "1NT"}
    assert isinstance(a, dict) and a == plain and plain == a
    assert json.dumps(a) == json.dumps(plain)
    assert orjson.dumps([a], option=orjson.OPT_NON_STR_KEYS) == orjson.dumps([plain])
    for back in (pickle.loads(pickle.dumps(a)), copy.copy(a), copy.deepcopy(a)):
        assert back == a and type(back) is FrozenAction
    mine = dict(a)
    mine["alert"] = "strong"
    assert type(mine) is dict and a == plain
    assert a | {"alert": ""} == {**plain, "alert": ""}


def test_bridge_hands_out_shared_actions_that_stay_as_they_were() -> None:
    game = BridgeGame()
    state = game.new(game.parse_config({}), 3)
    first = game.legal(state, game.to_act(state)[0])
    assert all(type(a) is FrozenAction for a in first)
    with pytest.raises(TypeError):
        first[0]["call"] = "7NT"  # type: ignore[index]
    first.clear()  # the list is the caller's own
    again = game.legal(state, game.to_act(state)[0])
    assert again[0] == {"type": "call", "call": "P"} and len(again) == 36


def test_get_answers_as_dicts_get() -> None:
    """FrozenAction's own compiled get (engine/_actions.c) is dict.get."""
    a = FrozenAction(type="play", card="AS", none=None)
    plain = dict(a)
    for args in (("type",), ("missing",), ("missing", 7), ("none", 7), (("tuple", 1),)):
        assert a.get(*args) == plain.get(*args)
    for bad in ((), ("a", 1, 2)):
        with pytest.raises(TypeError):
            a.get(*bad)
    with pytest.raises(TypeError):
        a.get(["unhashable"])  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        a.get("type", default=1)  # type: ignore[call-overload]
    import engine.actions

    try:
        import engine._actions
    except ImportError:
        assert FrozenAction.get is dict.get  # not built: dict's answers alike
    else:
        assert FrozenAction.get is not dict.get
    assert engine.actions.FrozenAction is FrozenAction


def test_get_without_the_compiled_core() -> None:
    import subprocess
    import sys
    from pathlib import Path

    script = (
        "import sys\n"
        "sys.modules['engine._actions'] = None\n"  # an import of None raises ImportError
        "from engine.actions import FrozenAction\n"
        "assert FrozenAction.get is dict.get\n"
        "a = FrozenAction(type='x')\n"
        "assert a.get('type') == 'x' and a.get('n') is None and a.get('n', 3) == 3\n"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", script], cwd=root, check=True, timeout=60)
