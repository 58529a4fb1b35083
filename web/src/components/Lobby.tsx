// The lobby: a new game (mode, players, each seat a human or a bot level, variants, bots
// standing in for players who leave), games waiting for players, running games to watch,
// finished games to replay, and this browser's own games.
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type CreateSpec, type SeatSpec } from "../api";
import { perMoveWords } from "./Clock";
import { inLanguage, loadLevelDescriptions, type LevelDescriptions } from "../levels";
import { absolute, gameUrl, linkTo, navigate, replayUrl } from "../route";
import { LEVEL_NAMES, levelWord, seatName, seatShapeWord } from "../seats";
import { guidedGame, setGuidedGame } from "../guide";
import { TEXT } from "../text";
import { errorText, language, t } from "../i18n";
import { loadTokens, playerName, recentGames, saveToken, savePlayerName } from "../tokens";
import { isLevel, LEVELS, type Created, type GameListEntry, type Level, type Mode } from "../types";
import { accountApi } from "../account";
import { AccountPanel } from "./Account";
import { Leaderboard } from "./Leaderboard";
import { CopyButton } from "./CopyButton";
import { BuildingIcon } from "./Icons";
import { SeatMark } from "./SeatMark";

export type SeatChoice = "you" | "hotseat" | "invite" | Level;

export const SEAT_OPTIONS: readonly { value: SeatChoice; label: string }[] = [
  {
    value: "you",
    get label() {
      return t("lobby.seatYou");
    },
  },
  {
    value: "hotseat",
    get label() {
      return t("lobby.seatHotseat");
    },
  },
  {
    value: "invite",
    get label() {
      return t("lobby.seatInvite");
    },
  },
  ...LEVELS.map((level) => ({
    value: level,
    get label() {
      return t("lobby.seatBot", { level: levelWord(level) });
    },
  })),
];

/** What the server is asked for a seat: a bot of the chosen level, or a human (by `name` when given). */
export function seatSpec(choice: SeatChoice, name = ""): SeatSpec {
  if (isLevel(choice)) return { type: "bot", level: choice };
  return (choice === "hotseat" || choice === "you") && name.trim() ? { type: "human", name: name.trim() } : { type: "human" };
}

/** The server's description of each level, asked once (none while it loads or if it fails),
 * in the interface's language at each render. */
function useLevelDescriptions(): LevelDescriptions {
  const [descriptions, setDescriptions] = useState<LevelDescriptions>({});
  useEffect(() => {
    let live = true;
    void loadLevelDescriptions().then((d) => {
      if (live) setDescriptions(d);
    });
    return () => {
      live = false;
    };
  }, []);
  return inLanguage(descriptions);
}

const levelHintId = (level: Level) => `level-hint-${level}`;

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

export function Lobby() {
  const [created, setCreated] = useState<Created | null>(null);
  const levels = useLevelDescriptions();
  return (
    <main class="lobby" id="main">
      <section class="hero">
        <div class="hero-art" aria-hidden="true">
          {(["tower_block", "shop", "park", "harbor", "factory", "public_service"] as const).map((t) => (
            <span key={t} class={`hero-tile tile-${t}`}>
              <BuildingIcon type={t} />
            </span>
          ))}
        </div>
        <div>
          <h1>Quadropolis</h1>
          <p class="lead">{t("lobby.lead")}</p>
        </div>
      </section>
      <div class="lobby-grid">
        <div class="lobby-start">
          <LearnToPlay />
          {created ? <Invites created={created} onClose={() => setCreated(null)} /> : <NewGame onCreated={setCreated} levels={levels} />}
        </div>
        <div class="lobby-lists">
          <AccountPanel />
          <Leaderboard />
          <YourGames />
          <GameList status="waiting" title={t("lobby.waiting")} empty={t("lobby.waitingEmpty")} />
          <GameList status="playing" title={t("lobby.playing")} empty={t("lobby.playingEmpty")} hideOnError />
          <GameList status="over" title={t("lobby.over")} empty={t("lobby.overEmpty")} />
          <section class="panel">
            <h2 class="panel-title">{t("lobby.record")}</h2>
            <p>{t("lobby.recordLead", { format: "quadropolis-game/1" })}</p>
            <a class="btn" href={replayUrl(null)} onClick={linkTo(replayUrl(null))}>
              {t("lobby.recordOpen")}
            </a>
          </section>
        </div>
      </div>
    </main>
  );
}

