// Your-turn signals: the tab's title (set by the game page), a badge on the
// favicon, and, where the player switched them on and the browser allows them, a Web
// Notification when the turn comes while the page is hidden. Permission is asked only from
// the player's click on the toggle (browsers refuse or penalise asking unprompted).
import { t } from "./i18n";

const NOTIFY_KEY = "quadropolis.notify";
const PLAIN_ICON = "/favicon.svg";
const TURN_ICON = "/favicon-turn.svg";

/** Whether this browser can show notifications at all. */
export function notificationsSupported(): boolean {
  return typeof window !== "undefined" && "Notification" in window;
}

/** The player's choice (stored in this browser), true only while the browser grants it. */
export function notifyWanted(): boolean {
  return notificationsSupported() && Notification.permission === "granted" && localStorage.getItem(NOTIFY_KEY) === "1";
}

/** Switch notifications on (asking the browser's permission, from a click) or off; the
 *  resulting state: "on", "off" or "blocked" (the browser refuses). */
export async function setNotify(on: boolean): Promise<"on" | "off" | "blocked"> {
  if (!on || !notificationsSupported()) {
    localStorage.removeItem(NOTIFY_KEY);
    return "off";
  }
  const permission = Notification.permission === "default" ? await Notification.requestPermission() : Notification.permission;
  if (permission !== "granted") {
    localStorage.removeItem(NOTIFY_KEY);
    return "blocked";
  }
  localStorage.setItem(NOTIFY_KEY, "1");
  return "on";
}

/** The favicon with a badge (an orange dot: public/favicon-turn.svg) while it is the
 *  player's turn, plain otherwise. */
export function badgeFavicon(on: boolean): void {
  if (typeof document === "undefined") return;
  const link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
  if (!link) return;
  link.dataset.turn = on ? "true" : "false";
  link.href = on ? TURN_ICON : PLAIN_ICON;
}

/** A notification that the player's turn came in round `round` (only when wanted and the
 *  page is hidden: a visible page shows it already). Clicking it brings the tab forward. */
export function notifyTurn(game: string, round: number): void {
  if (!notifyWanted() || document.visibilityState === "visible") return;
  const note = new Notification(t("signals.title"), { body: t("signals.body", { round }), tag: `quadropolis-${game}` });
  note.onclick = () => {
    window.focus();
    note.close();
  };
}
