"""The package layout's dependency rule, checked on the source.

- The rules core (the modules at the top of ``quadropolis``) imports only the standard
  library and other core modules, with no import cycle between core modules at run time.
- Each application subpackage (``bots``, ``arena``, ``terminal``, ``bench``, ``cli``, and
  the ones to come) imports the standard library, third-party packages, the core, its own
  modules, and of another application only its public package (``quadropolis.bots``, not
  ``quadropolis.bots.mcts``) or the shared option helpers ``quadropolis.cli.options``.
- Nothing but ``quadropolis.cli`` itself (and ``python -m quadropolis``) imports the command
  line's entry point: it sits on top.
- The compiled engine (``native/``) is a room of its own: the engine compiles without Python,
  its binding (``quadropolis._native``, a core module known by its stub ``_native.pyi``) holds
  no game logic, and only ``quadropolis.native`` imports it.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "quadropolis"
#: Modules of another application that an application may import besides its package.
SHARED_MODULES = {"quadropolis.cli.options"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(path: Path) -> list[str]:
    """Absolute names of the modules imported by ``path``, outside ``if TYPE_CHECKING:``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                prefix = ".".join(base)
                target = f"{prefix}.{node.module}" if node.module else prefix
            else:
                target = node.module or ""
            # `from pkg import mod` imports a submodule when one exists by that name.
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.append(sub if _is_module(sub) else target)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _is_module(name: str) -> bool:
    if not name.startswith("quadropolis"):
        return False
    rel = Path(*name.split(".")[1:])
    return (
        (PACKAGE / rel).with_suffix(".py").exists()
        or (PACKAGE / rel).with_suffix(".pyi").exists()  # the compiled engine, by its stub
        or (PACKAGE / rel / "__init__.py").exists()
    )


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _is_core(name: str) -> bool:
    """A core module: ``quadropolis`` itself or a module directly in it (not a subpackage)."""
    parts = name.split(".")
    return name == "quadropolis" or (
        len(parts) == 2
        and parts[1] != "__main__"
        and ((PACKAGE / f"{parts[1]}.py").exists() or (PACKAGE / f"{parts[1]}.pyi").exists())
    )


def _application(name: str) -> str:
    return ".".join(name.split(".")[:2])


# ``python -m quadropolis`` is the command line's entry point, not part of the core.
CORE = [p for p in _sources() if _is_core(_module_name(p)) and p.name != "__main__.py"]
APPS = [p for p in _sources() if not _is_core(_module_name(p)) and p.parent != PACKAGE]


def test_the_tree_has_a_core_and_application_subpackages() -> None:
    apps = {_application(_module_name(p)) for p in APPS}
    assert {"quadropolis.bots", "quadropolis.arena", "quadropolis.terminal", "quadropolis.bench"} <= apps
    assert "quadropolis.cli" in apps
    for app in apps:
        init = PACKAGE / app.split(".")[1] / "__init__.py"
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc and len(doc) > 80, f"{app} needs a module docstring saying what it holds and may import"


@pytest.mark.parametrize("path", CORE, ids=lambda p: p.name)
def test_core_imports_only_the_standard_library_and_the_core(path: Path) -> None:
    for imported in _runtime_imports(path):
        top = imported.split(".")[0]
        if top == "quadropolis":
            assert _is_core(imported), f"{path.name} (core) imports the application module {imported}"
        else:
            assert top in sys.stdlib_module_names or top == "__future__", (
                f"{path.name} (core) imports the non-standard module {imported}"
            )


@pytest.mark.parametrize("path", APPS, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_applications_use_only_the_public_api_of_other_applications(path: Path) -> None:
    own = _application(_module_name(path))
    for imported in _runtime_imports(path):
        if not imported.startswith("quadropolis.") or _is_core(imported):
            continue
        other = _application(imported)
        if other == own or imported in SHARED_MODULES:
            continue
        assert imported == other, (
            f"{path.relative_to(PACKAGE)} imports {imported}, an internal module of {other}: "
            f"use the public API of {other}"
        )
        assert other != "quadropolis.cli", f"{path.relative_to(PACKAGE)} imports the command line's main"


def test_no_import_cycle_between_core_modules() -> None:
    graph = {
        _module_name(p): {i for i in _runtime_imports(p) if i.startswith("quadropolis.") and _is_core(i)}
        for p in CORE
        if p.name != "__init__.py"
    }
    # Lazy imports inside functions count too: a cycle there is still a knot to untie.
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycle = [*path[path.index(nxt) :], nxt] if nxt in path else [node, nxt]
                pytest.fail("import cycle in the core: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])


def test_the_checker_sees_a_violation() -> None:
    """The rule is not vacuous: the terminal really does import the bots' public package and
    the core, and a relative import of an internal module resolves to its full name."""
    app = PACKAGE / "terminal" / "session.py"
    imported = _runtime_imports(app)
    assert "quadropolis.bots" in imported and "quadropolis.rules" in imported
    mcts = _runtime_imports(PACKAGE / "bots" / "__init__.py")
    assert "quadropolis.bots.mcts" in mcts


NATIVE = PACKAGE.parent.parent / "native"
EXTENSION = "quadropolis._native"


def test_only_the_native_glue_imports_the_extension() -> None:
    """``quadropolis.native`` is the one door to the compiled engine: the rest of the core
    (and with it every Python-only install) never imports ``quadropolis._native``."""
    importers = {_module_name(p) for p in _sources() if EXTENSION in _runtime_imports(p)}
    assert importers == {"quadropolis.native"}
    assert _is_core(EXTENSION)


def test_the_native_engine_compiles_without_python() -> None:
    """The engine's sources include neither Python nor nanobind (as OpenSpiel's games do not
    include pybind11): its tests run without an interpreter."""
    for path in [
        *NATIVE.glob("src/*.cpp"),
        *NATIVE.glob("include/quadropolis/*.hpp"),
        *NATIVE.glob("tests/*.cpp"),
    ]:
        text = path.read_text(encoding="utf-8")
        assert "Python.h" not in text and "nanobind" not in text, path.name


def test_the_binding_holds_no_game_logic() -> None:
    """The binding converts and validates arguments only. Every rule of the game needs the
    game's data (the tables generated from the Python manifest) or the engine's internals; the
    binding sees neither: it includes only the engine's public headers and nanobind, and names
    no table, phase or move constant of its own."""
    text = (NATIVE / "binding" / "module.cpp").read_text(encoding="utf-8")
    includes = {line.split()[1].strip('<>"') for line in text.splitlines() if line.startswith("#include")}
    public = {f"quadropolis/{p.name}" for p in (NATIVE / "include" / "quadropolis").glob("*.hpp")}
    assert includes - public <= {"nanobind/nanobind.h", "nanobind/stl/string.h", "string"}
    assert "quadropolis/tables.hpp" not in includes
    for forbidden in ("tables::", "TILE_", "DESIGNATED", "ELIGIBLE", "PLACE", "TAKE", "do_apply"):
        assert forbidden not in text, f"the binding uses {forbidden}"
