// The lobby's account panel: register or log in, and once logged in, "My games"
// — the games whose seats belong to the account, on whichever device they were taken.
import { useEffect, useState } from "preact/hooks";
import { accountApi, type Me, type MyGame, type MyGames } from "../account";
import { ApiError } from "../api";
import { t, type Key } from "../i18n";
import { profileUrl } from "../ratings";
import { gameUrl, linkTo } from "../route";

/** Who is logged in: `undefined` while asking, `null` for a guest. */
function useMe(): [Me | null | undefined, (me: Me | null) => void] {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  useEffect(() => {
    accountApi.me().then(setMe, () => setMe(null));
  }, []);
  return [me, setMe];
}

export function AccountPanel() {
  const [me, setMe] = useMe();
  if (me === undefined) return null;
  return (
    <section class="panel account" aria-labelledby="account-title">
      <h2 id="account-title" class="panel-title">
        {me ? t("account.myGames") : t("account.title")}
      </h2>
      {me ? <SignedIn me={me} onLogout={() => setMe(null)} /> : <SignIn onSignedIn={setMe} />}
    </section>
  );
}

export function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const send = async (e: Event, register: boolean) => {
    e.preventDefault();
    setError(null);
    try {
      onSignedIn(await (register ? accountApi.register : accountApi.login)(username, password));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t("account.unreachable"));
    }
  };
  return (
    <form class="account-form" onSubmit={(e) => send(e, false)}>
      <p class="muted small">{t("account.lead")}</p>
      <label class="field">
        {t("account.username")}
        <input value={username} autocomplete="username" onInput={(e) => setUsername(e.currentTarget.value)} />
      </label>
      <label class="field">
        {t("account.password")}
        <input type="password" value={password} autocomplete="current-password" onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
      <div class="account-actions">
        <button type="submit" class="btn btn-primary">
          {t("account.logIn")}
        </button>
        <button type="button" class="btn" onClick={(e) => send(e, true)}>
          {t("account.register")}
        </button>
      </div>
    </form>
  );
}

const SECTIONS: readonly { key: keyof MyGames; title: Key }[] = [
  { key: "your_turn", title: "account.yourTurn" },
  { key: "waiting", title: "account.waiting" },
  { key: "playing", title: "account.playing" },
  { key: "finished", title: "account.finished" },
];

export function SignedIn({ me, onLogout }: { me: Me; onLogout: () => void }) {
  const [games, setGames] = useState<MyGames | null>(null);
  useEffect(() => {
    accountApi.games().then(setGames, () => setGames(null));
  }, [me.username]);
  const logout = async () => {
    await accountApi.logout().catch(() => null);
    onLogout();
  };
  const none = games !== null && SECTIONS.every((s) => games[s.key].length === 0);
  return (
    <div data-testid="my-games">
      <p class="account-who">
        {t("account.loggedInAs")}{" "}
        <a href={profileUrl(me.username)} onClick={linkTo(profileUrl(me.username))} data-testid="my-profile">
          <b>{me.username}</b>
        </a>{" "}
        <button type="button" class="btn btn-small" onClick={logout}>
          {t("account.logOut")}
        </button>
      </p>
      {games === null ? <p class="muted">{t("profile.loading")}</p> : none && <p class="muted">{t("account.noGame")}</p>}
      {games &&
        SECTIONS.filter((s) => games[s.key].length > 0).map((s) => (
          <div key={s.key}>
            <h3 class="small">{t(s.title)}</h3>
            <ul class="games">
              {games[s.key].map((g) => (
                <MyGameRow key={g.game} g={g} />
              ))}
            </ul>
          </div>
        ))}
    </div>
  );
}

function MyGameRow({ g }: { g: MyGame }) {
  return (
    <li class="game-row">
      <span>
        <b>{t(g.mode === "expert" ? "mode.expert" : "mode.classic")}</b>, {g.names.join(", ")}
      </span>
      <a class="btn btn-small" href={gameUrl(g.game)} onClick={linkTo(gameUrl(g.game))}>
        {t("account.open")}
      </a>
    </li>
  );
}
