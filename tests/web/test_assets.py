"""The browser client shipped in the package (src/quadropolis/server/static/, built from web/
and committed so that ``pip install`` users need no node) is not stale, works offline, and is
what the server serves at ``/``.

* The build records the hash of every file it reads (build-info.json); this test recomputes
  it in Python, so a change in web/ without a rebuild fails even where node is absent.
* Where node and web/node_modules are present (``scripts/frontend.sh`` installs them), the
  client is rebuilt into a temporary directory and must equal the committed files byte for
  byte (the build is deterministic)."""

from __future__ import annotations

import filecmp
import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import httpx
from web_helpers import STATIC, WEB, need, running_server

#: What the build reads (web/build/sourceHash.ts, INPUTS): keep both lists the same.
INPUTS = (
    "index.html",
    "rules.html",
    "package-lock.json",
    "vite.config.ts",
    "build",
    "public",
    "src",
    "../docs/rules.md",
    "../docs/tiles.md",
)


def source_hash(root: Path = WEB) -> str:
    files: list[str] = []
    for name in INPUTS:
        path = root / name
        if path.is_dir():
            files += [p.relative_to(root).as_posix() for p in path.rglob("*") if p.is_file()]
        else:
            files.append(name)
    total = hashlib.sha256()
    for rel in sorted(files):
        digest = hashlib.sha256((root / rel).read_bytes()).hexdigest()
        total.update(f"{rel}\0{digest}\n".encode())
    return total.hexdigest()


def test_the_committed_client_was_built_from_the_sources_in_web() -> None:
    info = json.loads((STATIC / "build-info.json").read_text())
    assert info["format"] == "quadropolis-web-build/1"
    assert info["sources"] == source_hash(), (
        "src/quadropolis/server/static/ is stale: web/ changed since the last build; "
        "run `npm --prefix web run build` (or `bash scripts/frontend.sh`) and commit the result"
    )


def test_a_rebuild_gives_exactly_the_committed_files(tmp_path: Path) -> None:
    npm = shutil.which("npm")
    need(
        npm is not None and (WEB / "node_modules" / ".bin" / "vite").exists(),
        "node and web/node_modules are needed",
    )
    assert npm is not None
    out = tmp_path / "static"
    env = {**os.environ, "QUADROPOLIS_WEB_OUT": str(out)}
    subprocess.run(
        [npm, "run", "--silent", "build"], cwd=WEB, env=env, check=True, capture_output=True, timeout=300
    )
    compare = filecmp.dircmp(out, STATIC)
    stale: list[str] = []

    def walk(d: filecmp.dircmp[str], prefix: str = "") -> None:
        stale.extend(prefix + n for n in d.left_only + d.right_only + d.diff_files + d.funny_files)
        _, mismatch, errors = filecmp.cmpfiles(d.left, d.right, d.common_files, shallow=False)
        stale.extend(prefix + n for n in mismatch + errors)
        for name, sub in d.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(compare)
    assert not stale, f"the committed client differs from a fresh build: {sorted(set(stale))}"


def test_the_client_loads_nothing_from_other_sites() -> None:
    for path in STATIC.rglob("*"):
        if path.suffix not in (".html", ".js", ".css", ".svg", ".json"):
            continue
        text = path.read_text()
        urls = set(re.findall(r"""(?:https?:)?//[A-Za-z0-9.-]+\.[a-z]{2,}[^\s"'`)]*""", text))
        # XML namespaces are names, not downloads.
        urls = {u for u in urls if not u.startswith(("http://www.w3.org/", "//www.w3.org/"))}
        assert not urls, f"{path.name} refers to other sites: {sorted(urls)[:5]}"
        assert "@import" not in text and "fonts.googleapis" not in text


def test_the_server_serves_the_client_at_the_root(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        index = httpx.get(server.url + "/", timeout=10)
        assert index.status_code == 200 and "text/html" in index.headers["content-type"]
        assets = re.findall(r'(?:src|href)="(/[^"]+)"', index.text)
        assert any(a.endswith(".js") for a in assets) and any(a.endswith(".css") for a in assets)
        for asset in assets:
            assert httpx.get(server.url + asset, timeout=10).status_code == 200, asset
        # A seat link is the same page: the client reads the query and the fragment.
        assert httpx.get(server.url + "/?game=abc&seat=0", timeout=10).text == index.text
