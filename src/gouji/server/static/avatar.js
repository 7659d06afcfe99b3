// An avatar for every name, generated from the name (no uploads): its first character on a colour of its own.
// The same name (in any case or width) always gets the same colour; the colours are dark enough for white
// text (contrast ≥ 4.5 at every hue).

import { h } from "./dom.js";

/** The name as the server compares names (NFKC, case folded — near enough: lower case). */
function key(name) {
  return String(name || "").normalize("NFKC").toLowerCase();
}

/** A hue (0-359) from the name: FNV-1a over its code points. */
export function hueOf(name) {
  let x = 0x811c9dc5;
  for (const ch of key(name)) {
    x ^= ch.codePointAt(0);
    x = Math.imul(x, 0x01000193) >>> 0;
  }
  return x % 360;
}

/** The name's first character (a whole code point: a Chinese name shows its first character). */
export function monogram(name) {
  const first = Array.from(String(name || "").trim())[0] || "?";
  return first.toUpperCase();
}

/** The avatar: a round monogram, hidden from screen readers (the name is always written beside it). */
export function avatar(name, size = "small") {
  const el = h("span.name-avatar." + size, { "aria-hidden": "true" }, monogram(name));
  el.style.backgroundColor = `hsl(${hueOf(name)} 45% 28%)`;
  return el;
}
