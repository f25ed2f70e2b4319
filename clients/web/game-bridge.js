// cardtable browser client: the bridge table, the auction grid, the bidding box and the double-
// dummy tables. The words (labels, event lines, the calls as read, vulnerability, board results)
// come from the server: the frame's labels and hints.

import { cardLabel, parseCard, plural, sameCard, seatName, sortHand, SUITS } from "./cards.js";
import { cardNode, el } from "./dom.js";

export const COMPASS = ["North", "East", "South", "West"];
export const STRAIN_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠", N: "NT", NT: "NT" };
export const callRed = (call) => /^[1-7][DH]/.test(String(call));
// A par contract of the double-dummy analysis (an `analysis` message, not a frame).
export function parContractText(contract) {
  const m = /^([1-7])(NT|N|C|D|H|S)(X{0,2})$/.exec(String(contract));
  return m ? `${m[1]}${STRAIN_SYMBOLS[m[2]]}${m[3]}` : String(contract);
}

// The auction grid; each call's meaning by the bidders' system (public in bridge) is
// its tooltip, an alerted (artificial) call is marked "!", and the last call's meaning
// reads under the grid.
export function auctionTable(view, names, hints) {
  const said = hints.auction || [];
  const meant = hints.explanations || [];
  const calls = (view.auction || []).map((c, i) => ({ call: c.call, text: said[i] ?? c.call, e: meant[i] }));
  const cells = [...Array(view.dealer || 0).fill(null), ...calls];
  const rows = [];
  for (let i = 0; i < cells.length; i += 4) rows.push(cells.slice(i, i + 4));
  if (!rows.length) rows.push([]);
  const cell = (c) => {
    if (!c) return el("td", {}, "");
    const cls = [callRed(c.call) ? "red" : "", c.e && c.e.alert ? "alert" : ""].filter(Boolean).join(" ");
    return el("td", { class: cls, title: c.e ? c.e.meaning : "" }, c.text + (c.e && c.e.alert ? "!" : ""));
  };
  const last = calls[calls.length - 1];
  const seatOf = (i) => ((view.dealer || 0) + i) % 4;
  return el("div", { class: "auction-wrap" },
    el("table", { class: "auction" },
      el("tr", {}, [0, 1, 2, 3].map((s) => el("th", { class: s % 2 === 0 ? "ns" : "ew" }, (names[s] || COMPASS[s]).slice(0, 5)))),
      rows.map((r) => el("tr", {}, [0, 1, 2, 3].map((i) => cell(r[i]))))),
    last && last.e ? el("div", { class: "call-meaning small" },
      `${seatName(seatOf(calls.length - 1), names, null)} ${last.text}${last.e.alert ? " (alert)" : ""}: ${last.e.meaning}`) : null);
}

// A hand as four suit lines; cards become buttons where `playable` says so.
export function suitLines(cards, playable) {
  const bySuit = { S: [], H: [], D: [], C: [] };
  for (const c of sortHand(cards)) {
    const p = parseCard(c);
    if (p && !p.joker) bySuit[p.suit].push(c);
  }
  return el("div", { class: "suit-lines" }, ["S", "H", "D", "C"].map((s) =>
    el("div", { class: `suit-line${s === "H" || s === "D" ? " red" : ""}` }, el("span", { class: "suit" }, SUITS[s]),
      bySuit[s].length ? bySuit[s].map((c) => {
        const action = playable && playable(c);
        const rank = parseCard(c).label.slice(0, -1);
        return action
          ? el("button", { type: "button", class: "rank legal", onclick: action, title: `play ${cardLabel(c)}`, "data-card": c }, rank)
          : el("span", { class: "rank" }, rank);
      }) : el("span", { class: "muted" }, "—"))));
}

