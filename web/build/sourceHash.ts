// The hash of every file the build reads, written into the build as build-info.json. The
// Python test suite recomputes it (tests/web/test_assets.py) without node, so committed
// assets that no longer match web/ fail the tests even on a machine without npm.
//
// hash = sha256 over the sorted relative paths p of INPUTS: `${p}\0${sha256(file)}\n`.
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";

/** Files and directories (relative to web/) that determine the build output. */
export const INPUTS = [
  "index.html",
  "rules.html",
  "package-lock.json",
  "vite.config.ts",
  "build",
  "public",
  "src",
  "../docs/rules.md",
  "../docs/tiles.md",
];

function walk(root: string, path: string, out: string[]): void {
  const full = join(root, path);
  if (statSync(full).isDirectory()) {
    for (const name of readdirSync(full)) walk(root, join(path, name), out);
  } else {
    out.push(relative(root, full).split(sep).join("/"));
  }
}

export function sourceFiles(root: string): string[] {
  const files: string[] = [];
  for (const input of INPUTS) walk(root, input, files);
  return files.sort();
}

export function sourceHash(root: string): string {
  const total = createHash("sha256");
  for (const file of sourceFiles(root)) {
    const digest = createHash("sha256").update(readFileSync(join(root, file))).digest("hex");
    total.update(`${file}\0${digest}\n`);
  }
  return total.digest("hex");
}
