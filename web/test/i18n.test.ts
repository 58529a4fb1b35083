// The interface's catalogues: every language has exactly English's keys, no empty text, the
// same placeholders, and plural forms for what its plural rules need; the lookup itself.
import { describe, expect, it } from "vitest";
import { CATALOGUES, errorText, format, LANGUAGES, pickLanguage, setLanguage, t, type Catalogue, type Lang, type Message } from "../src/i18n";
import { CATEGORY_NAMES as CORE_CATEGORY_NAMES, TYPE_NAMES as CORE_TYPE_NAMES } from "../src/words.gen";

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

  it("switches, and translates server errors by code", () => {
    setLanguage("fr");
    try {
      expect(t("lobby.start")).toBe("Lancer la partie");
      expect(errorText("seat_taken", "seat 2 is already taken")).toBe("Cette place est déjà prise.");
      expect(errorText("illegal_move", "architect #2 at R2: the urbanist blocks row 2 (R5)")).toContain("(R5)");
      expect(errorText("some_new_code", "as the server says")).toBe("as the server says");
    } finally {
      setLanguage("en");
    }
    expect(errorText("seat_taken", "seat 2 is already taken")).toBe("seat 2 is already taken");
  });
});

describe("English names", () => {
  it("are the core's (words.gen.ts, generated from quadropolis.buildings and quadropolis.scoring)", () => {
    const en = CATALOGUES.en as Record<string, string>;
    for (const [type, name] of Object.entries(CORE_TYPE_NAMES)) expect(en[`type.${type}`]).toBe(name);
    for (const [category, name] of Object.entries(CORE_CATEGORY_NAMES)) expect(en[`category.${category}`]).toBe(name);
  });
});
