// Your hand: its rank groups, what is selected, and the gestures that select (click, double click, long press, keys).
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table.

import { icon } from "../icons.js";
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import {
  RANKS, DISPLAY_ORDER, TWO, parseCounts, formatCounts, total, sameCounts, playAllowed, cardFace,
} from "../cards.js";
import { cardsText, SETUP_PHASES } from "../render.js";
import { reasonText } from "../reasons.js";
import { playOf } from "../cards.js";

import { LONG_PRESS_MS, DOUBLE_CLICK_MS, playsNeeded, burnNeeds } from "./common.js";

export const handMethods = {
  handCounts() {
    return parseCounts((this.frame && this.frame.view.hand) || "");
  },

  renderHand() {
    if (!this.frame) return;
    const v = this.frame.view;
    const focusRank = document.activeElement && document.activeElement.dataset && document.activeElement.dataset.rank;
    clear(this.handEl);
    if (this.seat === null) {
      this.handEl.classList.add("spectating");
      this.handEl.appendChild(h("div.muted", icon("eye"), " " + t("watching")));
      clear(this.handInfo);
      return;
    }
    const hand = this.handCounts();
    const special = h("div.cluster.special");
    const naturals = h("div.cluster.naturals");
    for (const r of DISPLAY_ORDER) {
      const n = hand[r];
      if (!n) continue;
      const ch = RANKS[r];
      const sel = this.sel[r];
      const stack = h("span.stack", { dataset: { depth: Math.min(n, 4) } }, cardFace(ch));
      const g = h(
        "button.group" + (sel ? ".selected" : "") + (sel && sel === n ? ".all" : ""),
        {
          type: "button",
          dataset: { rank: ch, count: n, sel },
          "aria-pressed": sel ? "true" : "false",
        },
        stack,
        h("span.n", "×" + n),
        sel ? h("span.sel-n", String(sel)) : null,
      );
      this.bindGroup(g, r);
      (r >= TWO ? special : naturals).appendChild(g);
    }
    if (special.lastChild) special.lastChild.classList.add("last-special");
    if (special.childNodes.length) this.handEl.appendChild(special);
    if (naturals.childNodes.length) this.handEl.appendChild(naturals);
    if (!total(hand)) this.handEl.appendChild(h("div.muted", t("hand_empty")));
    if (focusRank) {
      const again = this.handEl.querySelector(`[data-rank="${focusRank}"]`);
      if (again) again.focus();
    }
    clear(this.handInfo);
    const selText = formatCounts(this.sel);
    const suggestion = !!selText && this.isSuggestion();
    this.handEl.classList.toggle("suggested", suggestion);
    const said = suggestion ? "suggested_sel" : "selected";
    this.handInfo.append(
      ...[h("span.sel-text", selText
        ? t(said, { cards: `${cardsText(selText)} (${total(this.sel)})`, button: t(this.sendButton()) })
        : t("nothing_selected")),
      this.hint && !SETUP_PHASES.includes(v.phase) ? h("span.hint-reason", icon("bulb"), " ", this.hintLine()) : null,
      this.burnInfo(),
      ].filter(Boolean),
    );
  },

  /** The hint's reason in the page's language, with the seats' names as shown. */
  hintText() {
    const hnt = this.hint;
    if (!hnt) return "";
    return (hnt.code && reasonText(hnt.code, hnt.params, (s) => this.name(s))) || hnt.reason;
  },

  /** Before a burn: what it needs (the plays left after it, a joker for each but the last) and whether the
   * hand can carry it; during this seat's own burn: the jokers left for the plays to come. */
  burnInfo() {
    if (!this.isMyTurn() || this.frame.view.phase !== "play") return null;
    const hand = this.handCounts();
    const me = this.frame.view.players[this.seat] || {};
    if (this.frame.turn.burn_offer && total(this.sel)) {
      const need = burnNeeds(hand, this.sel, this.bieSan());
      return h("span.burn-need" + (need.ok ? ".ok" : ".short"), { id: "burn-need" },
        t(need.ok ? "burn_need_ok" : "burn_need_short", need));
    }
    if (me.burning) {
      const left = playsNeeded(hand, this.bieSan());
      const jokers = hand[13] + hand[14];
      return h("span.burn-need" + (jokers >= left - 1 ? ".ok" : ".short"), { id: "burn-need" },
        t("burning_need", { after: left, needed: Math.max(0, left - 1), jokers }));
    }
    return null;
  },

  /** A click on a rank: a natural rank is selected whole (or as many as the play to beat needs, and it
   * replaces another natural rank); clicked again, one fewer; 2s and jokers are added one per click. */
  clickRank(r) {
    const n = this.handCounts()[r];
    if (!n) return;
    // another natural rank than the suggestion's starts a selection of its own (its 2s and jokers too)
    if (r < TWO && !this.sel[r] && this.isSuggestion()) this.sel.fill(0);
    this.suggested = null;
    const cur = this.sel[r];
    if (r >= TWO) {
      this.setSel(r, cur >= n ? 0 : cur + 1);
      return;
    }
    if (cur) {
      this.setSel(r, cur - 1);
      return;
    }
    for (let q = 0; q < TWO; q++) if (q !== r) this.sel[q] = 0;
    let want = n;
    const top = this.frame && this.frame.view.top;
    if (top && this.frame.view.phase === "play") {
      const a = playOf(parseCounts(top));
      const extra = this.sel[TWO] + this.sel[13] + this.sel[14];
      if (a && !a.effBig) {
        want = Math.max(1, Math.min(n, a.size - extra));
        if (want < a.size - extra) {
          // too few of the rank: make up the count with 2s, then small, then big jokers, if that beats
          const hand = this.handCounts();
          const trial = this.sel.slice();
          trial[r] = want;
          let short = a.size - extra - want;
          for (const q of [TWO, 13, 14]) {
            const add = Math.min(short, hand[q] - trial[q]);
            trial[q] += add;
            short -= add;
          }
          if (!short && playAllowed(trial, hand, top, this.rules)) {
            this.selEpoch = (this.selEpoch || 0) + 1;
            this.sel = trial;
            this.renderHand();
            this.renderActions();
            this.markHint();
            return;
          }
        }
      }
    }
    this.setSel(r, want);
  },

  bindGroup(g, r) {
    let timer = null;
    g.addEventListener("pointerdown", (e) => {
      if (e.button !== 0) return;
      this.longPressed = false;
      timer = setTimeout(() => {
        this.longPressed = true; // a long press clears the rank
        this.setSel(r, 0);
      }, LONG_PRESS_MS);
    });
    const cancel = () => clearTimeout(timer);
    g.addEventListener("pointerup", cancel);
    g.addEventListener("pointerleave", cancel);
    g.addEventListener("click", (e) => {
      if (this.longPressed) {
        this.longPressed = false;
        return;
      }
      // a double click on a rank plays it: the first click selected it, the second sends that selection
      const last = this.lastPick;
      this.lastPick = null;
      if (e.detail >= 2 && last && last.rank === r && last.fresh && Date.now() - last.at < DOUBLE_CLICK_MS) {
        if (this.sendSelection()) return;
      }
      const fresh = !this.sel[r];
      this.clickRank(r);
      this.lastPick = { rank: r, fresh: fresh && this.sel[r] > 0, at: Date.now() };
    });
    g.addEventListener("contextmenu", (e) => {
      e.preventDefault();
      this.setSel(r, Math.max(0, this.sel[r] - 1));
    });
    g.addEventListener("keydown", (e) => {
      const n = this.handCounts()[r];
      if (e.key === "ArrowUp" || e.key === "+" || e.key === "=") this.setSel(r, Math.min(n, this.sel[r] + 1));
      else if (e.key === "ArrowDown" || e.key === "-") this.setSel(r, Math.max(0, this.sel[r] - 1));
      else if (e.key === "ArrowLeft" || e.key === "ArrowRight") {
        const all = Array.from(this.handEl.querySelectorAll(".group"));
        const i = all.indexOf(g) + (e.key === "ArrowLeft" ? -1 : 1);
        if (all[i]) all[i].focus();
      } else return;
      e.preventDefault();
      e.stopPropagation();
    });
  },

  setSel(r, n) {
    this.selEpoch = (this.selEpoch || 0) + 1;
    this.sel[r] = n;
    this.renderHand();
    this.renderActions();
    this.markHint();
  },

  clearSel() {
    this.selEpoch = (this.selEpoch || 0) + 1;
    this.suggested = null;
    this.sel.fill(0);
    this.renderHand();
    this.renderActions();
  },

  /** Whether the selection is still the hint's suggestion, untouched. */
  isSuggestion() {
    const s = this.suggested;
    return !!(s && this.frame && s.state === this.frame.state && sameCounts(s.sel, this.sel));
  },

  /** Send the selection as what it may be sent as now (play, burn or 还贡); false when it may not be. */
  sendSelection() {
    const st = this.selectionState();
    if (st.play) this.act(formatCounts(this.sel));
    else if (st.burn) this.act("burn " + formatCounts(this.sel));
    else if (st.ret) this.act("return " + formatCounts(this.sel));
    else return false;
    return true;
  },

  /** Which plays the selection may be sent as now: {play, burn, ret} (booleans). */
  selectionState() {
    const out = { play: false, burn: false, ret: false };
    if (!this.isMyTurn() || this.pending || !total(this.sel)) return out;
    const f = this.frame;
    const v = f.view;
    const turn = f.turn;
    const hand = this.handCounts();
    if (v.phase === "tribute_return") {
      const n = this.returnSize();
      const text = "return " + formatCounts(this.sel);
      out.ret = total(this.sel) === n && (turn.choices ? turn.choices.includes(text) : true);
      return out;
    }
    if (v.phase !== "play") return out;
    let ok;
    if (turn.choices) {
      ok = turn.choices.some((c) => {
        const text = turn.burn_offer ? (c.startsWith("burn ") ? c.slice(5) : null) : c;
        if (!text || text === "pass" || text === "yield") return false;
        try {
          return sameCounts(parseCounts(text), this.sel);
        } catch {
          return false;
        }
      });
    } else {
      ok = playAllowed(this.sel, hand, v.top, this.rules);
    }
    if (turn.burn_offer) out.burn = ok;
    else out.play = ok;
    return out;
  },
};
