// cardtable browser client: bridge tables, auction, double-dummy tables and controls.
// Loaded after games.js (shared words, dispatch) and before app.js; the helpers of
// both are used at run time.
"use strict";

const STRAIN_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠", N: "NT", NT: "NT" };
const CALL_WORDS = { P: "Pass", X: "Double", XX: "Redouble" };
const VULNERABLE = { None: "none", NS: "North/South", EW: "East/West", All: "both" };

function callText(call) {
  const t = String(call);
  if (CALL_WORDS[t]) return CALL_WORDS[t];
  const m = /^([1-7])(NT|N|C|D|H|S)(X{0,2})$/.exec(t);
  return m ? `${m[1]}${STRAIN_SYMBOLS[m[2]]}${m[3]}` : t;
}
const callRed = (call) => /^[1-7][DH]/.test(String(call));

function boardResultText(r) {
  if (r.contract === null || r.contract === undefined) return `Board ${r.board}: passed out, NS 0`;
  const need = Number(String(r.contract)[0]) + 6;
  const outcome = r.tricks >= need ? `made ${r.tricks}` : `down ${need - r.tricks}`;
  const score = r.score_ns >= 0 ? `+${r.score_ns}` : String(r.score_ns);
  return `Board ${r.board}: ${callText(r.contract)} by ${"NESW"[r.declarer]} ${outcome}, NS ${score}`;
}

// Event lines; a narrator remembers how full the trick is, since a first card "leads".
function bridgeNarrator(inTrick = 0) {
  let count = inTrick;
  return (e, names, me) => {
    const [actor, you] = subject(e.seat, names, me);
    switch (e.kind) {
      case "deal":
        count = 0;
        return `Board ${e.board} · dealer ${seatName(e.dealer, names, me)} · vulnerable: ${VULNERABLE[e.vulnerability] || e.vulnerability}`;
      case "hand":
        return e.seat === me ? `You are dealt ${plural((e.cards || []).length, "card")}` : null;
      case "call":
        if (e.call === "P") return `${actor} ${verb("pass", you)}`;
        if (e.call === "X") return `${actor} ${verb("double", you)}`;
        if (e.call === "XX") return `${actor} ${verb("redouble", you)}`;
        return `${actor} ${you ? "bid" : "bids"} ${callText(e.call)}`;
      case "passed_out":
        return `Board ${e.board} is passed out`;
      case "contract":
        return `Contract: ${callText(e.contract)} by ${seatName(e.declarer, names, me)}`;
      case "play": {
        const word = count === 0 ? "lead" : "play";
        count = (count + 1) % 4;
        return `${actor} ${verb(word, you)} ${cardLabel(e.card)}`;
      }
      case "dummy":
        return `Dummy (${seatName(e.seat, names, me)}) goes down`;
      case "trick": {
        count = 0;
        const t = e.tricks || [0, 0];
        return `${e.winner % 2 === 0 ? "North/South" : "East/West"} win the trick (${seatName(e.winner, names, me)}) NS ${t[0]} – EW ${t[1]}`;
      }
      case "claim":
        return `${actor} ${verb("claim", you)} ${e.tricks} of the remaining tricks`;
      case "claim_answer":
        return `${actor} ${verb("accept", you)} the claim`;
      case "claim_rejected":
        return `${actor} ${verb("reject", you)} the claim; play goes on`;
      case "claim_accepted":
        return `The claim is accepted ${e.by === "defenders" ? "by the defenders" : "(it holds double dummy)"}`;
      case "board_end":
        return `${boardResultText(e)} (total NS ${e.total_ns >= 0 ? "+" : ""}${e.total_ns})`;
      case "game_over":
        return `Game over: ${e.summary}`;
      default:
        return null;
    }
  };
}

function auctionTable(view, names) {
  const cells = [...Array(view.dealer || 0).fill(""), ...(view.auction || []).map((c) => c.call)];
  const rows = [];
  for (let i = 0; i < cells.length; i += 4) rows.push(cells.slice(i, i + 4));
  if (!rows.length) rows.push([]);
  return el("table", { class: "auction" },
    el("tr", {}, [0, 1, 2, 3].map((s) => el("th", { class: s % 2 === 0 ? "ns" : "ew" }, (names[s] || COMPASS[s]).slice(0, 5)))),
    rows.map((r) => el("tr", {}, [0, 1, 2, 3].map((i) => el("td", { class: callRed(r[i]) ? "red" : "" }, r[i] ? callText(r[i]) : "")))));
}

