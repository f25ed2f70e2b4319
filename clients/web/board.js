// cardtable browser client: a game's board as the live table and the replays draw it (the
// game's own drawing where it has one, else a generic trick table or its fields).

import { actionLabel, isCard, plural, seatName, sortHand, valueText } from "./cards.js";
import { cardNode, el } from "./dom.js";
import { drawingOf } from "./games.js";

// The seats' names as the game gives them (table info), or numbered before it comes.
export function tableNames(info, view) {
  if (info && info.seats) return info.seats.map((s) => s.name);
  const n = view && Array.isArray(view.stacks) ? view.stacks.length
    : view && Array.isArray(view.hand_sizes) ? view.hand_sizes.length : 4;
  return Array.from({ length: n }, (_, i) => `Seat ${i + 1}`);
}

// Renders a view: a game with its own drawing (games.js) as that draws it, other trick
// games as a table seen from the viewer's seat, any other game as its fields. Used by
// the live table and the replay viewer alike; `ctl` carries the frame's hints and the
// legal actions with their labels.
export function renderBoard(box, view, { names, me, toAct, skip = [], ...ctl }) {
  if (!view || Object.keys(view).length === 0) {
    box.replaceChildren(el("p", { class: "muted" }, "waiting for the table…"));
    return;
  }
  const d = drawingOf(view.game);
  if (d) {
    box.replaceChildren(d.board(view, names, me, toAct, { legal: [], hints: {}, labelOf: actionLabel, ...ctl }));
    return;
  }
  if (Array.isArray(view.trick) && "leader" in view && Array.isArray(view.hand_sizes)) {
    box.replaceChildren(trickBoard(view, names, me, toAct, ctl.hints || {}));
    return;
  }
  box.replaceChildren(genericBoard(view, names, me, skip));
}

export function trickBoard(view, names, me, toAct, hints) {
  const n = view.hand_sizes.length;
  const seatNames = names.length === n ? names : Array.from({ length: n }, (_, i) => names[i] || `Seat ${i}`);
  const bottom = typeof me === "number" && me >= 0 ? me : 0;
  const places = n === 4 ? ["bottom", "left", "top", "right"] : null;
  const played = new Map();
  view.trick.forEach((c, i) => played.set((view.leader + i) % n, c));
  const info = [];
  if ("deal" in view) info.push(`Deal ${view.deal}${view.deals ? `/${view.deals}` : ""}`);
  if ("trump" in view) info.push(el("span", {}, "Trump ", cardNode(view.trump, { class: "mini" })));
  if ("dealer" in view) info.push(`Dealer ${seatName(view.dealer, seatNames, me)}`);
  const [ta, tb] = hints.teams || ["team 1", "team 2"];
  if (Array.isArray(view.score)) info.push(`Score ${ta} ${view.score[0]} – ${tb} ${view.score[1]}`);
  if (Array.isArray(view.tricks)) info.push(`Tricks ${ta} ${view.tricks[0]} – ${tb} ${view.tricks[1]}`);
  const spots = [];
  for (let s = 0; s < n; s++) {
    const rel = (s - bottom + n) % n;
    const place = places ? places[rel] : `p${rel}`;
    const acting = (toAct || []).includes(s);
    const kids = [el("div", { class: "seat-label", "data-seat": s }, seatName(s, seatNames, me),
      el("span", { class: "muted" }, ` · ${plural(view.hand_sizes[s], "card")}`))];
    if (Array.isArray(view.hands) && Array.isArray(view.hands[s])) {
      kids.push(el("div", { class: "cards small" }, sortHand(view.hands[s]).map((c) => cardNode(c, { class: "mini" }))));
    }
    kids.push(el("div", { class: "played" }, played.has(s) ? cardNode(played.get(s)) : el("span", { class: "slot" })));
    spots.push(el("div", { class: `spot ${place}${acting ? " acting" : ""}` }, kids));
  }
  const centre = el("div", { class: "centre" });
  if (Array.isArray(view.last_trick) && view.last_trick.length) {
    centre.append(el("div", { class: "muted" }, "Last trick"),
      el("div", { class: "cards small" }, view.last_trick.map((c, i) =>
        el("span", { class: "lt" }, cardNode(c, { class: "mini" }),
          el("small", {}, seatNames[(view.last_leader + i) % n] ? seatNames[(view.last_leader + i) % n][0] : "")))));
  }
  return el("div", { class: "felt" },
    el("div", { class: "board-info" }, info.map((x) => el("span", {}, x))),
    el("div", { class: `compass${places ? "" : " ring"}` }, spots, centre));
}

export function genericBoard(view, names, me, skip) {
  const rows = Object.entries(view).filter(([k]) => k !== "game" && !skip.includes(k)).map(([k, v]) => {
    let cell;
    if (Array.isArray(v) && v.length && v.every(isCard)) {
      cell = el("div", { class: "cards small" }, (k === "hand" ? sortHand(v) : v).map((c) => cardNode(c, { class: "mini" })));
    } else if (k === "to_act" && Array.isArray(v)) {
      cell = v.map((s) => seatName(s, names, me)).join(", ") || "–";
    } else {
      cell = el("code", {}, valueText(v));
    }
    return el("tr", {}, el("th", {}, k), el("td", {}, cell));
  });
  return el("div", { class: "felt generic" }, el("table", { class: "fields" }, rows));
}
