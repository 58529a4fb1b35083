"""Choosing the engine: QUADROPOLIS_ENGINE=auto|python|native, at run time with select/using,
and a clear error or one warning when the compiled engine is missing (in a real process where
the extension cannot be imported)."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from quadropolis import engine
from quadropolis.errors import ConfigError

#: Run in a fresh interpreter where importing the compiled extension fails, as on a machine
#: where it was not built.
_WITHOUT_EXTENSION = "import sys; sys.modules['quadropolis._native'] = None\n"


def _python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != engine.ENGINE_VARIABLE} | env
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=120, check=False
    )


def test_select_and_using_switch_engines_and_restore() -> None:
    before = engine.name()
    with engine.using("python") as chosen:
        assert chosen == "python" and engine.name() == "python" and engine.current() is None
    assert engine.name() == before


def test_an_unknown_engine_is_a_clear_error() -> None:
    with pytest.raises(
        ConfigError, match="QUADROPOLIS_ENGINE must be 'auto', 'python' or 'native', got 'fast'"
    ):
        engine.select("fast")


def test_native_without_the_extension_is_an_error_saying_what_to_do() -> None:
    code = _WITHOUT_EXTENSION + (
        "from quadropolis import engine\n"
        "from quadropolis.errors import ConfigError\n"
        "try:\n    engine.select('native')\nexcept ConfigError as e:\n    print(e)\n"
    )
    out = _python(code)
    assert out.returncode == 0, out.stderr
    assert "QUADROPOLIS_ENGINE=native, but the compiled engine is not available" in out.stdout
    assert "pip install -e ." in out.stdout and "QUADROPOLIS_ENGINE=python" in out.stdout


def test_auto_without_the_extension_falls_back_with_one_warning() -> None:
    code = _WITHOUT_EXTENSION + (
        "import random\n"
        "from quadropolis import GameConfig, engine, outcome\n"
        "from quadropolis.playout import random_playout\n"
        "for seed in range(3):\n"
        "    outcome(random_playout(GameConfig(seed=seed), random.Random(seed)))\n"
        "print(engine.name())\n"
    )
    out = _python(code)
    assert out.returncode == 0, out.stderr
    assert out.stdout == "python\n"
    assert out.stderr.count("EngineWarning") == 1 and "compiled engine is not available" in out.stderr


def test_python_selected_by_the_environment_is_silent() -> None:
    out = _python(
        _WITHOUT_EXTENSION + "from quadropolis import engine\nprint(engine.name())",
        QUADROPOLIS_ENGINE="python",
    )
    assert (out.returncode, out.stdout, out.stderr) == (0, "python\n", "")


def test_the_environment_chooses_native_when_it_is_built() -> None:
    if not _native_built():
        pytest.skip("the compiled engine is not built here")
    for choice in ("native", "auto", ""):
        out = _python("from quadropolis import engine\nprint(engine.name())", QUADROPOLIS_ENGINE=choice)
        assert (out.returncode, out.stdout, out.stderr) == (0, "native\n", ""), choice


def _native_built() -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", engine.EngineWarning)
        try:
            with engine.using("native"):
                return True
        except ConfigError:
            return False


def _quadropolis(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if k != engine.ENGINE_VARIABLE} | env
    return subprocess.run(
        [sys.executable, "-m", "quadropolis", *args],
        capture_output=True,
        text=True,
        env=environ,
        timeout=300,
        check=False,
    )


@pytest.mark.parametrize(
    "options",
    [
        ("--mode", "classic", "--players", "2"),
        ("--mode", "classic", "--players", "3", "--urbanist-blocks", "square"),
        ("--mode", "classic", "--players", "4", "--all-parks-absorb"),
        ("--mode", "expert", "--players", "2", "--all-parks-absorb"),
        ("--mode", "expert", "--players", "3"),
        ("--mode", "expert", "--players", "4", "--urbanist-blocks", "square"),
    ],
    ids=lambda o: "-".join(o[1::2]),
)
def test_simulate_is_byte_identical_under_both_engines(options: tuple[str, ...], tmp_path: Path) -> None:
    """The compiled engine's acceptance test: ``simulate --json --records`` writes the very same bytes
    with either engine (moves, scores, winners, records with their results)."""
    if not _native_built():
        pytest.skip("the compiled engine is not built here")
    outputs = {}
    for name in ("python", "native"):
        records = tmp_path / f"{name}.jsonl"
        done = _quadropolis(
            "simulate", *options, "--games", "12", "--seed", "41", "--json", "--records", str(records),
            QUADROPOLIS_ENGINE=name,
        )  # fmt: skip
        assert done.returncode == 0 and done.stderr == "", done.stderr
        outputs[name] = (done.stdout, records.read_bytes())
    assert outputs["python"] == outputs["native"]
    assert outputs["python"][0].count("\n") == 12 and outputs["python"][1].count(b"\n") == 12


def test_version_names_the_engine_and_a_bad_choice_is_a_one_line_error() -> None:
    out = _quadropolis("--version", QUADROPOLIS_ENGINE="python")
    assert (out.returncode, out.stdout, out.stderr) == (0, "quadropolis 0.1.0 (engine: python)\n", "")
    if _native_built():
        assert _quadropolis("--version").stdout == "quadropolis 0.1.0 (engine: native)\n"
    bad = _quadropolis("simulate", "--games", "1", QUADROPOLIS_ENGINE="fast")
    assert bad.returncode == 2 and bad.stdout == ""
    assert (
        bad.stderr
        == "quadropolis: error: QUADROPOLIS_ENGINE must be 'auto', 'python' or 'native', got 'fast'\n"
    )


def test_the_command_line_falls_back_with_one_line_or_refuses_native() -> None:
    run_cli = "from quadropolis.cli import main\nraise SystemExit(main(['simulate', '--games', '2']))\n"
    auto = _python(_WITHOUT_EXTENSION + run_cli)
    assert auto.returncode == 0 and "2 random classic games" in auto.stdout
    assert auto.stderr.count("\n") == 1 and auto.stderr.startswith(
        "quadropolis: the compiled engine is not available"
    )
    native = _python(_WITHOUT_EXTENSION + run_cli, QUADROPOLIS_ENGINE="native")
    assert native.returncode == 2 and native.stdout == "" and native.stderr.count("\n") == 1
    assert native.stderr.startswith("quadropolis: error: QUADROPOLIS_ENGINE=native, but the compiled engine")
