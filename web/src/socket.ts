// One game's websocket (/ws/games/{id}): connects, presents the seat tokens (`auth`), keeps
// the newest view, sends moves and undos with request ids, and reconnects on its own with
// backoff (and at once when the browser comes back online or the tab becomes visible).
import type { ChatLine } from "./social";
import type { Accepted, ServerError, ServerMessage, View } from "./types";

export type ConnectionStatus = "connecting" | "open" | "reconnecting" | "offline" | "gone";

export interface GameSocketEvents {
  onView(view: View): void;
  onStatus(status: ConnectionStatus, detail?: string): void;
  onYou?(you: number[]): void;
  onError?(error: ServerError): void;
  /** Table chat: the lines kept (`history`: replace what is shown) or a new one. */
  onChat?(lines: ChatLine[], history: boolean): void;
  /** A refused chat line (too long, too fast, not a player...). */
  onChatError?(error: ServerError): void;
  /** Another player of this finished game asked for a rematch: the new game's id. */
  onRematch?(rematch: string): void;
}

type Reply = Accepted | ServerError;

interface Pending {
  resolve(reply: Reply): void;
  timer: ReturnType<typeof setTimeout>;
}

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((ev: Event) => unknown) | null;
  onclose: ((ev: CloseEvent) => unknown) | null;
  onmessage: ((ev: MessageEvent) => unknown) | null;
  onerror: ((ev: Event) => unknown) | null;
}

export type SocketFactory = (url: string) => SocketLike;

/** Delay before reconnection attempt `n` (0-based): 0.25 s doubling to 8 s, with jitter. */
export function backoff(n: number, random: () => number = Math.random): number {
  const base = Math.min(8000, 250 * 2 ** n);
  return Math.round(base * (0.75 + 0.5 * random()));
}

const OPEN = 1;
const REQUEST_TIMEOUT_MS = 15000;
const PING_EVERY_MS = 20000;
const CHAT_ID = "chat";

export class GameSocket {
  private ws: SocketLike | null = null;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private pingTimer: ReturnType<typeof setInterval> | null = null;
  private lastSeen = 0;
  private pending = new Map<string, Pending>();
  private counter = 0;
  private closed = false;
  /** Until the server answers our `auth`, its pushes are a spectator's: not shown. */
  private awaitingAuth = false;
  view: View | null = null;
  status: ConnectionStatus = "connecting";

  constructor(
    readonly game: string,
    private tokens: string[],
    private events: GameSocketEvents,
    private factory: SocketFactory = (url) => new WebSocket(url),
    private base: string = defaultBase(),
    /** Also act for the seats of the logged-in account (its session cookie). */
    private account = false,
  ) {}

  start(): void {
    this.closed = false;
    if (typeof window !== "undefined") {
      window.addEventListener("online", this.wake);
      document.addEventListener("visibilitychange", this.wake);
    }
    this.open();
  }

  stop(): void {
    this.closed = true;
    if (typeof window !== "undefined") {
      window.removeEventListener("online", this.wake);
      document.removeEventListener("visibilitychange", this.wake);
    }
    this.clearTimers();
    this.ws?.close(1000, "bye");
    this.ws = null;
    for (const [, p] of this.pending) clearTimeout(p.timer);
    this.pending.clear();
  }

  setTokens(tokens: string[], account = this.account): void {
    const changed = tokens.join() !== this.tokens.join() || account !== this.account;
    this.tokens = tokens;
    this.account = account;
    if (changed && this.ws?.readyState === OPEN && (tokens.length || account)) this.auth();
  }

  move(seat: number, move: string): Promise<Reply> {
    return this.request({ type: "move", seat, version: this.view?.version ?? 0, move });
  }

  undo(seat: number): Promise<Reply> {
    return this.request({ type: "undo", seat, version: this.view?.version ?? 0 });
  }

  /** Say `text` at the table; a refusal comes back through `onChatError`, the line itself
   *  through `onChat` as it reaches everyone. */
  say(text: string): boolean {
    if (this.ws?.readyState !== OPEN) return false;
    this.send({ type: "chat", text, id: CHAT_ID });
    return true;
  }

  private auth(): void {
    this.awaitingAuth = true;
    this.send({ type: "auth", tokens: this.tokens, ...(this.account ? { account: true } : {}), id: "auth" });
  }

  sync(): void {
    this.send({ type: "sync" });
  }

