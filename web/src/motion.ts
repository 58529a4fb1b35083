// The table shows what happens: each new action (anyone's: yours, another player's, a bot's)
// is animated on the board — the architect dropping into its slot, the building leaving the
// site for the hand, then flying into the city — and, when sound is on, a short tone is
// played (generated with WebAudio: no sound file). Animations are short, end at once on any
// click or key, and never run under `prefers-reduced-motion: reduce`.
import { useEffect, useRef, useState } from "preact/hooks";
import { parseMove, type Side } from "./board";
import { lastMove } from "./play";
import type { LastAction, View } from "./types";

/** The class an element carries while it is animated (tests and styles look for it). */
export const MOVING = "anim-move";
const DURATION = 650;
const SOUND_KEY = "quadropolis:sound";

/** The newest action in effect (not undone), or null. */
export function newestAction(actions: LastAction[]): LastAction | null {
  for (let i = actions.length - 1; i >= 0; i--) {
    const a = actions[i]!;
    if (a.kind === "move" && !a.undone && a.move) return a;
  }
  return null;
}

/** Where an architect comes from when it drops into a slot on `side`: from outside the site. */
export function arrivalOffset(side: Side): [number, number] {
  const far = 36;
  return { T: [0, -far], B: [0, far], L: [-far, 0], R: [far, 0] }[side] as [number, number];
}

function reducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Animate `el` with `frames`, marked with MOVING while it runs; the animation is returned. */
function run(el: Element | null, frames: Keyframe[], delay = 0): Animation | null {
  if (!el || typeof (el as HTMLElement).animate !== "function") return null;
  const a = (el as HTMLElement).animate(frames, { duration: DURATION, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" });
  el.classList.add(MOVING);
  const done = () => el.classList.remove(MOVING);
  a.addEventListener("finish", done);
  a.addEventListener("cancel", done);
  return a;
}

/** The offset from `to`'s box to `from`'s, for a FLIP move of `to` starting where `from` is. */
function offsetBetween(from: Element | null, to: Element | null): [number, number] | null {
  if (!from || !to) return null;
  const f = from.getBoundingClientRect();
  const t = to.getBoundingClientRect();
  return [f.left + f.width / 2 - (t.left + t.width / 2), f.top + f.height / 2 - (t.top + t.height / 2)];
}

/** The animations of one action, on the elements the table draws (found by their data attributes). */
function animateAction(view: View, action: LastAction): Animation[] {
  const p = action.move ? parseMove(action.move) : null;
  const out: (Animation | null)[] = [];
  const site = document.querySelector(".site");
  if (p?.kind === "take") {
    const [dx, dy] = arrivalOffset(p.side);
    const slot = site?.querySelector(`[data-slot="${p.slot}"]`) ?? null;
    out.push(run(slot, [{ transform: `translate(${dx}px, ${dy}px) scale(1.6)`, opacity: 0 }, { transform: "none", opacity: 1 }]));
    const square = lastMove(view.last_actions).siteSquare;
    const cell = square ? (site?.querySelector(`[data-square="${square}"]`) ?? null) : null;
    out.push(run(cell, [{ boxShadow: "0 0 0 6px rgba(255, 196, 0, .9)" }, { boxShadow: "0 0 0 0 rgba(255, 196, 0, 0)" }], 150));
    const hand = document.querySelector(".pending-tile");
    const from = offsetBetween(cell, hand);
    if (hand && from) out.push(run(hand, [{ transform: `translate(${from[0]}px, ${from[1]}px) scale(.8)` }, { transform: "none" }], 200));
  } else if (p?.kind === "build") {
    const target = document.querySelector(`.city-card[data-seat="${action.seat}"] .cell[data-square="${p.square}"]`);
    const taken = lastTakeSquare(view.last_actions);
    const from = offsetBetween(taken ? (site?.querySelector(`[data-square="${taken}"]`) ?? null) : null, target);
    const start = from ? `translate(${from[0]}px, ${from[1]}px) scale(.7)` : "translateY(-24px) scale(1.3)";
    out.push(run(target, [{ transform: start, opacity: 0.4, zIndex: 5 }, { transform: "none", opacity: 1, zIndex: 5 }]));
  }
  return out.filter((a): a is Animation => a !== null);
}

/** The site square of the take behind the newest build (the building's way from site to city). */
function lastTakeSquare(actions: LastAction[]): string | null {
  const before = actions.slice(0, -1);
  return lastMove(before).siteSquare;
}

/** Plays each new action of `view` on the board (and as a tone when `sound`); skipped on click or key. */
export function useActionMotion(view: View, sound: boolean): void {
  const seen = useRef<number | null>(null);
  const running = useRef<Animation[]>([]);
  const newest = newestAction(view.last_actions);
  const key = newest ? newest.version : null;
  useEffect(() => {
    const first = seen.current === null;
    const changed = key !== seen.current;
    seen.current = key ?? -1;
    if (first || !changed || !newest) return;
    if (sound) playTone(newest);
    if (reducedMotion()) return;
    for (const a of running.current) a.finish();
    running.current = animateAction(view, newest);
  }, [key, newest, view, sound]);
  useEffect(() => {
    const skip = () => {
      for (const a of running.current) if (a.playState !== "finished") a.finish();
      running.current = [];
    };
    window.addEventListener("pointerdown", skip, true);
    window.addEventListener("keydown", skip, true);
    return () => {
      window.removeEventListener("pointerdown", skip, true);
      window.removeEventListener("keydown", skip, true);
    };
  }, []);
}

let audio: AudioContext | null = null;

/** A short tone per kind of action: a take ticks, a build rises, a discard falls. */
function playTone(action: LastAction): void {
  const p = action.move ? parseMove(action.move) : null;
  const notes = p?.kind === "build" ? [523, 784] : p?.kind === "discard" ? [392, 262] : [659];
  try {
    audio ??= new AudioContext();
    const ctx = audio;
    notes.forEach((hz, i) => {
      const start = ctx.currentTime + i * 0.09;
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "sine";
      osc.frequency.value = hz;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.12, start + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
      osc.connect(gain).connect(ctx.destination);
      osc.start(start);
      osc.stop(start + 0.18);
    });
  } catch {
    // No audio on this device (or it is not allowed yet): the action is still shown.
  }
}

/** The sound setting of this browser (off unless turned on), and its toggle. */
export function useSoundSetting(): [boolean, () => void] {
  const [on, setOn] = useState(() => {
    try {
      return window.localStorage.getItem(SOUND_KEY) === "on";
    } catch {
      return false;
    }
  });
  const toggle = () =>
    setOn((was) => {
      try {
        window.localStorage.setItem(SOUND_KEY, was ? "off" : "on");
      } catch {
        // Not kept for the next visit; this page still follows the choice.
      }
      return !was;
    });
  return [on, toggle];
}
