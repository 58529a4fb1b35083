import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "./api";
import { parseRoute, type Route } from "./route";
import type { TileInfo } from "./types";

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.search, window.location.hash));
  useEffect(() => {
    const update = () => setRoute(parseRoute(window.location.search, window.location.hash));
    window.addEventListener("popstate", update);
    window.addEventListener("hashchange", update);
    return () => {
      window.removeEventListener("popstate", update);
      window.removeEventListener("hashchange", update);
    };
  }, []);
  return route;
}

let tilesPromise: Promise<TileInfo[]> | null = null;

/** The tile manifest (fetched once per page). */
export function useTiles(): TileInfo[] | null {
  const [tiles, setTiles] = useState<TileInfo[] | null>(null);
  useEffect(() => {
    tilesPromise ??= api.tiles().catch((e: unknown) => {
      tilesPromise = null;
      throw e;
    });
    let live = true;
    tilesPromise.then((t) => live && setTiles(t)).catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return tiles;
}

/** Re-render every `ms` milliseconds while `on`. */
export function useTicker(ms: number, on = true): number {
  const [n, setN] = useState(0);
  useEffect(() => {
    if (!on) return;
    const t = setInterval(() => setN((x) => x + 1), ms);
    return () => clearInterval(t);
  }, [ms, on]);
  return n;
}

export function useMediaQuery(query: string): boolean {
  const [match, setMatch] = useState(() => window.matchMedia(query).matches);
  useEffect(() => {
    const mq = window.matchMedia(query);
    const update = () => setMatch(mq.matches);
    mq.addEventListener("change", update);
    return () => mq.removeEventListener("change", update);
  }, [query]);
  return match;
}

/** Whether a key press goes to a form field (typing there is never a shortcut). */
export function isTyping(target: EventTarget | null): boolean {
  const t = target as HTMLElement | null;
  return !!t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable);
}

/** A page's keyboard shortcuts: `onKey` sees every key press that is not typing in a field. */
export function useShortcuts(onKey: (e: KeyboardEvent) => void): void {
  // The newest handler, so that the listener is added once yet sees this render's state.
  const latest = useRef(onKey);
  latest.current = onKey;
  useEffect(() => {
    const listener = (e: KeyboardEvent) => {
      if (!isTyping(e.target)) latest.current(e);
    };
    window.addEventListener("keydown", listener);
    return () => window.removeEventListener("keydown", listener);
  }, []);
}
