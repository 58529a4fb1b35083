"""The server's rooms: the core (authority, transport, persistence) below the features
(accounts, ratings, social), the HTTP layer (``deps``, ``routes/``, the features' ``routes``)
above both, and the app that wires them on top. Read from the sources: every import, those
inside functions included, so a late import cannot hide a circle."""

from __future__ import annotations

import ast
from pathlib import Path

import quadropolis.server

SERVER = Path(quadropolis.server.__file__).parent
FEATURES = ("accounts", "ratings", "social")
#: The modules above everything: the app and its command, and the HTTP layer.
TOP = {"app", "command", "__init__", "__main__", "deps", "routes"}


def _module(path: Path) -> str:
    parts = list(path.relative_to(SERVER).with_suffix("").parts)
    if parts == ["__init__"]:
        return "__init__"  # the package itself: what the command line imports
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """The server modules ``path`` imports, as names relative to the server package."""
    module = _module(path).split(".")
    package = [] if module == ["__init__"] else module if path.name == "__init__.py" else module[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                if node.level - 1 > len(package):
                    continue  # above the server package: the rules core, the bots
                target = [*base, *(node.module or "").split(".")] if node.module else base
            elif (node.module or "").startswith("quadropolis.server."):
                target = (node.module or "").split(".")[2:]
            else:
                continue
            found |= {".".join([*target, alias.name]).strip(".") for alias in node.names}
            found.add(".".join(target))
    return {name for name in found if name}


def _sources() -> dict[str, Path]:
    return {
        _module(p): p for p in SERVER.rglob("*.py") if "migrations" not in p.parts and "static" not in p.parts
    }


def _layer(module: str) -> str:
    head = module.split(".")[0]
    if head in TOP or module.endswith(".routes"):
        return "http"
    return "feature" if head in FEATURES else "core"


def test_the_core_imports_no_feature_and_nothing_below_imports_the_http_layer() -> None:
    """The core never imports a feature (it is handed what it needs: :mod:`.ports`), nothing
    but the HTTP layer imports the HTTP layer, and only the command imports the app: no
    route helper is imported back from it."""
    wrong = []
    for name, path in sorted(_sources().items()):
        for target in sorted(_imports(path)):
            layer, to = _layer(name), _layer(target)
            if (layer == "core" and to != "core") or (layer == "feature" and to == "http"):
                wrong.append(f"{name} ({layer}) imports {target} ({to})")
            elif target.split(".")[0] == "app" and name not in ("command", "app"):
                wrong.append(f"{name} imports {target}: only the command starts the app")
    assert not wrong, "\n".join(wrong)


def test_the_layers_checker_sees_a_wrong_import() -> None:
    """Not vacuous: the app imports the features and the HTTP layer, a feature's routes the
    dependencies, and the game service is core."""
    sources = _sources()
    assert {"accounts.service", "deps", "routes"} <= _imports(sources["app"])
    assert "deps" in _imports(sources["accounts.routes"])
    assert (_layer("service"), _layer("ratings.rules"), _layer("social.routes")) == (
        "core",
        "feature",
        "http",
    )


def test_every_http_route_is_in_a_router_module() -> None:
    """The app declares no route of its own: every one is an ``APIRouter``'s, in
    :mod:`quadropolis.server.routes` or in a feature's ``routes``."""
    tree = ast.parse((SERVER / "app.py").read_text(encoding="utf-8"))
    decorators = [
        ast.unparse(d)
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        for d in node.decorator_list
    ]
    assert not [d for d in decorators if d.startswith(("app.", "router."))]
    routers = [p for p in SERVER.rglob("*.py") if "APIRouter(" in p.read_text(encoding="utf-8")]
    assert {_layer(_module(p)) for p in routers} == {"http"}
