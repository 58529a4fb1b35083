// The lobby's account panel (issue 23): register or log in, and once logged in, "My games"
// — the games whose seats belong to the account, on whichever device they were taken.
import { useEffect, useState } from "preact/hooks";
import { accountApi, type Me, type MyGame, type MyGames } from "../account";
import { ApiError } from "../api";
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
        {me ? "My games" : "Your account"}
      </h2>
      {me ? <SignedIn me={me} onLogout={() => setMe(null)} /> : <SignIn onSignedIn={setMe} />}
    </section>
  );
}

function SignIn({ onSignedIn }: { onSignedIn: (me: Me) => void }) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const send = async (e: Event, register: boolean) => {
    e.preventDefault();
    setError(null);
    try {
      onSignedIn(await (register ? accountApi.register : accountApi.login)(username, password));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : "The server could not be reached.");
    }
  };
  return (
    <form class="account-form" onSubmit={(e) => send(e, false)}>
      <p class="muted small">Optional: with an account, your games follow you to any device.</p>
      <label class="field">
        Username
        <input value={username} autocomplete="username" onInput={(e) => setUsername(e.currentTarget.value)} />
      </label>
      <label class="field">
        Password
        <input type="password" value={password} autocomplete="current-password" onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
      <div class="account-actions">
        <button type="submit" class="btn btn-primary">
          Log in
        </button>
        <button type="button" class="btn" onClick={(e) => send(e, true)}>
          Register
        </button>
      </div>
    </form>
  );
}

const SECTIONS: readonly { key: keyof MyGames; title: string }[] = [
  { key: "your_turn", title: "Your turn" },
  { key: "waiting", title: "Waiting for players" },
  { key: "playing", title: "Others to play" },
  { key: "finished", title: "Finished" },
];

function SignedIn({ me, onLogout }: { me: Me; onLogout: () => void }) {
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
        Logged in as{" "}
        <a href={profileUrl(me.username)} onClick={linkTo(profileUrl(me.username))} data-testid="my-profile">
          <b>{me.username}</b>
        </a>{" "}
        <button type="button" class="btn btn-small" onClick={logout}>
          Log out
        </button>
      </p>
      {games === null ? <p class="muted">Loading…</p> : none && <p class="muted">No game yet.</p>}
      {games &&
        SECTIONS.filter((s) => games[s.key].length > 0).map((s) => (
          <div key={s.key}>
            <h3 class="small">{s.title}</h3>
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
        <b>{g.mode === "expert" ? "Expert" : "Classic"}</b>, {g.names.join(", ")}
      </span>
      <a class="btn btn-small" href={gameUrl(g.game)} onClick={linkTo(gameUrl(g.game))}>
        Open
      </a>
    </li>
  );
}
