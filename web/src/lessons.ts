// The guided first game's teaching content: what is said, and the moment it is said at (a
// trigger, read by guide.ts). Written for someone who has never seen the box, in the
// players' words; the rules behind each sentence are docs/rules.md's. Lessons are shown in
// this order whenever several are due at once.
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

export const LESSONS: readonly Lesson[] = [
  {
    id: "welcome",
    title: "Welcome to Quadropolis",
    body: [
      "You are a city planner. In four rounds you pick buildings from the construction site in the middle, and build them in your city of 4 × 4 squares. Whoever has the city worth the most points at the end wins.",
      "Your opponent is a gentle bot. Take your time: nothing happens until you play, and you can leave and come back to this game at any time from the lobby.",
    ],
    when: { kind: "start" },
  },
  {
    id: "architects",
    title: "Architects and slots",
    body: [
      "You have four architects, numbered 1 to 4, and you use each once per round. Around the site are 20 slots, one at each end of every row and column.",
      "An architect put in a slot counts squares into the site from that side: architect 3 takes the building on the third square. Pick an architect, then point at a lit slot (on a touch screen, tap it): the site shows which building it would take. Click it (or tap it again) to take that building.",
    ],
    when: { kind: "my-take" },
  },
  {
    id: "build",
    title: "Building",
    body: [
      "Now put the building in your city. Architect number n builds on an empty square of row n or column n of your city: those squares are lit. Click one (on a touch screen, tap it twice).",
      "Each lit square shows two numbers: how your score changes now, and what it changes by once the building is fed with inhabitants or energy at the end. A building scores nothing until it is fed, so look at the second number. You may also discard the building: it leaves the game and gives nothing.",
    ],
    when: { kind: "my-build" },
  },
  {
    id: "urbanist",
    title: "The urbanist",
    body: [
      "The grey figure on the site is the urbanist. After every action it moves to the square the architect pointed at.",
      "While it stands there, no one may use the four slots at the ends of its row and its column: they are shown closed. Moving it can spoil a slot your opponent wanted.",
    ],
    when: { kind: "urbanist" },
  },
  {
    id: "dead-slot",
    title: "Slots that take nothing",
    body: [
      "Some slots are dimmed and marked ∅: they point at an empty square (its building is gone) or at a face-down tile, which nobody can take this round.",
      "You may still play there, for instance to move the urbanist, but you take nothing and the architect is used.",
    ],
    when: { kind: "dead-slot" },
  },
  {
    id: "tower-block",
    title: "Tower blocks",
    body: [
      "A tower block gives you inhabitants when you build it (the figures on the tile). It needs 1 energy to be fed at the end.",
      "It scores by its height: 1 floor 1 point, 2 floors 3, 3 floors 6, 4 floors 10. Tower blocks can be stacked on each other.",
    ],
    when: { kind: "taken", building: "tower_block" },
  },
  {
    id: "stacking",
    title: "Stacking",
    body: [
      "You may put this tower block on top of one of yours to make it a floor taller, up to 4 floors. The squares you may stack on show +1.",
      "With architect n you may stack on a tower block in row n or column n, or anywhere when the new floor is floor number n.",
    ],
    when: { kind: "can-stack" },
  },
  {
    id: "shop",
    title: "Shops",
    body: [
      "A shop needs 1 energy to be fed. Then inhabitants can shop there: up to 4 customers, worth 1, 2, 4 or 7 points.",
      "Your inhabitants are placed for you at the end, where they score best.",
    ],
    when: { kind: "taken", building: "shop" },
  },
  {
    id: "public-service",
    title: "Public services",
    body: [
      "A public service needs 1 inhabitant. Your public services score together, by how many of the four districts of your city (its four corners of 2 × 2 squares) hold one: 2, 5, 9 or 14 points, plus the points printed on them.",
    ],
    when: { kind: "taken", building: "public_service" },
  },
  {
    id: "park",
    title: "Parks",
    body: [
      "A park needs nothing: it is always fed. It scores by the tower blocks next to it (sharing a side): 1 tower block 2 points, 2 → 4, 3 → 7, 4 → 11.",
      "A tree park also soaks up 1 unit of unused energy at the end, which would otherwise cost you a point.",
    ],
    when: { kind: "taken", building: "park" },
  },
  {
    id: "playground",
    title: "Playgrounds",
    body: [
      "A playground is a park that gives you 1 inhabitant when you build it. Like every park it scores by the tower blocks next to it, but it does not soak up energy.",
    ],
    when: { kind: "taken", building: "playground" },
  },
  {
    id: "factory",
    title: "Factories",
    body: [
      "A factory gives you energy when you build it (the lightning bolts on the tile). It needs 1 inhabitant to be fed, then scores 2 points for every shop and 3 for every harbor next to it.",
    ],
    when: { kind: "taken", building: "factory" },
  },
  {
    id: "harbor",
    title: "Harbors",
    body: [
      "A harbor needs 1 inhabitant. Harbors score by lines: your longest run of harbors side by side in a row, and your longest run in a column (2 in a line → 3 points, 3 → 7, 4 → 12), plus the points printed on them. Some harbors give inhabitants or energy instead.",
    ],
    when: { kind: "taken", building: "harbor" },
  },
  {
    id: "resources",
    title: "Feeding your city",
    body: [
      "You have received your first inhabitants or energy: the figures and lightning bolts beside your city's name. They are never spent during the game.",
      "At the end they go where they score best: each building needs its 1 inhabitant or 1 energy, and a building left unfed is removed. Every inhabitant or energy unit left over costs 1 point, so aim for balance.",
    ],
    when: { kind: "resources" },
  },
  {
    id: "new-round",
    title: "A new round",
    body: [
      "The round is over: the buildings left on the site are gone, new ones are dealt, and your four architects are back. Whoever built the tower block with the mayor symbol starts this round.",
    ],
    when: { kind: "new-round" },
  },
  {
    id: "final",
    title: "The final scoring",
    body: [
      "The game is over. Inhabitants and energy were placed for you where they score best, and every unfed building was removed (crossed out). Here is your city, category by category:",
    ],
    when: { kind: "over" },
  },
];

/** What each line of the score sheet counts, for the final lesson (engine category names). */
export const CATEGORY_LESSONS: Readonly<Record<string, string>> = {
  tower_block: "each fed tower block, by its height",
  shop: "each fed shop, by its customers",
  public_service: "by the districts holding a public service, plus their printed points",
  park: "each park, by the tower blocks next to it",
  factory: "each fed factory, by the shops and harbors next to it",
  harbor: "the longest runs of harbors, plus their printed points",
  office_tower: "each office tower, by its floors and group",
  monument: "each monument, by its neighbours",
  unused_inhabitants: "1 point lost for each inhabitant left over",
  pollution: "1 point lost for each energy unit left over and not soaked up by a tree park",
};
