// The decision at hand: the setup question (prompt), the action bar, the hint and which button it names, the keys.
// Methods of the live table (table.js mixes them into LiveTable); `this` is the table.

import { icon } from "../icons.js";
import { h, clear, api, toast } from "../dom.js";
import { t } from "../i18n.js";
import { RANKS, parseCounts, formatCounts, total } from "../cards.js";
import { cardsText, phaseName, SETUP_PHASES } from "../render.js";

import { KEY_RANKS, AUTO_DECLINE_MS } from "./common.js";
import { listed } from "./legal.js";

export const actionsMethods = {
  /** When this seat's one legal answer is given for it: what the page says instead of asking (要不起 …). */
  forcedText() {
    const turn = this.frame && this.frame.turn;
    if (turn && this.autoDeclining === turn.decision && this.isMyTurn()) return t("auto_no_burn");
    if (!turn || !turn.forced || this.seat === null) return null;
    const kind = turn.kind;
    if (kind === "burn") return t("forced_no_burn");
    if (kind === "revolution") return t("forced_no_revolution");
    if (kind === "buy_four") return t("forced_no_buy");
    if (turn.forced === "pass") return t("forced_pass");
    return t("forced_play", { cards: cardsText(turn.forced) });
  },

  /** The setup question put to this seat now: {text, buttons: [[label key, action, class]]}, or null. */
  promptModel() {
    const f = this.frame;
    const v = f.view;
    if (!this.isMyTurn() || !SETUP_PHASES.includes(v.phase)) return null;
    const choices = f.turn.choices || f.turn.sample || [];
    if (v.phase === "revolution") {
      return choices.includes("revolt")
        ? { text: t("p_revolution"), buttons: [["btn_revolt", "revolt", ".danger"], ["btn_no_revolt", "pass", ".primary"]] }
        : { text: t("p_revolution_no"), buttons: [["btn_ok", "pass", ".primary"]] };
    }
    if (v.phase === "yaotou") {
      return { text: t("p_yaotou", { n: (this.rules && this.rules.yaotou_limit) || 3 }),
        buttons: [["btn_yaotou", "yaotou", ".primary"], ["btn_wutou", "wutou", ""]] };
    }
    if (v.phase === "xuandian") {
      return { text: t("p_xuandian"), buttons: [["btn_declare", "declare", ".primary"], ["btn_no_declare", "pass", ""]] };
    }
    if (v.phase === "buy_four") {
      return { text: t("p_buy_four"), buttons: [["btn_buy4", "buy4", ".primary"], ["btn_no_buy", "pass", ""]] };
    }
    if (["swap", "giveback", "huiwu", "chongdian", "selfopen"].includes(v.phase)) {
      // rule book §16: take the step, or decline; a hand that may not take it has only "pass"
      const may = choices.includes(v.phase);
      return { text: t(may ? "p_" + v.phase : "p_" + v.phase + "_no"),
        buttons: may ? [["btn_" + v.phase, v.phase, ".primary"], ["btn_decline", "pass", ""]] : [["btn_ok", "pass", ".primary"]] };
    }
    if (v.phase === "tribute_return") {
      return { text: t("p_return", { n: this.returnSize(), name: this.name(this.returnTo()) }), buttons: [] };
    }
    return null;
  },

  /** Whether this seat's own cards can carry none of the burns offered: each burn the server lists leaves
   * more plays than jokers for them (诈烧 certain; the hint says 没有王就烧不下去). A burn that goes out at
   * once is carried. */
  hopelessBurn() {
    const turn = this.frame.turn;
    if (!turn.burn_offer || this.frame.view.phase !== "play") return false;
    const burns = listed(turn, "burn");
    const needs = Object.values(turn.burn_needs || {});
    return burns.length > 0 && needs.length === burns.length && needs.every(([, needed, jokers]) => jokers < needed);
  },

  /**
   * The setting "ask me to burn only with a chance" (on by default): a hopeless burn offer is answered 不烧 by
   * the page, after a person's pause (AUTO_DECLINE_MS). The server is not told: it asked the seat as it asks
   * anyone offered a burn, and its window (timer, masking time) over the seat is the same, so the table learns
   * nothing of who could burn. Any change of the selection, or an answer, first cancels it.
   */
  autoDecline() {
    const f0 = this.frame;
    if (!this.prefs.burnChanceOnly || !this.info || !this.isMyTurn() || this.pending) return;
    const decision = f0.turn.decision; // (other seats' marks may bring frames meanwhile: the decision stays)
    if (this.autoDeclineFor === decision || !this.hopelessBurn()) return;
    this.autoDeclineFor = decision;
    this.autoDeclining = decision;
    this.renderFelt();
    const epoch = this.selEpoch;
    const [lo, hi] = AUTO_DECLINE_MS;
    setTimeout(() => {
      if (this.autoDeclining !== decision) return;
      this.autoDeclining = null;
      const f = this.frame;
      const still = this.alive && f && this.isMyTurn() && f.turn.decision === decision;
      if (!still || this.pending || this.confirming || this.selEpoch !== epoch) {
        if (this.alive && f) this.renderAll();
        return;
      }
      this.act("pass");
    }, lo + Math.random() * (hi - lo));
  },

  /** The label key of the button that makes the hint's choice (出牌, 烧牌, 还贡, 过, 不烧, 不宣 …). */
  hintButton() {
    const hnt = this.hint;
    if (!hnt || !this.frame || hnt.state !== this.frame.state) return null;
    const a = hnt.action;
    const prompt = this.promptModel();
    if (prompt) {
      const b = prompt.buttons.find(([, action]) => action === a);
      if (b) return b[0];
      if (a.startsWith("return ")) return "btn_return";
    }
    if (a === "pass") return this.frame.turn.burn_offer ? "btn_no_burn" : "btn_pass";
    if (a === "yield") return "btn_yield";
    if (a.startsWith("burn ")) return "btn_burn";
    if (a.startsWith("return ")) return "btn_return";
    return "btn_play";
  },

  /** The button that sends the selection in this decision: 出牌, 烧牌 (a burn offer) or 还贡. */
  sendButton() {
    const f = this.frame;
    if (f && f.view.phase === "tribute_return") return "btn_return";
    return f && f.turn && f.turn.burn_offer ? "btn_burn" : "btn_play";
  },

  /** The hint line: the button it suggests, then why. */
  hintLine() {
    const key = this.hintButton();
    return [key ? h("b.hint-button", t("hint_prompt", { button: t(key) })) : null, key ? " — " : null,
      h("span.hint-why", this.hintText())];
  },

  promptPanel() {
    const model = this.promptModel();
    if (!model) return null;
    const f = this.frame;
    const v = f.view;
    const choices = f.turn.choices || f.turn.sample || [];
    // the bright style goes to the hint's choice once there is one (never against it)
    const hinted = this.hint && this.hint.state === f.state ? this.hint.action : null;
    const btn = ([key, action, cls]) => {
      const style = hinted && model.buttons.some((b) => b[1] === hinted) ? (action === hinted ? ".primary" : "") : cls;
      return h("button.btn" + style, { type: "button", dataset: { action }, onclick: () => this.act(action),
        disabled: !!this.pending || !choices.includes(action) }, t(key));
    };
    const body = [h("p", model.text), model.buttons.length ? h("div.prompt-btns", model.buttons.map(btn)) : null];
    const hint = this.hint ? h("div.hint-reason", icon("bulb"), " ", this.hintLine()) : null;
    return h("div.prompt", { role: "dialog", "aria-label": phaseName(v.phase) },
      h("h3", phaseName(v.phase)), body, hint);
  },

  returnSize() {
    const turn = this.frame.turn;
    const c = (turn.choices || turn.sample || []).find((x) => x.startsWith("return "));
    return c ? c.length - 7 : 0;
  },

  returnTo() {
    // 还贡 goes back to the payer of a 落贡 this seat received, in the order they were paid
    const paid = this.dealEvents.filter((e) => e.type === "tribute" && e.to === this.seat && e.cards && e.kind === "luo");
    const back = this.dealEvents.filter((e) => e.type === "tribute_return" && e.from === this.seat).length;
    const ev = paid[back] || paid[0];
    return ev ? ev.from : this.seat;
  },

  renderActions() {
    if (!this.frame) return;
    clear(this.actionsEl);
    if (this.seat === null) return;
    const f = this.frame;
    const v = f.view;
    const mine = this.isMyTurn() && !this.pending;
    const turn = f.turn;
    const st = this.selectionState();
    const b = (id, key, enabled, onclick, cls = "") =>
      h("button.btn" + cls, { type: "button", id, disabled: !enabled, onclick }, t(key));
    const hintBtn = b("btn-hint", "btn_hint", mine, () => this.askHint(), ".ghost");
    const clearBtn = b("btn-clear", "btn_clear", total(this.sel) > 0, () => this.clearSel(), ".ghost");
    if (SETUP_PHASES.includes(v.phase)) {
      this.actionsEl.append(hintBtn);
      if (v.phase === "tribute_return") {
        this.actionsEl.append(clearBtn,
          b("btn-return", "btn_return", st.ret, () => this.act("return " + formatCounts(this.sel)), ".primary"));
      }
      return;
    }
    const burnOffer = mine && turn.burn_offer;
    const forced = this.forcedText();
    if (forced) this.actionsEl.append(h("span.forced-pill#forced", { role: "note" }, forced));
    this.actionsEl.append(
      hintBtn,
      clearBtn,
      b("btn-pass", burnOffer ? "btn_no_burn" : "btn_pass", mine && !!turn.can_pass, () => this.act("pass")),
      b("btn-yield", "btn_yield", mine && !!turn.can_yield, () => this.act("yield")),
      b("btn-burn", "btn_burn", st.burn, () => this.act("burn " + formatCounts(this.sel)), ".burn"),
      b("btn-play", "btn_play", st.play, () => this.act(formatCounts(this.sel)), ".primary"),
    );
    if (mine) this.actionsEl.classList.add("my-turn");
    else this.actionsEl.classList.remove("my-turn");
  },

  /**
   * When a real question reaches this seat: ask for the hint and select its play for the player (a
   * suggestion: one click on Play, or Enter, takes it; a click on another rank starts a selection of its
   * own). Nothing is selected over what the player has already picked. `suggestedFor` names the state the
   * suggestion (or its absence) is settled for.
   */
  suggest() {
    if (!this.frame) return;
    const state = this.frame.state;
    if (this.suggestAsked === state) return;
    this.suggestAsked = state;
    this.suggested = null;
    if (!this.prefs.suggest || !this.isMyTurn() || !this.info || this.pending || total(this.sel)) {
      this.suggestedFor = state;
      return;
    }
    const epoch = this.selEpoch;
    this.askHint({ soft: true, epoch }).finally(() => {
      if (this.frame && this.frame.state === state) this.suggestedFor = state;
    });
  },

  async askHint({ soft = false, epoch = null } = {}) {
    if (!this.isMyTurn() || !this.info) return;
    const state = this.frame.state;
    let action, reason;
    try {
      const res = await api(`/api/tables/${this.code}/hint`, { token: this.info.token });
      if (res.state !== this.frame.state) return;
      action = res.action;
      reason = res.reason;
      this.hintCode = { code: res.code, params: res.params };
    } catch (e) {
      // the table moved on (409), or the automatic suggestion: nothing to show
      if (e.status === 409 || this.frame.state !== state || soft) return;
      // a hint for this seat already being worked out (429), the server busy with hints (503): say so
      if (e.status === 429 || e.status === 503) {
        toast(t(e.status === 429 ? "hint_pending" : "hint_busy"), "warn");
        return;
      }
      const turn = this.frame.turn;
      const list = turn.choices || turn.sample || [];
      action = list.find((c) => c !== "pass" && c !== "yield") || list[0];
      reason = t("hint_fallback");
      this.hintCode = { code: null, params: null };
    }
    if (!action || this.frame.state !== state || this.pending) return;
    // a suggestion never replaces what the player picked meanwhile
    if (soft && (this.selEpoch !== epoch || total(this.sel))) return;
    this.hint = { state, action, reason, ...(this.hintCode || {}) };
    let cards = null;
    if (action.startsWith("burn ")) cards = action.slice(5);
    else if (action.startsWith("return ")) cards = action.slice(7);
    else if (/^[3-9TJQKA2XD]+$/.test(action)) cards = action;
    if (cards) this.sel = parseCounts(cards);
    else this.sel.fill(0);
    this.suggested = cards ? { state, sel: this.sel.slice() } : null;
    this.hint.flash = action === "pass" ? "#btn-pass, .prompt [data-action='pass']"
      : action === "yield" ? "#btn-yield"
      : cards === null ? `.prompt [data-action='${action}']` : action.startsWith("burn") ? "#btn-burn"
      : action.startsWith("return") ? "#btn-return" : "#btn-play";
    this.renderAll();
    const flash = this.root.querySelector(".hinted");
    if (flash && !soft) flash.focus();
  },

  /** Mark the hinted button again after a redraw (a change of language redraws everything). */
  markHint() {
    if (!this.hint || !this.hint.flash || !this.frame || this.hint.state !== this.frame.state) return;
    const el = this.root.querySelector(this.hint.flash);
    if (el) el.classList.add("hinted");
  },

  onKey(e) {
    if (!this.frame || e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key;
    const ch = KEY_RANKS[e.code];
    if (ch && this.seat !== null) {
      // a rank key is a click on the rank (the whole group, or what the play to beat needs; again, one fewer;
      // 2s and jokers one a press); over the hint's suggestion it starts a selection of its own. Shift: one fewer
      const r = RANKS.indexOf(ch);
      const n = this.handCounts()[r];
      if (n && this.isSuggestion()) {
        this.sel.fill(0);
        this.suggested = null;
      }
      if (n && e.shiftKey) this.setSel(r, Math.max(0, this.sel[r] - 1));
      else if (n) this.clickRank(r);
      e.preventDefault();
      return;
    }
    const click = (sel) => {
      const b = this.root.querySelector(sel);
      if (b && !b.disabled) b.click();
    };
    if (key === "Enter") {
      if (e.target.tagName === "BUTTON" && !e.target.classList.contains("group")) return;
      click("#btn-play:not([disabled]), #btn-burn:not([disabled]), #btn-return:not([disabled])");
      e.preventDefault();
    } else if (key === "?") {
      this.toggleHelp();
    } else if (key === "Escape") {
      if (this.sheetOpen) this.toggleSheet(false);
      else if (this.helpOpen || this.confirming || this.settingsOpen) {
        this.helpOpen = false;
        this.settingsOpen = false;
        this.confirming = null;
        this.renderOverlay();
      } else this.clearSel();
    } else if (e.code === "KeyP") click("#btn-pass");
    else if (e.code === "KeyY") click("#btn-yield");
    else if (e.code === "KeyH") click("#btn-hint");
  },
};
