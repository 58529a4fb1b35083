// The interface's catalogues: every language has exactly English's keys, no empty text, the
// same placeholders, and plural forms for what its plural rules need; the lookup itself.
import { describe, expect, it } from "vitest";
import { errorText, format, language, LANGUAGES, loadCatalogue, pickLanguage, setLanguage, t, type Catalogue, type Lang, type Message } from "../src/i18n";
import de from "../src/locales/de.json";
import en from "../src/locales/en.json";
import fr from "../src/locales/fr.json";
import hu from "../src/locales/hu.json";
import pt from "../src/locales/pt.json";
import ru from "../src/locales/ru.json";
import { moveText } from "../src/moveWords";
import { helpLines } from "../src/tileWords";
import type { TileHelpParts } from "../src/types";
import { CATEGORY_NAMES as CORE_CATEGORY_NAMES, TYPE_NAMES as CORE_TYPE_NAMES } from "../src/words.gen";

const CATALOGUES: Record<Lang, Catalogue> = { en, fr, de, pt, hu, ru };

const langs = Object.keys(LANGUAGES) as Lang[];
const texts = (m: Message): string[] => (typeof m === "string" ? [m] : Object.values(m));
const placeholders = (m: Message): string[] => [...new Set(texts(m).flatMap((s) => [...s.matchAll(/\{(\w+)\}/g)].map((x) => x[1]!)))].sort();
const keys = (c: Catalogue) => Object.keys(c).sort();

describe("catalogues", () => {
  it.each(langs)("%s has exactly the English keys", (lang) => {
    expect(keys(CATALOGUES[lang])).toEqual(keys(CATALOGUES.en));
  });

  it.each(langs)("%s has no empty text", (lang) => {
    const empty = Object.entries(CATALOGUES[lang]).filter(([, m]) => texts(m).length === 0 || texts(m).some((s) => s.trim() === ""));
    expect(empty.map(([k]) => k)).toEqual([]);
  });

  it.each(langs)("%s uses the same placeholders as English", (lang) => {
    const differ = Object.entries(CATALOGUES.en).filter(([k, m]) => JSON.stringify(placeholders(m)) !== JSON.stringify(placeholders(CATALOGUES[lang][k]!)));
    expect(differ.map(([k]) => k)).toEqual([]);
  });

  it.each(langs)("%s gives every plural form its language uses for 0–100, and an `other`", (lang) => {
    const rules = new Intl.PluralRules(lang);
    const needed = new Set(Array.from({ length: 101 }, (_, n) => rules.select(n)));
    for (const [key, m] of Object.entries(CATALOGUES[lang])) {
      if (typeof m === "string") continue;
      for (const form of [...needed, "other"]) expect(m, `${lang} ${key} ${form}`).toHaveProperty(form);
    }
  });

  it("names the buildings as the rulebooks do", () => {
    const names = (lang: Lang) => ["tower_block", "public_service", "harbor", "office_tower"].map((k) => CATALOGUES[lang][`type.${k}`]);
    expect(names("fr")).toEqual(["habitation", "service public", "port", "bureau"]);
    expect(names("de")).toEqual(["Hochhaus", "Bürgeramt", "Hafen", "Büroturm"]);
    expect(names("pt")).toEqual(["Bloco Residencial", "Serviço Público", "Porto", "Torre de Escritório"]);
    expect(names("hu")).toEqual(["toronyház", "közigazgatási épület", "kikötő", "irodaház"]);
    expect(names("ru")).toEqual(["многоэтажка", "коммунальная служба", "порт", "офисная башня"]);
  });
});

