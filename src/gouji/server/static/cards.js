// Cards as counts and as faces. Which selections may be sent, and which plays are 够级, the server's frame
// says (table/legal.js): no rule of play is decided here.

import { t } from "./i18n.js";

export const RANKS = "3456789TJQKA2XD";
export const THREE = 0, FOUR = 1, TEN = 7, ACE = 11, TWO = 12, SMALL = 13, BIG = 14, NUM_RANKS = 15;

/** Per-rank counts (15 numbers) of a hand or play text such as "DX22AKK9". */
export function parseCounts(text) {
  const counts = new Array(NUM_RANKS).fill(0);
  const s = String(text || "").toUpperCase().replace(/10/g, "T").replace(/\s+/g, "");
  for (const ch of s) {
    const r = RANKS.indexOf(ch);
    if (r < 0) throw new Error(`not a card: ${ch}`);
    counts[r] += 1;
  }
  return counts;
}

/** Counts as text, highest first (the engine's format). */
export function formatCounts(counts) {
  let out = "";
  for (let r = NUM_RANKS - 1; r >= 0; r--) out += RANKS[r].repeat(counts[r] || 0);
  return out;
}

export function total(counts) {
  return counts.reduce((a, b) => a + b, 0);
}

export function sameCounts(a, b) {
  for (let r = 0; r < NUM_RANKS; r++) if ((a[r] || 0) !== (b[r] || 0)) return false;
  return true;
}

/** How a rank is written on a card face. */
export function rankFace(ch) {
  return ch === "T" ? "10" : ch;
}

/** The full deck of these rules as counts (decks × 54 less the removed cards). */
export function deckCounts(rules) {
  const decks = (rules && rules.decks) || 4;
  const counts = new Array(NUM_RANKS).fill(0);
  for (let r = 0; r < NUM_RANKS; r++) counts[r] = r >= SMALL ? decks : decks * 4;
  const removed = (rules && rules.removed) || {};
  for (const [ch, n] of Object.entries(removed)) {
    const r = RANKS.indexOf(ch === "10" ? "T" : ch);
    if (r >= 0) counts[r] = Math.max(0, counts[r] - n);
  }
  return counts;
}

/** Ranks in the order the table shows them: jokers and 2s first, then A down to 3. */
export const DISPLAY_ORDER = [BIG, SMALL, TWO, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];

/** One card face as a DOM element. */
export function cardFace(ch, extra = "") {
  const el = document.createElement("span");
  const r = RANKS.indexOf(ch);
  el.className = "card " + (r === BIG ? "big-joker" : r === SMALL ? "small-joker" : r === TWO ? "two" : "plain") +
    (extra ? " " + extra : "");
  el.dataset.rank = ch;
  if (r >= SMALL) {
    // the two jokers differ in shape and word, not only in colour: ★ 大 (Big) and ☆ 小 (Small)
    const big = r === BIG;
    el.title = t(big ? "joker_big" : "joker_small");
    el.innerHTML = `<span class="corner joker-mark" aria-hidden="true">${big ? "★" : "☆"}</span>` +
      `<span class="joker-face">${t(big ? "face_big" : "face_small")}</span>`;
  } else {
    const face = rankFace(ch);
    // the corner and the suit repeat the pip for the eye: a screen reader hears the rank once
    el.innerHTML = `<span class="corner" aria-hidden="true">${face}</span><span class="pip">${face}</span>` +
      (r === TWO ? `<span class="suit" aria-hidden="true">♥</span>` : "");
  }
  return el;
}

/** A play shown as a row of overlapping cards. */
export function playCards(text, cls = "") {
  const wrap = document.createElement("span");
  wrap.className = "play-cards " + cls;
  wrap.dataset.play = text;
  for (const ch of String(text)) wrap.appendChild(cardFace(ch));
  return wrap;
}
