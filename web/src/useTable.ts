// The game table's behaviour, apart from its drawing: sending moves and undos through the
// socket with the notices that answer them, the hotseat handover, and bringing what must be
// touched into view on a phone.
import { errorText, t as tr } from "./i18n";
import { useCallback, useEffect, useMemo, useRef, useState } from "preact/hooks";
import { api } from "./api";
import { useMediaQuery, useShortcuts } from "./hooks";
import { useHint, type Hint } from "./hint";
import { hintMarks, slotPreview, type CityMark, type SiteMark, type SlotPreview } from "./marks";
import { useActionMotion, useSoundSetting } from "./motion";
import {
  actingSeat,
  architectChoices,
  blockedSlots,
  buildScores,
  buildValues,
  cityOrder,
  deadSlots,
  lastMove,
  legalBuilds,
  legalTakes,
  litSlots,
  pickArchitect,
  type ArchitectChoice,
  type BuildValue,
  type DeadReason,
  type Highlights,
} from "./play";
import { seatName } from "./seats";
import type { GameSocket } from "./socket";
import type { TileIndex } from "./tiles";
import type { View } from "./types";
import type { GameHandle } from "./useGame";

export interface Notice {
  kind: "error" | "info";
  text: string;
  /** New for every notice, so that the same text said twice is announced twice. */
  key: number;
}

export interface TableActions {
  busy: boolean;
  notice: Notice | null;
  say: (kind: Notice["kind"], text: string) => void;
  send: (move: string) => Promise<void>;
  undo: () => Promise<void>;
}

/** Moves and undos for the seat acting here; the server's refusals are shown as they are. */
export function useTableActions(view: View, socket: GameSocket | null, acting: number | null, onPlayed: () => void): TableActions {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const noticeKey = useRef(0);
  const say = useCallback((kind: Notice["kind"], text: string) => setNotice({ kind, text, key: ++noticeKey.current }), []);
  const watching = (view.you ?? []).length === 0;

  const send = useCallback(
    async (move: string) => {
      if (!socket) return;
      if (acting === null) {
        say("info", watching ? tr("table.watching") : tr("table.notYourTurn", { name: seatName(view.seats[view.to_move ?? 0], view.to_move ?? 0) }));
        return;
      }
      setBusy(true);
      const reply = await socket.move(acting, move);
      setBusy(false);
      if (reply.type === "error") {
        say("error", reply.code === "illegal_move" ? tr("table.notAllowed", { reason: errorText(reply.code, reply.message, reply) }) : errorText(reply.code, reply.message));
      } else {
        setNotice(null);
        onPlayed();
      }
    },
    [socket, acting, say, watching, view.seats, view.to_move, onPlayed],
  );

  const undo = useCallback(async () => {
    if (!socket) return;
    const seat = view.can_undo?.[0];
    if (seat === undefined) {
      say("info", tr("table.nothingToUndo"));
      return;
    }
    setBusy(true);
    const reply = await socket.undo(seat);
    setBusy(false);
    if (reply.type === "error") say("error", errorText(reply.code, reply.message));
    else say("info", tr("table.undone"));
  }, [socket, view.can_undo, say]);

  return { busy, notice, say, send, undo };
}

/** Hotseat: the seat to hand the device to when the turn passes between two seats held here. */
export function useHandover(view: View, acting: number | null, you: number[]): [number | null, (seat: number | null) => void] {
  const [handover, setHandover] = useState<number | null>(null);
  const lastActing = useRef<number | null>(null);
  useEffect(() => {
    const humanSeatsHere = you.filter((s) => view.seats[s]?.kind === "human").length;
    if (acting !== null && lastActing.current !== null && acting !== lastActing.current && humanSeatsHere > 1) {
      setHandover(acting);
    }
    if (acting !== null) lastActing.current = acting;
  }, [acting, you, view.seats]);
  return [handover, setHandover];
}

/** On a phone, bring what must be touched into view: the site to take, the city to build. */
export function useScrollToAction(view: View): void {
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
}

/** Everything the table draws besides the view itself, and what its controls do. */
export interface TableModel {
  acting: number | null;
  you: number[];
  myTake: boolean;
  myBuild: boolean;
  choices: ArchitectChoice[];
  /** The architect this client's take would use (null when it is not taking). */
  architect: number | null;
  pick: (architect: number) => void;
  hover: (slot: string | null) => void;
  preview: SlotPreview | null;
  previewText: string;
  lit: { legal: Set<string>; other: Set<string> };
  blocked: Set<string>;
  builds: Set<string>;
  buildScores: Map<string, number>;
  /** Each legal build's worth against a discard: now, and once fed. */
  buildValues: Map<string, BuildValue>;
  /** Slots the selected architect may use but where it would take nothing, and why. */
  dead: Map<string, DeadReason>;
  /** Touch: the slot or square tapped once, waiting for a second tap or Confirm. */
  armed: Armed | null;
  /** The device plays by touch: a first tap previews, a second one plays. */
  touch: boolean;
  confirm: () => void;
  sound: boolean;
  toggleSound: () => void;
  last: Highlights;
  marks: { site: SiteMark[]; city: CityMark[] };
  actions: TableActions;
  hint: Hint;
  hintAllowed: boolean;
  handover: number | null;
  endHandover: () => void;
  /** The large city: the acting seat's, else the first one held here. */
  focus: number | null;
  order: number[];
  onSlot: (slot: string) => void;
  onSquare: (square: string) => void;
}

/** Touch play: what a first tap chose, played by a second tap on it or by Confirm. */
export type Armed = { kind: "take"; slot: string } | { kind: "build"; square: string };