describe("lookup", () => {
  it("interpolates and picks plural forms by the language's rules", () => {
    const minutes = CATALOGUES.ru["lobby.minutes"]!;
    expect([1, 2, 5, 21].map((count) => format("ru", minutes, { count }))).toEqual(["1 минуту", "2 минуты", "5 минут", "21 минуту"]);
    expect(format("en", CATALOGUES.en["lobby.minutes"]!, { count: 1 })).toBe("1 minute");
    expect(format("en", "{a} and {b}", { a: 1 })).toBe("1 and {b}");
  });

  it("picks the first language of the browser's list it speaks, else English", () => {
    expect(pickLanguage(["es-ES", "de-AT", "fr"])).toBe("de");
    expect(pickLanguage(["pt-BR"])).toBe("pt");
    expect(pickLanguage(["es", "it"])).toBe("en");
  });

  it("switches, and translates server errors by code", async () => {
    await setLanguage("fr");
    try {
      expect(t("lobby.start")).toBe("Lancer la partie");
      expect(errorText("seat_taken", "seat 2 is already taken")).toBe("Cette place est déjà prise.");
      expect(errorText("illegal_move", "architect #2 at R2: the urbanist blocks row 2 (R5)")).toContain("(R5)");
      expect(errorText("some_new_code", "as the server says")).toBe("as the server says");
    } finally {
      await setLanguage("en");
    }
    expect(errorText("seat_taken", "seat 2 is already taken")).toBe("seat 2 is already taken");
  });

  it("loads a catalogue when its language is chosen, and only then switches", async () => {
    expect(language()).toBe("en");
    const switching = setLanguage("de");
    expect(t("lobby.start")).toBe("Start the game"); // still English while the chunk loads
    await switching;
    expect(language()).toBe("de");
    expect(t("lobby.start")).toBe("Spiel starten");
    expect(await loadCatalogue("ru")).toEqual(ru);
    await setLanguage("en");
    expect(t("lobby.start")).toBe("Start the game");
  });

  it("says an illegal move from its reason code and values, rulings kept for the links", async () => {
    const english = "r1c1 holds a tower block; a shop can only go on a shop (R8)";
    const refusal = { reason: "wrong_stack", params: { square: "r1c1", below: "tower_block", building: "shop", rule: "R8" } };
    expect(errorText("illegal_move", english, refusal)).toBe(english);
    await setLanguage("fr");
    try {
      const french = errorText("illegal_move", english, refusal);
      expect(french).toBe("r1c1 porte : habitation ; « commerce » ne s'empile que sur « commerce » (R8)");
      const urbanist = { reason: "urbanist_row", params: { architect: 2, slot: "R2", line: 2 } };
      expect(errorText("illegal_move", "architect #2 at R2: the urbanist blocks row 2 (R5)", urbanist)).toBe(
        "architecte n°2 en R2 : l'urbaniste bloque la ligne 2 (R5)",
      );
      expect(errorText("illegal_move", "not a move", { reason: null })).toBe("not a move");
      expect(errorText("illegal_move", "from a newer server", { reason: "some_new_rule" })).toBe("from a newer server");
    } finally {
      await setLanguage("en");
    }
  });
});

describe("moves in words", () => {
  it("show the tile as the site draws it and the building in the language's word", async () => {
    const take = { kind: "take" as const, architect: 3, slot: "L4", square: "r4c3", tile: "P", building: "public_service" };
    expect(moveText(take, "architect #3 at L4 -> r4c3, takes PS0 (public service)")).toBe("architect #3 at L4 → r4c3, takes P (public service)");
    expect(moveText({ kind: "build", square: "r2c2", tile: "T1*", building: "tower_block" }, "builds T1m on r2c2")).toBe("builds T1* on r2c2");
    expect(moveText(null, "builds T1 on r1c1 -> tower_block")).toBe("builds T1 on r1c1 → tower block");
    await setLanguage("de");
    try {
      expect(moveText(take, "")).toBe("Architekt Nr. 3 auf L4 → r4c3, nimmt P (Bürgeramt)");
      expect(moveText({ kind: "undo", count: 2 }, "")).toBe("nimmt die letzten 2 Züge zurück");
    } finally {
      await setLanguage("en");
    }
  });
});

describe("English names", () => {
  it("are the core's (words.gen.ts, generated from quadropolis.buildings and quadropolis.scoring)", () => {
    const en = CATALOGUES.en as Record<string, string>;
    for (const [type, name] of Object.entries(CORE_TYPE_NAMES)) expect(en[`type.${type}`]).toBe(name);
    for (const [category, name] of Object.entries(CORE_CATEGORY_NAMES)) expect(en[`category.${category}`]).toBe(name);
  });
});

describe("tiles' explanations", () => {
  // The manifest's help_parts of a T1 tile (quadropolis.tile_help.tile_help_parts).
  const t1: TileHelpParts = {
    what: [
      ["name", { label: "T1", building: "tower_block" }],
      ["gives", { inhabitants: 1, energy: 0 }],
    ],
    what_all_parks_absorb: [["name", { label: "T1", building: "tower_block" }]],
    scores: [
      ["needs_energy", {}],
      ["scores_tower_block", { table: [[1, 1], [2, 3], [3, 6], [4, 10]], expert: [5, 15] }],
    ],
    where: [
      ["where_lines", {}],
      ["stacks", { building: "tower_block", floors: 4, rulings: "R8, R16", expert_floors: 5 }],
    ],
  };

  it("are the server's English text in English, and said from their values in another language", async () => {
    expect(helpLines(t1, false)).toBeNull();
    await setLanguage("fr");
    try {
      expect(helpLines(t1, false)).toEqual([
        "T1 : une habitation ; donne 1 habitant à la construction.",
        "Doit recevoir 1 énergie pour rapporter. Rapporte selon ses étages : 1 → 1, 2 → 3, 3 → 6, 4 → 10 (Expert : 5 → 15).",
        "Avec l'architecte n°n : une case vide de la ligne n ou de la colonne n (Expert : numérotée n ou dans le quartier n) ; ou sur une habitation d'une telle case ou comme étage numéro n, 4 étages au plus (Expert : 5) (R8, R16).",
      ]);
      const factory: TileHelpParts = { ...t1, scores: [["scores_factory", { pairs: [["shop", 1], ["tower_block", -1]] }]] };
      expect(helpLines(factory, false)![1]).toBe("Rapporte pour chaque voisin : commerce +1, habitation −1 (bureaux : Expert).");
    } finally {
      await setLanguage("en");
    }
  });
});
