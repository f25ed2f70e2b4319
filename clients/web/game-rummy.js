// cardtable browser client: the rummy table, the hand grouped by its melds, controls. The words
// and the rules' grouping — labels, event lines, each hand's best melds and deadwood, the wild
// card, the knock to lay off on, a deal's result — come from the server: the frame's labels and
// hints (rules/rummy/presentation.py).

import { cardsText, plural, sameCard, seatName } from "./cards.js";
import { cardNode, cardsRow, el } from "./dom.js";

export function cardBack(label) {
  return el("span", { class: "card back" }, label || "");
}

// Hint groups (melds first, deadwood last with its points on its label); cards a meld
// uses as jokers come last and are marked.
export function rummyMeldsNode(groups, cardFor) {
  return el("div", { class: "rm-hand" }, (groups || []).map((g) => el("div", { class: `rm-group ${g.meld ? "meld" : "dead"}` },
    el("span", { class: "tr-group-label" }, g.label),
    el("div", { class: "cards" }, g.cards.map((c, i) => {
      const node = cardFor ? cardFor(c) : cardNode(c, { class: "mini" });
      if (i >= g.cards.length - (g.wild || []).length) {
        node.classList.add("as-joker");
        node.title = `${node.title ? `${node.title} · ` : ""}used as a joker`;
      }
      return node;
    })))));
}

export function rummySeat(view, s, names, me, toAct, hints, showHand) {
  const gin = view.variant === "gin";
  const size = (view.hand_sizes || [])[s] ?? 0;
  const tags = [];
  if (view.dealer === s) tags.push(el("span", { class: "chip-mark dealer", title: "dealer" }, "D"));
  if (gin && view.knocker === s && view.phase === "layoff") tags.push(el("span", { class: "tag role" }, "knocked"));
  let state = "";
  if ((view.eliminated || [])[s]) state = "out of the pool";
  else if ((view.out || [])[s]) state = "dropped";
  const score = gin ? plural((view.points || [])[s] ?? 0, "point") : `${plural((view.points || [])[s] ?? 0, "point")}${(view.charges || [])[s] ? ` (+${view.charges[s]} this deal)` : ""}`;
  const kids = [el("div", { class: "seat-label", "data-seat": s }, seatName(s, names, me), " ", tags),
    el("div", { class: "stack" }, score, state ? el("span", { class: "seat-state" }, state) : null)];
  let groups = null;
  let arr = null;
  // Your own hand is drawn below the table (showHand false), even once all are shown.
  if (s === me && !showHand) groups = null;
  else if (Array.isArray(hints.hands) && Array.isArray(hints.hands[s])) [groups, arr] = [hints.hands[s], (view.arrangements || [])[s]];
  else if (s === me && Array.isArray(hints.hand)) [groups, arr] = [hints.hand, view.arrangement];
  if (groups) {
    kids.push(rummyMeldsNode(groups, null));
    if (!gin && arr) kids.push(el("div", { class: "small" }, `counted ${arr.counted}`));
    else if (arr && !(arr.leftover || []).length) kids.push(el("div", { class: "small" }, "gin: no deadwood"));
  } else if (s === me) {
    kids.push(el("div", { class: "muted small" }, `${plural(size, "card")} (your hand is below)`));
  } else {
    const known = (view.known || [])[s] || [];
    kids.push(el("div", { class: "cards small" }, Array.from({ length: Math.min(size, 14) - known.length }, () => el("span", { class: "card mini back" }, "▒")),
      known.map((c) => cardNode(c, { class: "mini known", title: "taken from the pile" }))));
    kids.push(el("div", { class: "muted small" }, `${plural(size, "card")}${known.length ? `, holds ${cardsText(known)} (taken from the pile)` : ""}`));
  }
  const acting = (toAct || []).includes(s);
  return el("div", { class: `pk-seat rm-seat${acting ? " acting" : ""}${state ? " folded" : ""}` }, kids);
}

