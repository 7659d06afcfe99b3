// The account's pages: sign in (/?account=signin), sign up (/?account=signup), change the password
// (/?account=password) and delete the account (/?account=delete). One form a page, phone first; a refusal is
// written under the form in the server's words (account.js, refusal()).

import { h, clear, toast } from "./dom.js";
import { t, onLangChange } from "./i18n.js";
import { currentAccount, accountKnown, loadMe, onAccountChange, signIn, signUp, changePassword, deleteAccount,
  refusal } from "./account.js";

const MODES = ["signin", "signup", "password", "delete"];

export class AccountPage {
  constructor(root, mode, { go }) {
    this.root = root;
    this.mode = MODES.includes(mode) ? mode : "signin";
    this.go = go;
    this.error = "";
    this.unLang = onLangChange(() => this.render());
    this.unAccount = onAccountChange(() => this.render());
    this.render();
    if (!accountKnown()) loadMe();
  }

  destroy() {
    this.unLang();
    this.unAccount();
  }

  /** The password and delete pages are for the signed in: a guest gets the sign-in form. */
  get shown() {
    return (this.mode === "password" || this.mode === "delete") && accountKnown() && !currentAccount()
      ? "signin" : this.mode;
  }

  render() {
    if (this.root.contains(document.activeElement) && this.root.querySelector("form")) return; // (typing)
    const mode = this.shown;
    const form = this[mode + "Form"]();
    form.classList.add("panel", "account-form");
    form.id = "account-form";
    form.dataset.mode = mode;
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.submit(form, mode);
    });
    clear(this.root).appendChild(h("section.account-page", form,
      h("p.account-back", h("a", { href: "/" }, "← " + t("acc_back")))));
  }

  field(label, attrs, help) {
    const id = "acc-" + attrs.name;
    return h("div.field",
      h("label.label", { for: id }, label),
      h("input", { id, required: true, ...attrs, "aria-describedby": help ? id + "-help" : null }),
      help ? h("span.help#" + id + "-help", help) : null);
  }

  errorLine() {
    return h("p.error.account-error#account-error", { role: "alert", hidden: !this.error }, this.error);
  }

  signinForm() {
    return h("form",
      h("h1", t("acc_sign_in_title")),
      this.field(t("acc_name"), { name: "name", autocomplete: "username", maxlength: "16", autocapitalize: "off" }),
      this.field(t("acc_password"), { name: "password", type: "password", autocomplete: "current-password" }),
      this.errorLine(),
      h("button.btn.primary.big#account-submit", { type: "submit" }, t("acc_sign_in")),
      h("p.account-switch", t("acc_no_account"), " ", h("a#to-signup", { href: "/?account=signup" }, t("acc_sign_up"))),
      h("p.muted.small", t("acc_guest_note")));
  }

  signupForm() {
    return h("form",
      h("h1", t("acc_sign_up_title")),
      this.field(t("acc_name"), { name: "name", autocomplete: "username", maxlength: "16", autocapitalize: "off" },
        t("acc_name_help")),
      this.field(t("acc_password"), { name: "password", type: "password", autocomplete: "new-password" },
        t("acc_password_help")),
      this.errorLine(),
      h("button.btn.primary.big#account-submit", { type: "submit" }, t("acc_sign_up")),
      h("p.account-switch", t("acc_have_account"), " ", h("a#to-signin", { href: "/?account=signin" }, t("acc_sign_in"))),
      h("p.muted.small", t("acc_guest_note")));
  }

  passwordForm() {
    const me = currentAccount();
    return h("form",
      h("h1", t("acc_change_password")),
      // (the name, for the browser's password manager)
      h("input", { type: "text", name: "username", autocomplete: "username", value: me ? me.name : "", hidden: true,
        readonly: true, tabindex: "-1", "aria-hidden": "true" }),
      this.field(t("acc_current_password"), { name: "password", type: "password", autocomplete: "current-password" }),
      this.field(t("acc_new_password"), { name: "new_password", type: "password", autocomplete: "new-password" },
        t("acc_password_help")),
      this.errorLine(),
      h("button.btn.primary.big#account-submit", { type: "submit" }, t("acc_change_password")));
  }

  deleteForm() {
    const me = currentAccount();
    return h("form",
      h("h1", t("acc_delete_title")),
      h("p", me ? t("acc_delete_help", { name: me.name }) : ""),
      h("input", { type: "text", name: "username", autocomplete: "username", value: me ? me.name : "", hidden: true,
        readonly: true, tabindex: "-1", "aria-hidden": "true" }),
      this.field(t("acc_password"), { name: "password", type: "password", autocomplete: "current-password" }),
      this.errorLine(),
      h("button.btn.danger.big#account-submit", { type: "submit" }, t("acc_delete_btn")));
  }

  async submit(form, mode) {
    const get = (n) => (form.querySelector(`[name=${n}]`) || {}).value || "";
    const btn = form.querySelector("#account-submit");
    const line = form.querySelector("#account-error");
    btn.disabled = true;
    line.hidden = true;
    try {
      if (mode === "signin" || mode === "signup") {
        const me = await (mode === "signin" ? signIn : signUp)(get("name").trim(), get("password"));
        toast(t("acc_welcome", { name: me ? me.name : get("name").trim() }));
        this.go("/");
      } else if (mode === "password") {
        await changePassword(get("password"), get("new_password"));
        toast(t("acc_password_changed"));
        const me = currentAccount();
        this.go(me ? `/?player=${encodeURIComponent(me.name)}` : "/");
      } else {
        await deleteAccount(get("password"));
        toast(t("acc_deleted"));
        this.go("/");
      }
    } catch (e) {
      this.error = refusal(e, mode === "signin" ? "sign_in" : mode === "signup" ? "sign_up" : "password");
      line.textContent = this.error;
      line.hidden = false;
      btn.disabled = false;
      const pw = form.querySelector("[name=password]");
      if (e.status === 401 && pw) {
        pw.value = "";
        pw.focus();
      }
    }
  }
}
