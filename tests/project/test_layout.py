"""The package layout's dependency rule, checked on the source.

- The rules core (the modules at the top of ``quadropolis``) imports only the standard
  library and other core modules, with no import cycle between core modules at run time.
- Each application subpackage (``bots``, ``arena``, ``terminal``, ``bench``, ``cli``, and
  the ones to come) imports the standard library, third-party packages, the core, its own
  modules, and of another application only its public package (``quadropolis.bots``, not
  ``quadropolis.bots.mcts``) or the shared option helpers ``quadropolis.cli.options``.
- No import circle (run-time imports, lazy ones included; not those under
  ``if TYPE_CHECKING:``): between core modules, between the modules of each application, or
  between applications (the shared option helpers count as a layer below them all). No
  circle is tolerated (``KNOWN_CIRCLES`` is empty and may only shrink).
- Nothing but ``quadropolis.cli`` itself (and ``python -m quadropolis``) imports the command
  line's entry point: it sits on top.
- The compiled engine (``native/``) is a room of its own: the engine compiles without Python,
  its binding (``quadropolis._native``, a core module known by its stub ``_native.pyi``) holds
  no game logic, and only ``quadropolis.native`` imports it.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path
from typing import Any

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "quadropolis"
#: Modules of another application that an application may import besides its package.
SHARED_MODULES = {"quadropolis.cli.options"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_imports(path: Path, typing: bool = False) -> list[str]:
    """Absolute names of the modules imported by ``path``, outside ``if TYPE_CHECKING:``
    (inside it too with ``typing``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if not typing and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
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


# --- no import circles ----------------------------------------------------------------------

#: Import circles tolerated, by the graph they lie in (a set of modules, or for
#: ``"applications"`` of application packages): none. A circle not listed fails, and so does
#: a listed one that is gone (remove it then), so the list can only shrink.
KNOWN_CIRCLES: dict[str, list[frozenset[str]]] = {}


def _knots(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle of ``graph``: its strongly connected components of more than one
    module, or a module importing itself (Tarjan's algorithm, without recursion), each sorted;
    the list sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    knots: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        work = [(root, iter(sorted(graph.get(root, ()))))]
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = stack[stack.index(node) :]
                del stack[stack.index(node) :]
                if len(members) > 1 or node in graph.get(node, ()):
                    knots.append(sorted(members))
    return sorted(knots)


def _circle(graph: dict[str, set[str]], knot: list[str]) -> list[str]:
    """One circle through the knot's first module (``a -> b -> a``), for the message."""
    start, members = knot[0], set(knot)
    paths = {nxt: [start, nxt] for nxt in sorted(graph.get(start, ())) if nxt in members}
    todo = list(paths)
    while start not in paths:
        node = todo.pop(0)
        for nxt in sorted(graph.get(node, ())):
            if nxt in members and nxt not in paths:
                paths[nxt] = [*paths[node], nxt]
                todo.append(nxt)
    return paths[start]


def _named(where: str, graph: dict[str, set[str]], knot: list[str]) -> str:
    """A circle by its modules, and every module knotted with them when there are more."""
    circle = _circle(graph, knot)
    more = f" (knotted together: {', '.join(knot)})" if len(knot) > len(circle) - 1 else ""
    return f"import circle in {where}: {' -> '.join(circle)}{more}"


def _circles_problems(where: str, graph: dict[str, set[str]]) -> list[str]:
    """Each circle of ``graph`` not in :data:`KNOWN_CIRCLES` for ``where``, by name, and each
    known circle no longer there."""
    known = set(KNOWN_CIRCLES.get(where, []))
    knots = _knots(graph)
    problems = [_named(where, graph, k) for k in knots if frozenset(k) not in known]
    gone = known - {frozenset(k) for k in knots}
    problems += [f"{where}: no longer a circle, remove it from KNOWN_CIRCLES: {sorted(k)}" for k in gone]
    return problems


def _module_graph(paths: list[Path], inside: Any, typing: bool = False) -> dict[str, set[str]]:
    """Module -> the modules it imports for which ``inside(name)`` holds (run-time imports,
    lazy ones inside functions included; ``typing``: those under ``if TYPE_CHECKING:`` too)."""
    return {_module_name(p): {i for i in _runtime_imports(p, typing) if inside(i)} for p in paths}


def _node(name: str) -> str:
    """A module's node in the graph of applications: its application package, or itself for
    the shared modules (which sit below every application)."""
    return name if name in SHARED_MODULES else _application(name)


def _application_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in APPS:
        name = _module_name(path)
        targets = graph.setdefault(_node(name), set())
        for imported in _runtime_imports(path):
            if (
                imported.startswith("quadropolis.")
                and not _is_core(imported)
                and _node(imported) != _node(name)
            ):
                targets.add(_node(imported))
    return graph


APPLICATIONS = sorted({_application(_module_name(p)) for p in APPS})


def test_no_import_cycle_between_core_modules() -> None:
    """Lazy imports inside functions count too: a circle there is still a knot to untie. Only
    imports for type checkers do not (``state`` draws itself with ``render``, which names the
    state's type: see :func:`test_the_circle_checker_sees_every_circle`)."""
    graph = _module_graph(
        [p for p in CORE if p.name != "__init__.py"], lambda i: i.startswith("quadropolis.") and _is_core(i)
    )
    problems = _circles_problems("the core", graph)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("app", APPLICATIONS)
def test_no_import_cycle_inside_an_application(app: str) -> None:
    paths = [p for p in APPS if _application(_module_name(p)) == app]
    known = {_module_name(p) for p in paths}
    problems = _circles_problems(app, _module_graph(paths, lambda i: i in known))
    assert not problems, "\n".join(problems)


def test_no_import_cycle_between_applications() -> None:
    """The applications form layers (the command line on top, the shared option helpers at
    the bottom): no application reaches back, through others, to one that imports it."""
    graph = _application_graph()
    assert {"quadropolis.cli", "quadropolis.bots", "quadropolis.cli.options"} <= set(graph)
    problems = _circles_problems("applications", graph)
    assert not problems, "\n".join(problems)


def test_the_circle_checker_sees_every_circle() -> None:
    """Not vacuous: every circle of a graph is found and named (two apart, a module importing
    itself; a chain is none), and counting the imports for type checkers the core has exactly
    one, the ``state``/``render`` pair, which is excepted because it is for typing only."""
    graph = {
        "a": {"b"},
        "b": {"c", "x"},
        "c": {"a"},
        "d": {"e"},
        "e": {"d", "f"},
        "f": set(),
        "s": {"s"},
        "x": {"y"},
    }
    assert _knots(graph) == [["a", "b", "c"], ["d", "e"], ["s"]]
    assert _circle(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert _circles_problems("virtual", graph) == [
        "import circle in virtual: a -> b -> c -> a",
        "import circle in virtual: d -> e -> d",
        "import circle in virtual: s -> s",
    ]
    knotted = {"p": {"q"}, "q": {"p", "r"}, "r": {"q"}}
    assert _named("virtual", knotted, ["p", "q", "r"]) == (
        "import circle in virtual: p -> q -> p (knotted together: p, q, r)"
    )
    typed = _module_graph(
        [p for p in CORE if p.name != "__init__.py"],
        lambda i: i.startswith("quadropolis.") and _is_core(i),
        True,
    )
    assert _knots(typed) == [["quadropolis.render", "quadropolis.state"]]
    assert "quadropolis.state" not in _runtime_imports(PACKAGE / "render.py")


def test_the_checker_sees_a_violation() -> None:
    """The rule is not vacuous: the terminal really does import the bots' public package and
    the core, and a relative import of an internal module resolves to its full name."""
    app = PACKAGE / "terminal" / "session.py"
    imported = _runtime_imports(app)
    assert "quadropolis.bots" in imported and "quadropolis.rules" in imported
    mcts = _runtime_imports(PACKAGE / "bots" / "__init__.py")
    assert "quadropolis.bots.mcts" in mcts


# --- one home for each piece of game knowledge ----------------------------------------------

#: The module that holds the R13 ranking and the projected scores after each move.
OUTCOME = PACKAGE / "outcome.py"
WEB_SOURCES = PACKAGE.parent.parent / "web" / "src"


def _calls(node: ast.AST) -> set[str]:
    """Names of the functions called in ``node`` (``f(...)`` and ``x.f(...)``)."""
    names = set()
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            f = call.func
            names.add(f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "")
    return names


def _negated_names(node: ast.AST) -> set[str]:
    """Attribute and variable names that appear negated (``-x.empty_squares``)."""
    found = set()
    for op in ast.walk(node):
        if isinstance(op, ast.UnaryOp) and isinstance(op.op, ast.USub):
            for leaf in ast.walk(op.operand):
                if isinstance(leaf, ast.Attribute):
                    found.add(leaf.attr)
                elif isinstance(leaf, ast.Name):
                    found.add(leaf.id)
    return found


def _knowledge_problems(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    problems = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        where = f"{path.relative_to(PACKAGE)}:{fn.lineno} {fn.name}"
        loops = [n for n in ast.walk(fn) if isinstance(n, ast.For | ast.ListComp | ast.GeneratorExp)]
        for loop in loops:
            calls = _calls(loop)
            if calls & {"apply", "apply_unchecked"} and calls & {"projected_score", "score_city"}:
                problems.append(f"{where} scores the position after each move: use outcome.scores_after")
                break
        if "empty_squares" in _negated_names(fn):
            problems.append(f"{where} builds the R13 ranking key: use the outcome's ranks or rank_key")
    return problems


def test_the_ranking_and_the_scores_after_a_move_live_only_in_the_outcome() -> None:
    problems = [p for path in _sources() if path != OUTCOME for p in _knowledge_problems(path)]
    assert not problems, "\n".join(problems)
    assert _knowledge_problems(OUTCOME), "the checker no longer recognises the outcome's own code"


def test_the_browser_ranks_nothing_itself() -> None:
    """The client displays the server's ``ranks`` and ``decided_by``: no R13 comparison of
    scores, inhabitants placed or empty squares anywhere in web/src."""
    patterns = {  # pattern: what the client once held (so the check is not vacuous)
        r"-\s*[\w.]*\b(score|inhabitants|empty)\w*\s*[,\]]": "[e.winner ? 0 : 1, -e.score, -e.inhabitants]",
        r"Math\.max\(\s*\.\.\.\s*[\w.]*scores": "const top = Math.max(...r.scores);",
    }
    offenders = []
    for path in sorted(WEB_SOURCES.rglob("*.ts*")):
        text = path.read_text(encoding="utf-8")
        for pattern, example in patterns.items():
            assert re.search(pattern, example)
            if re.search(pattern, text):
                offenders.append(f"{path.relative_to(WEB_SOURCES)} matches {pattern}")
    assert not offenders, "\n".join(offenders)


# --- the browser client: no import cycle between its modules ---------------------------------

#: A relative module specifier after ``from`` (imports and re-exports) or a bare ``import "./x"``.
_WEB_IMPORT = re.compile(r"""(?:\bfrom|^\s*import)\s*["'](\.{1,2}/[^"']+)["']""", re.MULTILINE)


def _web_module(importer: Path, specifier: str, known: set[Path]) -> Path | None:
    """The web/src file a relative specifier names (``./x`` is ``x.ts``, ``x.tsx`` or ``x/index.ts``)."""
    base = (importer.parent / specifier).resolve()
    for candidate in (base, *(Path(f"{base}{ext}") for ext in (".ts", ".tsx", "/index.ts", "/index.tsx"))):
        if candidate in known:
            return candidate
    return None  # a stylesheet or an asset: not a module of ours


def _web_import_graph(files: dict[Path, str]) -> dict[Path, set[Path]]:
    known = set(files)
    return {
        path: {m for spec in _WEB_IMPORT.findall(text) if (m := _web_module(path, spec, known)) is not None}
        for path, text in files.items()
    }


def _first_cycle(graph: dict[Path, set[Path]]) -> list[Path] | None:
    """One import cycle (its modules in order, the first repeated at the end), or None.
    Type-only imports count too: a cycle of types is still two modules knotted together."""
    done: set[Path] = set()
    for root in sorted(graph):
        if root in done:
            continue
        trail: list[Path] = [root]
        pending = [iter(sorted(graph[root]))]
        while pending:
            nxt = next(pending[-1], None)
            if nxt is None:
                done.add(trail.pop())
                pending.pop()
            elif nxt in trail:
                return [*trail[trail.index(nxt) :], nxt]
            elif nxt not in done:
                trail.append(nxt)
                pending.append(iter(sorted(graph.get(nxt, ()))))
    return None


def test_the_web_client_has_no_import_cycle() -> None:
    files = {p.resolve(): p.read_text(encoding="utf-8") for p in sorted(WEB_SOURCES.rglob("*.ts*"))}
    assert len(files) > 10, "web/src was not found"
    graph = _web_import_graph(files)
    assert any(graph.values()), "the checker found no relative import at all"
    cycle = _first_cycle(graph)
    assert cycle is None, "import cycle in web/src: " + " -> ".join(
        str(p.relative_to(WEB_SOURCES.resolve())) for p in cycle
    )


def test_the_web_cycle_checker_sees_a_cycle() -> None:
    """Not vacuous: two components importing each other (as GamePage and EndScreen once did,
    over a multi-line import) are a cycle; the same files with the helper moved out are not."""
    root = Path("/virtual/src")
    page, end, route = (
        root / "components" / "GamePage.tsx",
        root / "components" / "EndScreen.tsx",
        root / "route.ts",
    )
    knotted = {
        page: 'import { EndScreen } from "./EndScreen";\nexport function linkTo() {}\n',
        end: 'import {\n  linkTo,\n} from "./GamePage";\nimport "../styles.css";\n',
        route: "export function navigate() {}\n",
    }
    assert _first_cycle(_web_import_graph(knotted)) == [end, page, end]
    untied = {
        **knotted,
        end: 'import { linkTo } from "../route";\n',
        page: 'import { EndScreen } from "./EndScreen";\n',
    }
    assert _web_import_graph(untied)[end] == {route}
    assert _first_cycle(_web_import_graph(untied)) is None


# --- the compiled engine's rooms ------------------------------------------------------------

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
        *NATIVE.glob("src/**/*.cpp"),
        *NATIVE.glob("include/quadropolis/**/*.hpp"),
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
    public = {p.relative_to(NATIVE / "include").as_posix() for p in (NATIVE / "include").rglob("*.hpp")}
    # structmember.h: the C API's member descriptor kinds (the Python classes' slots it reads).
    allowed = {"nanobind/nanobind.h", "nanobind/stl/string.h", "structmember.h", "stdexcept", "string"}
    assert includes - public <= allowed
    assert "quadropolis/tables.hpp" not in includes
    for forbidden in ("tables::", "TILE_", "DESIGNATED", "ELIGIBLE", "PLACE", "TAKE", "do_apply"):
        assert forbidden not in text, f"the binding uses {forbidden}"


# --- small rooms: short functions, a pure game layer under the server -----------------------

#: The longest a function may be, in lines from its ``def`` to its last line (docstring
#: included).
LONGEST_FUNCTION = 80
#: First line of a generated module (a table written by a script): exempt from the length
#: rule, a table being data rather than logic to read. No module of the package is generated
#: today.
GENERATED_MARK = "# Generated"


def _long_functions(text: str, where: str) -> dict[str, int]:
    """``where:name`` -> length of every function of the module ``text`` over the limit."""
    if text.startswith(GENERATED_MARK):
        return {}
    found = {}
    for fn in ast.walk(ast.parse(text)):
        if isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            length = (fn.end_lineno or fn.lineno) - fn.lineno + 1
            if length > LONGEST_FUNCTION:
                found[f"{where}:{fn.name}"] = length
    return found


def test_no_function_is_longer_than_80_lines() -> None:
    """Every function of ``src/quadropolis`` fits in 80 lines. Generated tables would be
    exempt: a module whose first line is :data:`GENERATED_MARK` (none today; the package's
    tables are built at import by code that keeps to the rule)."""
    long = {
        k: v
        for path in _sources()
        for k, v in _long_functions(
            path.read_text(encoding="utf-8"), path.relative_to(PACKAGE).as_posix()
        ).items()
    }
    offenders = [f"{k}: {v} lines" for k, v in sorted(long.items())]
    assert not offenders, "split these functions:\n" + "\n".join(offenders)


def test_the_length_checker_sees_a_long_function() -> None:
    body = "".join(f"    x{i} = {i}\n" for i in range(LONGEST_FUNCTION))
    assert _long_functions(f"def f() -> None:\n{body}", "m.py") == {"m.py:f": LONGEST_FUNCTION + 1}
    assert _long_functions(f"def f() -> None:\n{body[: body.rindex('    x')]}", "m.py") == {}
    assert _long_functions(f"{GENERATED_MARK} by a script\ndef f() -> None:\n{body}", "m.py") == {}


#: The server's pure game layer: the game in memory and the plain values it is built from.
PURE_SERVER = [PACKAGE / "server" / "game.py", PACKAGE / "server" / "data.py"]
#: The persistence layer: the storage module, its migrations, and the database packages.
PERSISTENCE = ("quadropolis.server.storage", "quadropolis.server.migrations")
PERSISTENCE_PACKAGES = {"sqlalchemy", "alembic", "psycopg", "redis"}


def _module_path(name: str) -> Path | None:
    rel = Path(*name.split(".")[1:])
    for path in ((PACKAGE / rel).with_suffix(".py"), PACKAGE / rel / "__init__.py"):
        if path.exists():
            return path
    return None


def _imports_reached(start: list[Path]) -> set[str]:
    """Every module imported at run time by the modules ``start`` and, within the package,
    by the modules they import, and so on."""
    reached: set[str] = set()
    todo, done = list(start), set()
    while todo:
        path = todo.pop()
        if path in done:
            continue
        done.add(path)
        for name in _runtime_imports(path):
            reached.add(name)
            inner = _module_path(name) if name.startswith("quadropolis.") else None
            if inner is not None:
                todo.append(inner)
    return reached


def _persistence(names: set[str]) -> list[str]:
    return sorted(n for n in names if n.startswith(PERSISTENCE) or n.split(".")[0] in PERSISTENCE_PACKAGES)


def _loaded_after_import(module: str) -> list[str]:
    """The persistence modules loaded by importing ``module`` in a fresh interpreter."""
    import subprocess

    code = f"import sys, {module}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return _persistence(set(out.split()))


def test_the_pure_server_game_imports_no_persistence() -> None:
    """``server/game.py`` and ``server/data.py`` reach neither the storage module nor a
    database package, directly or through what they import; importing the game really
    loads none."""
    assert not _persistence(_imports_reached(PURE_SERVER))
    assert not _loaded_after_import("quadropolis.server.game")


def test_the_persistence_checker_sees_the_storage() -> None:
    """Not vacuous: the service, which stores games, is seen reaching the storage and
    SQLAlchemy, and importing it loads them."""
    reached = _persistence(_imports_reached([PACKAGE / "server" / "service.py"]))
    assert {"quadropolis.server.storage", "sqlalchemy"} <= set(reached)
    assert {"quadropolis.server.storage", "sqlalchemy"} <= set(
        _loaded_after_import("quadropolis.server.service")
    )
