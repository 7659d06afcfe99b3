// The game's terms, once: each a short English name with the Chinese players know it by, and a line that
// explains it. The texts name a term as {g_ID} (i18n.js fills it in): "Open the point (开点)" in English,
// "开点" in Chinese; the help lists the terms with their lines (table/overlay.js), a badge's title explains
// its term (render.js).

export const TERMS = {
  kaidian: {
    zh: "开点", en: "Open the point",
    en_help: "Lead 4s after a pure gouji play of yours that nobody beat. Until then a seat may not burn, and " +
      "between two 对头 the one who does not open pays point tribute (点贡) to the one who does.",
    zh_help: "自己的纯够级牌没人管住后发 4，就是开点。开点以前不能烧牌；对头之间没开点的向开了点的进点贡。",
  },
  forfeit: {
    zh: "弃点", en: "Gave up the point",
    en_help: "Led 4s before opening the point: no opening for the rest of the deal.",
    zh_help: "没开点就先发了 4：这一局不能再开点。",
  },
  xuandian: {
    zh: "宣点", en: "Call",
    en_help: "Before play, bet that your 对头 will not open the point this deal: the point tribute (点贡) is " +
      "raised, and if your 对头 opens, you pay it.",
    zh_help: "出牌前断言对头这局开不了点：点贡加码；对头开了点，就由宣点的人进贡。",
  },
  dian: {
    zh: "点贡", en: "Point tribute",
    en_help: "Paid between two 对头 after the deal: by the one who did not open the point to the one who " +
      "did; a call (宣点) raises it, and a caller whose 对头 opens pays.",
    zh_help: "一局结束后对头之间的进贡：没开点的进给开了点的；宣点加码，宣点的人的对头开了点，就由宣点的人进贡。",
  },
  yaotou: {
    zh: "要头", en: "Shield",
    en_help: "The 对头 of a revolutionary protects their first gouji plays: those can only be burned, not answered.",
    zh_help: "革命者的对头保护自己头几手够级牌：只能被烧，不能被管。",
  },
  wutou: {
    zh: "无头", en: "No shield",
    en_help: "Without the shield (要头): anyone may answer the gouji plays.",
    zh_help: "不要头：谁都可以管这些够级牌。",
  },
  huandian: {
    zh: "换点", en: "Point swap",
    en_help: "Neither 对头 opened the point: each gives the other their highest card, if both agree.",
    zh_help: "对头都没开点：双方同意就互换最大的一张牌。",
  },
  chongdian: {
    zh: "冲点", en: "Rush",
    en_help: "With no 2 and no joker, lead three gouji plays that could open the point: one standing opens it.",
    zh_help: "没有 2 也没有王时，连发三手能开点的够级牌：有一手站住就开点。",
  },
  selfopen: {
    zh: "无级自开", en: "Open without gouji",
    en_help: "A hand with no gouji play shows itself to the 对头; its first lead of 4s opens the point.",
    zh_help: "手里没有够级牌：亮牌给对头看，第一次发 4 就算开点。",
  },
  gouji: {
    zh: "够级", en: "Gouji play",
    en_help: "A play high enough (by the rules' table) that only the player's 对头 may answer it, or a burn.",
    zh_help: "够大的牌（按规则的够级表）：只有对头能管，别人只能烧。",
  },
  shao: {
    zh: "烧牌", en: "Burn",
    en_help: "Beat a gouji play meant for someone else's 对头, then play on alone to the end with jokers.",
    zh_help: "管别人对头的够级牌，然后一个人带着王一直出到底。",
  },
  duitou: {
    zh: "对头", en: "Opposite",
    en_help: "The seat across the table, on the other team: gouji plays are fought between 对头.",
    zh_help: "坐在正对面的另一方玩家：够级牌在对头之间较量。",
  },
};

/** Term `id` in `lang`: "Open the point (开点)" in English, "开点" in Chinese. */
export function term(id, lang) {
  const e = TERMS[id];
  if (!e) return id;
  return lang === "zh" ? e.zh : `${e.en} (${e.zh})`;
}

/** The line that explains term `id` in `lang`. */
export function termHelp(id, lang) {
  const e = TERMS[id];
  return e ? e[lang === "zh" ? "zh_help" : "en_help"] : "";
}
