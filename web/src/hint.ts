// A hint: what the `hard` bot would play in a position (the server's analysis), asked for
// by the table (the position now) and by the replay viewer (a past position).
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { ApiError } from "./api";
import type { AnalysisReply } from "./types";

export type AnalysisState =
  | { status: "idle" }
  | { status: "loading"; at: number }
  | { status: "ready"; at: number; reply: AnalysisReply }
  | { status: "error"; at: number; message: string }
  | { status: "unavailable" };

export interface Hint {
  state: AnalysisState;
  /** False once the server said it gives no analysis here (then the button goes). */
  offered: boolean;
  ask: () => Promise<void>;
  close: () => void;
}

export interface HintRequest {
  /** The position asked about: a view's version, or a replay's move number. */
  at: number;
  /** Asks the server; null when there is nothing to ask about (no seat, no record). */
  request: (() => Promise<AnalysisReply>) | null;
  /** The message of a failure that carries none. */
  failure: string;
  /** Called when the server answers that it gives no analysis here. */
  onUnavailable?: () => void;
}

/** The state of the hint for position `at`; an answer for another position is dropped. */
export function useHint({ at, request, failure, onUnavailable }: HintRequest): Hint {
  const [state, setState] = useState<AnalysisState>({ status: "idle" });
  const [offered, setOffered] = useState(true);
  // The position shown now: an answer that comes back after the game has moved on is dropped.
  const now = useRef(at);
  now.current = at;
  // A new position makes an old answer stale (a request still running keeps its own `at`).
  useEffect(() => {
    setState((a) => (a.status === "ready" || a.status === "error" || a.status === "loading" ? (a.at === at ? a : { status: "idle" }) : a));
  }, [at]);
  const close = useCallback(() => setState({ status: "idle" }), []);
  const ask = async () => {
    if (!request) return;
    setState({ status: "loading", at });
    try {
      const reply = await request();
      setState(now.current === at ? { status: "ready", at, reply } : { status: "idle" });
    } catch (e) {
      // 404: this server has no analysis; 403: this game does not allow it.
      if (e instanceof ApiError && (e.status === 404 || e.status === 403)) {
        setOffered(false);
        setState({ status: "unavailable" });
        onUnavailable?.();
      } else {
        setState({ status: "error", at, message: e instanceof Error ? e.message : failure });
      }
    }
  };
  return { state, offered, ask, close };
}
