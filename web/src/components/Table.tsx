// The game table while it is played: the site, the action panel, the cities, the standings
// and the log. It only draws: what it shows and what its controls do come from `useTable`.
import { t } from "../i18n";
import { useMediaQuery } from "../hooks";
import { seatName } from "../seats";
import type { TileIndex } from "../tiles";
import type { View } from "../types";
import type { GameHandle } from "../useGame";
import { useTable, type TableModel } from "../useTable";
import { ActionPanel } from "./ActionPanel";
import { AnalysisPanel } from "./Analysis";
import { ChatPanel, hasChat } from "./Chat";
import { City } from "./City";
import { ClockBar } from "./Clock";
import { EndScreen } from "./EndScreen";
import { Guide } from "./Guide";
import { guidedGame } from "../guide";
import { ActionLog } from "./Log";
import { SeatMark } from "./SeatMark";
import { Site } from "./Site";
import { Announcer, GameBar, Standings, TurnBanner } from "./TableInfo";

export function Table({ view, handle, tiles, tokens }: { view: View; handle: GameHandle; tiles: TileIndex | null; tokens: Record<number, string> }) {
  const table = useTable(view, handle, tiles, tokens);
  // Three columns: the hint goes to the right-hand column, beside the board; else under it.
  const wide = useMediaQuery("(min-width: 1181px)");
  const { acting } = table;
  const toMoveName = view.to_move !== null ? seatName(view.seats[view.to_move], view.to_move) : "";
  const guidedSeat = view.game !== null && view.game === guidedGame() ? (table.you[0] ?? null) : null;
  const guide = guidedSeat !== null && <Guide view={view} tiles={tiles} seat={guidedSeat} />;
  if (view.status === "over") {
    return (
      <>
        <EndScreen view={view} tiles={tiles} status={handle.status} handle={handle} tokens={tokens} />
        {guide}
      </>
    );
  }
  const analysisPanel = (
    <AnalysisPanel
      state={table.hint.state}
      view={view}
      onPlay={acting !== null ? (m) => void table.actions.send(m) : undefined}
      onClose={table.hint.close}
      onRetry={() => void table.hint.ask()}
    />
  );
  return (
    <main
      class="table-page"
      id="main"
      data-version={view.version}
      data-status={view.status}
      data-phase={view.phase}
      data-acting={acting !== null ? "true" : "false"}
      data-to-move={view.to_move ?? ""}
    >
      <h1 class="sr-only">Quadropolis table</h1>
      <GameBar view={view} status={handle.status} tokens={tokens} />
      <ClockBar view={view} you={table.you} />
      <Announcer view={view} acting={acting} />
      {table.handover !== null && <HandoverDialog view={view} seat={table.handover} onDone={table.endHandover} />}
      <div class={`table-grid players-${view.config.players}`}>
        <div class="col-site">
          <TurnBanner view={view} acting={acting} toMoveName={toMoveName} />
          <Site
            view={view}
            tiles={tiles}
            owners={handle.owners}
            blocked={table.blocked}
            legal={table.lit.legal}
            legalOther={table.lit.other}
            dead={table.dead}
            armed={table.armed?.kind === "take" ? table.armed.slot : null}
            interactive={table.myTake}
            selected={table.architect}
            preview={table.preview}
            last={table.last}
            marks={table.marks.site}
            onSlot={table.onSlot}
            onPreview={table.hover}
          />
          <ActionPanel view={view} tiles={tiles} table={table} toMoveName={toMoveName} />
          {!wide && analysisPanel}
        </div>
        <Cities view={view} table={table} />
        <aside class="col-side">
          {wide && analysisPanel}
          <Standings view={view} />
          {hasChat(view) && <ChatPanel handle={handle} canWrite={table.you.length > 0} />}
          <ActionLog actions={view.last_actions} seats={view.seats} />
        </aside>
      </div>
      {guide}
    </main>
  );
}

/** Hotseat: hides the table until the next player says they hold the device. */
function HandoverDialog({ view, seat, onDone }: { view: View; seat: number; onDone: () => void }) {
  const name = seatName(view.seats[seat], seat);
  return (
    <div class="handover" role="dialog" aria-modal="true" aria-labelledby="handover-title">
      <div class="handover-card">
        <SeatMark seat={seat} size={48} />
        <h2 id="handover-title">{t("hand.title", { name })}</h2>
        <p>{t("hand.pass", { name })}</p>
        {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
        <button type="button" class="btn btn-primary" autoFocus onClick={onDone}>
          {t("hand.show", { name })}
        </button>
      </div>
    </div>
  );
}

/** Every city, the focused one first and large; the acting seat's lit for its build. */
function Cities({ view, table }: { view: View; table: TableModel }) {
  const { acting, myBuild, last } = table;
  return (
    <div class="col-cities">
      {table.order.map((s) => {
        const isActing = s === acting;
        return (
          <City
            key={s}
            view={view}
            seat={s}
            large={s === table.focus}
            mine={table.you.includes(s)}
            eligible={isActing && myBuild ? table.builds : undefined}
            buildScores={isActing && myBuild ? table.buildScores : undefined}
            buildValues={isActing && myBuild ? table.buildValues : undefined}
            armed={isActing && table.armed?.kind === "build" ? table.armed.square : null}
            interactive={isActing && myBuild}
            onSquare={table.onSquare}
            lastSquare={last.seat === s ? last.citySquare : null}
            marks={isActing ? table.marks.city : undefined}
            showBreakdown
          />
        );
      })}
    </div>
  );
}
