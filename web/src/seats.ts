// How each seat is told apart: a colour from the Okabe-Ito palette (safe for the common
// colour-vision deficiencies), a shape and a letter, so colour is never the only cue.
import { t, type Key } from "./i18n";
import { LEVELS, type Seat } from "./types";

export const SEAT_COLOURS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7"] as const;
export const SEAT_INK = ["#ffffff", "#1a1a1a", "#ffffff", "#1a1a1a"] as const;
export const SEAT_SHAPES = ["circle", "square", "triangle", "diamond"] as const;
/** Seat `index`'s shape in words, in the current language (keys shape.*). */
export function seatShapeWord(index: number): string {
  const shape = SEAT_SHAPES[index];
  return shape ? t(`shape.${shape}`) : "";
}
export const SEAT_LETTERS = ["A", "B", "C", "D"] as const;

export function capitalised(word: string): string {
  return word ? word[0]!.toUpperCase() + word.slice(1) : "";
}

/** A bot level in the current language ("easy"…); a level the client does not know, as the server named it. */
export function levelWord(level: string): string {
  return (LEVELS as readonly string[]).includes(level) ? t(`level.${level}` as Key) : level;
}

/** "Easy bot", "Medium bot"…: a level the client does not know reads as "Bot". */
export const LEVEL_NAMES: Readonly<Record<string, string>> = Object.defineProperties(
  {},
  Object.fromEntries(LEVELS.map((l) => [l, { enumerable: true, get: () => capitalised(t("seat.botKind", { level: levelWord(l) })) }])),
);

export function seatName(seat: Seat | undefined, index: number): string {
  if (!seat) return t("seat.player", { n: index + 1 });
  if (seat.kind === "bot") {
    return capitalised(t("seat.bot", { level: levelWord(seat.level ?? ""), letter: SEAT_LETTERS[index] ?? index + 1 }).trim());
  }
  if (seat.open) return t("seat.openSeat", { n: index + 1 });
  return seat.name?.trim() || t("seat.player", { n: index + 1 });
}

export function seatKindWords(seat: Seat): string {
  if (seat.kind === "bot") return LEVEL_NAMES[seat.level ?? ""] ?? "Bot";
  if (seat.open) return t("seat.waiting");
  if (seat.bot_playing) return t("seat.away");
  return t(seat.present ? "seat.online" : "seat.offline");
}

export function ordinal(n: number): string {
  return ["1st", "2nd", "3rd", "4th"][n - 1] ?? `${n}th`;
}

/** Seats of one player's hotseat all carry the creator's name: tell them apart by seat. */
export function withUniqueNames<T extends { seats: Seat[] }>(view: T): T {
  const counts = new Map<string, number>();
  for (const s of view.seats) if (s.kind === "human" && s.name) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
  if (![...counts.values()].some((n) => n > 1)) return view;
  return {
    ...view,
    seats: view.seats.map((s, i) =>
      s.kind === "human" && s.name && (counts.get(s.name) ?? 0) > 1 ? { ...s, name: `${s.name} (${SEAT_LETTERS[i] ?? i + 1})` } : s,
    ),
  };
}
