// cardtable browser client: the poker table and its betting controls. The words (labels, event
// lines, the pot, each seat's state, your hand's strength) come from the server: the frame's
// labels and hints.

import { seatName } from "./cards.js";
import { cardNode, cardsRow, el } from "./dom.js";

export function pokerSeat(view, s, names, me, toAct, hints) {
  const players = view.players || [];
  const inHand = players.includes(s);
  const folded = (view.folded || [])[s];
  // An imported hand's amounts come in its file's money in the hints.
  const stack = (hints.stacks || view.stacks || [])[s]; // null: a history that does not know it
  const bet = (view.bets || [])[s] || 0;
  const betText = (hints.bets || view.bets || [])[s];
  const marks = [];
  if (view.button === s) marks.push(el("span", { class: "chip-mark dealer", title: "button" }, "D"));
  if (view.small_blind_seat === s) marks.push(el("span", { class: "chip-mark", title: "small blind" }, "SB"));
  if (view.big_blind_seat === s) marks.push(el("span", { class: "chip-mark", title: "big blind" }, "BB"));
  const state = (hints.seat_states || [])[s] || "";
  const shown = (view.shown || {})[String(s)];
  let cards;
  if (shown) cards = cardsRow(shown.cards);
  else if (s === me && Array.isArray(view.hand)) cards = cardsRow(view.hand);
  else if (inHand && !folded && !view.hand_over) cards = el("div", { class: "cards small" }, el("span", { class: "card mini back" }, "▒"), el("span", { class: "card mini back" }, "▒"));
  else cards = el("div", { class: "cards small" });
  const kids = [
    el("div", { class: "seat-label", "data-seat": s }, seatName(s, names, me), " ", marks),
    el("div", { class: "stack" }, `stack ${stack ?? "unknown"}`, state ? el("span", { class: `seat-state ${state.replace(" ", "-")}` }, state) : null),
    cards,
  ];
  if (shown) kids.push(el("div", { class: "shown-hand" }, shown.hand));
  if ((view.mucked || []).includes(s)) kids.push(el("div", { class: "shown-hand" }, "mucked"));
  kids.push(el("div", { class: "bet" }, bet ? el("span", { class: "bet-chip" }, String(betText)) : ""));
  const acting = (toAct || []).includes(s);
  return el("div", { class: `pk-seat${acting ? " acting" : ""}${folded || !inHand ? " folded" : ""}` }, kids);
}

export function pokerBoard(view, names, me, toAct, ctl = {}) {
  const hints = ctl.hints || {};
  const n = (view.stacks || []).length;
  const bottom = typeof me === "number" && me >= 0 ? me : 0;
  const b = view.blinds || {};
  const stakes = hints.blinds || `${b.small}/${b.big}${b.ante ? ` ante ${b.ante}` : ""}`;
  const info = [`Hand ${view.hand_number ?? "–"}/${view.hands}`, `Blinds ${stakes}`];
  if (view.street) info.push(view.hand_over ? "hand over" : view.street);
  if (view.phase === "between") info.push("between hands");
  // The viewer sits at the bottom; the others fill the top row in seat order (clockwise).
  const others = [];
  for (let i = 1; i < n; i++) others.push((bottom + i) % n);
  const won = {};
  if (view.hand_over) for (const a of view.awards || []) for (const [s, c] of a.shares || []) won[s] = (won[s] || 0) + c;
  for (const [s, text] of hints.won || []) won[s] = text;
  const wonText = Object.entries(won).map(([s, c]) => `${seatName(Number(s), names, me)} wins ${c}`).join(", ");
  const centre = el("div", { class: "pk-centre" },
    el("div", { class: "cards board" }, (view.board || []).map((c) => cardNode(c)),
      Array.from({ length: 5 - (view.board || []).length }, () => el("span", { class: "slot" }))),
    // A board run twice: the second run's board under the first.
    Array.isArray(view.board2) ? el("div", { class: "cards board board2", title: "second run" }, view.board2.map((c) => cardNode(c))) : null,
    el("div", { class: "pot" }, hints.pot || ""),
    view.rake ? el("div", { class: "muted small" }, `rake ${hints.rake ?? view.rake}`) : null,
    wonText ? el("div", { class: "won" }, wonText) : null);
  return el("div", { class: "felt poker" },
    el("div", { class: "board-info" }, info.map((x) => el("span", {}, x))),
    el("div", { class: "pk-row top" }, others.map((s) => pokerSeat(view, s, names, me, toAct, hints))),
    centre,
    el("div", { class: "pk-row bottom" }, n ? pokerSeat(view, bottom, names, me, toAct, hints) : null),
    hints.hand_strength ? el("div", { class: "muted small" }, `Your hand: ${hints.hand_strength}`) : null);
}

// Buttons for the menu, plus an amount box for a bet or raise of any size.
export function pokerControls(legal, view, ctl) {
  const { myTurn, act } = ctl;
  const o = (view && view.options) || {};
  const nodes = legal.map((a) => el("button", { type: "button", class: "action", disabled: !myTurn, onclick: () => act(a) }, ctl.labelOf(a)));
  const sized = legal.find((a) => a.type === "bet" || a.type === "raise");
  if (sized && o.min_to !== null && o.min_to !== undefined) {
    const input = el("input", { type: "number", id: "raise-to", min: o.min_to, max: o.max_to, step: 1, value: o.min_to, disabled: !myTurn });
    const send = () => {
      const to = Math.round(Number(input.value));
      if (Number.isFinite(to)) act({ type: sized.type, to });
    };
    input.addEventListener("keydown", (ev) => { if (ev.key === "Enter") send(); });
    nodes.push(el("span", { class: "raise-box" },
      el("label", { for: "raise-to" }, sized.type === "bet" ? "Bet" : "Raise to"), input,
      el("button", { type: "button", class: "action", disabled: !myTurn, onclick: send }, "OK"),
      el("span", { class: "muted small" }, `${o.min_to}–${o.max_to}`)));
  }
  return nodes;
}

export const drawing = { board: pokerBoard, controls: pokerControls };
