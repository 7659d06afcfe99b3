// Your hand: its rank groups, what is selected, and the gestures that select (click, double click, long press, keys).
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table.

import { icon } from "../icons.js";
import { h, clear } from "../dom.js";
import { t } from "../i18n.js";
import { RANKS, DISPLAY_ORDER, TWO, parseCounts, formatCounts, total, sameCounts, cardFace } from "../cards.js";
import { cardsText, SETUP_PHASES } from "../render.js";
import { reasonText } from "../reasons.js";

import { LONG_PRESS_MS, DOUBLE_CLICK_MS } from "./common.js";
import { allowed, answerWith, burnNeed, burnLeft } from "./legal.js";

const TIP_KEY = "gouji.tipDone";

export const handMethods = {
  /** Whether this browser's player has selected on their own once (the selection tip is then not shown). */
  tipDone() {
    if (this.tipSeen === undefined) this.tipSeen = localStorage.getItem(TIP_KEY) === "1";
    return this.tipSeen;
  },

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
    this.fitHand();
    if (focusRank) {
      const again = this.handEl.querySelector(`[data-rank="${focusRank}"]`);
      if (again) again.focus();
    }
    clear(this.handInfo);
    const selText = formatCounts(this.sel);
    const suggestion = !!selText && this.isSuggestion();
    this.handEl.classList.toggle("suggested", suggestion);
    const said = suggestion ? "suggested_sel" : "selected";
    // the tip on selecting is shown until the player's first selection of their own, then the line is the
    // hint's (on a phone, where the hand-info has two short lines, the tip names no key)
    if (total(this.sel) && !suggestion && !this.tipDone()) {
      this.tipSeen = true;
      localStorage.setItem(TIP_KEY, "1");
    }
    const phone = !!(this.phoneQuery && this.phoneQuery.matches);
    const tip = this.tipDone() ? null : t(phone ? "nothing_selected_touch" : "nothing_selected");
    // (on a phone the hint's line says what is selected for the player: the reason takes the room)
    const quiet = phone && suggestion && this.hint;
    this.handInfo.append(
      ...[(selText && !quiet) || (!selText && tip) ? h("span.sel-text", selText
        ? t(said, { cards: `${cardsText(selText)} (${total(this.sel)})`, button: t(this.sendButton()) })
        : tip) : null,
      this.hint && !SETUP_PHASES.includes(v.phase) ? h("span.hint-reason", icon("bulb"), " ", this.hintLine()) : null,
      this.burnInfo(),
      ].filter(Boolean),
    );
  },

  /** On a phone the hand's box has a fixed height: a hand of more ranks than two rows hold (all 15: three rows
   * at 360-390 px) is drawn dense (shorter tiles, tighter rows), so every rank stays in sight, none scrolled
   * off inside the box. */
  fitHand() {
    const el = this.handEl;
    el.classList.remove("dense");
    if (!this.phoneQuery || !this.phoneQuery.matches || el.clientHeight === 0) return;
    if (el.scrollHeight > el.clientHeight + 1) el.classList.add("dense");
  },

  /** The hint's reason in the page's language, with the seats' names as shown. */
  hintText() {
    const hnt = this.hint;
    if (!hnt) return "";
    return (hnt.code && reasonText(hnt.code, hnt.params, (s) => this.name(s))) || hnt.reason;
  },

  /** Before a burn: what it needs (the plays left after it, a joker for each but the last) and whether the
   * hand can carry it; during this seat's own burn: the jokers left for the plays to come (the server says). */
  burnInfo() {
    if (!this.isMyTurn() || this.frame.view.phase !== "play") return null;
    const turn = this.frame.turn;
    const need = turn.burn_offer ? (total(this.sel) ? burnNeed(turn, this.sel) : null) : burnLeft(turn);
    if (!need) return null;
    const key = turn.burn_offer ? (need.ok ? "burn_need_ok" : "burn_need_short") : "burning_need";
    return h("span.burn-need" + (need.ok ? ".ok" : ".short"), { id: "burn-need" }, t(key, need));
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
    const f = this.frame;
    const top = f && f.view.top;
    if (top && f.view.phase === "play") {
      // answering a play: the legal play (as the frame lists them) with the most of this rank and the 2s and
      // jokers already selected, made up with 2s before jokers; else as many as the play to beat has cards
      const pick = this.isMyTurn() && answerWith(f.turn, f.turn.burn_offer ? "burn" : "play", r, this.sel);
      if (pick) {
        this.selEpoch = (this.selEpoch || 0) + 1;
        this.sel = pick.slice();
        this.renderHand();
        this.renderActions();
        this.markHint();
        return;
      }
      const extra = this.sel[TWO] + this.sel[13] + this.sel[14];
      want = Math.max(1, Math.min(n, total(parseCounts(top)) - extra));
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
    if (v.phase === "tribute_return") {
      out.ret = allowed(turn, "return", this.sel);
      return out;
    }
    if (v.phase !== "play") return out;
    const ok = allowed(turn, turn.burn_offer ? "burn" : "play", this.sel);
    if (turn.burn_offer) out.burn = ok;
    else out.play = ok;
    return out;
  },
};
