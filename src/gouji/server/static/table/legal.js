// What this seat may do now, as the server's frame says it: `turn.choices` (every legal action), or, when they
// are many, `turn.legal` (the ones listed one by one, and the leads as blocks); what a burn needs
// (`turn.burn_needs`, `turn.burn_left`); whether a play is 够级 (`view.top_gouji`). The page decides no rule
// itself (docs/protocol.md); pure functions.

import { RANKS, TWO, SMALL, BIG, parseCounts, sameCounts, total } from "../cards.js";

const CARDS = /^[3-9TJQKA2XD]+$/;

function countsOf(text) {
  return CARDS.test(text) ? parseCounts(text) : null;
}

/** The actions of `kind` ("play", "burn" or "return") the turn lists one by one, as counts. */
export function listed(turn, kind) {
  const texts = (turn && (turn.choices || (turn.legal && turn.legal.explicit))) || [];
  const prefix = kind === "play" ? "" : kind + " ";
  const out = [];
  for (const text of texts) {
    if (prefix && !text.startsWith(prefix)) continue;
    const c = countsOf(text.slice(prefix.length));
    if (c) out.push(c);
  }
  return out;
}

/** Whether the counts `c` are a play of block `b` ([rank, k0, kn, t0, tn, xn, dn, skip]: see legal_set). */
export function inBlock(b, c) {
  const [rank, k0, kn, t0, tn, xn, dn, skip] = b;
  const r = rank ? RANKS.indexOf(rank) : -1;
  for (let q = 0; q < TWO; q++) if (q !== r && c[q]) return false;
  const k = r >= 0 ? c[r] : 0;
  if (k < k0 || k >= k0 + kn || c[TWO] < t0 || c[TWO] >= t0 + tn || c[SMALL] >= xn || c[BIG] >= dn) return false;
  return !(skip && total(c) === 0);
}

/** Whether the selection `sel` (counts) may be sent now as `kind`: "play", "burn" or "return". */
export function allowed(turn, kind, sel) {
  if (!turn || !total(sel)) return false;
  if (listed(turn, kind).some((c) => sameCounts(c, sel))) return true;
  return kind === "play" && !turn.choices && !!turn.legal && turn.legal.blocks.some((b) => inBlock(b, sel));
}

/**
 * What a click on natural rank `r` selects when answering a play: of the listed plays of `kind` that hold
 * rank `r` and the 2s and jokers already selected, the one with the most of `r`, then the fewest big jokers,
 * small jokers and 2s; null when none does.
 */
export function answerWith(turn, kind, r, sel) {
  const fits = listed(turn, kind).filter((c) => c[r] > 0 && [TWO, SMALL, BIG].every((q) => c[q] >= (sel[q] || 0)));
  fits.sort((a, b) => b[r] - a[r] || a[BIG] - b[BIG] || a[SMALL] - b[SMALL] || a[TWO] - b[TWO]);
  return fits.length ? fits[0] : null;
}

const need = ([after, needed, jokers]) => ({ after, needed, jokers, ok: jokers >= needed });

/** What the burn offered with `sel` needs ({after, needed, jokers, ok}), as the server said; else null. */
export function burnNeed(turn, sel) {
  for (const [text, v] of Object.entries((turn && turn.burn_needs) || {})) {
    const c = countsOf(text);
    if (c && sameCounts(c, sel)) return need(v);
  }
  return null;
}

/** During this seat's own burn: the plays left, the jokers they need and those held; else null. */
export function burnLeft(turn) {
  return turn && turn.burn_left ? need(turn.burn_left) : null;
}

/** Whether the play event `ev` is the 够级 play on top of the view the frame brought (the view says). */
export function goujiPlay(ev, view) {
  if (!view || !view.top_gouji || ev.type !== "act" || ev.seat !== view.top_seat) return false;
  const a = countsOf(ev.action || ""), b = countsOf(view.top || "");
  return !!a && !!b && sameCounts(a, b);
}
