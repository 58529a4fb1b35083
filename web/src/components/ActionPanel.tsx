// The panel under the site where this client acts: the architects to pick from during a take,
// the building taken during a build (with its discard), the server's notices, undo and hint.
import { t } from "../i18n";
import { canDiscard } from "../play";
import { TEXT } from "../text";
import { describeTile, type TileIndex } from "../tiles";
import type { View } from "../types";
import type { TableModel } from "../useTable";
import { LightbulbIcon, SoundIcon, TrashIcon, UndoIcon } from "./Icons";
import { SeatMark } from "./SeatMark";
import { RuleText } from "./RuleText";
import { TileFace } from "./Tile";

export function ActionPanel({ view, tiles, table, toMoveName }: { view: View; tiles: TileIndex | null; table: TableModel; toMoveName: string }) {
  const { notice } = table.actions;
  return (
    <section class="panel action-panel" aria-label={t("table.yourAction")}>
      {table.myTake && <ArchitectPicker view={view} table={table} />}
      {view.phase === "place" && view.state.pending && <PendingBuilding view={view} tiles={tiles} table={table} toMoveName={toMoveName} />}
      {notice && (
        <p key={notice.key} class={`notice notice-${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"} data-testid="notice">
          <RuleText text={notice.text} />
        </p>
      )}
      {table.armed && <ConfirmButton table={table} />}
      <ActionButtons view={view} table={table} />
    </section>
  );
}

function ArchitectPicker({ view, table }: { view: View; table: TableModel }) {
  const own = Array.isArray(view.state.architects);
  const selected = table.architect;
  return (
    <fieldset class="architects">
      <legend>{own ? t("table.yourArchitects") : t("table.poolArchitects")}</legend>
      <div class="arch-row">
        {table.choices.map((c) => (
          <label key={c.number} class={`arch ${c.playable ? "" : "arch-off"} ${selected === c.number ? "arch-on" : ""}`}>
            <input type="radio" name="architect" value={c.number} checked={selected === c.number} disabled={!c.playable} onChange={() => table.pick(c.number)} />
            <SeatMark seat={table.acting ?? 0} label={String(c.number)} size={34} />
            <span class="sr-only">
              Architect {c.number}
              {own ? (c.left ? "" : " (used this round)") : `, ${c.left} left in the pool`}
            </span>
            {!own && (
              <span class="arch-count" aria-hidden="true">
                ×{c.left}
              </span>
            )}
          </label>
        ))}
      </div>
      <p class="hint-line" aria-live="polite">
        {table.previewText || (table.touch ? TEXT.takeHelpTouch : t("table.takeHelp"))}
      </p>
    </fieldset>
  );
}

function PendingBuilding({ view, tiles, table, toMoveName }: { view: View; tiles: TileIndex | null; table: TableModel; toMoveName: string }) {
  const pending = view.state.pending;
  const pendingTile = pending && tiles ? tiles.get(pending.tile) : undefined;
  const { myBuild } = table;
  return (
    <div class="pending">
      <div class="pending-tile">{pendingTile ? <TileFace tile={pendingTile} /> : null}</div>
      <div class="pending-text">
        <p>
          {myBuild ? (
            <>
              <b>{t("table.buildIt")}</b>
              {t("table.buildHelp", { architect: pending?.architect ?? "" })}
              {table.builds.size === 0 && t("panel.noSquare")}
            </>
          ) : (
            <>{t("panel.placing", { name: toMoveName, tile: pendingTile ? `${pendingTile.label} (${describeTile(pendingTile)})` : t("panel.aBuilding") })}</>
          )}
        </p>
        {myBuild && (
          <button type="button" class="btn" disabled={table.actions.busy || !canDiscard(view)} onClick={() => void table.actions.send("discard")}>
            <TrashIcon class="btn-icon" /> {t("table.discard")} <kbd>D</kbd>
          </button>
        )}
      </div>
    </div>
  );
}

/** Touch: plays what the first tap chose (a second tap on it does the same). */
function ConfirmButton({ table }: { table: TableModel }) {
  const armed = table.armed;
  if (!armed) return null;
  const label = armed.kind === "take" ? TEXT.confirmTake(table.architect ?? 1, armed.slot) : TEXT.confirmBuild(armed.square);
  return (
    <div class="confirm-row">
      <span class="muted small">{TEXT.tapAgain}</span>
      <button type="button" class="btn btn-primary btn-confirm" data-testid="confirm" disabled={table.actions.busy} onClick={table.confirm}>
        {label}
      </button>
    </div>
  );
}

function ActionButtons({ view, table }: { view: View; table: TableModel }) {
  const { busy, undo } = table.actions;
  return (
    <div class="action-buttons">
      {table.you.length > 0 && (
        <button
          type="button"
          class="btn"
          disabled={busy || (view.can_undo?.length ?? 0) === 0}
          onClick={() => void undo()}
          title={t("table.undoTitle")}
        >
          <UndoIcon class="btn-icon" /> {t("table.undo")} <kbd>U</kbd>
        </button>
      )}
      {table.hintAllowed && (
        <button type="button" class="btn" disabled={table.hint.state.status === "loading"} onClick={() => void table.hint.ask()}>
          <LightbulbIcon class="btn-icon" /> {t("table.hint")} <kbd>H</kbd>
        </button>
      )}
      <button
        type="button"
        class={`btn btn-quiet sound-toggle${table.sound ? " on" : ""}`}
        aria-pressed={table.sound ? "true" : "false"}
        title={table.sound ? TEXT.soundOn : TEXT.soundOff}
        onClick={table.toggleSound}
        data-testid="sound"
      >
        <SoundIcon on={table.sound} class="btn-icon" /> {TEXT.sound}
      </button>
    </div>
  );
}