  private wake = (): void => {
    if (this.closed) return;
    if (typeof document !== "undefined" && document.visibilityState === "hidden") return;
    if (!this.ws || this.ws.readyState > OPEN) {
      if (this.retryTimer) clearTimeout(this.retryTimer);
      this.retryTimer = null;
      this.attempts = 0;
      this.open();
    }
  };

  private request(message: Record<string, unknown>): Promise<Reply> {
    const id = `c${++this.counter}`;
    return new Promise<Reply>((resolve) => {
      if (!this.ws || this.ws.readyState !== OPEN) {
        resolve({ type: "error", code: "offline", message: "Not connected to the server: reconnecting, try again in a moment.", id });
        return;
      }
      const timer = setTimeout(() => {
        this.pending.delete(id);
        resolve({ type: "error", code: "timeout", message: "The server did not answer in time; the table has been refreshed.", id });
        this.sync();
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(id, { resolve, timer });
      this.send({ ...message, id });
    });
  }

  private send(message: Record<string, unknown>): void {
    if (this.ws?.readyState === OPEN) this.ws.send(JSON.stringify(message));
  }

  private setStatus(status: ConnectionStatus, detail?: string): void {
    this.status = status;
    this.events.onStatus(status, detail);
  }

  private open(): void {
    this.clearTimers();
    this.setStatus(this.attempts === 0 && !this.view ? "connecting" : "reconnecting");
    let ws: SocketLike;
    try {
      ws = this.factory(`${this.base}/ws/games/${encodeURIComponent(this.game)}`);
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      if (ws !== this.ws) return;
      this.attempts = 0;
      this.lastSeen = Date.now();
      if (this.tokens.length || this.account) this.auth();
      this.setStatus("open");
      this.pingTimer = setInterval(() => {
        if (Date.now() - this.lastSeen > PING_EVERY_MS * 2) {
          ws.close(4000, "silent");
          return;
        }
        this.send({ type: "ping" });
      }, PING_EVERY_MS);
    };
    ws.onmessage = (ev: MessageEvent) => {
      if (ws !== this.ws) return;
      this.lastSeen = Date.now();
      let msg: ServerMessage;
      try {
        msg = JSON.parse(String(ev.data)) as ServerMessage;
      } catch {
        return;
      }
      this.handle(msg);
    };
    ws.onclose = (ev: CloseEvent) => {
      if (ws !== this.ws) return;
      this.ws = null;
      this.clearTimers();
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.resolve({ type: "error", code: "offline", message: "The connection dropped before the server answered; reconnecting.", id });
      }
      this.pending.clear();
      if (this.closed) return;
      if (ev.code === 4404) {
        this.setStatus("gone", "This game does not exist (or no longer exists).");
        return;
      }
      this.retry();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  private retry(): void {
    if (this.closed) return;
    const delay = backoff(this.attempts++);
    this.setStatus(typeof navigator !== "undefined" && navigator.onLine === false ? "offline" : "reconnecting");
    this.retryTimer = setTimeout(() => this.open(), delay);
  }

  private clearTimers(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.retryTimer = null;
    this.pingTimer = null;
  }

  private handle(msg: ServerMessage): void {
    switch (msg.type) {
      case "welcome":
        if (msg.id === "auth") this.awaitingAuth = false;
        this.events.onYou?.(msg.you);
        break;
      case "state":
        if (this.awaitingAuth) break;
        if (!this.view || msg.view.version >= this.view.version) {
          this.view = msg.view;
          this.events.onView(msg.view);
        }
        break;
      case "accepted":
      case "error": {
        if (msg.type === "error" && msg.id === CHAT_ID) {
          this.events.onChatError?.(msg);
          break;
        }
        if (msg.type === "error" && msg.id === "auth") {
          // The tokens hold no seat here: carry on as a spectator, and say so.
          this.awaitingAuth = false;
          this.events.onError?.(msg);
          this.sync();
          break;
        }
        const p = msg.id ? this.pending.get(msg.id) : undefined;
        if (p && msg.id) {
          clearTimeout(p.timer);
          this.pending.delete(msg.id);
          p.resolve(msg);
        } else if (msg.type === "error") {
          this.events.onError?.(msg);
        }
        if (msg.type === "error" && msg.code === "stale") this.sync();
        break;
      }
      case "pong":
        break;
      case "chat":
        this.events.onChat?.(msg.lines, msg.history);
        break;
      case "rematch":
        this.events.onRematch?.(msg.rematch);
        break;
    }
  }
}

function defaultBase(): string {
  if (typeof window === "undefined") return "ws://localhost";
  const proto = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${window.location.host}`;
}
