// A hint's reason in the page's language: the server sends a code with parameters (gouji/reasons.py:
// seats as seat numbers, plays as play text, chances as fractions); this words it in Chinese or English
// with the seats' names as the table shows them.

import { getLang } from "./i18n.js";
import { cardsText } from "./render.js";
import { term } from "./glossary.js";

const en = (id) => term(id, "en"); // a game term in English: its glossary name, the Chinese beside it

const pct = (x) => `${Math.round(Number(x) * 100)}%`;

function actionText(a, zh) {
  if (a === "pass") return zh ? "过" : "pass";
  if (a === "yield") return zh ? "让牌" : "yield";
  if (a.startsWith("burn ")) return (zh ? "烧牌 " : "burn ") + cardsText(a.slice(5));
  if (a.startsWith("return ")) return (zh ? "还贡 " : "give back ") + cardsText(a.slice(7));
  const words = { revolt: ["革命", "revolt"], declare: ["宣点", en("xuandian")], yaotou: ["要头", en("yaotou")],
    wutou: ["无头", en("wutou")], buy4: ["买四", "buy a 4"] }[a];
  if (words) return words[zh ? 0 : 1];
  return cardsText(a);
}

const ZH_WHY = {
  nothing_beats: () => "手里没有能管的牌",
  mate_threes: () => "队友可能只剩 3 了：管他的牌会把他闷了",
  mate_out: (p) => `${p.seat} 已经走了：没人管的话，队友接风`,
  mate_top: () => "队友的牌在上面，让它站住",
  smother_risk: (p) => `出 ${p.play} 会让 3 留在一手能被管的牌后面（闷）`,
  bie_san_risk: (p) => `出 ${p.play} 会让 3 前面的最后一手不稳（憋三）`,
  opp_gouji_cost: (p) => `管对头的 ${p.top} 得不偿失`,
  break_group: (p) => `出 ${p.play} 只会拆散一手牌，也赢不了这一轮`,
  control_cost: (p) => `管 ${p.top} 要花王和 2，不值得`,
  no_burn: () => "手里没有能烧的牌",
  no_jokers: () => "没有王就烧不下去（烧牌后每一手都要带王）",
  mate_stands: () => "队友的够级牌站着呢——只有能一手烧完走的时候才烧",
  few_jokers: () => "王不够：烧牌后除了最后一手，每一手都要带王",
};

const EN_WHY = {
  nothing_beats: () => "nothing you hold beats it",
  mate_threes: () => "your teammate may hold only 3s now: beating their play would smother them (闷)",
  mate_out: (p) => `${p.seat} went out: if nobody beats it, your teammate takes the lead (接风)`,
  mate_top: () => "your teammate's play is on top — let it stand",
  smother_risk: (p) => `${p.play} would leave only 3s behind a play that can be beaten (闷)`,
  bie_san_risk: (p) => `${p.play} would leave your last play before the 3s unsafe (憋三)`,
  opp_gouji_cost: (p) => `beating your 对头's ${p.top} would cost more than it wins`,
  break_group: (p) => `${p.play} would only break a group and not win the round`,
  control_cost: (p) => `beating ${p.top} would cost control cards it is not worth`,
  no_burn: () => "nothing you hold can burn it",
  no_jokers: () => "without jokers you cannot keep a burn going (every later play needs one)",
  mate_stands: () => "your teammate's gouji play stands — burn it only to go out for sure",
  few_jokers: () => "too few jokers to carry every later play of a burn",
};

function zhOdds(s) {
  if (s >= 0.95) return "没人管得了";
  if (s >= 0.5) return `${pct(s)} 能站住`;
  if (s >= 0.05) return `可能被管（${pct(s)} 能站住）`;
  return "就算被管也出掉了一手";
}

function enOdds(s) {
  if (s >= 0.95) return "nobody can beat it";
  if (s >= 0.5) return `it stands ${pct(s)} of the time`;
  if (s >= 0.05) return `it may be beaten (${pct(s)} it stands)`;
  return "it sheds a play even if beaten";
}

