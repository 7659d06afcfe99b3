// What the live table's modules share: constants, the page's settings (prefs), sounds.

export const KEY_RANKS = {
  Digit2: "2", Digit3: "3", Digit4: "4", Digit5: "5", Digit6: "6", Digit7: "7", Digit8: "8", Digit9: "9", Digit0: "T",
  Numpad2: "2", Numpad3: "3", Numpad4: "4", Numpad5: "5", Numpad6: "6", Numpad7: "7", Numpad8: "8", Numpad9: "9",
  Numpad0: "T", KeyT: "T", KeyJ: "J", KeyQ: "Q", KeyK: "K", KeyA: "A", KeyX: "X", KeyD: "D",
};
export const LONG_PRESS_MS = 450;
export const SUMMARY_DELAY_MS = 1800; // the last plays stay visible this long before the summary covers them
export const MARK_MS = 1300;
export const MARK_MIN_MS = 600; // …but a newer play on the felt takes the centre from a mark shown this long
export const DEAL_MS = 1400; // the dealing at the start of a deal: its cards come in over this long, at most
export const PREFS_KEY = "gouji.prefs";
export const PHONE_QUERY = "(max-width: 760px), (max-height: 500px)";

// sound on, with a mute in the bar; burnChanceOnly: a burn is asked about only when the hand can carry one
export const DEFAULT_PREFS = { sound: true, askSingle: false, suggest: true, burnChanceOnly: true };
// how long the page waits, as a person would, before it answers a hopeless burn offer 不烧 for the player
export const AUTO_DECLINE_MS = [500, 1100];
export const DOUBLE_CLICK_MS = 500;

/** The page's settings: sound (Web Audio, made here), whether to be asked even with one answer, and whether
 * the hint's play is selected for you when you are asked (one click on Play takes it). */
export function loadPrefs() {
  try {
    return { ...DEFAULT_PREFS, ...JSON.parse(localStorage.getItem(PREFS_KEY) || "{}") };
  } catch {
    return { ...DEFAULT_PREFS };
  }
}

export function savePrefs(prefs) {
  localStorage.setItem(PREFS_KEY, JSON.stringify(prefs));
}

export const reducedMotion = () => !!(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);

/** Sounds made in the page (no files): a soft tick for a play, a rising pair of notes for a mark. */
export class Sounds {
  constructor() {
    this.ctx = null;
  }

  /** The browser's autoplay rules: the sound starts only after the person's first tap or key on the page. */
  unlock() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return;
    if (!this.ctx) this.ctx = new Ctx();
    if (this.ctx.state === "suspended") this.ctx.resume();
  }

  tone(freq, start, dur, gain = 0.08, type = "triangle") {
    if (!this.ctx || this.ctx.state !== "running") return; // (not before a gesture: no sound, no warning)
    const c = this.ctx;
    const o = c.createOscillator();
    const g = c.createGain();
    o.type = type;
    o.frequency.value = freq;
    g.gain.setValueAtTime(0, c.currentTime + start);
    g.gain.linearRampToValueAtTime(gain, c.currentTime + start + 0.01);
    g.gain.exponentialRampToValueAtTime(0.0001, c.currentTime + start + dur);
    o.connect(g).connect(c.destination);
    o.start(c.currentTime + start);
    o.stop(c.currentTime + start + dur + 0.02);
  }

  play() {
    this.tone(520, 0, 0.09, 0.05, "square");
  }

  mark() {
    this.tone(660, 0, 0.16);
    this.tone(990, 0.12, 0.22);
  }
}
