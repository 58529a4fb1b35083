// A game: the waiting room while seats are open, the table while it is played, the end
// screen once it is over. Every action goes through the websocket; the server's reasons for
// refusing one are shown as they are.
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { useMediaQuery, useTiles } from "../hooks";
import { actingSeat, architectChoices, blockedSlots, candidateMarks, canDiscard, lastMove, legalBuilds, legalTakes, takeTarget } from "../play";
import { absolute, linkTo, replayUrl, seatLink } from "../route";
import { seatName } from "../seats";
import { describeTile, indexTiles, type TileIndex } from "../tiles";
import { loadTokens, rememberGame, saveToken } from "../tokens";
import type { View } from "../types";
import { useGame } from "../useGame";
import { AnalysisPanel, type AnalysisState } from "./Analysis";
import { City, type CityMark } from "./City";
import { ConnectionBadge } from "./ConnectionBadge";
import { EndScreen } from "./EndScreen";
import { LightbulbIcon, TrashIcon, UndoIcon } from "./Icons";
import { ActionLog } from "./Log";
import { SeatMark } from "./SeatMark";
import { Site, type SiteMark } from "./Site";
import { TileFace } from "./Tile";
import { WaitingRoom } from "./WaitingRoom";
import { CopyButton } from "./CopyButton";

interface Notice {
  kind: "error" | "info";
  text: string;
  key: number;
}

export function GamePage({ game, seat, token }: { game: string; seat: number | null; token: string | null }) {
  // A seat link's token is stored, then removed from the address bar (it stays in this browser).
  const [tokens, setTokens] = useState(() => {
    if (seat !== null && token) saveToken(game, seat, token);
    return loadTokens(game);
  });
  useEffect(() => {
    if (token) window.history.replaceState(null, "", `/?game=${encodeURIComponent(game)}${seat !== null ? `&seat=${seat}` : ""}`);
    rememberGame(game);
  }, [game, seat, token]);
  const tokenList = useMemo(() => Object.values(tokens), [tokens]);
  const handle = useGame(game, tokenList);
  const tiles = useTiles();
  const view = handle.view;
  const variants = view?.config.variants;
  const index = useMemo(() => (tiles && variants ? indexTiles(tiles, variants) : null), [tiles, variants]);

  useEffect(() => {
    if (view) document.title = titleFor(view);
  }, [view]);

  const badToken = handle.lastError?.code === "forbidden" && tokenList.length > 0 && (view?.you ?? []).length === 0;

  if (handle.status === "gone") {
    return (
      <main class="page narrow" id="main">
        <h1>Game not found</h1>
        <p>{handle.statusDetail}</p>
        <p>
          <a class="btn" href="/" onClick={linkTo("/")}>
            Back to the lobby
          </a>
        </p>
      </main>
    );
  }
  if (!view) {
    return (
      <main class="page narrow" id="main" aria-busy="true">
        <h1 class="sr-only">Quadropolis game</h1>
        <p class="loading">
          <span class="spinner" aria-hidden="true" /> Opening the table…
        </p>
        <ConnectionBadge status={handle.status} />
      </main>
    );
  }
  if (view.status === "waiting") {
    return (
      <WaitingRoom
        view={view}
        tokens={tokens}
        status={handle.status}
        onJoined={(s, t) => setTokens(saveToken(game, s, t))}
      />
    );
  }
  return (
    <>
      {badToken && (
        <p class="notice notice-error page-notice" role="alert">
          This seat link is not valid for this game: you are watching it.
        </p>
      )}
      <Table view={view} handle={handle} tiles={index} tokens={tokens} />
    </>
  );
}

function titleFor(view: View): string {
  const acting = actingSeat(view);
  if (view.status === "over") return "Game over — Quadropolis";
  if (acting !== null) return "▶ Your turn — Quadropolis";
  return `Round ${view.round} — Quadropolis`;
}

