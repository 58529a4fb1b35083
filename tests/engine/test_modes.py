"""One reading of a mode's name: :meth:`Mode.parse`, used by every adapter that turns a user's
mode string into a :class:`Mode` (the configuration's JSON, the RL adapters, the command line,
the server), each refusing a bad name with the same message naming the valid modes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from quadropolis import ConfigError, GameConfig, Mode

BAD = "'classic' or 'expert', got 'turbo'"


@pytest.mark.parametrize("name", ["classic", "expert", Mode.CLASSIC, Mode.EXPERT])
def test_parse_reads_each_mode_by_its_name(name: str | Mode) -> None:
    assert Mode.parse(name) is Mode(str(name))


@pytest.mark.parametrize(
    ("name", "shown"),
    [("turbo", "'turbo'"), ("Classic", "'Classic'"), ("", "''"), (3, "3"), (None, "None"), ([1], "a list")],
)
def test_parse_names_the_valid_modes_and_the_bad_value(name: object, shown: str) -> None:
    with pytest.raises(ConfigError) as caught:
        Mode.parse(name)
    assert str(caught.value) == f"mode must be 'classic' or 'expert', got {shown}"


def test_a_huge_bad_name_is_not_echoed_whole() -> None:
    with pytest.raises(ConfigError) as caught:
        Mode.parse("x" * 10_000)
    assert len(str(caught.value)) < 200 and "10000 characters" in str(caught.value)


def _gym(mode: str) -> Any:
    from quadropolis.envs import make_gym_env

    return make_gym_env(mode=mode)


def _pettingzoo(mode: str) -> Any:
    from quadropolis.envs import make_pettingzoo_env

    return make_pettingzoo_env(wrapped=False, mode=mode)


def _vector(mode: str) -> Any:
    from quadropolis.envs import make_vector_env

    return make_vector_env(2, mode=mode)


def _evaluation(mode: str) -> Any:
    from quadropolis.envs import evaluate

    return evaluate(lambda obs, mask: 0, "random", mode=mode, games=1)


def _openspiel(mode: str) -> Any:
    pytest.importorskip("pyspiel")
    from quadropolis.envs import load_openspiel_game

    return load_openspiel_game({"mode": mode})


ADAPTERS: dict[str, Callable[[str], Any]] = {
    "config JSON": lambda mode: GameConfig.from_json({"mode": mode, "players": 2, "seed": 1}),
    "gymnasium": _gym,
    "pettingzoo": _pettingzoo,
    "vector": _vector,
    "evaluation": _evaluation,
    "openspiel": _openspiel,
}


@pytest.mark.parametrize("adapter", list(ADAPTERS))
def test_every_adapter_refuses_a_bad_mode_with_the_same_words(adapter: str) -> None:
    if adapter != "config JSON":
        pytest.importorskip("gymnasium")
        pytest.importorskip("pettingzoo")
    with pytest.raises(ConfigError, match=BAD):
        ADAPTERS[adapter]("turbo")
