// The new-game form's further options: the variants, a public table, bots standing in for
// players who leave (after how long, of which level), and the clock.
import type { ComponentChildren } from "preact";
import { t } from "../i18n";
import type { LevelDescriptions } from "../levels";
import { MOVE_TIMES } from "../newGame";
import { LEVEL_NAMES, levelWord } from "../seats";
import { LEVELS, type Level } from "../types";
import type { NewGameForm } from "../useLobby";
import { perMoveWords } from "./Clock";

/** The `<option>`s of a bot level select, weakest first. */
export function LevelOptions() {
  return (
    <>
      {LEVELS.map((l) => (
        <option key={l} value={l}>
          {levelWord(l)}
        </option>
      ))}
    </>
  );
}

function Check({ checked, onChange, children }: { checked: boolean; onChange: (on: boolean) => void; children: ComponentChildren }) {
  return (
    <label class="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
      <span>{children}</span>
    </label>
  );
}

export function MoreOptions({ form, levels }: { form: NewGameForm; levels: LevelDescriptions }) {
  const { square, allParks, isPublic, takeover } = form.choices;
  return (
    <details class="more-options">
      <summary>{t("lobby.options")}</summary>
      <Check checked={square} onChange={(on) => form.set({ square: on })}>
        <b>{t("lobby.optSquare")}</b> {t("lobby.optSquareWhy")}
      </Check>
      <Check checked={allParks} onChange={(on) => form.set({ allParks: on })}>
        <b>{t("lobby.optParks")}</b> {t("lobby.optParksWhy")}
      </Check>
      <Check checked={isPublic} onChange={(on) => form.set({ isPublic: on })}>
        <b>{t("lobby.optPublic")}</b> {t("lobby.optPublicWhy")}
      </Check>
      <Check checked={takeover} onChange={(on) => form.set({ takeover: on })}>
        <b>{t("lobby.optTakeover")}</b>
      </Check>
      {takeover && <TakeoverOptions form={form} levels={levels} />}
      <MoveTime form={form} />
    </details>
  );
}

function MoveTime({ form }: { form: NewGameForm }) {
  const { moveTime } = form.choices;
  return (
    <div class="move-time">
      <label>
        {t("clock.label")}{" "}
        <select
          value={moveTime ?? ""}
          data-testid="move-time"
          onChange={(e) => {
            const v = (e.target as HTMLSelectElement).value;
            form.set({ moveTime: v === "" ? null : Number(v) });
          }}
        >
          <option value="">{t("clock.none")}</option>
          {MOVE_TIMES.map((s) => (
            <option key={s} value={s}>
              {perMoveWords(s)}
            </option>
          ))}
        </select>
      </label>
      <p class="muted small" id="move-time-why">
        {t("clock.why")}
      </p>
    </div>
  );
}

function TakeoverOptions({ form, levels }: { form: NewGameForm; levels: LevelDescriptions }) {
  const { takeoverAfter, takeoverLevel } = form.choices;
  const takeoverHint = levels[takeoverLevel];
  return (
    <>
      <div class="takeover">
        <label>
          {t("lobby.after")}
          <select value={takeoverAfter} onChange={(e) => form.set({ takeoverAfter: Number((e.target as HTMLSelectElement).value) })}>
            {[30, 60, 120, 300, 900].map((s) => (
              <option key={s} value={s}>
                {s < 60 ? t("lobby.seconds", { count: s }) : t("lobby.minutes", { count: s / 60 })}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("lobby.botLevel")}
          <select
            value={takeoverLevel}
            onChange={(e) => form.set({ takeoverLevel: (e.target as HTMLSelectElement).value as Level })}
            data-testid="takeover-level"
            title={takeoverHint}
            aria-describedby={takeoverHint ? "takeover-level-hint" : undefined}
          >
            <LevelOptions />
          </select>
        </label>
      </div>
      {takeoverHint && (
        <p class="level-hint muted small" id="takeover-level-hint">
          <b>{LEVEL_NAMES[takeoverLevel]}</b>: {takeoverHint}
        </p>
      )}
    </>
  );
}
