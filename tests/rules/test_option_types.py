"""Every game's options: a number option refuses true/false, a yes/no option takes it.

Pydantic's lax conversion reads ``true`` as 1, so ``{"seats": true}`` would have been
a table of one seat's worth of whatever the option counts.
"""

from __future__ import annotations

from typing import Any, get_args

import pytest

from engine.errors import IllegalAction
from rules.registry import available, get_game


def _is_number(annotation: Any) -> bool:
    return annotation in (int, float) or (
        bool not in get_args(annotation) and bool({int, float} & set(get_args(annotation)))
    )


def _fields(game_name: str, kind: str) -> list[str]:
    model = get_game(game_name).config_model
    return [
        name
        for name, field in model.model_fields.items()
        if name != "version"
        and (_is_number(field.annotation) if kind == "number" else field.annotation is bool)
    ]


@pytest.mark.parametrize("game_name", available())
def test_a_number_option_refuses_a_boolean(game_name: str):
    game = get_game(game_name)
    numbers = _fields(game_name, "number")
    assert numbers, f"{game_name} has no number option to check"
    for name in numbers:
        for value in (True, False):
            with pytest.raises(IllegalAction) as refused:
                game.parse_config({name: value})
            assert refused.value.code == "bad_option"
            assert name in str(refused.value)


@pytest.mark.parametrize("game_name", available())
def test_a_yes_no_option_takes_a_boolean(game_name: str):
    game = get_game(game_name)
    for name in _fields(game_name, "bool"):
        # The default, since some yes/no options need other options set with them.
        default = game.config_model.model_fields[name].default
        assert getattr(game.parse_config({name: default}), name) is default


@pytest.mark.parametrize("game_name", available())
def test_a_misspelt_option_is_named_with_the_options_there_are(game_name: str):
    game = get_game(game_name)
    with pytest.raises(IllegalAction) as refused:
        game.parse_config({"no_such_thing": 1})
    offered = ", ".join(game.options_schema())
    assert refused.value.message == (
        f"option 'no_such_thing': no such option ({game_name}'s: {offered})")


def test_a_number_written_as_text_still_converts():
    game = get_game("whist")
    assert game.parse_config({"deals": "2"}) == game.parse_config({"deals": 2})


@pytest.mark.parametrize("game_name", available())
def test_every_option_is_offered_with_a_title_and_a_one_line_description(game_name: str):
    """What a create-table form shows: the option's own title (not its type's class
    name) and a description in one line (a docstring's first paragraph whole)."""
    for name, prop in get_game(game_name).options_schema().items():
        assert prop["title"] == name.replace("_", " ").title(), (name, prop["title"])
        assert prop["description"] and "\n" not in prop["description"], name
