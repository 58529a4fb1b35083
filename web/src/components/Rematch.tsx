// Rematch on a finished game's end screen: the same table again with a new
// deal. The first player to ask creates it; the others' seats are kept for them, and they are
// offered to join (pushed over the websocket) or to decline (which cancels it).
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "../api";
import { errorText, t } from "../i18n";
import { gameUrl, navigate } from "../route";
import { socialApi } from "../social";
import { saveToken } from "../tokens";

export function RematchBar({ game, tokens, offered }: { game: string; tokens: Record<number, string>; offered: string | null }) {
  const held = Object.values(tokens);
  const [known, setKnown] = useState<string | null>(null);
  const [state, setState] = useState<"idle" | "busy" | "declined">("idle");
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    socialApi.rematchOf(game).then((r) => setKnown(r.rematch), () => undefined);
  }, [game]);
  if (held.length === 0) return null;
  const rematch = offered ?? known;
  const ask = async () => {
    setState("busy");
    setError(null);
    try {
      const reply = await socialApi.rematch(game, held);
      for (const s of reply.seats) saveToken(reply.game, s.seat, s.token);
      navigate(gameUrl(reply.game));
    } catch (e) {
      setError(e instanceof ApiError ? errorText(e.code, e.message) : String(e));
      setState("idle");
    }
  };
  const decline = async () => {
    setState("busy");
    try {
      await socialApi.decline(game, held);
      setState("declined");
    } catch (e) {
      setError(e instanceof ApiError ? errorText(e.code, e.message) : String(e));
      setState("idle");
    }
  };
  if (state === "declined") return <p class="muted">{t("rematch.declined")}</p>;
  return (
    <div class="rematch" data-testid="rematch">
      {rematch === null ? (
        <button type="button" class="btn btn-primary" disabled={state === "busy"} onClick={() => void ask()} data-testid="rematch-ask">
          {t("rematch.ask")}
        </button>
      ) : (
        <div class="notice rematch-offer" role="status">
          <span>{t("rematch.offer")}</span>{" "}
          <button type="button" class="btn btn-primary btn-small" disabled={state === "busy"} onClick={() => void ask()} data-testid="rematch-join">
            {t("rematch.join")}
          </button>{" "}
          <button type="button" class="btn btn-small" disabled={state === "busy"} onClick={() => void decline()} data-testid="rematch-decline">
            {t("rematch.decline")}
          </button>
        </div>
      )}
      {error && (
        <p class="notice notice-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
