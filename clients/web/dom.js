// cardtable browser client: building the page's nodes (el), cards as nodes.

import { parseCard } from "./cards.js";

export const $ = (sel) => document.querySelector(sel);

export const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return node;
};

export function cardNode(text, extra = {}) {
  const p = parseCard(text);
  const cls = ["card", p && p.red ? "red" : "", extra.class || ""].join(" ").trim();
  const tag = extra.onclick ? "button" : "span";
  return el(tag, { ...extra, class: cls, type: extra.onclick ? "button" : undefined, "data-card": text },
    p ? p.label : String(text));
}

export function cardsRow(cards, cls = "mini") {
  return el("div", { class: "cards small" }, (cards || []).map((c) => cardNode(c, { class: cls })));
}
