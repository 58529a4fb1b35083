// The guided first game's teaching content: what is said (in locales/*.json, keys lesson.*),
// and the moment it is said at (a trigger, read by guide.ts). Written for someone who has
// never seen the box, in the players' words; the rules behind each sentence are docs/rules.md's. Lessons are shown in
// this order whenever several are due at once.
import { CATEGORIES } from "./game.gen";
import { liveRecord, t, type Key } from "./i18n";
import type { BuildingType } from "./types";

export type Trigger =
  /** The game has begun. */
  | { kind: "start" }
  /** The player must take a building (place an architect). */
  | { kind: "my-take" }
  /** The urbanist stands on the site. */
  | { kind: "urbanist" }
  /** The player must take and some open slot would take nothing. */
  | { kind: "dead-slot" }
  /** The player must build (or discard) what they took. */
  | { kind: "my-build" }
  /** The player holds a building of this type to build ("playground" and "tree park" apart). */
  | { kind: "taken"; building: BuildingType | "playground" }
  /** The player must build a tower block and may stack it on one of theirs. */
  | { kind: "can-stack" }
  /** The player's city has received inhabitants or energy. */
  | { kind: "resources" }
  /** A round after the first has begun. */
  | { kind: "new-round" }
  /** The game is over: the final scoring, category by category. */
  | { kind: "over" };

export interface Lesson {
  id: string;
  title: string;
  /** Paragraphs. */
  body: string[];
  when: Trigger;
}

/** Lesson `id`, due `when`, its words read from the current language's catalogue each time
 * (keys lesson.<id>.title and lesson.<id>.body, whose paragraphs a blank line separates). */
function lesson(id: string, when: Trigger): Lesson {
  return {
    id,
    when,
    get title() {
      return t(`lesson.${id}.title` as Key);
    },
    get body() {
      return t(`lesson.${id}.body` as Key).split("\n\n");
    },
  };
}

export const LESSONS: readonly Lesson[] = [
  lesson("welcome", { kind: "start" }),
  lesson("architects", { kind: "my-take" }),
  lesson("build", { kind: "my-build" }),
  lesson("urbanist", { kind: "urbanist" }),
  lesson("dead-slot", { kind: "dead-slot" }),
  lesson("tower-block", { kind: "taken", building: "tower_block" }),
  lesson("stacking", { kind: "can-stack" }),
  lesson("shop", { kind: "taken", building: "shop" }),
  lesson("public-service", { kind: "taken", building: "public_service" }),
  lesson("park", { kind: "taken", building: "park" }),
  lesson("playground", { kind: "taken", building: "playground" }),
  lesson("factory", { kind: "taken", building: "factory" }),
  lesson("harbor", { kind: "taken", building: "harbor" }),
  lesson("resources", { kind: "resources" }),
  lesson("new-round", { kind: "new-round" }),
  lesson("final", { kind: "over" }),
];

/** What each line of the score sheet counts, for the final lesson (engine category names). */
export const CATEGORY_LESSONS: Readonly<Record<string, string>> = liveRecord(CATEGORIES, "lessonCategory.");
