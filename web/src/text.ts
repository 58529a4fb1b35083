// Every player-visible string added for a new player's first hour: the table's
// explanations, the touch controls, animation and sound, the bot's progress and the lobby's
// new choices. Each entry reads its words from the current language's catalogue
// (locales/*.json, keys text.*) when it is used; the guided game's lessons are data of
// their own (lessons.ts).
import { t } from "./i18n";

export const TEXT = {
  get deadEmpty() {
    return t("text.deadEmpty");
  },
  get deadFaceDown() {
    return t("text.deadFaceDown");
  },
  get deadMark() {
    return t("text.deadMark");
  },
  get buildNow() {
    return t("text.buildNow");
  },
  get buildFed() {
    return t("text.buildFed");
  },
  buildValueTitle: (now: string, fed: string) => t("text.buildValueTitle", { now, fed }),
  buildValueWords: (now: string, fed: string) => t("text.buildValueWords", { now, fed }),
  get discardValue() {
    return t("text.discardValue");
  },
  get confirm() {
    return t("text.confirm");
  },
  confirmTake: (architect: number, slot: string) => t("text.confirmTake", { architect, slot }),
  confirmBuild: (square: string) => t("text.confirmBuild", { square }),
  get tapAgain() {
    return t("text.tapAgain");
  },
  get takeHelpTouch() {
    return t("text.takeHelpTouch");
  },
  thinking: (name: string) => t("text.thinking", { name }),
  thinkingFor: (name: string, seconds: number) => t("text.thinkingFor", { name, seconds }),
  get sound() {
    return t("text.sound");
  },
  get soundOn() {
    return t("text.soundOn");
  },
  get soundOff() {
    return t("text.soundOff");
  },
  get skipAnimation() {
    return t("text.skipAnimation");
  },
  playerName: (seat: number) => t("text.playerName", { seat }),
  get firstPlayer() {
    return t("text.firstPlayer");
  },
  firstSeat: (seat: number) => t("text.firstSeat", { seat }),
  get randomFirst() {
    return t("text.randomFirst");
  },
  get learnTitle() {
    return t("text.learnTitle");
  },
  get learnLead() {
    return t("text.learnLead");
  },
  get learnButton() {
    return t("text.learnButton");
  },
  get learnResume() {
    return t("text.learnResume");
  },
  get learnBusy() {
    return t("text.learnBusy");
  },
  get guideTitle() {
    return t("text.guideTitle");
  },
  get guideGotIt() {
    return t("text.guideGotIt");
  },
  get guideTotal() {
    return t("text.guideTotal");
  },
};