function Table({
  view,
  handle,
  tiles,
  tokens,
}: {
  view: View;
  handle: ReturnType<typeof useGame>;
  tiles: TileIndex | null;
  tokens: Record<number, string>;
}) {
  const socket = handle.socket;
  const game = view.game ?? "";
  const you = useMemo(() => view.you ?? [], [view.you]);
  const acting = actingSeat(view);
  const takes = useMemo(() => legalTakes(view), [view]);
  const builds = useMemo(() => legalBuilds(view), [view]);
  const blocked = useMemo(() => blockedSlots(view), [view]);
  const last = useMemo(() => lastMove(view.last_actions), [view.last_actions]);
  const choices = architectChoices(view, view.to_move);
  const [selected, setSelected] = useState<number | null>(null);
  const [hover, setHover] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [analysis, setAnalysis] = useState<AnalysisState>({ status: "idle" });
  const [analysisOff, setAnalysisOff] = useState(false);
  const [handover, setHandover] = useState<number | null>(null);
  // Three columns: the hint goes to the right-hand column, beside the board; else under it.
  const wide = useMediaQuery("(min-width: 1181px)");
  // On a phone, bring what must be touched into view: the site to take, the city to build.
  const narrow = useMediaQuery("(max-width: 760px)");
  const actingNow = actingSeat(view);
  useEffect(() => {
    if (!narrow || actingNow === null || view.status !== "playing") return;
    const target =
      view.phase === "place"
        ? document.querySelector(`.city-card[data-seat="${actingNow}"]`)
        : document.querySelector(".site");
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    target?.scrollIntoView({ block: view.phase === "place" ? "center" : "start", behavior: still ? "auto" : "smooth" });
  }, [narrow, actingNow, view.phase, view.status]);
  const lastActing = useRef<number | null>(null);
  const noticeKey = useRef(0);
  const say = useCallback((kind: Notice["kind"], text: string) => setNotice({ kind, text, key: ++noticeKey.current }), []);

  const myTake = acting !== null && view.phase === "take";
  const myBuild = acting !== null && view.phase === "place";

  // Keep a playable architect selected during this client's take.
  const playable = choices.filter((c) => c.playable).map((c) => c.number);
  const effectiveSelected = myTake ? (selected !== null && playable.includes(selected) ? selected : (playable[0] ?? null)) : null;

  // Hotseat: when the turn passes between two seats held here, hand the device over.
  useEffect(() => {
    const humanSeatsHere = you.filter((s) => view.seats[s]?.kind === "human").length;
    if (acting !== null && lastActing.current !== null && acting !== lastActing.current && humanSeatsHere > 1) {
      setHandover(acting);
    }
    if (acting !== null) lastActing.current = acting;
  }, [acting, you, view.seats]);

  // A new position makes an old hint stale.
  useEffect(() => {
    setAnalysis((a) => (a.status === "ready" || a.status === "error" ? (a.at === view.version ? a : { status: "idle" }) : a));
  }, [view.version]);

  const send = useCallback(
    async (move: string) => {
      if (!socket) return;
      if (acting === null) {
        say("info", you.length ? `Not your turn: ${seatName(view.seats[view.to_move ?? 0], view.to_move ?? 0)} is playing.` : "You are watching this game.");
        return;
      }
      setBusy(true);
      const reply = await socket.move(acting, move);
      setBusy(false);
      if (reply.type === "error") {
        say("error", reply.code === "illegal_move" ? `Not allowed: ${reply.message}` : reply.message);
      } else {
        setNotice(null);
        setHover(null);
      }
    },
    [socket, acting, say, you.length, view.seats, view.to_move],
  );

  const undo = useCallback(async () => {
    if (!socket) return;
    const seat = view.can_undo?.[0];
    if (seat === undefined) {
      say("info", "Nothing to undo: you may take back your last action only while no one else has acted since.");
      return;
    }
    setBusy(true);
    const reply = await socket.undo(seat);
    setBusy(false);
    if (reply.type === "error") say("error", reply.message);
    else say("info", "Your last action was taken back.");
  }, [socket, view.can_undo, say]);

  const hintAllowed = view.analysis === true && !analysisOff && you.length > 0 && view.status === "playing";
  const askHint = useCallback(async () => {
    const seat = acting ?? you[0];
    if (seat === undefined) return;
    const token = tokens[seat];
    const at = view.version;
    setAnalysis({ status: "loading", at });
    try {
      const reply = await api.analysis(game, null, token);
      setAnalysis({ status: "ready", at, reply });
    } catch (e) {
      if (e instanceof ApiError && (e.status === 404 || e.status === 403)) {
        setAnalysisOff(true);
        setAnalysis({ status: "unavailable" });
        say("info", "Hints are not available at this table.");
      } else {
        setAnalysis({ status: "error", at, message: e instanceof Error ? e.message : "The hint failed." });
      }
    }
  }, [acting, you, tokens, view.version, game, say]);

  // Keyboard shortcuts: 1-5 pick an architect, D discards, U undoes, H asks for a hint.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable)) return;
      if (/^[1-5]$/.test(e.key) && myTake) {
        const n = Number(e.key);
        if (playable.includes(n)) {
          setSelected(n);
          e.preventDefault();
        }
      } else if ((e.key === "d" || e.key === "D") && myBuild && !busy) {
        void send("discard");
      } else if ((e.key === "u" || e.key === "U") && (view.can_undo?.length ?? 0) > 0 && !busy) {
        void undo();
      } else if ((e.key === "h" || e.key === "H") && hintAllowed && analysis.status !== "loading") {
        void askHint();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [myTake, myBuild, playable, busy, send, undo, view.can_undo, hintAllowed, askHint, analysis.status]);

  const onSlot = (slot: string) => {
    if (busy) return;
    if (!myTake) {
      if (acting === null) void send(`1${slot}`);
      else say("info", "Build or discard the building you took first.");
      return;
    }
    const n = effectiveSelected ?? 1;
    void send(`${n}${slot}`);
  };
  const onSquare = (square: string) => {
    if (busy) return;
    void send(square);
  };

  // What the hovered (or focused) slot would do with the selected architect.
  let preview: { slot: string; square: string | null } | null = null;
  let previewText = "";
  if (hover && myTake && effectiveSelected !== null) {
    const move = `${effectiveSelected}${hover}`;
    const legal = takes.get(effectiveSelected)?.has(hover) ?? false;
    const square = takeTarget(view, move);
    preview = { slot: hover, square: legal ? square : null };
    if (legal && square) {
      const idx = (Number(square[1]) - 1) * 5 + (Number(square[3]) - 1);
      const id = view.state.site[idx];
      const down = view.state.face_down.includes(square);
      const facts = id !== null && id !== undefined && !down ? tiles?.get(id) : undefined;
      previewText = `Architect ${effectiveSelected} at ${hover} designates ${square}: ${
        facts ? `you take ${facts.code}, ${describeTile(facts)}` : down ? "a face-down tile, you take nothing" : "an empty square, you take nothing"
      }.`;
    } else if (view.state.slots_used.includes(hover)) previewText = `Slot ${hover} already holds an architect this round.`;
    else if (blocked.has(hover)) previewText = `Slot ${hover} is closed by the urbanist.`;
    else previewText = `Architect ${effectiveSelected} cannot go to ${hover}.`;
  }

  // Hint marks on the board.
  const siteMarks: SiteMark[] = [];
  const cityMarks: CityMark[] = [];
  if (analysis.status === "ready" && analysis.at === view.version) {
    analysis.reply.candidates.forEach((c, i) => {
      const m = candidateMarks(view, c.move);
      const best = c.move === analysis.reply.best;
      if (m.slot) siteMarks.push({ rank: i + 1, slot: m.slot, siteSquare: m.siteSquare, best });
      if (m.citySquare) cityMarks.push({ rank: i + 1, square: m.citySquare, best });
    });
  }

  const legalForSelected = myTake && effectiveSelected !== null ? (takes.get(effectiveSelected) ?? new Set<string>()) : new Set<string>();
  const legalOther = new Set<string>();
  if (myTake) for (const [n, set] of takes) if (n !== effectiveSelected) for (const s of set) legalOther.add(s);

  const buildScores = useMemo(() => {
    const m = new Map<string, number>();
    for (const o of view.build_options ?? []) m.set(o.move, o.score);
    return m;
  }, [view.build_options]);

  const seats = view.seats.map((_, i) => i);
  // Your own city first (the acting seat in hotseat), then the others in seat order.
  const focus = acting ?? you[0] ?? null;
  const order = focus === null ? seats : [focus, ...seats.filter((s) => s !== focus)];
  const toMoveName = view.to_move !== null ? seatName(view.seats[view.to_move], view.to_move) : "";
  const pending = view.state.pending;
  const pendingTile = pending && tiles ? tiles.get(pending.tile) : undefined;

  if (view.status === "over") {
    return <EndScreen view={view} tiles={tiles} status={handle.status} />;
  }

  const analysisPanel = (
    <AnalysisPanel
      state={analysis}
      view={view}
      onPlay={acting !== null ? (m) => void send(m) : undefined}
      onClose={() => setAnalysis({ status: "idle" })}
      onRetry={() => void askHint()}
    />
  );

  return (
    <main
      class="table-page"
      id="main"
      data-version={view.version}
      data-status={view.status}
      data-phase={view.phase}
      data-acting={acting !== null ? "true" : "false"}
      data-to-move={view.to_move ?? ""}
    >
      <h1 class="sr-only">Quadropolis table</h1>
      <GameBar view={view} status={handle.status} tokens={tokens} />
      <Announcer view={view} acting={acting} />
      {handover !== null && (
        <div class="handover" role="dialog" aria-modal="true" aria-labelledby="handover-title">
          <div class="handover-card">
            <SeatMark seat={handover} size={48} />
            <h2 id="handover-title">{seatName(view.seats[handover], handover)}, your turn</h2>
            <p>Pass the device to {seatName(view.seats[handover], handover)}.</p>
            {/* eslint-disable-next-line jsx-a11y/no-autofocus */}
            <button type="button" class="btn btn-primary" autoFocus onClick={() => setHandover(null)}>
              I am {seatName(view.seats[handover], handover)}: show my turn
            </button>
          </div>
        </div>
      )}
      <div class={`table-grid players-${view.config.players}`}>
        <div class="col-site">
          <TurnBanner view={view} acting={acting} toMoveName={toMoveName} />
          <Site
            view={view}
            tiles={tiles}
            owners={handle.owners}
            blocked={blocked}
            legal={legalForSelected}
            legalOther={legalOther}
            interactive={myTake}
            selected={effectiveSelected}
            preview={preview}
            last={last}
            marks={siteMarks}
            onSlot={onSlot}
            onPreview={setHover}
          />
          <section class="panel action-panel" aria-label="Your action">
            {myTake && (
              <fieldset class="architects">
                <legend>{Array.isArray(view.state.architects) ? "Your architects" : "Architects in the shared pool"}</legend>
                <div class="arch-row">
                  {choices.map((c) => (
                    <label key={c.number} class={`arch ${c.playable ? "" : "arch-off"} ${effectiveSelected === c.number ? "arch-on" : ""}`}>
                      <input
                        type="radio"
                        name="architect"
                        value={c.number}
                        checked={effectiveSelected === c.number}
                        disabled={!c.playable}
                        onChange={() => setSelected(c.number)}
                      />
                      <SeatMark seat={acting ?? 0} label={String(c.number)} size={34} />
                      <span class="sr-only">
                        Architect {c.number}
                        {Array.isArray(view.state.architects) ? (c.left ? "" : " (used this round)") : `, ${c.left} left in the pool`}
                      </span>
                      {!Array.isArray(view.state.architects) && (
                        <span class="arch-count" aria-hidden="true">
                          ×{c.left}
                        </span>
                      )}
                    </label>
                  ))}
                </div>
                <p class="hint-line" aria-live="polite">
                  {previewText || "Pick an architect (keys 1–5), then a lit slot around the site: hover a slot to see what it takes."}
                </p>
              </fieldset>
            )}
            {view.phase === "place" && pending && (
              <div class="pending">
                <div class="pending-tile">{pendingTile ? <TileFace tile={pendingTile} /> : null}</div>
                <div class="pending-text">
                  <p>
                    {myBuild ? (
                      <>
                        <b>Build it</b>: pick a lit square of your city (architect #{pending.architect}), or discard it.
                        {builds.size === 0 && " No square can take it: discard it."}
                      </>
                    ) : (
                      <>
                        {toMoveName} took {pendingTile ? `${pendingTile.code} (${describeTile(pendingTile)})` : "a building"} and is placing it.
                      </>
                    )}
                  </p>
                  {myBuild && (
                    <button type="button" class="btn" disabled={busy || !canDiscard(view)} onClick={() => void send("discard")}>
                      <TrashIcon class="btn-icon" /> Discard <kbd>D</kbd>
                    </button>
                  )}
                </div>
              </div>
            )}
            {notice && (
              <p key={notice.key} class={`notice notice-${notice.kind}`} role={notice.kind === "error" ? "alert" : "status"} data-testid="notice">
                {notice.text}
              </p>
            )}
            <div class="action-buttons">
              {you.length > 0 && (
                <button
                  type="button"
                  class="btn"
                  disabled={busy || (view.can_undo?.length ?? 0) === 0}
                  onClick={() => void undo()}
                  title="Take back your last action, while no one else has acted since"
                >
                  <UndoIcon class="btn-icon" /> Undo <kbd>U</kbd>
                </button>
              )}
              {hintAllowed && (
                <button type="button" class="btn" disabled={analysis.status === "loading"} onClick={() => void askHint()}>
                  <LightbulbIcon class="btn-icon" /> Hint <kbd>H</kbd>
                </button>
              )}
            </div>
          </section>
          {!wide && analysisPanel}
        </div>
        <div class="col-cities">
          {order.map((s) => {
            const isActing = s === acting;
            return (
              <City
                key={s}
                view={view}
                seat={s}
                large={s === focus}
                mine={you.includes(s)}
                eligible={isActing && myBuild ? builds : undefined}
                buildScores={isActing && myBuild ? buildScores : undefined}
                interactive={isActing && myBuild}
                onSquare={onSquare}
                lastSquare={last.seat === s ? last.citySquare : null}
                marks={isActing ? cityMarks : undefined}
                showBreakdown
              />
            );
          })}
        </div>
        <aside class="col-side">
          {wide && analysisPanel}
          <Standings view={view} />
          <ActionLog actions={view.last_actions} seats={view.seats} />
        </aside>
      </div>
    </main>
  );
}

function TurnBanner({ view, acting, toMoveName }: { view: View; acting: number | null; toMoveName: string }) {
  const seat = view.to_move;
  const info = seat !== null ? view.seats[seat] : undefined;
  let text: string;
  if (acting !== null) text = view.phase === "take" ? "Your turn: take a building" : "Your turn: build or discard";
  else if (info?.kind === "bot" || info?.bot_playing) text = `${toMoveName} is thinking…`;
  else text = `Waiting for ${toMoveName}`;
  return (
    <div class={`turn-banner${acting !== null ? " mine" : ""}`} data-testid="turn-banner">
      {seat !== null && <SeatMark seat={seat} size={24} />}
      <span>{text}</span>
      {acting === null && (info?.kind === "bot" || info?.bot_playing) && <span class="dots" aria-hidden="true" />}
    </div>
  );
}

function Standings({ view }: { view: View }) {
  const mode = view.config.mode;
  const pool = Array.isArray(view.state.architects) ? null : view.state.architects;
  return (
    <section class="panel standings" aria-label="Game">
      <h2 class="panel-title">
        {mode === "expert" ? "Expert" : "Classic"} · Round {view.round}/{mode === "expert" ? 5 : 4} · Turn {view.turn}/4
      </h2>
      <ul class="standings-list">
        {view.seats.map((s, i) => (
          <li key={i} class={view.to_move === i ? "to-move" : ""}>
            <SeatMark seat={i} size={18} />
            <span class="st-name">{seatName(s, i)}</span>
            <span class="st-score">{view.scores[i]?.total ?? 0} VP</span>
          </li>
        ))}
      </ul>
      {pool && (
        <p class="pool" aria-label="Shared pool of architects">
          Pool:{" "}
          {[1, 2, 3, 4, 5].map((n) => (
            <span key={n} class={`pool-chip${(pool[String(n)] ?? 0) === 0 ? " empty" : ""}`}>
              #{n}×{pool[String(n)] ?? 0}
            </span>
          ))}
        </p>
      )}
      {(view.config.variants.urbanist_blocks === "square" || view.config.variants.all_parks_absorb) && (
        <p class="muted small">
          Variants: {view.config.variants.urbanist_blocks === "square" ? "urbanist blocks its square only" : ""}
          {view.config.variants.urbanist_blocks === "square" && view.config.variants.all_parks_absorb ? "; " : ""}
          {view.config.variants.all_parks_absorb ? "every park absorbs" : ""}
        </p>
      )}
    </section>
  );
}

/** Tells screen readers what changed: your turn, or what the others just did. */
function Announcer({ view, acting }: { view: View; acting: number | null }) {
  const [text, setText] = useState("");
  const prev = useRef<number>(view.version);
  useEffect(() => {
    if (view.version === prev.current) return;
    prev.current = view.version;
    const a = view.last_actions[view.last_actions.length - 1];
    const did = a ? `${seatName(view.seats[a.seat], a.seat)}: ${a.kind === "undo" ? a.text || "takes back their last action" : a.text || a.move}. ` : "";
    setText(did + (acting !== null ? "Your turn." : ""));
  }, [view.version, view.last_actions, view.seats, acting]);
  return (
    <div class="sr-only" aria-live="polite" role="status">
      {text}
    </div>
  );
}

export function GameBar({ view, status, tokens }: { view: View; status: ReturnType<typeof useGame>["status"]; tokens: Record<number, string> }) {
  const game = view.game ?? "";
  const you = view.you ?? [];
  const links = you.map((s) => ({ seat: s, link: tokens[s] ? absolute(seatLink(game, s, tokens[s])) : null }));
  return (
    <div class="game-bar">
      <span class="game-id">
        Game <code>{game}</code>
      </span>
      <span class="game-seat">
        {you.length === 0 ? "watching" : you.length === 1 ? `playing as ${seatName(view.seats[you[0]!], you[0]!)}` : `hotseat: ${you.map((s) => seatName(view.seats[s], s)).join(", ")}`}
      </span>
      <details class="menu">
        <summary class="btn btn-small btn-quiet">Share</summary>
        <div class="menu-body">
          <p>
            Watch link (anyone): <CopyButton text={absolute(`/?game=${game}`)} label="Copy watch link" />
          </p>
          {links.map(
            (l) =>
              l.link && (
                <p key={l.seat}>
                  Your private link for {seatName(view.seats[l.seat], l.seat)} (keep it secret, reopens your seat anywhere):{" "}
                  <CopyButton text={l.link} label="Copy private link" />
                </p>
              ),
          )}
          {view.status === "over" && (
            <p>
              <a href={replayUrl(game)} onClick={linkTo(replayUrl(game))}>
                Watch the replay
              </a>
            </p>
          )}
        </div>
      </details>
      <ConnectionBadge status={status} />
    </div>
  );
}
