"""Every repository path the project names exists.

A path is a word starting with one of the repository's top folders (``docs/``, ``src/``,
``native/``, ``scripts/``, ``web/``, ``tests/``, ``examples/``), as comments, docstrings and
the docs name files: ``docs/rules.md``, ``src/quadropolis/server/``, ``web/src/locales/*.json``.
It is looked for in the comments and docstrings of the Python source, in the other sources
(C++, TypeScript, CSS, shell, CMake, TOML, YAML) whole, and in the Markdown docs. Inside
``web/`` and ``native/`` a path may also be relative to that folder (``web/README.md`` and
``native/CMakeLists.txt`` name their files so, as npm and CMake read them). ``XX``, a language
code, is a placeholder (``web/src/locales/XX.json``) and ``*`` a wildcard: either matches any
name."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Where the names are looked for, and in which files.
SCANNED = (
    "README.md",
    "CHANGELOG.md",
    "pyproject.toml",
    "docs",
    "src",
    "native",
    "scripts",
    "web",
    "tests",
    "examples",
)
SUFFIXES = {
    ".py",
    ".md",
    ".ts",
    ".tsx",
    ".css",
    ".cpp",
    ".hpp",
    ".h",
    ".sh",
    ".toml",
    ".yml",
    ".yaml",
    ".txt",
    ".html",
}
#: Built or installed outputs, never committed: named, but absent from a fresh clone.
SKIPPED_DIRS = {"node_modules", "static", "build", "__pycache__", ".venv", "dist"}
#: Folders a path named inside them may be relative to.
SELF_RELATIVE = {"web", "native"}
#: Chapters about one folder, whose paths may be relative to it (the compiled engine's files
#: as its CMake build names them).
CHAPTER_OF = {"docs/native.md": "native"}
PATH = re.compile(r"(?<![\w/.\-~$])((?:docs|src|native|scripts|web|tests|examples)/[\w.*\-/]*[\w*/])")
#: Paths to outputs that a fresh clone does not have (the client's installed packages).
NOT_COMMITTED = {"web/node_modules"}
#: Placeholders in a named path: a language code.
PLACEHOLDER = re.compile(r"\bXX\b")


def scanned_files() -> Iterator[Path]:
    for name in SCANNED:
        top = ROOT / name
        if top.is_file():
            yield top
            continue
        for path in sorted(top.rglob("*")):
            parts = set(path.relative_to(ROOT).parts)
            if path.suffix in SUFFIXES and path.is_file() and not parts & SKIPPED_DIRS:
                yield path


def python_prose(source: str) -> str:
    """The comments and docstrings of a Python source, one after the other."""
    tree = ast.parse(source)
    docs = [
        ast.get_docstring(node, clean=False) or ""
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
    ]
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    comments = [tok.string for tok in tokens if tok.type == tokenize.COMMENT]
    return "\n".join(docs + comments)


def prose(path: Path) -> str:
    """What of a file may name paths: a Python file's comments and docstrings, any other whole."""
    text = path.read_text(encoding="utf-8", errors="replace")
    return python_prose(text) if path.suffix == ".py" else text


def named_paths(text: str) -> list[str]:
    """The repository paths a text names, in order (a sentence's final dot left out)."""
    return [m.group(1) for m in PATH.finditer(text)]


def exists(path: str, base: Path) -> bool:
    pattern = PLACEHOLDER.sub("*", path)
    if pattern.rstrip("/") in NOT_COMMITTED:
        return True
    if "*" in pattern:
        return any(base.glob(pattern.rstrip("/")))
    return (base / pattern).exists()


def test_the_extraction_finds_paths_and_leaves_other_words() -> None:
    text = (
        "see docs/rules.md. and `src/quadropolis/server/` or web/src/locales/*.json;"
        " not a/docs/x.md, ~/docs/y nor $HOME/src/z, nor the word docs/ alone"
    )
    assert named_paths(text) == ["docs/rules.md", "src/quadropolis/server/", "web/src/locales/*.json"]
    assert exists("docs/rules.md", ROOT) and exists("web/src/locales/XX.json", ROOT)
    assert not exists("docs/RULES.md", ROOT) and not exists("docs/nothing-here.md", ROOT)
    code = '"""Rules: docs/rules.md."""\n# see docs/tiles.md\nRULES = "docs/RULES.md"\n'
    assert named_paths(python_prose(code)) == ["docs/rules.md", "docs/tiles.md"]


def test_every_path_named_in_the_source_and_the_docs_exists() -> None:
    seen = 0
    missing: list[str] = []
    for file in scanned_files():
        top = file.relative_to(ROOT).parts[0]
        bases = [ROOT, ROOT / top] if top in SELF_RELATIVE else [ROOT]
        if (folder := CHAPTER_OF.get(file.relative_to(ROOT).as_posix())) is not None:
            bases.append(ROOT / folder)
        for path in named_paths(prose(file)):
            seen += 1
            if not any(exists(path, base) for base in bases):
                missing.append(f"{file.relative_to(ROOT)} names {path}, which does not exist")
    assert seen > 300, "the scan found almost no path: is the pattern broken?"
    assert not missing, "\n".join(missing)


DOCS = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_the_docs_describe_no_file_outside_the_repository(doc: Path) -> None:
    """No helper of a development machine (nothing under /work or a home folder) is described:
    a reader has the repository only. The user data directory the server's default SQLite
    file lives in is the one exception, named by its platform path."""
    text = doc.read_text(encoding="utf-8").replace("~/.local/share/quadropolis/", "")
    assert not re.search(r"(?<![\w.])(/work/|/home/|~/\w|~/\.)", text), doc.name


#: A feature named by its ticket instead of its subject: "issue 23", "(issue #7)", "ticket 4".
TICKET = re.compile(r"\b(?:issues?|tickets?) #?\d+|\(#\d+\)", re.I)


def test_no_comment_or_doc_names_a_feature_by_its_ticket() -> None:
    """Comments, docstrings and docs name a feature by its subject: a ticket's number says
    nothing to a reader of the code, who has no access to the tracker."""
    assert TICKET.search("Accounts (issue 23): ...") and TICKET.search("hardening (#7)")
    found = [
        f"{file.relative_to(ROOT)}: {m.group(0)!r}"
        for file in scanned_files()
        if file.name != Path(__file__).name
        for m in TICKET.finditer(prose(file))
    ]
    assert not found, "\n".join(found)
