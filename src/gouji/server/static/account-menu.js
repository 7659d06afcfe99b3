// The top bar's account corner: "Sign in" for a guest (a link, never a nag); signed in, the avatar and the
// name, a button opening a small menu — the profile, change the password, sign out, sign out everywhere,
// delete the account.

import { h, clear, toast } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { avatar } from "./avatar.js";
import { currentAccount, accountKnown, loadMe, onAccountChange, signOut } from "./account.js";

export class AccountMenu {
  constructor(slot, { go }) {
    this.slot = slot;
    this.go = go;
    this.open = false;
    this.onDoc = (e) => {
      if (this.open && !this.slot.contains(e.target)) this.toggle(false);
    };
    this.onKey = (e) => {
      if (this.open && e.key === "Escape") {
        this.toggle(false);
        this.slot.querySelector("#account-btn").focus();
      }
    };
    document.addEventListener("click", this.onDoc);
    document.addEventListener("keydown", this.onKey);
    onLangChange(() => this.render());
    onAccountChange((me) => {
      this.render();
      if (me) prefill(me.name);
    });
    this.render();
    loadMe();
  }

  render() {
    this.open = false;
    clear(this.slot);
    if (!accountKnown()) return;
    const me = currentAccount();
    if (!me) {
      this.slot.appendChild(h("a.chip.account-chip#sign-in-link", { href: "/?account=signin" }, t("acc_sign_in")));
      return;
    }
    const item = (el) => h("li", el);
    const menu = h("div.account-menu#account-menu", { hidden: true },
      h("ul",
        item(h("a#menu-profile", { href: `/?player=${encodeURIComponent(me.name)}` }, t("acc_profile"))),
        item(h("a#menu-password", { href: "/?account=password" }, t("acc_change_password"))),
        item(h("button#menu-sign-out", { type: "button", onclick: () => this.out(false) }, t("acc_sign_out"))),
        item(h("button#menu-sign-out-all", { type: "button", onclick: () => this.out(true) }, t("acc_sign_out_all"))),
        item(h("a.danger#menu-delete", { href: "/?account=delete" }, t("acc_delete")))));
    // (a link chosen closes the menu; the router follows it)
    menu.addEventListener("click", (e) => {
      if (e.target.closest("a")) this.toggle(false);
    });
    this.slot.append(
      h("button.chip.account-chip#account-btn", { type: "button", "aria-expanded": "false",
        "aria-controls": "account-menu", title: t("acc_menu"), onclick: () => this.toggle(!this.open) },
      avatar(me.name), h("span.account-name", me.name)),
      menu);
  }

  toggle(open) {
    const btn = this.slot.querySelector("#account-btn");
    const menu = this.slot.querySelector("#account-menu");
    if (!btn || !menu) return;
    this.open = open;
    menu.hidden = !open;
    btn.setAttribute("aria-expanded", String(open));
    if (open) menu.querySelector("a, button").focus();
  }

  async out(everywhere) {
    try {
      await signOut(everywhere);
    } catch (e) {
      toast(t("error", { msg: e.message }), "error");
      return;
    }
    toast(t(everywhere ? "acc_signed_out_all" : "acc_signed_out"));
    const q = new URLSearchParams(location.search);
    if (q.get("account")) this.go("/");
  }
}

/** The nickname fields already drawn take the signed-in name (unless a person typed another there); those
 * drawn later take it from dom.js (lastNickname()). */
function prefill(name) {
  const guest = localStorage.getItem("gouji.nickname") || "";
  for (const el of document.querySelectorAll("#nickname, #join-nickname, #team-nickname")) {
    if (el !== document.activeElement && (!el.value || el.value === guest)) el.value = name;
  }
}
