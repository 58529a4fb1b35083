"""MkDocs hooks for the documentation site (mkdocs.yml): the README becomes the home page and
CHANGELOG.md a page, both read from the repository's root where they live, and their links,
written for the repository, are rewritten for the site (``docs/rules.md`` -> ``rules.md``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[1]
#: Pages from the repository's root: site path -> file.
ROOT_PAGES = {"index.md": ROOT / "README.md", "changelog.md": ROOT / "CHANGELOG.md"}
#: Links written from the root (README, CHANGELOG) or from docs/, as the site needs them.
_FROM_ROOT = [(re.compile(r"\]\(docs/"), "]("), (re.compile(r"\]\(CHANGELOG\.md"), "](changelog.md")]
_FROM_DOCS = [
    (re.compile(r"\]\(\.\./CHANGELOG\.md"), "](changelog.md"),
    (re.compile(r"\]\(\.\./README\.md"), "](index.md"),
]


def on_files(files: Files, config: Any) -> Files:
    for uri, path in ROOT_PAGES.items():
        files.append(File.generated(config, uri, abs_src_path=str(path)))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    rules = _FROM_ROOT if page.file.src_uri in ROOT_PAGES else _FROM_DOCS
    for pattern, replacement in rules:
        markdown = pattern.sub(replacement, markdown)
    return markdown
