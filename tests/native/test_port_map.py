"""The port map of docs/native.md ("Port map": Python function, C++ function, the test that ties
them) is true and whole: every Python name imports, every C++ name is defined in the file it
names, every tying test exists, and every function the engine's headers declare is mapped."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NATIVE = ROOT / "native"
DOC = ROOT / "docs" / "native.md"
CODE = re.compile(r"`([^`]+)`")


def _rows() -> list[tuple[list[str], list[str], list[str]]]:
    """The port map's rows: (Python names, C++ ``file: name`` items, tests), each cell's
    backticked items."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split("\n## Port map\n", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] in ("Python", "---"):
            continue
        rows.append((CODE.findall(cells[0]), CODE.findall(cells[1]), CODE.findall(cells[2])))
    return rows


ROWS = _rows()


def _resolve(dotted: str) -> object:
    """The object a dotted name names: the longest importable module prefix, then attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            found: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            found = getattr(found, attr)
        return found
    raise ImportError(dotted)


def _strip_comments(text: str) -> str:
    return re.sub(r"/\*.*?\*/", "", re.sub(r"//[^\n]*", "", text), flags=re.S)


def _cpp_defines(path: Path, name: str) -> bool:
    """Whether ``path`` defines or declares the function, method or type ``name``
    (``Class::method`` or a plain name)."""
    text = _strip_comments(path.read_text(encoding="utf-8"))
    word = re.escape(name)
    return bool(re.search(rf"(?<![\w:]){word}\s*\(|\b(?:struct|class)\s+{word}\b", text))


def _declared_functions() -> set[str]:
    """The free functions declared at namespace level in the engine's public headers."""
    names = set()
    # An unindented line: return type words, then the name and its parenthesis.
    declaration = re.compile(r"^(?:[\w:<>]+[ \t*&]+)+(\w+)[ \t]*\(", re.M)
    for header in sorted((NATIVE / "include" / "quadropolis").rglob("*.hpp")):
        text = _strip_comments(header.read_text(encoding="utf-8"))
        names |= {m.group(1) for m in declaration.finditer(text)}
    return names - {"static_assert"}


def _test_exists(reference: str) -> bool:
    """Whether ``path::name`` names a test: a pytest function or a C++ test function."""
    path, _, name = reference.partition("::")
    file = ROOT / path
    if not file.is_file():
        return False
    if file.suffix == ".cpp":
        return _cpp_defines(file, name)
    tree = ast.parse(file.read_text(encoding="utf-8"))
    return any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body)


def test_the_map_has_rows_with_three_filled_cells() -> None:
    assert len(ROWS) >= 30
    for python, cpp, tests in ROWS:
        assert python and cpp and tests, (python, cpp, tests)


@pytest.mark.parametrize("name", sorted({n for row in ROWS for n in row[0]}))
def test_every_python_name_exists(name: str) -> None:
    assert _resolve(name) is not None


@pytest.mark.parametrize("item", sorted({n for row in ROWS for n in row[1]}))
def test_every_cpp_name_is_defined_in_its_file(item: str) -> None:
    path, sep, name = item.partition(": ")
    assert sep, f"{item!r}: C++ items are written 'file: name' (file under native/)"
    assert (NATIVE / path).is_file(), f"{item}: no file native/{path}"
    assert _cpp_defines(NATIVE / path, name), f"native/{path} does not define {name}"


@pytest.mark.parametrize("reference", sorted({n for row in ROWS for n in row[2]}))
def test_every_tying_test_exists(reference: str) -> None:
    assert _test_exists(reference), f"no test {reference}"


def test_every_public_function_of_the_engine_is_mapped() -> None:
    mapped = {item.partition(": ")[2].rpartition("::")[2] for row in ROWS for item in row[1]}
    declared = _declared_functions()
    # The declarations are found at all (the pattern is not vacuous).
    assert {"legal_moves", "score_city", "search", "greedy_values", "rollout_move"} <= declared
    assert not declared - mapped, (
        f"public C++ functions missing from the port map: {sorted(declared - mapped)}"
    )


def test_the_bots_live_apart_from_the_rules() -> None:
    """The bots' C++ (greedy, the prior, the search) sits in its own folders, as the map says."""
    for name in ("greedy", "policy", "search"):
        assert (NATIVE / "src" / "bots" / f"{name}.cpp").is_file()
        assert (NATIVE / "include" / "quadropolis" / "bots" / f"{name}.hpp").is_file()
        assert not (NATIVE / "src" / f"{name}.cpp").exists()
    bots = {item.partition(": ")[2] for row in ROWS for item in row[1] if item.startswith("src/bots/")}
    assert {"greedy_values", "rollout_move", "search"} <= bots


def test_the_table_generator_reads_only_public_names() -> None:
    """native/gen_tables.py reads the package's data through public names: a private name
    could be renamed or dropped by its module without anyone knowing the engine depends on it."""
    tree = ast.parse((NATIVE / "gen_tables.py").read_text(encoding="utf-8"))
    imported = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names]
    assert "TILE_GAIN" in imported and "SYNERGY_TABLE" in imported
    assert not [name for name in imported if name.startswith("_")]
