// The table chat: a few short lines between the players of a game. Lines
// are plain text, drawn as text nodes (Preact escapes them; nothing here parses markup). Seat
// holders write, spectators read; each player may mute it, remembered in this browser.
import { useEffect, useRef, useState } from "preact/hooks";
import { errorText, t } from "../i18n";
import { chatMuted, setChatMuted } from "../social";
import type { View } from "../types";
import type { GameHandle } from "../useGame";
import { SeatMark } from "./SeatMark";

/** The server's limit (docs/protocol.md, "Table chat"). */
const CHAT_MAX = 200;

/** Whether a table has someone to chat with: two seats or more held by people (a game
 *  against bots only shows no chat). */
export function hasChat(view: View): boolean {
  return view.seats.filter((s) => s.kind === "human").length > 1;
}

export function ChatPanel({ handle, canWrite }: { handle: GameHandle; canWrite: boolean }) {
  const [muted, setMuted] = useState(chatMuted);
  const toggle = () => {
    setChatMuted(!muted);
    setMuted(!muted);
  };
  return (
    <section class="panel chat" aria-labelledby="chat-title" data-testid="chat" data-muted={muted ? "true" : "false"}>
      <div class="chat-head">
        <h2 id="chat-title" class="panel-title">
          {t("chat.title")}
        </h2>
        <button type="button" class="btn btn-small" aria-pressed={muted} onClick={toggle} data-testid="chat-mute">
          {muted ? t("chat.unmute") : t("chat.mute")}
        </button>
      </div>
      {muted ? <p class="muted small">{t("chat.muted")}</p> : <ChatBody handle={handle} canWrite={canWrite} />}
    </section>
  );
}

function ChatBody({ handle, canWrite }: { handle: GameHandle; canWrite: boolean }) {
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [handle.chat.length]);
  return (
    <>
      {handle.chat.length === 0 ? (
        <p class="muted small">{t("chat.empty")}</p>
      ) : (
        <ol class="chat-lines" ref={list} aria-live="polite" data-testid="chat-lines">
          {handle.chat.map((line, i) => (
            <li key={`${line.at}-${i}`}>
              <SeatMark seat={line.seat} size={14} />
              <strong class="chat-name">{line.name}</strong> <span class="chat-text">{line.text}</span>
            </li>
          ))}
        </ol>
      )}
      {canWrite ? <ChatInput handle={handle} /> : <p class="muted small">{t("chat.spectator")}</p>}
    </>
  );
}

function ChatInput({ handle }: { handle: GameHandle }) {
  const [text, setText] = useState("");
  const send = (e: Event) => {
    e.preventDefault();
    const line = text.trim();
    if (line && handle.socket?.say(line)) setText("");
  };
  const error = handle.chatError;
  return (
    <form class="chat-form" onSubmit={send}>
      <input
        class="chat-input"
        value={text}
        maxLength={CHAT_MAX}
        aria-label={t("chat.say")}
        placeholder={t("chat.placeholder")}
        onInput={(e) => setText(e.currentTarget.value)}
        data-testid="chat-input"
      />
      <button type="submit" class="btn btn-small" disabled={!text.trim()}>
        {t("chat.send")}
      </button>
      {error && (
        <p class="notice notice-error small" role="alert">
          {errorText(error.code, error.message)}
        </p>
      )}
    </form>
  );
}