/** The guided first game: the fixed deal against an easy bot, this browser holding seat 1. */
export function guidedSpec(name: string): CreateSpec {
  return {
    mode: "classic",
    players: 2,
    name,
    seats: [{ type: "human" }, { type: "bot", level: "easy" }],
    take: [0],
    public: false,
    variants: { urbanist_blocks: "lines", all_parks_absorb: false },
    guided: true,
  };
}

/** "Learn to play": starts the guided first game, or resumes the one this browser holds. */
function LearnToPlay() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [resume] = useState(() => {
    const game = guidedGame();
    return game && Object.keys(loadTokens(game)).length > 0 ? game : null;
  });
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      const c = await api.create(guidedSpec(playerName() || t("lobby.defaultName")));
      for (const s of c.seats) saveToken(c.game, s.seat, s.token);
      setGuidedGame(c.game);
      navigate(gameUrl(c.game));
    } catch (err) {
      setError(err instanceof ApiError ? errorText(err.code, err.message) : t("lobby.createFailed"));
      setBusy(false);
    }
  };
  return (
    <section class="panel learn" aria-labelledby="learn-title">
      <h2 id="learn-title" class="panel-title">
        {TEXT.learnTitle}
      </h2>
      <p>{TEXT.learnLead}</p>
      <div class="row">
        <button type="button" class="btn btn-primary" disabled={busy} onClick={() => void start()} data-testid="learn">
          {busy ? TEXT.learnBusy : TEXT.learnButton}
        </button>
        {resume && (
          <a class="btn" href={gameUrl(resume)} onClick={linkTo(gameUrl(resume))} data-testid="learn-resume">
            {TEXT.learnResume}
          </a>
        )}
      </div>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

/** What the new-game form holds; `active` is the seats of the chosen player count. */
export interface NewGameChoices {
  mode: Mode;
  players: number;
  seats: SeatChoice[];
  /** Per seat, the name of a player on this device (hotseat); blank: numbered after `name`. */
  names: string[];
  /** The seat that plays first, or "random". */
  first: number | "random";
  name: string;
  square: boolean;
  allParks: boolean;
  isPublic: boolean;
  takeover: boolean;
  takeoverAfter: number;
  takeoverLevel: Level;
  /** The clock: seconds per move (live or correspondence), or null for none. */
  moveTime: number | null;
}

/** Times per move the form offers: live 1, 2 and 5 minutes; correspondence 1, 2 and 3 days. */
export const MOVE_TIMES: readonly number[] = [60, 120, 300, 86400, 2 * 86400, 3 * 86400];

/** What the server is asked to create (POST /api/games) for the form's choices. */
export function createSpec(c: NewGameChoices): CreateSpec {
  const active = c.seats.slice(0, c.players);
  const spec: CreateSpec = {
    mode: c.mode,
    players: c.players,
    name: c.name,
    // With players on this device, your own seat is named as you are; theirs as typed (else numbered).
    seats: active.map((s, i) => seatSpec(s, s === "you" ? (active.includes("hotseat") ? c.name : "") : c.names[i])),
    take: active.map((s, i) => (s === "you" || s === "hotseat" ? i : -1)).filter((i) => i >= 0),
    public: c.isPublic,
    variants: { urbanist_blocks: c.square ? "square" : "lines", all_parks_absorb: c.allParks },
  };
  if (c.first === "random" || c.first > 0) spec.first_player = c.first === "random" ? "random" : Math.min(c.first, c.players - 1);
  if (c.takeover) {
    spec.takeover_after = c.takeoverAfter;
    spec.takeover_level = c.takeoverLevel;
  }
  if (c.moveTime !== null) spec.move_time = c.moveTime;
  return spec;
}

/** The seats after choosing `v` for seat `i`: one "you" at most (choosing it elsewhere frees the previous one). */
export function chooseSeat(seats: SeatChoice[], i: number, v: SeatChoice): SeatChoice[] {
  const next = [...seats];
  if (v === "you") for (let j = 0; j < next.length; j++) if (next[j] === "you") next[j] = "hotseat";
  next[i] = v;
  return next;
}

/** The form as it opens (the name is the one last used on this device). */
export const FIRST_CHOICES: NewGameChoices = {
  mode: "classic",
  players: 2,
  seats: ["you", "medium", "medium", "medium"],
  names: ["", "", "", ""],
  first: 0,
  name: "",
  square: false,
  allParks: false,
  isPublic: true,
  takeover: false,
  takeoverAfter: 120,
  takeoverLevel: "medium",
  moveTime: null,
};

interface NewGameForm {
  choices: NewGameChoices;
  set: (change: Partial<NewGameChoices>) => void;
  setSeat: (i: number, v: SeatChoice) => void;
  setName: (i: number, name: string) => void;
  busy: boolean;
  error: string | null;
  submit: (e: Event) => Promise<void>;
}

/** The new-game form's controller: its choices, and creating the game (then the table, or the invites). */
function useNewGameForm(onCreated: (c: Created) => void): NewGameForm {
  const [choices, setChoices] = useState<NewGameChoices>(() => ({ ...FIRST_CHOICES, name: playerName() || "" }));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (change: Partial<NewGameChoices>) => setChoices((c) => ({ ...c, ...change }));
  const setSeat = (i: number, v: SeatChoice) => setChoices((c) => ({ ...c, seats: chooseSeat(c.seats, i, v) }));
  const setName = (i: number, name: string) => setChoices((c) => ({ ...c, names: c.names.map((n, j) => (j === i ? name : n)) }));
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const clean = choices.name.trim() || t("lobby.defaultName");
    savePlayerName(clean);
    try {
      const spec = createSpec({ ...choices, name: clean });
      // Logged in: the seats taken are the account's (any device); a guest's, this browser's.
      const c = await accountApi.me().then(
        () => accountApi.create(spec),
        () => api.create(spec),
      );
      for (const s of c.seats) saveToken(c.game, s.seat, s.token);
      if (c.invites.length === 0) navigate(gameUrl(c.game));
      else onCreated(c);
    } catch (err) {
      setError(err instanceof ApiError ? errorText(err.code, err.message) : t("lobby.createFailed"));
    } finally {
      setBusy(false);
    }
  };
  return { choices, set, setSeat, setName, busy, error, submit };
}

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

