// The new-game form: mode, players, each seat a human or a bot level (with the levels'
// descriptions), who plays first, and the further options (NewGameOptions.tsx). It only
// draws: its controller is `useNewGameForm`.
import type { LevelDescriptions } from "../levels";
import { LEVEL_NAMES, seatShapeWord } from "../seats";
import { TEXT } from "../text";
import { t } from "../i18n";
import { SEAT_OPTIONS, type SeatChoice } from "../newGame";
import { isLevel, LEVELS, type Created, type Level } from "../types";
import { useNewGameForm, type NewGameForm } from "../useLobby";
import { MoreOptions } from "./NewGameOptions";
import { SeatMark } from "./SeatMark";

const levelHintId = (level: Level) => `level-hint-${level}`;

export function NewGame({ onCreated, levels = {} }: { onCreated: (c: Created) => void; levels?: LevelDescriptions }) {
  const form = useNewGameForm(onCreated);
  const { mode, players, name } = form.choices;
  const hasInvite = form.choices.seats.slice(0, players).includes("invite");
  return (
    <form class="panel new-game" onSubmit={(e) => void form.submit(e)} aria-labelledby="new-game-title">
      <h2 id="new-game-title" class="panel-title">
        {t("lobby.newGame")}
      </h2>
      <fieldset class="choice-cards">
        <legend>{t("lobby.mode")}</legend>
        <label class={`choice ${mode === "classic" ? "on" : ""}`}>
          <input type="radio" name="mode" value="classic" checked={mode === "classic"} onChange={() => form.set({ mode: "classic" })} />
          <b>{t("mode.classic")}</b>
          <span>{t("lobby.classicLead")}</span>
        </label>
        <label class={`choice ${mode === "expert" ? "on" : ""}`}>
          <input type="radio" name="mode" value="expert" checked={mode === "expert"} onChange={() => form.set({ mode: "expert" })} />
          <b>{t("mode.expert")}</b>
          <span>{t("lobby.expertLead")}</span>
        </label>
      </fieldset>
      <fieldset class="segmented">
        <legend>{t("lobby.players")}</legend>
        {[2, 3, 4].map((n) => (
          <label key={n} class={players === n ? "on" : ""}>
            <input type="radio" name="players" value={n} checked={players === n} onChange={() => form.set({ players: n })} />
            {n}
          </label>
        ))}
      </fieldset>
      <label class="field">
        {t("lobby.yourName")}
        <input value={name} maxLength={40} placeholder={t("lobby.defaultName")} onInput={(e) => form.set({ name: (e.target as HTMLInputElement).value })} autoComplete="nickname" />
      </label>
      <SeatChoices form={form} levels={levels} />
      <MoreOptions form={form} levels={levels} />
      {form.error && (
        <p class="notice notice-error" role="alert">
          {form.error}
        </p>
      )}
      <button class="btn btn-primary btn-big" disabled={form.busy} data-testid="create">
        {form.busy ? t("lobby.creating") : hasInvite ? t("lobby.createInvite") : t("lobby.start")}
      </button>
    </form>
  );
}

function SeatChoices({ form, levels }: { form: NewGameForm; levels: LevelDescriptions }) {
  const active = form.choices.seats.slice(0, form.choices.players);
  // The levels of the bot seats, weakest first, each described once under the seats.
  const described = LEVELS.filter((l) => active.includes(l) && levels[l]);
  return (
    <fieldset class="seats-choice">
      <legend>{t("lobby.seats")}</legend>
      {active.map((s, i) => {
        const level = isLevel(s) ? s : null;
        const hint = level ? levels[level] : undefined;
        return (
          <div class="seat-row" key={i}>
            <SeatMark seat={i} size={24} title={t("lobby.seatShape", { seat: i + 1, shape: seatShapeWord(i) })} />
            <label>
              <span class="sr-only">{t("lobby.seat", { seat: i + 1 })}</span>
              <select
                value={s}
                onChange={(e) => form.setSeat(i, (e.target as HTMLSelectElement).value as SeatChoice)}
                data-testid={`seat-${i}`}
                title={hint}
                aria-describedby={level && hint ? levelHintId(level) : undefined}
              >
                {SEAT_OPTIONS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            {s === "hotseat" && (
              <input
                class="seat-name"
                value={form.choices.names[i] ?? ""}
                maxLength={40}
                placeholder={t("lobby.hotseatPlaceholder", { name: form.choices.name.trim() || t("lobby.defaultName"), seat: i + 1 })}
                aria-label={TEXT.playerName(i + 1)}
                data-testid={`seat-name-${i}`}
                onInput={(e) => form.setName(i, (e.target as HTMLInputElement).value)}
              />
            )}
          </div>
        );
      })}
      <FirstPlayer form={form} />
      {described.length > 0 && (
        <ul class="level-hints muted small" data-testid="level-hints">
          {described.map((l) => (
            <li key={l} id={levelHintId(l)}>
              <b>{LEVEL_NAMES[l]}</b>: {levels[l]}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}

/** Who plays first: a seat, or drawn at random by the server. */
function FirstPlayer({ form }: { form: NewGameForm }) {
  const { first, players } = form.choices;
  const value = first === "random" ? "random" : String(Math.min(first, players - 1));
  return (
    <label class="first-player">
      {TEXT.firstPlayer}
      <select
        value={value}
        data-testid="first-player"
        onChange={(e) => {
          const v = (e.target as HTMLSelectElement).value;
          form.set({ first: v === "random" ? "random" : Number(v) });
        }}
      >
        {Array.from({ length: players }, (_, i) => (
          <option key={i} value={String(i)}>
            {TEXT.firstSeat(i + 1)}
          </option>
        ))}
        <option value="random">{TEXT.randomFirst}</option>
      </select>
    </label>
  );
}