/** The first tap's choice, forgotten when the position changes (anyone's move). */
function useArmed(version: number): [Armed | null, (a: Armed | null) => void] {
  const [armed, setArmed] = useState<{ at: number; what: Armed } | null>(null);
  const current = armed && armed.at === version ? armed.what : null;
  return [current, (a) => setArmed(a ? { at: version, what: a } : null)];
}

/** The table's controller: its state, hooks and derivations, for a view that only draws. */
export function useTable(view: View, handle: GameHandle, tiles: TileIndex | null, tokens: Record<number, string>): TableModel {
  const acting = actingSeat(view);
  const you = useMemo(() => view.you ?? [], [view.you]);
  const takes = useMemo(() => legalTakes(view), [view]);
  const builds = useMemo(() => legalBuilds(view), [view]);
  const blocked = useMemo(() => blockedSlots(view), [view]);
  const last = useMemo(() => lastMove(view.last_actions), [view.last_actions]);
  const scores = useMemo(() => buildScores(view.build_options), [view.build_options]);
  const [selected, setSelected] = useState<number | null>(null);
  const [hover, setHover] = useState<string | null>(null);
  const clearHover = useCallback(() => setHover(null), []);
  const actions = useTableActions(view, handle.socket, acting, clearHover);
  const touch = useMediaQuery("(pointer: coarse)");
  const [armed, setArmed] = useArmed(view.version);
  const [sound, toggleSound] = useSoundSetting();
  useActionMotion(view, sound);
  const [handover, setHandover] = useHandover(view, acting, you);
  useScrollToAction(view);
  const hint = useTableHint(view, acting, you, tokens, actions.say);
  const myTake = acting !== null && view.phase === "take";
  const myBuild = acting !== null && view.phase === "place";
  const choices = architectChoices(view, view.to_move);
  const architect = myTake ? pickArchitect(choices, selected) : null;
  const hintAllowed = view.analysis === true && hint.offered && you.length > 0 && view.status === "playing";
  useShortcuts((e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    tableShortcut(e, { view, choices, myTake, myBuild, actions, hint, hintAllowed, pick: setSelected });
  });
  const shown = armed?.kind === "take" ? armed.slot : hover;
  const { preview, text: previewText } = slotPreview({ view, tiles, takes, blocked, architect, hover: shown });
  const focus = acting ?? you[0] ?? null;
  const play = (move: string) => {
    setArmed(null);
    if (!actions.busy) void actions.send(move);
  };
  return {
    acting, you, myTake, myBuild, choices, architect, pick: setSelected, hover: setHover, preview, previewText,
    lit: litSlots(takes, architect, myTake), blocked, builds, buildScores: scores, last,
    buildValues: buildValues(view.build_options), dead: deadSlots(view, myTake ? architect : null), armed, touch, sound, toggleSound,
    marks: hintMarks(hint.state.status === "ready" && hint.state.at === view.version ? hint.state.reply : null),
    actions, hint, hintAllowed, handover, endHandover: () => setHandover(null), focus, order: cityOrder(view, focus),
    confirm: () => {
      if (armed) play(armed.kind === "take" ? `${architect ?? 1}${armed.slot}` : armed.square);
    },
    onSlot: (slot) => {
      // On touch a tap only previews what a legal take would do; the second tap plays it.
      if (touch && myTake && takes.get(architect ?? 1)?.has(slot) && !(armed?.kind === "take" && armed.slot === slot)) {
        setArmed({ kind: "take", slot });
        return;
      }
      setArmed(null);
      onSlot(slot, { acting, myTake, architect, actions });
    },
    onSquare: (square) => {
      if (touch && myBuild && builds.has(square) && !(armed?.kind === "build" && armed.square === square)) {
        setArmed({ kind: "build", square });
        return;
      }
      play(square);
    },
  };
}

/** A click on a slot: this client's take, or the server's word on why not (a watcher's try included). */
function onSlot(slot: string, t: { acting: number | null; myTake: boolean; architect: number | null; actions: TableActions }): void {
  if (t.actions.busy) return;
  if (!t.myTake) {
    if (t.acting === null) void t.actions.send(`1${slot}`);
    else t.actions.say("info", tr("table.buildFirst"));
    return;
  }
  void t.actions.send(`${t.architect ?? 1}${slot}`);
}

interface ShortcutContext {
  view: View;
  choices: ArchitectChoice[];
  myTake: boolean;
  myBuild: boolean;
  actions: TableActions;
  hint: Hint;
  hintAllowed: boolean;
  pick: (architect: number) => void;
}

/** The table's keys: 1-5 pick an architect, D discards, U undoes, H asks for a hint. */
function tableShortcut(e: KeyboardEvent, c: ShortcutContext): void {
  const { busy } = c.actions;
  if (/^[1-5]$/.test(e.key) && c.myTake) {
    const n = Number(e.key);
    if (c.choices.some((a) => a.playable && a.number === n)) {
      c.pick(n);
      e.preventDefault();
    }
  } else if ((e.key === "d" || e.key === "D") && c.myBuild && !busy) {
    void c.actions.send("discard");
  } else if ((e.key === "u" || e.key === "U") && (c.view.can_undo?.length ?? 0) > 0 && !busy) {
    void c.actions.undo();
  } else if ((e.key === "h" || e.key === "H") && c.hintAllowed && c.hint.state.status !== "loading") {
    void c.hint.ask();
  }
}

/** The hint for the seat acting here (or the first one held): the position now, with its token. */
function useTableHint(view: View, acting: number | null, you: number[], tokens: Record<number, string>, say: TableActions["say"]): Hint {
  const seat = acting ?? you[0];
  const game = view.game ?? "";
  return useHint({
    at: view.version,
    request: seat === undefined ? null : () => api.analysis(game, null, tokens[seat]),
    failure: tr("table.hintFailed"),
    onUnavailable: () => say("info", tr("table.noHints")),
  });
}