export function bridgeBoard(view, names, me, toAct, ctl = {}) {
  const hints = ctl.hints || {};
  const bottom = typeof me === "number" && me >= 0 ? me : 2; // spectators sit South
  const places = ["bottom", "left", "top", "right"];
  const played = new Map();
  (view.trick || []).forEach((c, i) => played.set((view.leader + i) % 4, c));
  const bidding = view.phase === "auction" || !view.contract;
  const t = view.tricks || {};
  const info = [
    `Board ${view.board}${view.boards > 1 ? ` (${view.board_index}/${view.boards})` : ""}`,
    `Dealer ${seatName(view.dealer, names, me)}`,
    `Vulnerable: ${hints.vulnerable ?? view.vulnerability}`,
  ];
  if (view.contract) {
    info.push(el("strong", {}, `${hints.contract ?? view.contract} by ${seatName(view.declarer, names, me)}`));
    info.push(`Tricks NS ${t.NS ?? 0} – EW ${t.EW ?? 0}`);
  }
  if ((view.results || []).length) info.push(`Score NS ${view.total_ns >= 0 ? "+" : ""}${view.total_ns}`);
  const dummyLegal = (c) => {
    if (!ctl.myTurn || view.next_player !== view.dummy) return null;
    const a = (ctl.legal || []).find((x) => x.type === "play" && sameCard(x.card, c));
    return a ? () => ctl.act(a) : null;
  };
  const spots = [0, 1, 2, 3].map((s) => {
    const rel = (s - bottom + 4) % 4;
    const acting = (toAct || []).includes(s) || (view.next_player === s && view.phase === "play");
    const tags = [];
    if (view.declarer === s) tags.push(el("span", { class: "tag role" }, "declarer"));
    if (view.dummy === s && view.contract) tags.push(el("span", { class: "tag role" }, "dummy"));
    const kids = [el("div", { class: "seat-label", "data-seat": s }, seatName(s, names, me), " ", tags,
      el("span", { class: "muted" }, ` · ${plural((view.hand_sizes || [])[s], "card")}`))];
    let cards = null;
    if (Array.isArray(view.hands) && Array.isArray(view.hands[s])) cards = view.hands[s];
    else if (s === view.dummy && Array.isArray(view.dummy_hand)) cards = view.dummy_hand;
    else if (s === me && Array.isArray(view.hand)) cards = view.hand;
    if (cards && !(s === me && ctl.handBelow)) kids.push(suitLines(cards, s === view.dummy ? dummyLegal : null));
    // No trick slots in the auction: the table stays low, so the bidding box below fits.
    if (!bidding) kids.push(el("div", { class: "played" }, played.has(s) ? cardNode(played.get(s)) : el("span", { class: "slot" })));
    return el("div", { class: `spot ${places[rel]}${acting ? " acting" : ""}` }, kids);
  });
  const centre = el("div", { class: "centre" });
  if (bidding) centre.append(auctionTable(view, names, hints));
  else {
    if (Array.isArray(view.last_trick) && view.last_trick.length) {
      centre.append(el("div", { class: "muted" }, "Last trick"),
        el("div", { class: "cards small" }, view.last_trick.map((c, i) =>
          el("span", { class: "lt" }, cardNode(c, { class: "mini" }), el("small", {}, "NESW"[(view.last_leader + i) % 4])))));
    }
    centre.append(el("details", { class: "auction-box" }, el("summary", {}, "Auction"), auctionTable(view, names, hints)));
  }
  if (view.claim) {
    const c = view.claim;
    const what = c.tricks === 0 ? "concedes all" : `claims ${c.tricks} of the`;
    const waiting = (c.answer || []).filter((s) => !(c.accepted || []).includes(s)).map((s) => seatName(s, names, me));
    centre.append(el("div", { class: "claim" },
      el("div", {}, `${seatName(c.seat, names, me)} ${what} remaining ${c.remaining ?? ""} tricks`),
      (c.hand || []).length ? el("div", { class: "cards small" }, c.hand.map((x) => cardNode(x, { class: "mini" }))) : null,
      waiting.length ? el("div", { class: "muted" }, `waiting for ${waiting.join(", ")}`) : null));
  }
  const results = (hints.results || []).map((r) => el("div", { class: "small" }, r));
  return el("div", { class: `felt bridge${bidding ? " bidding" : ""}` },
    el("div", { class: "board-info" }, info.map((x) => el("span", {}, x))),
    el("div", { class: "compass" }, spots, centre),
    results.length ? el("div", { class: "results" }, results) : null);
}

// The double-dummy table of a board that ended (an `analysis` message, or a replay
// step's analysis.board): tricks per declarer and strain, then par.
export const DD_STRAINS = ["N", "S", "H", "D", "C"];

export function parText(p) {
  if (!p || !(p.contracts || []).length) return "Par 0: passed out";
  const score = p.score_ns >= 0 ? `+${p.score_ns}` : String(p.score_ns);
  return `Par NS ${score}: ` + p.contracts.map((c) =>
    `${parContractText(c.contract)} by ${c.declarers.split("").join("/")} (${plural(c.tricks, "trick")})`).join("; ");
}