const ZH = {
  only: (p) => `只有这一个选择：${p.action}`,
  huiwu: () => "汇5：扔掉手里的 5，少出几张牌",
  giveback: () => "退贡：把落贡退回去——牌还在本队，队友更需要它",
  swap: () => "换点：手里没大王，对头最大的牌多半是王",
  no_swap: () => "不换点：要送出大王，换回来的不会更好",
  selfopen: () => "无级自开：没有够级牌可藏，出 4 就开点",
  chongdian: (p) => `冲点：${p.groups} 组纯够级牌，其中 ${p.aces} 张 A`,
  no_chongdian: () => "不冲点：纯够级牌太少，冒不起大落的险",
  chong_attempt: (p) => `冲点出 ${p.play}：${pct(p.stand)} 能站住`,
  safe: () => "稳妥的选择",
  return_low: (p) => `还 ${p.cards}：最小的牌，还能让手牌更顺`,
  return_first: () => "还第一组可选的牌",
  yaotou: () => "要头：你的前几手够级牌只能被烧，不能被管",
  wutou: () => "无头：不要头，接着打",
  revolt: (p) => `革命：没有 2 也没有王，只有 ${p.aces} 张 A、${p.kings} 张 K`,
  no_revolt: (p) => `不革命：${p.aces} 张 A、${p.kings} 张 K 还能打`,
  declare: () => "宣点：王和 2 够多，挡得住对头的够级牌",
  no_declare: () => "不宣点：王和 2 太少，挡不住对头开点",
  buy4: () => "买四：你能开点，还差一张 4",
  no_buy4: () => "不买四：要花一张 2，还多一张小牌要出",
  lead_out: (p) => `出 ${p.play}：最后一手，走了`,
  open_four: (p) => `出 ${p.play}：够级牌站住了，再发 4 就开点（开点发4）`,
  anchor: (p) => `出 ${p.play}：3 前面这一手必须站住（憋三），有 ${pct(p.stand)} 的把握`,
  keep_anchor: (p) => `出 ${p.play}：留着 ${p.anchor} 作 3 前面最稳的一手（憋三）`,
  chain_sure: (p) => `出 ${p.play}：没人管得了（记牌器），牌权还在你手里`,
  chain_joker: (p) => `出 ${p.play}：带大王必站，王能带你走完`,
  last_two: (p) => `出 ${p.play}：最后两手里更可能站住的一手（${pct(p.stand)}）；留着 ${p.keep} 走`,
  open: (p) => `出 ${p.play}：纯够级牌，${pct(p.stand)} 能站住，可以开点`,
  lead_low: (p) =>
    `出 ${p.play}：${p.lowest ? "你最小的一手" : "你现在能舍的最小一手"}` +
    (p.mate_n ? `；队友还剩 ${p.mate_n} 张，可能借这手走` : p.opp_n ? `；对手还剩 ${p.opp_n} 张，别送他走` : "") +
    (p.keep.length ? `；留着${p.keep.map((k) => (k === "jokers" ? "王" : "2")).join("和")}以后用` : ""),
  lead_control: (p) => `出 ${p.play}：3 前面只剩王和 2 了`,
  go_out: (p) => `出 ${p.play}：出完就走了`,
  over_mate: (p) => `压队友出 ${p.play}：代价小，${pct(p.stand)} 能站住`,
  smother: (p) => `用 ${p.play} 管 ${p.seat} 的 ${p.top}：他很可能只剩 3 了——这手能闷他`,
  threes_next: (p) => `出 ${p.play}：${pct(p.stand)} 能站住，然后 3 就能走`,
  answer_opp: (p) => `用 ${p.play} 管对头的够级牌：${pct(p.stand)} 能站住`,
  beat: (p) =>
    `用 ${p.play} 管 ${p.seat} 的 ${p.top}：${p.natural ? "整手自然牌，不花王和 2" : "值得花王和 2"}；${zhOdds(p.stand)}`,
  pass: (p) => `过：${ZH_WHY[p.why](p)}`,
  yield: (p) => `让牌：${ZH_WHY[p.why](p)}；让队友先出`,
  burn_out: (p) => `用 ${p.play} 烧 ${p.top}：一手出完（烧成功）`,
  burn: (p) => `用 ${p.play} 烧 ${p.top}：${p.sure ? "大王够，之后每一手都稳" : "之后每一手都有王可带"}`,
  burn_lead_out: (p) => `出 ${p.play}：烧牌的最后一手，走了（烧成功）`,
  burn_lead_threes: (p) => `出 ${p.play}：3 前面最后一手，带上所有王（烧牌）`,
  burn_lead_joker: (p) => `出 ${p.play}：烧牌时每一手都要带王（小花早挂）`,
  burn_lead_control: (p) => `出 ${p.play}：只剩王和 2 了`,
  burn_lost: (p) => `出 ${p.play}：烧牌没有王了，除了最后一手出什么都是诈烧（大落）——这手最大`,
};

