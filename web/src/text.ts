// Every player-visible string added for a new player's first hour (issue #22): the table's
// explanations, the touch controls, animation and sound, the bot's progress and the lobby's
// new choices. One map, so that translating the interface later is mechanical; the guided
// game's lessons are data of their own (lessons.ts).

export const TEXT = {
  deadEmpty: "Takes nothing: this slot points at an empty square (its building was taken earlier this round).",
  deadFaceDown: "Takes nothing: this slot points at a face-down tile, which cannot be taken this round.",
  deadMark: "takes nothing",
  buildNow: "now",
  buildFed: "fed",
  buildValueTitle: (now: string, fed: string) => `Your score changes by ${now} at once, and by ${fed} once every building of your city is fed`,
  buildValueWords: (now: string, fed: string) => `score ${now} now, ${fed} once fed`,
  discardValue: "Discard: your score stays as it is.",
  confirm: "Confirm",
  confirmTake: (architect: number, slot: string) => `Confirm: architect ${architect} at ${slot}`,
  confirmBuild: (square: string) => `Confirm: build on ${square}`,
  tapAgain: "Tap again, or press Confirm, to play it.",
  takeHelpTouch: "Pick an architect, then tap a lit slot around the site to see what it takes; tap it again to play.",
  thinking: (name: string) => `${name} is thinking…`,
  thinkingFor: (name: string, seconds: number) => `${name} is thinking… ${seconds} s`,
  sound: "Sound",
  soundOn: "Sound on: a short tone for every action",
  soundOff: "Sound off",
  skipAnimation: "Click or press a key to skip the animation",
  playerName: (seat: number) => `Name of the player in seat ${seat}`,
  firstPlayer: "First player",
  firstSeat: (seat: number) => `Seat ${seat}`,
  randomFirst: "Drawn at random",
  learnTitle: "New to Quadropolis?",
  learnLead: "Play a guided first game against a gentle bot: each step is explained when it comes up.",
  learnButton: "Learn to play",
  learnResume: "Resume the guided game",
  learnBusy: "Dealing…",
  guideTitle: "Guide",
  guideGotIt: "Got it",
  guideTotal: "total",
} as const;
