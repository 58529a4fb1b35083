// The replay viewer's controller: the record (a stored game's or a file's), the position at
// move N as the server draws it (POST /api/replay, cached), playing at a chosen speed.
import { t } from "./i18n";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, ApiError } from "./api";
import { withUniqueNames } from "./seats";
import type { GameRecord, ReplayReply, View } from "./types";

export const SPEEDS = [
  { label: "0.5×", ms: 2400 },
  { label: "1×", ms: 1200 },
  { label: "2×", ms: 600 },
  { label: "4×", ms: 300 },
  { label: "8×", ms: 150 },
];

/** A record file's text and its parsed form (whose seed may be inexact: never sent back). */
export interface LoadedRecord {
  text: string;
  record: GameRecord;
}

export function parseRecord(text: string): LoadedRecord {
  let data: unknown;
  let source = text;
  try {
    data = JSON.parse(text);
  } catch {
    // JSON Lines: the first record.
    const first = text.split("\n").find((l) => l.trim());
    if (!first) throw new Error(t("replay.emptyFile"));
    try {
      data = JSON.parse(first);
      source = first;
    } catch {
      throw new Error("The file is not JSON.");
    }
  }
  const r = data as Partial<GameRecord> | null;
  if (!r || typeof r !== "object" || r.format !== "quadropolis-game/1" || !Array.isArray(r.moves) || !r.config) {
    throw new Error("This is not a Quadropolis game record (format quadropolis-game/1).");
  }
  return { text: source, record: r as GameRecord };
}

export interface ReplayModel {
  loaded: LoadedRecord | null;
  error: string | null;
  /** The server cannot draw past positions (then only the list of moves is shown). */
  unsupported: boolean;
  at: number;
  total: number;
  reply: ReplayReply | null;
  view: View | null;
  loading: boolean;
  playing: boolean;
  speed: number;
  setSpeed: (speed: number) => void;
  togglePlaying: () => void;
  /** To move `n` (clamped to the game). */
  go: (n: number) => void;
  /** `d` moves forward (back when negative). */
  step: (d: number) => void;
  openFile: (file: File | undefined) => Promise<void>;
}

/** The replay of a stored game (`game`), or of a record file opened later (`game` null). */
export function useReplay(game: string | null): ReplayModel {
  const [loaded, setLoaded] = useState<LoadedRecord | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [unsupported, setUnsupported] = useState(false);
  const [at, setAt] = useState(0);
  const [reply, setReply] = useState<ReplayReply | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const cache = useRef(new Map<number, ReplayReply>());
  const total = loaded?.record.moves.length ?? 0;
  useStoredRecord(game, setLoaded, setAt, setError);
  const fetchAt = usePositions(loaded, cache, setUnsupported, setError, setPlaying);
  const loading = useShownPosition({ loaded, unsupported, at, total, fetchAt, setReply });
  usePlaying({ playing, at, total, speed, reply, setAt, setPlaying });

  const openFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      const r = parseRecord(await file.text());
      cache.current.clear();
      setUnsupported(false);
      setReply(null);
      setLoaded(r);
      setAt(0);
    } catch (e) {
      setError(e instanceof Error ? e.message : t("replay.unreadable"));
    }
  };
  const view = useMemo(() => (reply ? withUniqueNames(reply.view) : null), [reply]);
  return {
    loaded, error, unsupported, at, total, reply, view, loading, playing, speed, setSpeed, openFile,
    togglePlaying: () => setPlaying((p) => !p),
    go: (n) => setAt(Math.max(0, Math.min(total, n))),
    step: (d) => setAt((n) => Math.max(0, Math.min(total, n + d))),
  };
}

/** A stored finished game's record, opened at its last move. */
function useStoredRecord(game: string | null, setLoaded: (r: LoadedRecord) => void, setAt: (n: number) => void, setError: (e: string) => void): void {
  useEffect(() => {
    document.title = "Replay — Quadropolis";
    if (game === null) return;
    api
      .recordText(game)
      .then((text) => {
        const r = parseRecord(text);
        setLoaded(r);
        setAt(r.record.moves.length);
      })
      .catch((e: unknown) => {
        if (e instanceof ApiError && e.code === "not_over") setError(t("error.not_over"));
        else setError(e instanceof Error ? e.message : t("replay.loadFailed"));
      });
  }, [game, setLoaded, setAt, setError]);
}

type Setter<T> = (value: T) => void;

/** The position after `n` moves, asked once from the server and cached (the setters are stable). */
function usePositions(
  loaded: LoadedRecord | null,
  cache: { current: Map<number, ReplayReply> },
  setUnsupported: Setter<boolean>,
  setError: Setter<string>,
  setPlaying: Setter<boolean>,
) {
  return useCallback(
    async (n: number): Promise<ReplayReply | null> => {
      if (!loaded) return null;
      const hit = cache.current.get(n);
      if (hit) return hit;
      try {
        const r = await api.replay(loaded.text, n);
        cache.current.set(n, r);
        return r;
      } catch (e) {
        if (e instanceof ApiError && (e.status === 404 || e.status === 405)) setUnsupported(true);
        else setError(e instanceof Error ? e.message : t("replay.positionFailed"));
        setPlaying(false);
        return null;
      }
    },
    [loaded, cache, setUnsupported, setError, setPlaying],
  );
}

interface ShownPosition {
  loaded: LoadedRecord | null;
  unsupported: boolean;
  at: number;
  total: number;
  fetchAt: (n: number) => Promise<ReplayReply | null>;
  setReply: Setter<ReplayReply>;
}

/** Shows the position at `at` once it comes (and asks for the next one ahead); true while it loads. */
function useShownPosition({ loaded, unsupported, at, total, fetchAt, setReply }: ShownPosition): boolean {
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    if (!loaded || unsupported) return;
    let live = true;
    setLoading(true);
    void fetchAt(at).then((r) => {
      if (!live) return;
      setLoading(false);
      if (r) setReply(r);
      if (r && at < total) void fetchAt(at + 1);
    });
    return () => {
      live = false;
    };
  }, [loaded, at, fetchAt, unsupported, total, setReply]);
  return loading;
}

interface Playing {
  playing: boolean;
  at: number;
  total: number;
  speed: number;
  reply: ReplayReply | null;
  setAt: (update: (n: number) => number) => void;
  setPlaying: Setter<boolean>;
}

/** Playing: one move per tick, stopping at the end (a tick waits for the position shown). */
function usePlaying({ playing, at, total, speed, reply, setAt, setPlaying }: Playing): void {
  useEffect(() => {
    if (!playing) return;
    if (at >= total) {
      setPlaying(false);
      return;
    }
    const t = setTimeout(() => setAt((n) => Math.min(total, n + 1)), SPEEDS[speed]!.ms);
    return () => clearTimeout(t);
  }, [playing, at, total, speed, reply, setAt, setPlaying]);
}