const EN = {
  only: (p) => `${p.action}: the only action open`,
  huiwu: () => "汇5: discard your 5s — fewer cards to shed",
  giveback: () => "退贡: hand the 落贡 back — it stays with the team, and your teammate needs it more",
  swap: () => `${en("huandian")}: no big joker to lose, and your 对头's highest card is likely a joker`,
  no_swap: () => `no ${en("huandian")}: you would give a big joker and get nothing better back`,
  selfopen: () => `${en("selfopen")}: no gouji play to hide, and leading a 4 opens the point`,
  chongdian: (p) => `${en("chongdian")}: ${p.groups} pure gouji groups, ${p.aces} As among them`,
  no_chongdian: () => `no ${en("chongdian")}: too few pure gouji plays to risk 大落`,
  chong_attempt: (p) => `${en("chongdian")} attempt ${p.play}: ${enOdds(p.stand)}`,
  safe: () => "a safe choice",
  return_low: (p) => `give back ${p.cards}: your lowest cards, and they shorten your hand`,
  return_first: () => "give back the first cards offered",
  yaotou: () => `${en("yaotou")}: your first gouji plays can only be burned, never answered`,
  wutou: () => `${en("wutou")}: anyone may answer your gouji plays`,
  revolt: (p) => `revolt: no 2 and no joker, and only ${p.aces} As and ${p.kings} Ks to fight with`,
  no_revolt: (p) => `no revolution: ${p.aces} As and ${p.kings} Ks can still fight`,
  declare: () => `${en("xuandian")}: jokers and 2s enough to stop your 对头's gouji plays`,
  no_declare: () => `no ${en("xuandian")}: too few jokers and 2s to stop your 对头 opening the point`,
  buy4: () => "buy a 4: you can open the point and need a 4 to complete it",
  no_buy4: () => "no 4: it would cost a 2 and add a low card to shed",
  lead_out: (p) => `lead ${p.play}: your last play — you go out`,
  open_four: (p) => `lead ${p.play}: the 4 after your standing gouji play opens the point (开点发4)`,
  anchor: (p) => `lead ${p.play}: the play before your 3s must stand (憋三) — ${pct(p.stand)} it does`,
  keep_anchor: (p) => `lead ${p.play}: keep ${p.anchor} as the safe play before your 3s (憋三)`,
  chain_sure: (p) => `lead ${p.play}: nobody can beat it (card counter), and you keep the lead`,
  chain_joker: (p) => `lead ${p.play}: the big joker makes it stand, and your jokers carry you out`,
  last_two: (p) => `lead ${p.play}: of your last two plays the likelier to stand (${pct(p.stand)}); keep the ${p.keep}s to go out with`,
  open: (p) => `lead ${p.play}: a pure gouji play that stands ${pct(p.stand)} of the time opens the point`,
  lead_low: (p) =>
    `lead ${p.play}: ${p.lowest ? "your lowest play" : "your lowest play you can spare now"}` +
    (p.mate_n ? `; a teammate has ${p.mate_n} to go — they may go out on it`
      : p.opp_n ? `; an opponent has ${p.opp_n} to go — do not lead them out` : "") +
    (p.keep.length ? `; keep ${p.keep.map((k) => (k === "jokers" ? "the jokers" : "the 2s")).join(" and ")} for later` : ""),
  lead_control: (p) => `lead ${p.play}: only control cards are left before the 3s`,
  go_out: (p) => `play ${p.play}: it empties your hand — you go out`,
  over_mate: (p) => `play ${p.play} over your teammate: it sheds a play cheaply and stands ${pct(p.stand)}`,
  smother: (p) => `beat ${p.seat}'s ${p.top} with ${p.play}: they likely hold only 3s — this smothers them (闷)`,
  threes_next: (p) => `play ${p.play}: it stands ${pct(p.stand)}, then your 3s go out`,
  answer_opp: (p) => `answer your 对头's gouji play with ${p.play}: it stands ${pct(p.stand)} of the time`,
  beat: (p) =>
    `beat ${p.seat}'s ${p.top} with ${p.play}: ${p.natural ? "a natural group, no control spent" : "worth the control cards"}; ${enOdds(p.stand)}`,
  pass: (p) => `pass: ${EN_WHY[p.why](p)}`,
  yield: (p) => `yield (让牌): ${EN_WHY[p.why](p)}; let your teammate in first`,
  burn_out: (p) => `burn ${p.top} with ${p.play}: it empties your hand (烧成功)`,
  burn: (p) => `burn ${p.top} with ${p.play}: ${p.sure ? "your big jokers make every later play certain" : "a joker for every later play"}`,
  burn_lead_out: (p) => `lead ${p.play}: the last play of your burn — you go out (烧成功)`,
  burn_lead_threes: (p) => `lead ${p.play}: the last play before your 3s, with every joker (烧牌)`,
  burn_lead_joker: (p) => `lead ${p.play}: a burner's play needs a joker (小花早挂: the small one first)`,
  burn_lead_control: (p) => `lead ${p.play}: only control cards left`,
  burn_lost: (p) => `lead ${p.play}: no joker is left for your burn, so any play but your last breaks it (诈烧, last place) — this is the strongest`,
};

/**
 * A reason {code, params} as one line in the page's language; `name(seat)` gives a seat's shown name.
 * Returns null for a code this page does not know (the caller shows the server's English line).
 */
export function reasonText(code, params, name) {
  const zh = getLang() === "zh";
  const fn = (zh ? ZH : EN)[code];
  if (!fn) return null;
  const p = { ...(params || {}) };
  if (p.why !== undefined && !(zh ? ZH_WHY : EN_WHY)[p.why]) return null;
  for (const k of ["play", "top", "anchor", "cards"]) if (typeof p[k] === "string") p[k] = cardsText(p[k]);
  if (typeof p.action === "string") p.action = actionText(p.action, zh);
  if (typeof p.keep === "string") p.keep = cardsText(p.keep);
  if (!Array.isArray(p.keep)) p.keep = p.keep === undefined ? [] : p.keep;
  if (typeof p.seat === "number") p.seat = name(p.seat);
  try {
    return fn(p);
  } catch {
    return null;
  }
}