export function rummyBoard(view, names, me, toAct, ctl = {}) {
  const hints = ctl.hints || {};
  const gin = view.variant === "gin";
  const n = (view.hand_sizes || []).length;
  const bottom = typeof me === "number" && me >= 0 ? me : 0;
  const phase = String(view.phase || "");
  const info = [el("strong", {}, gin ? "Gin rummy" : "Indian rummy"), `Deal ${view.deal}`, `Phase: ${phase.replace("_", " ")}`];
  if (gin) {
    info.push(view.target ? `Game to ${view.target}` : "One deal", `Knock at ${view.knock_limit} or less`);
    if ((view.boxes || []).some(Boolean)) info.push(`Deals won ${view.boxes.join(" – ")}`);
  } else {
    info.push(view.pool ? `Pool ${view.pool}: out at ${view.pool} (fewest wins)` : "One deal (fewest points wins)");
    if (view.wild_card) info.push(el("span", {}, cardNode(view.wild_card, { class: "mini" }), " ", hints.wild || ""));
  }
  const legal = ctl.legal || [];
  const find = (pred) => (ctl.myTurn ? legal.find(pred) : undefined);
  const fromStock = find((a) => a.type === "draw" && a.from === "stock");
  const fromPile = find((a) => a.type === "draw" && a.from === "discard");
  const pile = view.pile || [];
  const top = pile.length ? pile[pile.length - 1] : null;
  const stock = el(fromStock ? "button" : "div", {
    type: fromStock ? "button" : undefined, class: `rm-stock${fromStock ? " legal" : ""}`, id: "rm-stock",
    title: fromStock ? "draw from the stock" : undefined, onclick: fromStock ? () => ctl.act(fromStock) : undefined,
  }, cardBack(String(view.stock_size ?? 0)), el("div", { class: "small" }, `Stock ${view.stock_size ?? 0}`));
  const topNode = top
    ? cardNode(top, fromPile ? { class: "legal", onclick: () => ctl.act(fromPile), title: "take it", id: "rm-pile" } : { id: "rm-pile" })
    : el("span", { class: "slot" });
  const below = pile.slice(-9, -1).reverse();
  const centre = el("div", { class: "pk-centre rm-centre" },
    el("div", { class: "rm-piles" }, stock,
      el("div", { class: "rm-pile" }, topNode, el("div", { class: "small" }, `Discard pile (${pile.length})`),
        below.length ? el("div", { class: "cards small rm-below", title: "below the top, newest first" }, below.map((c) => cardNode(c, { class: "mini" })), pile.length > 9 ? "…" : "") : null)));
  if (hints.knock) {
    const melds = view.table || [];
    centre.append(el("div", { class: "rm-knock" },
      el("div", {}, hints.knock),
      el("div", { class: "rm-hand" }, melds.map((m, i) => el("div", { class: "rm-group meld" }, el("span", { class: "tr-group-label" }, `meld ${i + 1}`), cardsRow(m, ""))))));
  }
  if (hints.deal_result) centre.append(el("div", { class: "won" }, hints.deal_result));
  const others = [];
  for (let i = 1; i < n; i++) others.push((bottom + i) % n);
  // The viewer sits at the bottom (spectators and replays: the first seat), as in poker.
  return el("div", { class: "felt poker rummy" },
    el("div", { class: "board-info" }, info.map((x) => el("span", {}, x))),
    el("div", { class: "pk-row top" }, others.map((s) => rummySeat(view, s, names, me, toAct, hints, !ctl.handBelow))),
    centre,
    n ? el("div", { class: "pk-row bottom" }, rummySeat(view, bottom, names, me, toAct, hints, !ctl.handBelow)) : null);
}

export function rummyNote(view, legal) {
  const has = (t) => legal.some((a) => a.type === t);
  if (has("draw")) return `draw: click the stock or the discard pile${has("drop") ? ", or drop out of the deal" : ""}.`;
  if (has("layoff")) return "lay off a highlighted card on the knocker's melds, or press “Done laying off”.";
  if (has("done")) return "nothing fits the knocker's melds: press “Done laying off”.";
  if (has("discard")) {
    const finish = has("knock") ? " — or knock with a button" : has("declare") ? " — or declare" : "";
    return `click a card to discard it${finish}.`;
  }
  if (has("next_deal")) return "deal the next hand.";
  return "choose an action.";
}

// The player's hand below the table, grouped by its best melds, deadwood last; in the
// discard phase a click discards the card (in a gin lay-off: lays it off where it fits).
export function rummyHand(view, ctl) {
  const { legal, myTurn, act, labelOf } = ctl;
  const hints = ctl.hints || {};
  const cardFor = (c) => {
    if (!myTurn) return cardNode(c);
    const discard = legal.find((a) => a.type === "discard" && sameCard(a.card, c));
    const lays = legal.filter((a) => a.type === "layoff" && sameCard(a.card, c));
    const a = discard || (lays.length === 1 ? lays[0] : null);
    const anyCardAction = legal.some((x) => x.type === "discard" || x.type === "layoff");
    if (a) return cardNode(c, { class: "legal", onclick: () => act(a), title: labelOf(a) });
    const taken = view.variant === "gin" && view.taken && sameCard(view.taken, c);
    return cardNode(c, { class: anyCardAction ? "dim" : "", title: taken ? "just taken from the pile: it may not be thrown back" : undefined });
  };
  const node = rummyMeldsNode(hints.hand, cardFor);
  return hints.summary ? [node, el("div", { class: "small muted rm-summary" }, hints.summary)] : [node];
}

export function rummyControls(legal, view, ctl) {
  const { myTurn, act, labelOf } = ctl;
  return legal.filter((a) => a.type !== "discard")
    .map((a) => el("button", { type: "button", class: `action${["knock", "declare"].includes(a.type) ? " primary" : ""}`, disabled: !myTurn, onclick: () => act(a), "data-action": a.type }, labelOf(a)));
}

export const drawing = { board: rummyBoard, hand: rummyHand, controls: rummyControls, note: rummyNote };
