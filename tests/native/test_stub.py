"""The typed stub ``src/quadropolis/_native.pyi`` describes the compiled module as it is: every
name of the stub exists in ``quadropolis._native`` with the same kind (class, function,
constant; method or property inside a class), every public name of the module is in the stub,
and each function's parameter names are the ones nanobind exposes (``__nb_signature__``)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from quadropolis import _native

STUB = Path(__file__).resolve().parents[2] / "src" / "quadropolis" / "_native.pyi"
TREE = ast.parse(STUB.read_text(encoding="utf-8"))


def _public(names: object) -> set[str]:
    return {n for n in vars(names) if not n.startswith("_")}


def _stub_kind(node: ast.stmt) -> tuple[str, str] | None:
    """(name, kind) of a stub statement that defines a name of the module; None for imports
    and the stub's own type aliases (``X = tuple[...]``: typing only)."""
    if isinstance(node, ast.ClassDef):
        return node.name, "class"
    if isinstance(node, ast.FunctionDef):
        is_property = any(isinstance(d, ast.Name) and d.id == "property" for d in node.decorator_list)
        return node.name, "property" if is_property else "function"
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id, "constant"
    return None


def _runtime_kind(value: object, owner: type | None = None, name: str = "") -> str:
    if owner is not None and isinstance(owner.__dict__.get(name), property):
        return "property"
    if isinstance(value, type):
        return "class"
    if callable(value):
        return "function"
    return "constant"


def _stub_names(body: list[ast.stmt]) -> dict[str, str]:
    found = {}
    for node in body:
        kind = _stub_kind(node)
        if kind is not None:
            found[kind[0]] = kind[1]
    return found


def _functions(body: list[ast.stmt]) -> dict[str, ast.FunctionDef]:
    return {n.name: n for n in body if isinstance(n, ast.FunctionDef)}


CLASSES = {n.name: n for n in TREE.body if isinstance(n, ast.ClassDef)}
#: (qualified name, the stub's function, the runtime function) of every stubbed function and
#: method whose parameters nanobind exposes (properties have none).
CALLABLES = [
    *((name, node, getattr(_native, name, None)) for name, node in _functions(TREE.body).items()),
    *(
        (f"{cls}.{name}", node, getattr(getattr(_native, cls, None), name, None))
        for cls, body in CLASSES.items()
        for name, node in _functions(body.body).items()
        if _stub_kind(node) == (name, "function")
    ),
]


def _signature_parameters(signature: str) -> list[str]:
    """The parameter names of a ``def name(a: T, b: T = ...) -> R`` signature, ``self``, ``*``
    and ``/`` left out (commas inside brackets, as in ``ndarray[dtype=int8, ...]``, skipped)."""
    inside = signature[signature.index("(") + 1 :]
    depth, piece, pieces = 0, "", []
    for char in inside:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            if depth == 0:
                break
            depth -= 1
        if char == "," and depth == 0:
            pieces.append(piece)
            piece = ""
        else:
            piece += char
    pieces.append(piece)
    names = [p.split(":")[0].split("=")[0].strip().lstrip("*") for p in pieces]
    return [n for n in names if n and n not in ("self", "/")]


def _stub_parameters(node: ast.FunctionDef) -> list[str]:
    args = node.args
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    return [n for n in names if n != "self"]


def test_every_stub_name_exists_in_the_module_with_its_kind() -> None:
    stub = _stub_names(TREE.body)
    assert {"State", "new_state", "ABI", "VectorGames"} <= stub.keys()  # the stub is read
    for name, kind in stub.items():
        assert hasattr(_native, name), f"the stub names {name}, which the module lacks"
        assert _runtime_kind(getattr(_native, name)) == kind, name


def test_every_public_name_of_the_module_is_in_the_stub() -> None:
    missing = _public(_native) - _stub_names(TREE.body).keys()
    assert not missing, f"quadropolis._native has names its stub lacks: {sorted(missing)}"


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_each_class_has_the_members_of_its_stub(name: str) -> None:
    cls = getattr(_native, name)
    stub = {k: v for k, v in _stub_names(CLASSES[name].body).items() if not k.startswith("_")}
    assert stub.keys() == _public(cls), name
    for member, kind in stub.items():
        assert _runtime_kind(getattr(cls, member), cls, member) == kind, f"{name}.{member}"


@pytest.mark.parametrize(("name", "node", "runtime"), CALLABLES, ids=[c[0] for c in CALLABLES])
def test_parameter_names_match(name: str, node: ast.FunctionDef, runtime: object) -> None:
    assert runtime is not None, f"the stub names {name}, which the module lacks"
    signatures = getattr(runtime, "__nb_signature__", None)
    assert signatures, f"{name}: nanobind exposes no signature"
    exposed = {tuple(_signature_parameters(s[0])) for s in signatures}
    assert tuple(_stub_parameters(node)) in exposed, (name, exposed)


def test_the_signature_reader_sees_bracketed_types() -> None:
    text = "def f(self, a: ndarray[dtype=int8, order='C'], b: object | None = \\0) -> None"
    assert _signature_parameters(text) == ["a", "b"]
