// The replay viewer: a stored finished game (GET /api/games/{id}/record) or a record file;
// step forward and back, jump to a round, play at a chosen speed. The board at move N comes
// from the server (POST /api/replay {"record", "at"}): the client never replays the rules.
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { useTiles } from "../hooks";
import { blockedSlots, candidateMarks, lastMove } from "../play";
import { linkTo } from "../route";
import { seatName, withUniqueNames } from "../seats";
import { indexTiles } from "../tiles";
import type { GameRecord, ReplayReply } from "../types";
import { useSlotOwners } from "../useGame";
import { AnalysisPanel, type AnalysisState } from "./Analysis";
import { City, type CityMark } from "./City";
import { EndSummary, placementOf } from "./EndScreen";
import { LightbulbIcon, PauseIcon, PlayIcon, StepIcon } from "./Icons";
import { ActionLog } from "./Log";
import { ScoreSheet } from "./ScoreSheet";
import { Site, type SiteMark } from "./Site";

const SPEEDS = [
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
    if (!first) throw new Error("The file is empty.");
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

export function Replay({ game }: { game: string | null }) {
  const [loaded, setLoaded] = useState<LoadedRecord | null>(null);
  const record = loaded?.record ?? null;
  const [error, setError] = useState<string | null>(null);
  const [unsupported, setUnsupported] = useState(false);
  const [at, setAt] = useState(0);
  const [reply, setReply] = useState<ReplayReply | null>(null);
  const [loading, setLoading] = useState(false);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(1);
  const [analysis, setAnalysis] = useState<AnalysisState>({ status: "idle" });
  const [analysisOff, setAnalysisOff] = useState(false);
  const cache = useRef(new Map<number, ReplayReply>());
  const tiles = useTiles();
  const view = useMemo(() => (reply ? withUniqueNames(reply.view) : null), [reply]);
  const index = useMemo(() => (tiles && record ? indexTiles(tiles, record.config.variants) : null), [tiles, record]);
  const owners = useSlotOwners(null, view);
  const total = record?.moves.length ?? 0;

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
        if (e instanceof ApiError && e.code === "not_over") setError("This game is still being played: watch it live instead.");
        else setError(e instanceof Error ? e.message : "The record could not be loaded.");
      });
  }, [game]);

  const fetchAt = useCallback(
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
        else setError(e instanceof Error ? e.message : "The position could not be loaded.");
        setPlaying(false);
        return null;
      }
    },
    [loaded],
  );

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
  }, [loaded, at, fetchAt, unsupported, total]);

  // Playing: one move per tick, stopping at the end.
  useEffect(() => {
    if (!playing) return;
    if (at >= total) {
      setPlaying(false);
      return;
    }
    const t = setTimeout(() => setAt((n) => Math.min(total, n + 1)), SPEEDS[speed]!.ms);
    return () => clearTimeout(t);
  }, [playing, at, total, speed, reply]);

  useEffect(() => setAnalysis({ status: "idle" }), [at]);

  const go = (n: number) => setAt(Math.max(0, Math.min(total, n)));
  const step = (d: number) => setAt((n) => Math.max(0, Math.min(total, n + d)));

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      if (e.key === "ArrowRight") step(1);
      else if (e.key === "ArrowLeft") step(-1);
      else if (e.key === "Home") go(0);
      else if (e.key === "End") go(total);
      else if (e.key === " " && t?.tagName !== "BUTTON") setPlaying((p) => !p);
      else return;
      e.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  });

  const analyse = async () => {
    if (!loaded) return;
    const n = at;
    setAnalysis({ status: "loading", at: n });
    try {
      const r = game !== null ? await api.analysis(game, n) : await api.analyseRecord(loaded.text, n);
      setAnalysis({ status: "ready", at: n, reply: r });
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 403)) {
        setAnalysisOff(true);
        setAnalysis({ status: "unavailable" });
      } else setAnalysis({ status: "error", at: n, message: e instanceof Error ? e.message : "The analysis failed." });
    }
  };

  const onFile = async (file: File | undefined) => {
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
      setError(e instanceof Error ? e.message : "The file could not be read.");
    }
  };

  const rounds = reply?.rounds ?? [];
  const last = useMemo(() => lastMove(view?.last_actions ?? []), [view]);
  const siteMarks: SiteMark[] = [];
  const cityMarks: CityMark[] = [];
  if (analysis.status === "ready" && view) {
    analysis.reply.candidates.forEach((c, i) => {
      const m = candidateMarks(view, c.move);
      const best = c.move === analysis.reply.best;
      if (m.slot) siteMarks.push({ rank: i + 1, slot: m.slot, siteSquare: m.siteSquare, best });
      if (m.citySquare) cityMarks.push({ rank: i + 1, square: m.citySquare, best });
    });
  }
  const current = view?.last_actions[view.last_actions.length - 1];
  const canAnalyse = !analysisOff && view !== null && view.status !== "over" && (view.analysis ?? true) && at < total;

  return (
    <main class="replay-page" id="main">
      <div class="replay-head">
        <h1>Replay</h1>
        {game === null && (
          <label class="btn file-btn">
            Open a record file…
            <input type="file" accept=".json,.jsonl,application/json" onChange={(e) => void onFile((e.target as HTMLInputElement).files?.[0])} />
          </label>
        )}
        {game !== null && (
          <a class="btn btn-quiet btn-small" href={`/?game=${game}`} onClick={linkTo(`/?game=${game}`)}>
            Final table
          </a>
        )}
      </div>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
      {!record && game === null && !error && (
        <div class="panel drop" onDragOver={(e) => e.preventDefault()} onDrop={(e) => { e.preventDefault(); void onFile(e.dataTransfer?.files[0]); }}>
          <p>Choose a game record (<code>quadropolis-game/1</code> JSON, as downloaded at the end of a game or saved by <code>quadropolis simulate --records</code>), or drop it here.</p>
        </div>
      )}
      {record && (
        <section class="replay-controls panel" aria-label="Replay controls">
          <div class="transport">
            <button type="button" class="btn btn-icon-only" onClick={() => go(0)} disabled={at === 0} aria-label="First move (Home)">
              <StepIcon back end />
            </button>
            <button type="button" class="btn btn-icon-only" onClick={() => step(-1)} disabled={at === 0} aria-label="Step back (left arrow)" data-testid="step-back">
              <StepIcon back />
            </button>
            <button type="button" class="btn btn-icon-only btn-primary" onClick={() => setPlaying((p) => !p)} disabled={unsupported} aria-label={playing ? "Pause (space)" : "Play (space)"} aria-pressed={playing}>
              {playing ? <PauseIcon /> : <PlayIcon />}
            </button>
            <button type="button" class="btn btn-icon-only" onClick={() => step(1)} disabled={at >= total} aria-label="Step forward (right arrow)" data-testid="step-forward">
              <StepIcon />
            </button>
            <button type="button" class="btn btn-icon-only" onClick={() => go(total)} disabled={at >= total} aria-label="Last move (End)">
              <StepIcon end />
            </button>
            <label class="speed">
              Speed
              <select value={speed} onChange={(e) => setSpeed(Number((e.target as HTMLSelectElement).value))}>
                {SPEEDS.map((s, i) => (
                  <option key={s.label} value={i}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
            <span class="move-count" data-testid="replay-at" aria-live="polite">
              Move {at} of {total}
              {loading && <span class="spinner small" aria-hidden="true" />}
            </span>
          </div>
          <input
            type="range"
            class="scrubber"
            min={0}
            max={total}
            value={at}
            aria-label="Move"
            aria-valuetext={`move ${at} of ${total}`}
            onInput={(e) => go(Number((e.target as HTMLInputElement).value))}
            data-testid="scrubber"
          />
          {rounds.length > 0 && (
            <div class="rounds" role="group" aria-label="Jump to a round">
              {rounds.map((r) => (
                <button type="button" key={r.round} class={`btn btn-small ${view?.round === r.round && at >= r.at ? "on" : ""}`} onClick={() => go(r.at)}>
                  Round {r.round}
                </button>
              ))}
              <button type="button" class="btn btn-small" onClick={() => go(total)}>
                End
              </button>
            </div>
          )}
          <p class="current-move">
            {at === 0 ? "The start of the game." : current ? `${seatName(view?.seats[current.seat], current.seat)}: ${current.text || current.move}` : `Move ${at}: ${record.moves[at - 1]}`}
          </p>
        </section>
      )}
      {unsupported && record && (
        <section class="panel">
          <p class="notice notice-info">This server cannot show past positions yet. The moves of the game:</p>
          <ol class="move-list">
            {record.moves.map((m, i) => (
              <li key={i}>
                <code>{m}</code>
              </li>
            ))}
          </ol>
        </section>
      )}
      {view && (
        <div class={`table-grid replay-grid players-${view.config.players}`}>
          <div class="col-site">
            <div class="turn-banner">
              {view.status === "over" ? "Game over" : `Round ${view.round} · turn ${view.turn} · ${view.to_move !== null ? seatName(view.seats[view.to_move], view.to_move) : ""} to ${view.phase === "place" ? "build" : "play"}`}
            </div>
            <Site
              view={view}
              tiles={index}
              owners={owners}
              blocked={blockedSlots(view)}
              legal={new Set()}
              legalOther={new Set()}
              interactive={false}
              selected={null}
              preview={null}
              last={last}
              marks={siteMarks}
            />
            {canAnalyse && (
              <div class="action-buttons">
                <button type="button" class="btn" onClick={() => void analyse()} disabled={analysis.status === "loading"}>
                  <LightbulbIcon class="btn-icon" /> What would hard play here?
                </button>
              </div>
            )}
            <AnalysisPanel state={analysis} view={view} onClose={() => setAnalysis({ status: "idle" })} onRetry={() => void analyse()} />
          </div>
          <div class="col-cities">
            {view.status === "over" && <EndSummary view={view} />}
            {view.seats.map((_, s) => (
              <City
                key={s}
                view={view}
                seat={s}
                lastSquare={last.seat === s ? last.citySquare : null}
                marks={view.to_move === s ? cityMarks : undefined}
                placement={view.status === "over" ? placementOf(view, s) : null}
                showBreakdown
              />
            ))}
            <ScoreSheet view={view} />
          </div>
          <aside class="col-side">
            <ActionLog actions={view.last_actions} seats={view.seats} title="Moves so far" />
          </aside>
        </div>
      )}
    </main>
  );
}
