// Chinese and English, switchable: the texts are data (texts/zh.js, texts/en.js); this is the lookup.

import zh from "./texts/zh.js";
import en from "./texts/en.js";
import { term } from "./glossary.js";

export const STRINGS = { zh, en };
const KEY = "gouji.lang";
const store = typeof localStorage === "undefined" ? null : localStorage;
const nav = typeof navigator === "undefined" ? {} : navigator;
let lang = (store && store.getItem(KEY)) || ((nav.language || "").toLowerCase().startsWith("zh") ? "zh" : "en");
if (!STRINGS[lang]) lang = "en";
const listeners = new Set();

export function getLang() {
  return lang;
}

export function setLang(next) {
  if (!STRINGS[next] || next === lang) return;
  lang = next;
  if (store) store.setItem(KEY, next);
  if (typeof document === "undefined") return void listeners.forEach((fn) => fn(next));
  document.documentElement.lang = next === "zh" ? "zh-CN" : "en";
  applyI18n(document);
  for (const fn of listeners) fn(next);
}

export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The string `key` in the current language with {name} placeholders filled in, and {g_ID} with the glossary's
 * term ID (glossary.js: "Call (宣点)" in English, "宣点" in Chinese). */
export function t(key, vars) {
  let s = STRINGS[lang][key];
  if (s === undefined) s = STRINGS.en[key];
  if (s === undefined) return key;
  if (vars) s = s.replace(/\{(\w+)\}/g, (m, k) => (vars[k] === undefined ? m : String(vars[k])));
  return s.includes("{g_") ? s.replace(/\{g_(\w+)\}/g, (m, k) => term(k, lang)) : s;
}

/** Fill every element under root that names a string: data-i18n (text), -ph (placeholder), -title. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-ph]")) el.placeholder = t(el.dataset.i18nPh);
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}

if (typeof document !== "undefined") document.documentElement.lang = lang === "zh" ? "zh-CN" : "en";
