// The replay viewer: a stored finished game (GET /api/games/{id}/record) or a record file;
// step forward and back, jump to a round, play at a chosen speed. The board at move N comes
// from the server (POST /api/replay {"record", "at"}): the client never replays the rules.
import { t } from "../i18n";
import { useEffect, useMemo } from "preact/hooks";
import { api } from "../api";
import { useShortcuts, useTiles } from "../hooks";
import { useHint, type Hint } from "../hint";
import { hintMarks } from "../marks";
import { blockedSlots, lastMove } from "../play";
import { linkTo } from "../route";
import { seatName } from "../seats";
import { indexTiles, type TileIndex } from "../tiles";
import type { View } from "../types";
import { useSlotOwners } from "../useGame";
import { SPEEDS, useReplay, type ReplayModel } from "../useReplay";
import { AnalysisPanel } from "./Analysis";
import { City } from "./City";
import { EndSummary, placementOf } from "./EndScreen";
import { LightbulbIcon, PauseIcon, PlayIcon, StepIcon } from "./Icons";
import { ReviewPanel } from "./Review";
import { RuleText } from "./RuleText";
import { ActionLog } from "./Log";
import { ScoreSheet } from "./ScoreSheet";
import { Site } from "./Site";

export function Replay({ game }: { game: string | null }) {
  const replay = useReplay(game);
  const { loaded, at, total, view, error } = replay;
  const record = loaded?.record ?? null;
  const tiles = useTiles();
  const index = useMemo(() => (tiles && record ? indexTiles(tiles, record.config.variants) : null), [tiles, record]);
  const hint = useHint({
    at,
    request: loaded ? () => (game !== null ? api.analysis(game, at) : api.analyseRecord(loaded.text, at)) : null,
    failure: t("replay.analysisFailed"),
  });
  const { close } = hint;
  // Any move of the replay, even one made while the bot thinks, closes the hint.
  useEffect(() => close(), [at, close]);
  useShortcuts((e) => replayShortcut(e, replay));
  return (
    <main class="replay-page" id="main">
      <div class="replay-head">
        <h1>{t("replay.title")}</h1>
        {game === null && (
          <label class="btn file-btn">
            {t("lobby.recordOpen")}
            <input type="file" accept=".json,.jsonl,application/json" onChange={(e) => void replay.openFile((e.target as HTMLInputElement).files?.[0])} />
          </label>
        )}
        {game !== null && (
          <a class="btn btn-quiet btn-small" href={`/?game=${game}`} onClick={linkTo(`/?game=${game}`)}>
            {t("lobby.finalTable")}
          </a>
        )}
      </div>
      {error && (
        <p class="notice notice-error" role="alert">
          <RuleText text={error} />
        </p>
      )}
      {!record && game === null && !error && (
        <div class="panel drop" onDragOver={(e) => e.preventDefault()} onDrop={(e) => { e.preventDefault(); void replay.openFile(e.dataTransfer?.files[0]); }}>
          <p>{t("replay.choose", { format: "quadropolis-game/1", command: "quadropolis simulate --records" })}</p>
        </div>
      )}
      {record && <ReplayControls replay={replay} />}
      {loaded && view && <ReviewPanel game={game} recordText={loaded.text} names={view.seats.map((s, i) => seatName(s, i))} at={at} go={replay.go} />}
      {replay.unsupported && record && <MoveList moves={record.moves} />}
      {view && <ReplayBoard view={view} tiles={index} hint={hint} canAnalyse={hint.offered && view.status !== "over" && (view.analysis ?? true) && at < total} />}
    </main>
  );
}

/** Arrows step, Home and End jump, the space bar plays and pauses (a focused button keeps it). */
function replayShortcut(e: KeyboardEvent, replay: ReplayModel): void {
  const t = e.target as HTMLElement | null;
  if (e.key === "ArrowRight") replay.step(1);
  else if (e.key === "ArrowLeft") replay.step(-1);
  else if (e.key === "Home") replay.go(0);
  else if (e.key === "End") replay.go(replay.total);
  else if (e.key === " " && t?.tagName !== "BUTTON") replay.togglePlaying();
  else return;
  e.preventDefault();
}