export function ddTableNode(a, names) {
  const t = a.dd_table || {};
  return el("div", { class: "dd" },
    el("div", { class: "dd-title" }, `Double dummy · board ${a.board}`),
    el("table", { class: "dd-table" },
      el("tr", {}, el("th", {}, ""), DD_STRAINS.map((st) =>
        el("th", { class: st === "H" || st === "D" ? "red" : "" }, STRAIN_SYMBOLS[st]))),
      [0, 1, 2, 3].map((s) => el("tr", {},
        el("th", { class: s % 2 === 0 ? "ns" : "ew" }, names[s] || COMPASS[s]),
        DD_STRAINS.map((st) => el("td", {}, String((t[st] || {})["NESW"[s]] ?? "?")))))),
    el("div", { class: "dd-par" }, parText(a.par)));
}

// A card played against every legal card (a replay step's analysis.play).
export function cardScoresNode(p, names) {
  const side = p.seat % 2 === 0 ? "North/South" : "East/West";
  const cards = Object.keys(p.scores).sort((x, y) => p.scores[y] - p.scores[x]);
  return el("div", { class: "dd" },
    el("div", { class: "dd-title" }, `Double dummy: tricks ${side} take from here (${seatName(p.seat, names, null)} to play)`),
    el("div", { class: "dd-cards" }, cards.map((c) => el("span", {
      class: `dd-card${c === p.played ? " played" : ""}${p.scores[c] === p.best ? " best" : ""}`,
    }, cardLabel(c), " ", el("strong", {}, String(p.scores[c]))))),
    el("div", { class: p.cost ? "dd-verdict cost" : "dd-verdict" }, p.verdict));
}

// The bidding box (one row per level) and the claim picker; cards are clicked on the table.
export function bridgeControls(legal, view, ctl) {
  const { myTurn, act } = ctl;
  const nodes = [];
  const calls = legal.filter((a) => a.type === "call");
  if (calls.length) {
    const specials = calls.filter((a) => !/^[1-7]/.test(a.call));
    const rows = [];
    for (let level = 1; level <= 7; level++) {
      const bids = calls.filter((a) => a.call.startsWith(String(level)));
      if (bids.length) rows.push(el("div", { class: "bid-row" }, bids.map((a) => el("button", {
        type: "button", class: `action bid${callRed(a.call) ? " red" : ""}`, disabled: !myTurn, onclick: () => act(a), "data-call": a.call,
      }, ctl.labelOf(a)))));
    }
    // Pass, double and redouble beside the seven levels (not above them): one row less.
    nodes.push(el("div", { class: "bidding-box" },
      el("div", { class: "bid-specials" }, specials.map((a) => el("button", { type: "button", class: `action call-${a.call}`, disabled: !myTurn, onclick: () => act(a), "data-call": a.call }, ctl.labelOf(a)))),
      el("div", { class: "bid-levels" }, rows)));
  }
  const claims = legal.filter((a) => a.type === "claim");
  if (claims.length) {
    const pick = el("select", { id: "claim-n", disabled: !myTurn },
      claims.map((a) => el("option", { value: a.tricks, selected: a.tricks === claims[claims.length - 1].tricks }, ctl.labelOf(a))));
    nodes.push(el("span", { class: "raise-box" }, pick,
      el("button", { type: "button", class: "action", id: "claim-btn", disabled: !myTurn, onclick: () => act({ type: "claim", tricks: Number(pick.value) }) }, "Claim / concede")));
  }
  for (const a of legal.filter((x) => x.type !== "call" && x.type !== "claim" && x.type !== "play")) {
    nodes.push(el("button", { type: "button", class: "action", disabled: !myTurn, onclick: () => act(a) }, ctl.labelOf(a)));
  }
  return nodes;
}

// Whose cards the declarer plays now: dummy's are clicked on the table.
export function bridgeNote(view, legal, me) {
  const dummy = view.next_player === view.dummy && view.dummy !== me && legal.some((a) => a.type === "play");
  return dummy ? "play a highlighted card from dummy's hand on the table." : null;
}

export const drawing = { board: bridgeBoard, controls: bridgeControls, note: bridgeNote, analysis: { board: ddTableNode, play: cardScoresNode, par: parText } };
