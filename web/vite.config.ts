// The build writes the client into the Python package (src/quadropolis/server/static/), which
// the server serves at "/". The output is deterministic (content-hashed names, no dates), so
// `scripts/frontend.sh` can rebuild into a temporary directory and compare with the committed
// files.
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";
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

export default defineConfig({
  root,
  base: "/",
  plugins: [buildInfo()],
  build: {
    outDir: process.env.QUADROPOLIS_WEB_OUT ?? fileURLToPath(new URL("../src/quadropolis/server/static", import.meta.url)),
    emptyOutDir: true,
    target: "es2020",
    sourcemap: false,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    rollupOptions: {
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
