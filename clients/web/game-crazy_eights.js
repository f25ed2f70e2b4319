// cardtable browser client: the Crazy Eights table (stock, pile, the suit to match, each player's
// cards and penalty points) and its controls. The words — labels, event lines, what the next card
// must match — come from the server: the frame's labels and hints
// (rules/crazy_eights/presentation.py). It uses the shared table styles (the seats' row of poker,
// the piles of rummy), so it needs no styles of its own.

import { plural, sameCard, seatName } from "./cards.js";
import { cardNode, cardsRow, el } from "./dom.js";

export function crazyEightsSeat(view, s, names, me, toAct) {
  const size = (view.hand_sizes || [])[s] ?? 0;
  const points = (view.penalties || [])[s] ?? 0;
  const shown = (view.hands || [])[s];
  const tags = view.dealer === s ? [el("span", { class: "chip-mark dealer", title: "dealer" }, "D")] : [];
  const cards = Array.isArray(shown) && s !== me
    ? cardsRow(shown)
    : el("div", { class: "cards small" }, Array.from({ length: Math.min(size, 12) }, () => el("span", { class: "card mini back" }, "▒")));
  const acting = (toAct || []).includes(s);
  return el("div", { class: `pk-seat${acting ? " acting" : ""}` },
    el("div", { class: "seat-label", "data-seat": s }, seatName(s, names, me), " ", tags),
    el("div", { class: "stack" }, `${plural(size, "card")} · ${plural(points, "penalty point")}`),
    cards);
}

export function crazyEightsBoard(view, names, me, toAct, ctl = {}) {
  const hints = ctl.hints || {};
  const n = (view.hand_sizes || []).length;
  const bottom = typeof me === "number" && me >= 0 ? me : 0;
  const goal = view.target ? `Game to ${view.target} penalty points` : `Hand ${view.hand_no} of ${view.hands_to_play}`;
  const info = [el("strong", {}, "Crazy Eights"), goal, `Dealer ${seatName(view.dealer, names, me)}`];
  const draw = ctl.myTurn ? (ctl.legal || []).find((a) => a.type === "draw") : undefined;
  const stock = el(draw ? "button" : "div", {
    type: draw ? "button" : undefined, class: `rm-stock${draw ? " legal" : ""}`, id: "c8-stock",
    title: draw ? ctl.labelOf(draw) : undefined, onclick: draw ? () => ctl.act(draw) : undefined,
  }, el("span", { class: "card back" }, String(view.stock_size ?? 0)), el("div", { class: "small" }, `Stock ${view.stock_size ?? 0}`));
  const pile = el("div", { class: "rm-pile" }, view.top ? cardNode(view.top, { id: "c8-top" }) : el("span", { class: "slot" }),
    el("div", { class: "small" }, `Discard pile (${view.pile_size ?? 0})`));
  const centre = el("div", { class: "pk-centre" }, el("div", { class: "rm-piles" }, stock, pile),
    hints.match ? el("div", { class: "small", id: "c8-match" }, hints.match) : null);
  const others = [];
  for (let i = 1; i < n; i++) others.push((bottom + i) % n);
  // The viewer sits at the bottom (spectators and replays: the first seat), as in poker.
  return el("div", { class: "felt poker crazy-eights" },
    el("div", { class: "board-info" }, info.map((x) => el("span", {}, x))),
    el("div", { class: "pk-row top" }, others.map((s) => crazyEightsSeat(view, s, names, me, toAct))),
    centre,
    n ? el("div", { class: "pk-row bottom" }, crazyEightsSeat(view, bottom, names, me, toAct)) : null);
}

// The hand: a click plays a card that fits; an eight's suit is picked with the buttons.
export function crazyEightsHand(view, ctl) {
  const { legal, myTurn, act, labelOf } = ctl;
  const plays = legal.filter((a) => a.type === "play");
  return (view.hand || []).map((c) => {
    const mine = myTurn ? plays.filter((a) => sameCard(a.card, c)) : [];
    const drawn = view.drawn && sameCard(view.drawn, c) ? " drawn" : "";
    if (mine.length === 1) return cardNode(c, { class: `legal${drawn}`, onclick: () => act(mine[0]), title: labelOf(mine[0]) });
    if (mine.length) return cardNode(c, { class: `legal${drawn}`, title: "an eight: name the suit with a button below" });
    return cardNode(c, { class: myTurn && plays.length ? `dim${drawn}` : drawn.trim() });
  });
}

// Buttons for everything but a plain card play: an eight naming each suit, draw, pass.
export function crazyEightsControls(legal, view, ctl) {
  const { myTurn, act, labelOf } = ctl;
  return legal.filter((a) => a.type !== "play" || "suit" in a)
    .map((a) => el("button", { type: "button", class: "action", disabled: !myTurn, onclick: () => act(a), "data-action": a.type }, labelOf(a)));
}

export function crazyEightsNote(view, legal) {
  if (view.drawn) return legal.length > 1 ? "play the card you drew, or pass." : "it does not fit: pass.";
  if (legal.some((a) => a.type === "play")) return "click a highlighted card (an eight: pick its suit below), or draw.";
  if (legal.some((a) => a.type === "draw")) return "nothing fits: draw from the stock.";
  return "nothing fits and nothing is left to draw: pass.";
}

export const drawing = { board: crazyEightsBoard, hand: crazyEightsHand, controls: crazyEightsControls, note: crazyEightsNote };