// A hand as four suit lines; cards become buttons where `playable` says so.
function suitLines(cards, playable) {
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

function bridgeBoard(view, names, me, toAct, ctl = {}) {
  const bottom = typeof me === "number" && me >= 0 ? me : 2; // spectators sit South
  const places = ["bottom", "left", "top", "right"];
  const played = new Map();
  (view.trick || []).forEach((c, i) => played.set((view.leader + i) % 4, c));
  const bidding = view.phase === "auction" || !view.contract;
  const t = view.tricks || {};
  const info = [
    `Board ${view.board}${view.boards > 1 ? ` (${view.board_index}/${view.boards})` : ""}`,
    `Dealer ${seatName(view.dealer, names, me)}`,
    `Vulnerable: ${VULNERABLE[view.vulnerability] || view.vulnerability}`,
  ];
  if (view.contract) {
    info.push(el("strong", {}, `${callText(view.contract)} by ${seatName(view.declarer, names, me)}`));
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
  if (bidding) centre.append(auctionTable(view, names));
  else {
    if (Array.isArray(view.last_trick) && view.last_trick.length) {
      centre.append(el("div", { class: "muted" }, "Last trick"),
        el("div", { class: "cards small" }, view.last_trick.map((c, i) =>
          el("span", { class: "lt" }, cardNode(c, { class: "mini" }), el("small", {}, "NESW"[(view.last_leader + i) % 4])))));
    }
    centre.append(el("details", { class: "auction-box" }, el("summary", {}, "Auction"), auctionTable(view, names)));
  }
  if (view.claim) centre.append(el("div", { class: "claim" }, `${seatName(view.claim.seat, names, me)} claims ${view.claim.tricks} of the remaining tricks`));
  const results = (view.results || []).map((r) => el("div", { class: "small" }, boardResultText(r)));
  return el("div", { class: `felt bridge${bidding ? " bidding" : ""}` },
    el("div", { class: "board-info" }, info.map((x) => el("span", {}, x))),
    el("div", { class: "compass" }, spots, centre),
    results.length ? el("div", { class: "results" }, results) : null);
}

// The double-dummy table of a board that ended (an `analysis` message, or a replay
// step's analysis.board): tricks per declarer and strain, then par.
const DD_STRAINS = ["N", "S", "H", "D", "C"];

function parText(p) {
  if (!p || !(p.contracts || []).length) return "Par 0: passed out";
  const score = p.score_ns >= 0 ? `+${p.score_ns}` : String(p.score_ns);
  return `Par NS ${score}: ` + p.contracts.map((c) =>
    `${callText(c.contract)} by ${c.declarers.split("").join("/")} (${plural(c.tricks, "trick")})`).join("; ");
}

function ddTableNode(a, names) {
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
function cardScoresNode(p, names) {
  const side = p.seat % 2 === 0 ? "North/South" : "East/West";
  const cards = Object.keys(p.scores).sort((x, y) => p.scores[y] - p.scores[x]);
  const verdict = p.cost
    ? `${cardLabel(p.played)} cost ${p.cost} trick${p.cost === 1 ? "" : "s"} (best ${p.best}: ${cards.filter((c) => p.scores[c] === p.best).map(cardLabel).join(" ")})`
    : `${cardLabel(p.played)} was a best play (${p.best})`;
  return el("div", { class: "dd" },
    el("div", { class: "dd-title" }, `Double dummy: tricks ${side} take from here (${seatName(p.seat, names, null)} to play)`),
    el("div", { class: "dd-cards" }, cards.map((c) => el("span", {
      class: `dd-card${c === p.played ? " played" : ""}${p.scores[c] === p.best ? " best" : ""}`,
    }, cardLabel(c), " ", el("strong", {}, String(p.scores[c]))))),
    el("div", { class: p.cost ? "dd-verdict cost" : "dd-verdict" }, verdict));
}

// The bidding box (one row per level) and the claim picker; cards are clicked on the table.
function bridgeControls(legal, view, myTurn, act) {
  const nodes = [];
  const calls = legal.filter((a) => a.type === "call");
  if (calls.length) {
    const specials = calls.filter((a) => !/^[1-7]/.test(a.call));
    const rows = [];
    for (let level = 1; level <= 7; level++) {
      const bids = calls.filter((a) => a.call.startsWith(String(level)));
      if (bids.length) rows.push(el("div", { class: "bid-row" }, bids.map((a) => el("button", {
        type: "button", class: `action bid${callRed(a.call) ? " red" : ""}`, disabled: !myTurn, onclick: () => act(a), "data-call": a.call,
      }, callText(a.call)))));
    }
    // Pass, double and redouble beside the seven levels (not above them): one row less.
    nodes.push(el("div", { class: "bidding-box" },
      el("div", { class: "bid-specials" }, specials.map((a) => el("button", { type: "button", class: `action call-${a.call}`, disabled: !myTurn, onclick: () => act(a), "data-call": a.call }, callText(a.call)))),
      el("div", { class: "bid-levels" }, rows)));
  }
  const claims = legal.filter((a) => a.type === "claim");
  if (claims.length) {
    const pick = el("select", { id: "claim-n", disabled: !myTurn },
      claims.map((a) => el("option", { value: a.tricks, selected: a.tricks === claims[claims.length - 1].tricks }, `${a.tricks}`)));
    nodes.push(el("span", { class: "raise-box" }, el("label", { for: "claim-n" }, "Claim"), pick, "more tricks",
      el("button", { type: "button", class: "action", disabled: !myTurn, onclick: () => act({ type: "claim", tricks: Number(pick.value) }) }, "Claim")));
  }
  for (const a of legal.filter((x) => x.type === "accept_claim" || x.type === "reject_claim")) {
    nodes.push(el("button", { type: "button", class: "action", disabled: !myTurn, onclick: () => act(a) }, a.type === "accept_claim" ? "Accept claim" : "Reject claim"));
  }
  return nodes;
}
