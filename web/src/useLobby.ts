// The lobby's behaviour, apart from its drawing: the bot levels' descriptions, the new-game
// form's controller (creating the game, then the table or the invites), and the server's lists
// of games kept fresh.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError } from "./api";
import { accountApi } from "./account";
import { errorText, t } from "./i18n";
import { inLanguage, loadLevelDescriptions, type LevelDescriptions } from "./levels";
import { chooseSeat, createSpec, FIRST_CHOICES, type NewGameChoices, type SeatChoice } from "./newGame";
import { gameUrl, navigate } from "./route";
import { playerName, saveToken, savePlayerName } from "./tokens";
import type { Created, GameListEntry } from "./types";

/** The server's description of each level, asked once (none while it loads or if it fails),
 * in the interface's language at each render. */
export function useLevelDescriptions(): LevelDescriptions {
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

export interface NewGameForm {
  choices: NewGameChoices;
  set: (change: Partial<NewGameChoices>) => void;
  setSeat: (i: number, v: SeatChoice) => void;
  setName: (i: number, name: string) => void;
  busy: boolean;
  error: string | null;
  submit: (e: Event) => Promise<void>;
}

/** The new-game form's controller: its choices, and creating the game (then the table, or the invites). */
export function useNewGameForm(onCreated: (c: Created) => void): NewGameForm {
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

export type ListStatus = "waiting" | "playing" | "over";

/** The server's list of public games in `status`, refreshed (finished ones less often). */
export function useGameList(status: ListStatus): { games: GameListEntry[] | null; error: string | null } {
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
