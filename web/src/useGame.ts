// One game's live state for a page: the websocket, the newest view, the connection status,
// the seats this browser holds, and who put which architect in each slot.
import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api } from "./api";
import { slotOwners, type SlotArchitect } from "./play";
import { GameSocket, type ConnectionStatus } from "./socket";
import { withUniqueNames } from "./seats";
import type { ChatLine } from "./social";
import type { ServerError, View } from "./types";

export interface GameHandle {
  view: View | null;
  status: ConnectionStatus;
  statusDetail: string | null;
  socket: GameSocket | null;
  owners: Record<string, SlotArchitect>;
  lastError: ServerError | null;
  /** Table chat: the lines received (the newest last) and the last refusal of ours. */
  chat: ChatLine[];
  chatError: ServerError | null;
  /** A rematch another player asked for (pushed while at this finished game's table). */
  rematch: string | null;
}

/** Chat lines a page keeps (the server keeps as many). */
const CHAT_SHOWN = 50;

/** `account`: the browser is logged in; its account's seats are played too. */
export function useGame(game: string, tokens: string[], account = false): GameHandle {
  const [view, setView] = useState<View | null>(null);
  const [status, setStatus] = useState<ConnectionStatus>("connecting");
  const [statusDetail, setStatusDetail] = useState<string | null>(null);
  const [lastError, setLastError] = useState<ServerError | null>(null);
  const [socket, setSocket] = useState<GameSocket | null>(null);
  const [chat, setChat] = useState<ChatLine[]>([]);
  const [chatError, setChatError] = useState<ServerError | null>(null);
  const [rematch, setRematch] = useState<string | null>(null);
  const tokenKey = tokens.join(",");
  const tokensRef = useRef(tokens);
  tokensRef.current = tokens;

  useEffect(() => {
    const s = new GameSocket(game, tokensRef.current, {
      onView: (v) => setView(withUniqueNames(v)),
      onStatus: (st, detail) => {
        setStatus(st);
        setStatusDetail(detail ?? null);
      },
      onError: setLastError,
      onChat: (lines, history) => {
        setChatError(null);
        setChat((old) => (history ? lines : [...old, ...lines]).slice(-CHAT_SHOWN));
      },
      onChatError: setChatError,
      onRematch: setRematch,
    });
    setSocket(s);
    s.start();
    return () => s.stop();
  }, [game]);

  useEffect(() => {
    socket?.setTokens(tokensRef.current, account);
  }, [socket, tokenKey, account]);

  const owners = useSlotOwners(game, view);
  return { view, status, statusDetail, socket, owners, lastError, chat, chatError, rematch };
}

/** The architects in the used slots: from the last actions, else from the game's history
 *  (fetched only when needed). */
export function useSlotOwners(game: string | null, view: View | null): Record<string, SlotArchitect> {
  const [history, setHistory] = useState<{ version: number; owners: Record<string, SlotArchitect> } | null>(null);
  const local = useMemo(() => {
    if (!view) return { owners: {}, missing: [] as string[] };
    return slotOwners(view.state.slots_used, view.last_actions);
  }, [view]);
  const need = game !== null && view !== null && local.missing.length > 0 && history?.version !== view.version;
  const version = view?.version ?? -1;
  const slotsUsed = view?.state.slots_used.join(",") ?? "";
  useEffect(() => {
    if (!need || game === null) return;
    let live = true;
    api
      .moves(game)
      .then((m) => {
        if (!live) return;
        const used = slotsUsed ? slotsUsed.split(",") : [];
        setHistory({ version, owners: slotOwners(used, m.history).owners });
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [need, game, version, slotsUsed]);
  if (local.missing.length === 0 || !history || history.version !== version) return local.owners;
  return { ...history.owners, ...local.owners };
}
