// The build writes the client into the Python package (src/quadropolis/server/static/), which
// the server serves at "/". The output is deterministic (content-hashed names, no dates), so
// `scripts/frontend.sh` can rebuild into a temporary directory and compare with the committed
// files.
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
import { RULES_SLOT, renderRules } from "./build/rules";
import { sourceHash } from "./build/sourceHash";

const root = fileURLToPath(new URL(".", import.meta.url));

function buildInfo(): Plugin {
  return {
    name: "quadropolis-build-info",
    apply: "build",
    generateBundle() {
      const info = { format: "quadropolis-web-build/1", sources: sourceHash(root) };
      this.emitFile({ type: "asset", fileName: "build-info.json", source: JSON.stringify(info, null, 2) + "\n" });
    },
  };
}

/** The rules page: docs/rules.md and docs/tiles.md rendered into rules.html (served at /rules). */
function rulesPage(): Plugin {
  return {
    name: "quadropolis-rules-page",
    transformIndexHtml: {
      order: "pre",
      handler(html, ctx) {
        if (!ctx.filename.endsWith("rules.html")) return html;
        if (!html.includes(RULES_SLOT)) throw new Error(`rules.html has no ${RULES_SLOT}`);
        return html.replace(RULES_SLOT, renderRules(fileURLToPath(new URL("../docs", import.meta.url))));
      },
    },
  };
}

export default defineConfig({
  root,
  base: "/",
  plugins: [buildInfo(), rulesPage()],
  build: {
    outDir: process.env.QUADROPOLIS_WEB_OUT ?? fileURLToPath(new URL("../src/quadropolis/server/static", import.meta.url)),
    emptyOutDir: true,
    target: "es2020",
    sourcemap: false,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rollupOptions: {
      input: { app: fileURLToPath(new URL("index.html", import.meta.url)), rules: fileURLToPath(new URL("rules.html", import.meta.url)) },
      output: {
        entryFileNames: "assets/app-[hash].js",
        chunkFileNames: "assets/[name]-[hash].js",
        assetFileNames: "assets/[name]-[hash][extname]",
      },
    },
  },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
});