function ReplayControls({ replay }: { replay: ReplayModel }) {
  const { at, total, view, go, step, playing } = replay;
  const rounds = replay.reply?.rounds ?? [];
  return (
    <section class="replay-controls panel" aria-label={t("replay.controls")}>
      <div class="transport">
        <button type="button" class="btn btn-icon-only" onClick={() => go(0)} disabled={at === 0} aria-label={t("replay.first")}>
          <StepIcon back end />
        </button>
        <button type="button" class="btn btn-icon-only" onClick={() => step(-1)} disabled={at === 0} aria-label={t("replay.back")} data-testid="step-back">
          <StepIcon back />
        </button>
        <button type="button" class="btn btn-icon-only btn-primary" onClick={replay.togglePlaying} disabled={replay.unsupported} aria-label={playing ? t("replay.pause") : t("replay.play")} aria-pressed={playing}>
          {playing ? <PauseIcon /> : <PlayIcon />}
        </button>
        <button type="button" class="btn btn-icon-only" onClick={() => step(1)} disabled={at >= total} aria-label={t("replay.forward")} data-testid="step-forward">
          <StepIcon />
        </button>
        <button type="button" class="btn btn-icon-only" onClick={() => go(total)} disabled={at >= total} aria-label={t("replay.last")}>
          <StepIcon end />
        </button>
        <label class="speed">
          {t("replay.speed")}
          <select value={replay.speed} onChange={(e) => replay.setSpeed(Number((e.target as HTMLSelectElement).value))}>
            {SPEEDS.map((s, i) => (
              <option key={s.label} value={i}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <span class="move-count" data-testid="replay-at" aria-live="polite">
          {t("replay.moveOf", { at, total })}
          {replay.loading && <span class="spinner small" aria-hidden="true" />}
        </span>
      </div>
      <input
        type="range"
        class="scrubber"
        min={0}
        max={total}
        value={at}
        aria-label={t("replay.move")}
        aria-valuetext={t("replay.moveOf", { at, total })}
        onInput={(e) => go(Number((e.target as HTMLInputElement).value))}
        data-testid="scrubber"
      />
      {rounds.length > 0 && (
        <div class="rounds" role="group" aria-label={t("replay.jump")}>
          {rounds.map((r) => (
            <button type="button" key={r.round} class={`btn btn-small ${view?.round === r.round && at >= r.at ? "on" : ""}`} onClick={() => go(r.at)}>
              {t("replay.round", { round: r.round })}
            </button>
          ))}
          <button type="button" class="btn btn-small" onClick={() => go(total)}>
            {t("replay.end")}
          </button>
        </div>
      )}
      <p class="current-move">{currentMove(replay)}</p>
    </section>
  );
}

/** The move that led to the position shown, in words. */
function currentMove({ at, view, loaded }: ReplayModel): string {
  const current = view?.last_actions[view.last_actions.length - 1];
  if (at === 0) return t("replay.start");
  if (current) return `${seatName(view?.seats[current.seat], current.seat)}: ${current.text || current.move}`;
  return `Move ${at}: ${loaded?.record.moves[at - 1]}`;
}

/** Without the server's positions: the moves of the game as a list. */
function MoveList({ moves }: { moves: string[] }) {
  return (
    <section class="panel">
      <p class="notice notice-info">This server cannot show past positions yet. The moves of the game:</p>
      <ol class="move-list">
        {moves.map((m, i) => (
          <li key={i}>
            <code>{m}</code>
          </li>
        ))}
      </ol>
    </section>
  );
}

function ReplayBoard({ view, tiles, hint, canAnalyse }: { view: View; tiles: TileIndex | null; hint: Hint; canAnalyse: boolean }) {
  const owners = useSlotOwners(null, view);
  const last = useMemo(() => lastMove(view.last_actions), [view]);
  const marks = hintMarks(hint.state.status === "ready" ? hint.state.reply : null);
  const over = view.status === "over";
  const toMove = view.to_move !== null ? seatName(view.seats[view.to_move], view.to_move) : "";
  return (
    <div class={`table-grid replay-grid players-${view.config.players}`}>
      <div class="col-site">
        <div class="turn-banner">{over ? t("replay.over") : t(view.phase === "place" ? "replay.toBuild" : "replay.toPlay", { round: view.round, turn: view.turn, name: toMove })}</div>
        <Site view={view} tiles={tiles} owners={owners} blocked={blockedSlots(view)} legal={new Set()} legalOther={new Set()} interactive={false} selected={null} preview={null} last={last} marks={marks.site} />
        {canAnalyse && (
          <div class="action-buttons">
            <button type="button" class="btn" onClick={() => void hint.ask()} disabled={hint.state.status === "loading"}>
              <LightbulbIcon class="btn-icon" /> What would hard play here?
            </button>
          </div>
        )}
        <AnalysisPanel state={hint.state} view={view} onClose={hint.close} onRetry={() => void hint.ask()} />
      </div>
      <div class="col-cities">
        {over && <EndSummary view={view} />}
        {view.seats.map((_, s) => (
          <City
            key={s}
            view={view}
            seat={s}
            lastSquare={last.seat === s ? last.citySquare : null}
            marks={view.to_move === s ? marks.city : undefined}
            placement={over ? placementOf(view, s) : null}
            showBreakdown
          />
        ))}
        <ScoreSheet view={view} />
      </div>
      <aside class="col-side">
        <ActionLog actions={view.last_actions} seats={view.seats} title={t("replay.soFar")} />
      </aside>
    </div>
  );
}