function Check({ checked, onChange, children }: { checked: boolean; onChange: (on: boolean) => void; children: ComponentChildren }) {
  return (
    <label class="check">
      <input type="checkbox" checked={checked} onChange={(e) => onChange((e.target as HTMLInputElement).checked)} />
      <span>{children}</span>
    </label>
  );
}

function MoreOptions({ form, levels }: { form: NewGameForm; levels: LevelDescriptions }) {
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

function Invites({ created, onClose }: { created: Created; onClose: () => void }) {
  const mine = created.seats;
  return (
    <section class="panel invites" aria-labelledby="invites-title">
      <h2 id="invites-title" class="panel-title">
        {t("lobby.invitesTitle")}
      </h2>
      <p>{t("lobby.invitesLead")}</p>
      <ul class="invite-list">
        {created.invites.map((i) => (
          <li key={i.seat}>
            <SeatMark seat={i.seat} size={22} /> {t("lobby.seat", { seat: i.seat + 1 })}: <CopyButton text={absolute(i.link)} label={t("lobby.copyInvite", { seat: i.seat + 1 })} />
          </li>
        ))}
      </ul>
      {mine.length > 0 && (
        <p class="muted small">
          {t("lobby.ownSeats", { count: mine.length, seats: mine.map((s) => t("lobby.seat", { seat: s.seat + 1 })).join(", ") })}
        </p>
      )}
      <div class="row">
        <a class="btn btn-primary" href={gameUrl(created.game)} onClick={linkTo(gameUrl(created.game))} data-testid="go-to-table">
          {t("lobby.goToTable")}
        </a>
        <button type="button" class="btn btn-quiet" onClick={onClose}>
          {t("lobby.another")}
        </button>
      </div>
    </section>
  );
}

function describeSeats(g: GameListEntry) {
  return (
    <span class="list-seats">
      {g.seats.map((s, i) => (
        <span key={i} class="list-seat" title={seatName(s, i)}>
          <SeatMark seat={i} size={16} />
          <span>{s.open ? t("lobby.open") : seatName(s, i)}</span>
        </span>
      ))}
    </span>
  );
}

function when(at: number | string | null): string {
  if (at === null) return "";
  const d = typeof at === "number" ? new Date(at * 1000) : new Date(at);
  if (Number.isNaN(d.getTime())) return "";
  const mins = Math.round((Date.now() - d.getTime()) / 60000);
  if (mins < 1) return t("lobby.justNow");
  if (mins < 60) return t("lobby.minAgo", { count: mins });
  if (mins < 48 * 60) return t("lobby.hoursAgo", { count: Math.round(mins / 60) });
  return d.toLocaleDateString(language());
}

type ListStatus = "waiting" | "playing" | "over";

/** The server's list of public games in `status`, refreshed (finished ones less often). */
function useGameList(status: ListStatus): { games: GameListEntry[] | null; error: string | null } {
  const [games, setGames] = useState<GameListEntry[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const load = () =>
      api
        .games(status, 20)
        .then((r) => {
          if (!live) return;
          setGames(r.games);
          setError(null);
        })
        .catch((e: unknown) => live && setError(e instanceof Error ? e.message : "unavailable"));
    void load();
    const t = setInterval(() => void load(), status === "over" ? 30000 : 5000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [status]);
  return { games, error };
}

function GameList({ status, title, empty, hideOnError }: { status: ListStatus; title: string; empty: string; hideOnError?: boolean }) {
  const { games, error } = useGameList(status);
  if (error && hideOnError) return null;
  return (
    <section class="panel game-list" aria-labelledby={`list-${status}`}>
      <h2 id={`list-${status}`} class="panel-title">
        {title}
      </h2>
      {error ? (
        <p class="muted">{t("lobby.listFailed", { error })}</p>
      ) : games === null ? (
        <p class="muted">{t("lobby.loading")}</p>
      ) : games.length === 0 ? (
        <p class="muted">{empty}</p>
      ) : (
        <ul class="games" data-testid={`games-${status}`}>
          {games.map((g) => (
            <GameRow key={g.game} g={g} status={status} />
          ))}
        </ul>
      )}
    </section>
  );
}

function GameRow({ g, status }: { g: GameListEntry; status: ListStatus }) {
  return (
    <li class="game-row">
      <div class="game-row-main">
        <span>
          <b>{t(g.config.mode === "expert" ? "mode.expert" : "mode.classic")}</b>, {t("lobby.playerCount", { count: g.config.players })}
          <span class="muted small"> · {when(status === "over" ? g.finished_at : g.created_at)}</span>
        </span>
        {describeSeats(g)}
        {status === "over" && g.result && (
          <span class="list-result">
            {g.result.scores.map((s, i) => (
              <span key={i} class={g.result!.winners.includes(i) ? "winner" : ""}>
                {s}
                {i < g.result!.scores.length - 1 ? " – " : ""}
              </span>
            ))}
          </span>
        )}
      </div>
      <GameRowActions g={g} status={status} />
    </li>
  );
}

function GameRowActions({ g, status }: { g: GameListEntry; status: ListStatus }) {
  return (
    <div class="game-row-actions">
      {status === "waiting" &&
        g.seats
          .filter((s) => s.open)
          .map((s) => (
            <a key={s.seat} class="btn btn-small btn-primary" href={`/?game=${g.game}&join=${s.seat}`} onClick={linkTo(`/?game=${g.game}&join=${s.seat}`)}>
              {t("lobby.join", { seat: s.seat + 1 })}
            </a>
          ))}
      {status === "playing" && (
        <a class="btn btn-small" href={gameUrl(g.game)} onClick={linkTo(gameUrl(g.game))}>
          {t("lobby.watch")}
        </a>
      )}
      {status === "over" && (
        <>
          <a class="btn btn-small btn-primary" href={replayUrl(g.game)} onClick={linkTo(replayUrl(g.game))}>
            {t("lobby.replay")}
          </a>
          <a class="btn btn-small" href={gameUrl(g.game)} onClick={linkTo(gameUrl(g.game))}>
            {t("lobby.finalTable")}
          </a>
        </>
      )}
    </div>
  );
}

function YourGames() {
  const [games] = useState(() => recentGames().filter((g) => Object.keys(loadTokens(g)).length > 0).slice(0, 6));
  if (games.length === 0) return null;
  return (
    <section class="panel" aria-labelledby="your-games">
      <h2 id="your-games" class="panel-title">
        {t("lobby.yourGames")}
      </h2>
      <ul class="games">
        {games.map((g) => {
          return (
            <li key={g} class="game-row">
              <span>
                {t("lobby.game")} <code>{g}</code>
              </span>
              <a class="btn btn-small" href={gameUrl(g)} onClick={linkTo(gameUrl(g))}>
                {t("lobby.openGame")}
              </a>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
