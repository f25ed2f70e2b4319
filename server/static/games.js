// cardtable browser client: the layouts of poker, bridge, tractor and rummy tables (loaded
// before app.js, whose helpers el, cardNode, parseCard, sortHand, seatName and teams it uses
// at run time). Everything here reads the games' views and events (rules/poker,
// rules/bridge, rules/tractor, rules/rummy), worded as the terminal client words them.
"use strict";

const COMPASS = ["North", "East", "South", "West"];

// Seat names when no table info is at hand (replays): bridge's compass, poker's numbers;
// four-seat tractor is played North/East/South/West like the terminal client shows it.
function defaultSeatNames(game, n) {
  if (game === "bridge" || game === "whist") return COMPASS.slice(0, n || 4);
  if (game === "tractor" && n === 4) return COMPASS.slice();
  return Array.from({ length: n }, (_, i) => `Seat ${i + 1}`);
}

// Seats a game names by number ("0", "1"..) are shown as the terminal client shows them.
function displayNames(names, game) {
  if (!names.length || names.some((nm, i) => nm !== String(i))) return names;
  return defaultSeatNames(game, names.length);
}

function cardsRow(cards, cls = "mini") {
  return el("div", { class: "cards small" }, (cards || []).map((c) => cardNode(c, { class: cls })));
}

function subject(seat, names, me) {
  return seat === me ? ["You", true] : [seatName(seat, names, me), false];
}
const verb = (base, you) => (you ? base : base + (/(sh|ch|s)$/.test(base) ? "es" : "s"));

// ---------------------------------------------------------------- poker

const POT_NAMES = ["main", "side", "side 2", "side 3", "side 4", "side 5", "side 6", "side 7"];
const cardsText = (cards) => (Array.isArray(cards) && cards.length ? cards.map(cardLabel).join(" ") : "–");

function pokerEventLine(e, names, me) {
  const [actor, you] = subject(e.seat, names, me);
  switch (e.kind) {
    case "deal":
      return `Hand ${e.hand} · button ${seatName(e.button, names, me)} · blinds ${seatName(e.small_blind, names, me)}, ${seatName(e.big_blind, names, me)}`;
    case "post":
      return `${actor} ${verb("post", you)} ${e.blind === "ante" ? "the ante" : `the ${e.blind} blind`} (${e.chips})`;
    case "action": {
      const tail = e.all_in ? " (all in)" : "";
      if (e.type === "raise") return `${actor} ${verb("raise", you)} to ${e.to}${tail}`;
      if (e.type === "bet") return `${actor} ${verb("bet", you)} ${e.to}${tail}`;
      if (e.type === "call") return `${actor} ${verb("call", you)} ${e.chips}${tail}`;
      return `${actor} ${verb(e.type, you)}${tail}`;
    }
    case "refund":
      return `${e.chips} uncalled returned to ${seatName(e.seat, names, me)}`;
    case "street":
      return `${e.street.charAt(0).toUpperCase()}${e.street.slice(1)}: ${cardsText(e.board)}`;
    case "show":
      return `${actor} ${verb("show", you)} ${cardsText(e.cards)} — ${e.hand}`;
    case "muck":
      return `${actor} ${verb("muck", you)}`;
    case "win": {
      const parts = (e.shares || []).map(([s, c]) => `${subject(s, names, me)[0]} ${verb("win", s === me)} ${c}`);
      return parts.join("; ") + (e.pot ? ` (${POT_NAMES[e.pot] || "side"} pot)` : "");
    }
    case "hand_end":
      return `Hand ${e.hand} over`;
    case "sit_out":
      return `${actor} ${verb("sit", you)} out`;
    case "sit_in":
      return `${actor} ${verb("sit", you)} in`;
    case "rebuy":
      return `${actor} ${verb("rebuy", you)} ${e.chips} (stack ${e.stack})`;
    case "game_over":
      return `Game over: ${e.summary}`;
    default:
      return null;
  }
}

function pokerLabel(a, view) {
  const o = (view && view.options) || {};
  if (a.type === "call") return o.to_call ? `Call ${o.to_call}` : "Call";
  if (a.type === "bet" || a.type === "raise") {
    if (a.to === o.max_to) return `All in (${a.to})`;
    return a.type === "bet" ? `Bet ${a.to}` : `Raise to ${a.to}`;
  }
  if (a.type === "rebuy") return `Rebuy ${a.chips}`;
  const word = String(a.type).replace("_", " ");
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function pokerSeat(view, s, names, me, toAct) {
  const players = view.players || [];
  const inHand = players.includes(s);
  const folded = (view.folded || [])[s];
  const stack = (view.stacks || [])[s];
  const bet = (view.bets || [])[s] || 0;
  const marks = [];
  if (view.button === s) marks.push(el("span", { class: "chip-mark dealer", title: "button" }, "D"));
  if (view.small_blind_seat === s) marks.push(el("span", { class: "chip-mark", title: "small blind" }, "SB"));
  if (view.big_blind_seat === s) marks.push(el("span", { class: "chip-mark", title: "big blind" }, "BB"));
  let state = "";
  if (!inHand) state = (view.sitting_out || [])[s] ? "sitting out" : "out";
  else if (folded) state = "folded";
  else if (stack === 0) state = view.hand_over ? "busted" : "all in";
  const shown = (view.shown || {})[String(s)];
  let cards;
  if (shown) cards = cardsRow(shown.cards);
  else if (s === me && Array.isArray(view.hand)) cards = cardsRow(view.hand);
  else if (inHand && !folded && !view.hand_over) cards = el("div", { class: "cards small" }, el("span", { class: "card mini back" }, "▒"), el("span", { class: "card mini back" }, "▒"));
  else cards = el("div", { class: "cards small" });
  const kids = [
    el("div", { class: "seat-label", "data-seat": s }, seatName(s, names, me), " ", marks),
    el("div", { class: "stack" }, `stack ${stack}`, state ? el("span", { class: `seat-state ${state.replace(" ", "-")}` }, state) : null),
    cards,
  ];
  if (shown) kids.push(el("div", { class: "shown-hand" }, shown.hand));
  if ((view.mucked || []).includes(s)) kids.push(el("div", { class: "shown-hand" }, "mucked"));
  kids.push(el("div", { class: "bet" }, bet ? el("span", { class: "bet-chip" }, String(bet)) : ""));
  const acting = (toAct || []).includes(s);
  return el("div", { class: `pk-seat${acting ? " acting" : ""}${folded || !inHand ? " folded" : ""}` }, kids);
}

function pokerBoard(view, names, me, toAct) {
  const n = (view.stacks || []).length;
  const bottom = typeof me === "number" && me >= 0 ? me : 0;
  const b = view.blinds || {};
  const info = [`Hand ${view.hand_number ?? "–"}/${view.hands}`, `Blinds ${b.small}/${b.big}${b.ante ? ` ante ${b.ante}` : ""}`];
  if (view.street) info.push(view.hand_over ? "hand over" : view.street);
  if (view.phase === "between") info.push("between hands");
  // The viewer sits at the bottom; the others fill the top row in seat order (clockwise).
  const others = [];
  for (let i = 1; i < n; i++) others.push((bottom + i) % n);
  const pots = view.pots || [];
  const potText = [`Pot ${view.pot ?? 0}`];
  if (pots.length > 1) potText.push(pots.map((p, i) => `${POT_NAMES[i] || "side"} ${p.chips}`).join(" · "));
  const won = {};
  if (view.hand_over) for (const a of view.awards || []) for (const [s, c] of a.shares || []) won[s] = (won[s] || 0) + c;
  const wonText = Object.entries(won).map(([s, c]) => `${seatName(Number(s), names, me)} wins ${c}`).join(", ");
  const centre = el("div", { class: "pk-centre" },
    el("div", { class: "cards board" }, (view.board || []).map((c) => cardNode(c)),
      Array.from({ length: 5 - (view.board || []).length }, () => el("span", { class: "slot" }))),
    el("div", { class: "pot" }, potText.join(" — ")),
    wonText ? el("div", { class: "won" }, wonText) : null);
  return el("div", { class: "felt poker" },
    el("div", { class: "board-info" }, info.map((x) => el("span", {}, x))),
    el("div", { class: "pk-row top" }, others.map((s) => pokerSeat(view, s, names, me, toAct))),
    centre,
    el("div", { class: "pk-row bottom" }, n ? pokerSeat(view, bottom, names, me, toAct) : null));
}

// Buttons for the menu, plus an amount box for a bet or raise of any size.
function pokerControls(legal, view, myTurn, act) {
  const o = (view && view.options) || {};
  const nodes = legal.map((a) => el("button", { type: "button", class: "action", disabled: !myTurn, onclick: () => act(a) }, pokerLabel(a, view)));
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

// ---------------------------------------------------------------- bridge

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

// ---------------------------------------------------------------- tractor

// Tractor views (rules/tractor/game.py): four seats in fixed partnerships (0&2 v 1&3),
// or 5-8 seats in Finding Friends (`landlord_side`, `calls`, `seat_points`). The trump
// order is the rules' Φ (docs/tractor.md): natural suits 1..12, the trump suit 13..24,
// off-suit current-rank cards 25, the trump-suit one 26, jokers 27/28.
const TR_TRUMP = 4;
const TR_SUIT_LINE = ["S", "H", "C", "D"]; // natural suits in hand order, as the terminal
const TR_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
const rankText = (r) => (r === "T" ? "10" : String(r ?? "?"));
const ordinal = (n) => `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n] || "th"}`;

function trumpText(suit) {
  if (suit === null || suit === undefined) return "not fixed yet";
  if (suit === "NT") return "no trump";
  return TR_SYMBOL[suit] || String(suit);
}

// {rank, suit}: suit null = no trump. The fixed trump, else the winning declaration's.
function tractorTrump(view) {
  if (!view || typeof view.rank !== "string") return null;
  let suit = view.trump_suit;
  const decls = view.declarations || [];
  if ((suit === null || suit === undefined) && decls.length) {
    const card = String((decls[decls.length - 1].cards || ["SJ"])[0]);
    suit = card === "SJ" || card === "BJ" ? "NT" : card.slice(-1);
  }
  return { rank: view.rank, suit: suit && suit !== "NT" ? suit : null };
}
function trumpOf(rank, suit) {
  return typeof rank === "string" ? { rank, suit: suit && suit !== "NT" ? suit : null } : null;
}

// [effective suit (0..3 natural "CDHS", 4 trump), Φ]
function tractorKey(card, trump) {
  const p = parseCard(card);
  if (!p) return [9, 0];
  if (p.joker) return [TR_TRUMP, p.joker === "big" ? 28 : 27];
  const rank = RANKS.indexOf(p.rank) + 1;
  const cr = RANKS.indexOf(trump ? trump.rank : "") + 1;
  const isTrumpSuit = !!trump && trump.suit === p.suit;
  if (trump && p.rank === trump.rank) return [TR_TRUMP, isTrumpSuit || trump.suit === null ? 26 : 25];
  const phi = rank - (cr && rank > cr ? 1 : 0);
  if (isTrumpSuit) return [TR_TRUMP, phi + 12];
  return ["CDHS".indexOf(p.suit), phi];
}

// The hand as groups: trumps first (highest first), then ♠ ♥ ♣ ♦ (highest first).
function tractorGroups(cards, trump) {
  const groups = new Map();
  for (const c of cards || []) {
    const [suit] = tractorKey(c, trump);
    if (!groups.has(suit)) groups.set(suit, []);
    groups.get(suit).push(c);
  }
  const byPhi = (a, b) => {
    const d = tractorKey(b, trump)[1] - tractorKey(a, trump)[1];
    return d || (parseCard(b)?.key ?? 0) - (parseCard(a)?.key ?? 0);
  };
  const out = [];
  if (groups.has(TR_TRUMP)) out.push(["trumps", groups.get(TR_TRUMP).sort(byPhi)]);
  for (const s of TR_SUIT_LINE) {
    const k = "CDHS".indexOf(s);
    if (groups.has(k)) out.push([TR_SYMBOL[s], groups.get(k).sort(byPhi)]);
  }
  if (groups.has(9)) out.push(["", groups.get(9)]);
  return out;
}
const tractorSorted = (cards, trump) => tractorGroups(cards, trump).flatMap(([, cs]) => cs);

// What a play of several cards is ("pair", "tractor of 3 pairs", "2 pairs + 1 single"),
// after the rules' getStructure (§4.1: longest runs of consecutive pairs first).
function tractorShape(cards, trump) {
  if (!trump || !Array.isArray(cards) || cards.length < 2) return "";
  const keys = cards.map((c) => tractorKey(c, trump));
  if (keys.some((k) => k[0] !== keys[0][0] || k[0] === 9)) return "";
  const faces = new Map();
  cards.forEach((c, i) => {
    const f = parseCard(c).key;
    if (!faces.has(f)) faces.set(f, { n: 0, phi: keys[i][1] });
    faces.get(f).n += 1;
  });
  let pairs = [];
  let singles = 0;
  for (const { n, phi } of faces.values()) {
    for (let i = 0; i < Math.floor(n / 2); i++) pairs.push(phi);
    singles += n % 2;
  }
  const tractors = [];
  for (;;) {
    const have = new Set(pairs);
    let best = null;
    for (const v of [...have].sort((a, b) => b - a)) {
      let len = 1;
      while (have.has(v + len)) len += 1;
      if (len >= 2 && (!best || len > best[1])) best = [v, len];
    }
    if (!best) break;
    tractors.push(best[1]);
    for (let i = 0; i < best[1]; i++) pairs.splice(pairs.indexOf(best[0] + i), 1);
  }
  tractors.sort((a, b) => b - a);
  if (tractors.length === 0 && pairs.length === 1 && singles === 0) return "pair";
  if (tractors.length === 1 && pairs.length === 0 && singles === 0) return `tractor of ${tractors[0]} pairs`;
  const parts = tractors.map((n) => `tractor of ${n} pairs`);
  if (pairs.length) parts.push(`${pairs.length} pair${pairs.length > 1 ? "s" : ""}`);
  if (singles) parts.push(`${singles} single${singles > 1 ? "s" : ""}`);
  return parts.join(" + ");
}
const isThrow = (what) => !!what && what !== "pair" && !what.startsWith("tractor");

function fixedTeams(view) {
  return !("landlord_side" in view) && (view.hand_sizes || [0, 0, 0, 0]).length === 4;
}
function trTeams(names) {
  return names.length === 4 ? [`${names[0]}/${names[2]}`, `${names[1]}/${names[3]}`] : ["seats 1 and 3", "seats 2 and 4"];
}
const friendCallText = (c) => `the ${ordinal(c.nth)} ${cardLabel(String(c.card))}`;
function declarationText(cards) {
  const shown = Array.isArray(cards) ? cards : [];
  const first = String(shown[0] ?? "?");
  const suit = first === "SJ" || first === "BJ" ? "no trump" : TR_SYMBOL[first.slice(-1)] || "?";
  return `${suit} with ${cardsText(shown)}`;
}
// The rules' summary says "seats 0 and 2": the table's team names read better.
function teamSummary(text, names) {
  const [a, b] = trTeams(names);
  return String(text).replaceAll("seats 0 and 2", a).replaceAll("seats 1 and 3", b);
}

function tractorRoundResultText(r, names, fixed = true) {
  const up = r.levels_up || 0;
  const bonus = r.kitty_bonus ? ` (kitty bonus ${r.kitty_bonus})` : "";
  if (!fixed) { // Finding Friends: the sides were found during play
    const outcome = r.attackers_win ? `the attackers take the table${up ? ` and go up ${up}` : ""}` : `the landlord's side keeps the table and goes up ${up}`;
    return `Round result: the attackers scored ${r.attacker_points ?? 0}${bonus}: ${outcome}; next landlord ${seatName(r.next_landlord, names, null)}`;
  }
  const [a, b] = trTeams(names);
  const [side, attack] = typeof r.landlord === "number" && r.landlord % 2 === 0 ? [a, b] : [b, a];
  const outcome = r.attackers_win ? `${attack} take the table${up ? ` and go up ${up}` : ""}` : `${side} keep the table and go up ${up}`;
  return `Round result: ${attack} scored ${r.attacker_points ?? 0}${bonus}: ${outcome}; next landlord ${seatName(r.next_landlord, names, null)}`;
}

// Event lines, worded as server/terminal/tractor_text.py's TractorNarrator; it remembers
// the trump and landlord (to name plays and trick points) and whether a trick is on.
function tractorNarrator(view = null) {
  const st = { trump: null, landlord: null, inTrick: 0, seats: 4, fixed: true };
  if (view && view.game === "tractor") {
    st.trump = trumpOf(view.rank, view.trump_suit);
    st.landlord = typeof view.landlord === "number" ? view.landlord : null;
    st.inTrick = Array.isArray(view.trick) ? view.trick.length : 0;
    st.seats = (view.hand_sizes || [0, 0, 0, 0]).length;
    st.fixed = fixedTeams(view);
  }
  return (e, names, me) => {
    st.seats = names.length || st.seats;
    if (names.length !== 4) st.fixed = false;
    const [actor, you] = subject(e.seat, names, me);
    switch (e.kind) {
      case "deal": {
        st.inTrick = 0;
        st.trump = null;
        st.landlord = typeof e.landlord === "number" ? e.landlord : null;
        const lead = st.landlord !== null ? `landlord ${seatName(e.landlord, names, me)}` : "the first declarer becomes landlord";
        return `Round ${e.round} · playing ${rankText(e.rank)}s · ${lead} · ${seatName(e.starter, names, me)} draws first`;
      }
      case "drawn":
        return you ? `You draw ${cardLabel(String(e.card))}` : null;
      case "draw":
        return null; // a hundred of them: the table shows the stock going down
      case "declare":
        return `${actor} ${verb("declare", you)} ${declarationText(e.cards)}`;
      case "pass":
        return `${actor} ${verb("pass", you)} on declaring`;
      case "redeal":
        return "Nobody declared: the cards are shuffled and dealt again";
      case "kitty_revealed":
        return `Nobody declared: the kitty is turned up (${cardsText(e.cards)}), trump ${trumpText(e.suit)}`;
      case "trump":
        st.landlord = e.landlord;
        st.trump = trumpOf(e.rank, e.suit);
        return `Trump: ${trumpText(e.suit)} (playing ${rankText(e.rank)}s) · landlord ${seatName(e.landlord, names, me)}`;
      case "kitty":
        return you ? `You pick up the kitty: ${cardsText(e.cards)}` : null;
      case "buried":
        return `${actor} ${verb("bury", you).replace("burys", "buries")} ${plural(e.count, "card")}`;
      case "throw_failed":
        return `Throw failed: ${seatName(e.seat, names, me)} must play ${cardsText(e.forced)} (tried ${plural(e.attempted, "card")}; ${plural(e.penalty, "point")} penalty)`;
      case "play": {
        const cards = (e.cards || []).map(String);
        const what = tractorShape(cards, st.trump);
        const leading = st.inTrick === 0;
        st.inTrick = (st.inTrick + 1) % st.seats;
        let word = leading ? "lead" : "play";
        if (leading && isThrow(what)) word = "throw";
        return `${actor} ${verb(word, you)} ${cardsText(cards)}${what ? ` (${what})` : ""}`;
      }
      case "trick": {
        st.inTrick = 0;
        const head = e.winner === me ? "You win" : `${seatName(e.winner, names, me)} wins`;
        const won = e.points || 0;
        if (!won) return `${head} the trick`;
        if (!st.fixed) return `${head} the trick (${plural(won, "point")}; attackers ${e.attacker_points})`;
        const attacking = typeof e.winner === "number" && typeof st.landlord === "number" && e.winner % 2 !== st.landlord % 2;
        return attacking ? `${head} the trick (+${plural(won, "point")}, ${e.attacker_points} in all)` : `${head} the trick (${plural(won, "point")} saved)`;
      }
      case "round_end": {
        const [a, b] = trTeams(names);
        let upSide = e.team_up === 0 ? a : b;
        if ("seats_up" in e) upSide = (e.seats_up || []).map((s) => seatName(s, names, me)).join(", ");
        const kitty = e.kitty_bonus ? ` (kitty ${e.kitty_points} × ${e.kitty_multiplier} = ${e.kitty_bonus})` : "";
        const levels = e.levels || [];
        const now = st.fixed && levels.length === 4
          ? `${a} at ${rankText(levels[0])}, ${b} at ${rankText(levels[1])}`
          : levels.map((v, i) => `${seatName(i, names, me)} ${rankText(v)}`).join(", ");
        const up = e.levels_up || 0;
        let change = up ? `${upSide} go up ${up}` : `${upSide} take the table`;
        if (!e.attackers_win) change = `${upSide} keep the table and go up ${up}`;
        return `Round ${e.round} over: attackers ${plural(e.attacker_points, "point")}${kitty}; ${change} → ${now}; kitty was ${cardsText(e.kitty)}`;
      }
      case "friends_called":
        return `${actor} ${verb("call", you)} for friends: ${(e.calls || []).map(friendCallText).join(", ")}`;
      case "friend": {
        const found = `${actor} ${you ? "are" : "is"} a friend of the landlord`;
        return `${found}, playing ${friendCallText(e)}${e.wasted ? " (the landlord's own card: no friend)" : ""}`;
      }
      case "takeback":
        return `${actor} ${verb("take", you)} back ${cardsText(e.cards)}`;
      case "confirm":
        return null;
      case "game_over":
        return `Game over: ${teamSummary(e.summary, names)}`;
      default:
        return null;
    }
  };
}

function tractorLabel(a, view) {
  const cards = (a.cards || []).map(String);
  switch (a.type) {
    case "draw":
      return typeof view.stock_left === "number" ? `Draw (${view.stock_left} left)` : "Draw";
    case "declare": {
      const decls = view.declarations || [];
      const last = decls.length ? decls[decls.length - 1].cards : null;
      const reinforce = cards.length === 2 && Array.isArray(last) && last.length === 1 && last[0] === cards[0];
      return `${reinforce ? "Reinforce to" : "Declare"} ${declarationText(cards)}`;
    }
    case "pass":
      return "Pass (do not declare)";
    case "play": {
      let what = tractorShape(cards, trumpOf(view.rank, view.trump_suit));
      if (what && isThrow(what) && !(view.trick || []).length) what = `throw: ${what}`;
      return cardsText(cards) + (what ? ` (${what})` : "");
    }
    case "bury":
      return `Bury ${cardsText(cards)}`;
    case "next_round":
      return "Start the next round";
    case "call":
      return `Call ${(a.calls || []).map(friendCallText).join(", ")}`;
    case "takeback":
      return "Take back your play";
    case "confirm":
      return "Let the play stand";
    default:
      return String(a.type).replace("_", " ");
  }
}

function playedCards(cards, cls = "mini") {
  return el("div", { class: "cards small tr-played" }, (cards || []).map((c) => cardNode(c, { class: cls })));
}

function tractorSpot(view, s, names, me, toAct, place, ctl) {
  const trick = view.trick || [];
  const play = trick.find((p) => p.seat === s);
  const side = view.landlord_side || [];
  const tags = [];
  if (view.landlord === s) tags.push(el("span", { class: "tag role" }, "landlord"));
  else if (side.includes(s)) tags.push(el("span", { class: "tag friend" }, "friend"));
  if (view.phase === "draw" && view.declarer === s) tags.push(el("span", { class: "tag role" }, "declarer"));
  if (view.phase === "draw" && view.drawer === s) tags.push(el("span", { class: "tag" }, "to draw"));
  if (view.takeback === s) tags.push(el("span", { class: "tag" }, "may take back"));
  const bits = [plural((view.hand_sizes || [])[s] ?? 0, "card")];
  if (!fixedTeams(view) && Array.isArray(view.levels)) bits.push(`level ${rankText(view.levels[s])}`);
  if (Array.isArray(view.seat_points) && view.seat_points.length) bits.push(`${view.seat_points[s]} pts`);
  const acting = (toAct || []).includes(s);
  const kids = [el("div", { class: "seat-label", "data-seat": s }, seatName(s, names, me), " ", tags),
    el("div", { class: "muted small seat-info" }, bits.join(" · "))];
  let hand = null;
  if (Array.isArray(view.hands) && Array.isArray(view.hands[s])) hand = view.hands[s];
  else if (s === me && Array.isArray(view.hand) && !ctl.handBelow) hand = view.hand;
  if (hand) kids.push(tractorHandGroups(hand, tractorTrump(view), null, "mini"));
  const winning = play && view.trick_winner === s;
  kids.push(el("div", { class: `played${winning ? " winning" : ""}` },
    play ? playedCards(play.cards, play.cards.length > 2 ? "mid" : "") : el("span", { class: "slot" }),
    winning && trick.length > 1 ? el("div", { class: "win-mark" }, "winning") : null));
  return el("div", { class: `spot ${place}${acting ? " acting" : ""}` }, kids);
}

function tractorHandGroups(cards, trump, cardFor, cls = "") {
  return el("div", { class: "tr-hand" }, tractorGroups(cards, trump).map(([label, cs]) =>
    el("div", { class: "tr-group" }, label ? el("span", { class: "tr-group-label" }, label) : null,
      el("div", { class: "cards" }, cs.map((c, i) => (cardFor ? cardFor(c, label, i) : cardNode(c, { class: cls })))))));
}

function trickList(plays, names, me) {
  return el("div", { class: "tr-trick-list" }, (plays || []).map((p) =>
    el("span", { class: "lt" }, playedCards(p.cards), el("small", {}, seatName(p.seat, names, me)))));
}

function tractorBoard(view, names, me, toAct, ctl = {}) {
  const n = (view.hand_sizes || []).length || 4;
  const bottom = typeof me === "number" && me >= 0 ? me : 0;
  const fixed = fixedTeams(view);
  const [ta, tb] = trTeams(names);
  const phase = String(view.phase || "");
  const info = [el("strong", {}, `Round ${view.round ?? "–"}`), `Playing ${rankText(view.rank)}s`];
  const trump = view.trump_suit;
  const trumpNode = el("span", { class: `trump-suit${trump === "H" || trump === "D" ? " red" : ""}` },
    trump === null || trump === undefined ? "Trump not fixed yet" : trump === "NT" ? "No trump" : `Trump ${TR_SYMBOL[trump] || trump}`);
  info.push(trumpNode);
  if (typeof view.landlord === "number") {
    if (fixed) {
      const [side, attack] = view.landlord % 2 === 0 ? [ta, tb] : [tb, ta];
      info.push(`Landlord ${seatName(view.landlord, names, me)} (${side}); ${attack} attack`);
    } else {
      info.push(`Landlord ${seatName(view.landlord, names, me)}; side so far: ${(view.landlord_side || [view.landlord]).map((s) => seatName(s, names, me)).join(", ")}`);
    }
  } else info.push("Landlord: the first declarer this round");
  const levels = view.levels || [];
  if (fixed && levels.length === 4) info.push(`Levels ${ta} ${rankText(levels[0])} · ${tb} ${rankText(levels[1])}`);
  else if (levels.length) info.push(`Levels: per seat (first past ${rankText(view.max_rank)} wins)`);
  if (phase === "draw") {
    info.push(`${plural(view.stock_left, "card")} to draw`);
  } else {
    info.push(el("strong", {}, `Attackers' points ${view.points ?? 0}`));
    const failed = view.failed_throws || [];
    if (fixed && failed.length === 2 && (failed[0] || failed[1])) info.push(`Failed throws ${ta} ${failed[0]} · ${tb} ${failed[1]}`);
  }
  info.push(`Phase: ${phase.replace("_", " ")}`);

  const centre = el("div", { class: "centre tr-centre" });
  const decls = view.declarations || [];
  if (phase === "draw" || phase === "bury") {
    centre.append(el("div", { class: "muted" }, "Declared"),
      decls.length
        ? el("div", {}, decls.map((d) => el("div", {}, `${seatName(d.seat, names, me)}: `, cardsRow(d.cards))))
        : el("div", {}, "nothing yet"));
  } else if (decls.length && typeof view.declarer === "number") {
    centre.append(el("div", { class: "muted" }, `Declared by ${seatName(view.declarer, names, me)}: ${cardsText(decls[decls.length - 1].cards)}`));
  }
  if ((view.kitty_revealed || []).length) centre.append(el("div", { class: "muted" }, "Kitty turned up"), cardsRow(view.kitty_revealed));
  const calls = view.calls || [];
  if (calls.length) {
    centre.append(el("div", { class: "muted" }, "Friends called"),
      el("div", {}, calls.map((c) => el("div", {}, friendCallText(c), typeof c.seat === "number" ? ` → ${seatName(c.seat, names, me)}` : " (not yet played)"))));
  } else if (view.friend_calls && phase === "call") {
    centre.append(el("div", { class: "muted" }, `The landlord calls ${view.friend_calls} friend${view.friend_calls > 1 ? "s" : ""}…`));
  }
  if ((view.last_trick || []).length) centre.append(el("div", { class: "muted" }, "Last trick"), trickList(view.last_trick, names, me));
  const ended = phase === "round_over" || phase === "over";
  const results = view.results || [];
  if (ended && results.length) centre.append(el("div", { class: "tr-result" }, tractorRoundResultText(results[results.length - 1], names, fixed)));
  if (Array.isArray(view.kitty) && view.kitty.length && phase !== "draw") {
    centre.append(el("div", { class: "muted" }, ended ? "Kitty" : view.landlord === me ? "Kitty (buried; only you see it)" : "Kitty"), cardsRow(view.kitty));
  }

  let table;
  if (n === 4) {
    const places = ["bottom", "left", "top", "right"];
    table = el("div", { class: "compass tractor-compass" },
      [0, 1, 2, 3].map((s) => tractorSpot(view, s, names, me, toAct, places[(s - bottom + 4) % 4], ctl)), centre);
  } else {
    const others = [];
    for (let i = 1; i < n; i++) others.push((bottom + i) % n);
    table = el("div", { class: "tr-rows" },
      el("div", { class: "pk-row top" }, others.map((s) => tractorSpot(view, s, names, me, toAct, "ring", ctl))),
      centre,
      el("div", { class: "pk-row bottom" }, tractorSpot(view, bottom, names, me, toAct, "ring", ctl)));
  }
  const lvl = !fixed && levels.length
    ? el("div", { class: "small tr-levels" }, "Levels: ", levels.map((v, i) => `${seatName(i, names, me)} ${rankText(v)}`).join(" · "))
    : null;
  return el("div", { class: "felt tractor" }, el("div", { class: "board-info" }, info.map((x) => el("span", {}, x))), table, lvl);
}

function tractorNote(view, legal) {
  const has = (t) => legal.some((a) => a.type === t);
  if (has("confirm")) return "keep your play, or take it back before the next player answers.";
  if (view.phase === "draw") {
    const decl = has("declare") ? " You may declare trump." : "";
    return has("draw") ? `draw a card (or “Draw all”).${decl}` : `declare or pass.${decl}`;
  }
  if (has("bury")) return `pick ${plural(legal.find((a) => a.type === "bury").cards.length, "card")} to bury, then press “Bury”.`;
  if (has("call")) return "call your friends: a suggested call, or pick cards and copies.";
  if (has("play")) {
    const trick = view.trick || [];
    return trick.length
      ? `pick ${trick[0].cards.length} card${trick[0].cards.length > 1 ? "s" : ""} (highlighted: the led suit) and press “Play”.`
      : "lead: pick one card, a pair, a tractor or a throw, and press “Play”.";
  }
  if (has("next_round")) return "start the next round.";
  return "choose an action.";
}

// The player's hand below the table: cards are picked by clicking (a lead or follow may
// be several cards, a burial is kitty-size), then sent with the controls' buttons.
const TR = { sig: "", picked: [], auto: false, accepted: new Set() };

function tractorPickSync(view) {
  const sig = `${view.phase}|${(view.hand || []).join(" ")}`;
  if (sig !== TR.sig) {
    TR.sig = sig;
    TR.picked = [];
  }
}
// A picked card is remembered by its spelling and copy number (two decks: 5♠ twice).
const pickKey = (c, i) => `${c}#${i}`;

function tractorHand(view, legal, myTurn, rerender) {
  tractorPickSync(view);
  const trump = tractorTrump(view);
  const picking = myTurn && legal.some((a) => a.type === "play" || a.type === "bury");
  const trick = view.trick || [];
  const ledSuit = trick.length && trump ? tractorKey(trick[0].cards[0], trump)[0] : null;
  const hand = view.hand || [];
  const hasLed = ledSuit !== null && hand.some((c) => tractorKey(c, trump)[0] === ledSuit);
  const seen = {};
  return [tractorHandGroups(hand, trump, (c) => {
    seen[c] = (seen[c] || 0) + 1;
    const key = pickKey(c, seen[c]);
    if (!picking) return cardNode(c);
    const on = TR.picked.includes(key);
    const suits = !hasLed || tractorKey(c, trump)[0] === ledSuit;
    return cardNode(c, {
      class: `${on ? "picked" : ""} ${suits ? "legal" : "dim"}`.trim(),
      title: on ? "click to put back" : "click to pick",
      "aria-pressed": on ? "true" : "false",
      onclick: () => {
        TR.picked = on ? TR.picked.filter((k) => k !== key) : [...TR.picked, key];
        rerender();
      },
    });
  })];
}

const pickedCards = () => TR.picked.map((k) => k.split("#")[0]);

// What "draw all" does now (server/terminal/tractor_text.py auto_draw_step): draw; or stop
// when a declaration not yet let pass is on offer (declaring stays the player's choice).
function tractorAutoStep(legal, view) {
  if (view.phase !== "draw" || !legal.length) return "off";
  const offered = legal.filter((a) => a.type === "declare").map((a) => a.cards.join(" "));
  if (offered.some((d) => !TR.accepted.has(d))) return "stop";
  return legal.some((a) => a.type === "draw") ? "draw" : "wait";
}

function tractorControls(legal, view, myTurn, act, rerender) {
  const nodes = [];
  const btn = (label, onclick, extra = {}) => el("button", { type: "button", class: "action", disabled: !myTurn, onclick, ...extra }, label);
  const phase = view.phase;
  if (phase === "draw") {
    // Drawing (or passing) lets the declarations now on offer go by: "draw all" then
    // draws on past them, and stops again only for a new one.
    const letGo = () => { for (const x of legal) if (x.type === "declare") TR.accepted.add(x.cards.join(" ")); };
    for (const a of legal) {
      const go = a.type === "declare" ? () => act(a) : () => { letGo(); act(a); };
      nodes.push(btn(tractorLabel(a, view), go, { "data-action": a.type }));
    }
    const step = tractorAutoStep(legal, view);
    const toggle = el("button", {
      type: "button", class: `action${TR.auto ? " on" : ""}`, id: "draw-all",
      title: "draw your cards as your turns come; it stops when you could declare",
      onclick: () => {
        TR.auto = !TR.auto;
        if (TR.auto) for (const a of legal) if (a.type === "declare") TR.accepted.add(a.cards.join(" "));
        rerender();
      },
    }, TR.auto ? "Stop drawing all" : "Draw all");
    nodes.push(toggle);
    if (TR.auto && step === "stop") nodes.push(el("span", { class: "muted small" }, "“draw all” waits: you could declare (declare, or draw/pass to let it go)"));
    if (TR.auto && step === "draw" && myTurn) setTimeout(() => act({ type: "draw" }), 0);
    return nodes;
  }
  TR.auto = false;
  TR.accepted.clear();
  const kind = legal.find((a) => a.type === "play" || a.type === "bury")?.type;
  if (kind) {
    const picked = pickedCards();
    const trick = view.trick || [];
    const need = kind === "bury" ? legal[0].cards.length : trick.length ? trick[0].cards.length : null;
    const ok = picked.length > 0 && (need === null || picked.length === need);
    let what = "";
    if (kind === "play" && picked.length > 1) what = tractorShape(picked, trumpOf(view.rank, view.trump_suit));
    const label = kind === "bury"
      ? `Bury picked cards (${picked.length}/${need})`
      : `Play picked${picked.length ? ` ${cardsText(picked)}` : " cards"}${what ? ` (${!trick.length && isThrow(what) ? "throw: " : ""}${what})` : ""}${need ? ` · ${picked.length}/${need}` : ""}`;
    nodes.push(el("button", { type: "button", class: "action primary", id: "play-picked", disabled: !myTurn || !ok,
      onclick: () => act({ type: kind, cards: picked }) }, label));
    nodes.push(el("button", { type: "button", disabled: !picked.length, onclick: () => { TR.picked = []; rerender(); } }, "Clear"));
    // Quick picks: the server's list is a representative subset (every single is a click
    // away, so only several-card entries and burials are offered).
    const quick = legal.filter((a) => a.type === kind && (kind === "bury" || a.cards.length > 1));
    if (quick.length) {
      nodes.push(el("div", { class: "quick" }, el("span", { class: "muted small" }, kind === "bury" ? "Suggested burials:" : "Suggested plays:"),
        quick.map((a) => btn(tractorLabel(a, view), () => act(a), { class: "action quick-play" }))));
    }
  }
  const calls = legal.filter((a) => a.type === "call");
  if (calls.length) {
    nodes.push(el("div", { class: "quick" }, el("span", { class: "muted small" }, "Suggested calls:"), calls.map((a) => btn(tractorLabel(a, view), () => act(a)))));
    nodes.push(friendPicker(view, myTurn, act));
  }
  for (const a of legal.filter((x) => !["play", "bury", "call"].includes(x.type))) {
    nodes.push(btn(tractorLabel(a, view), () => act(a), { "data-action": a.type }));
  }
  return nodes;
}

// The landlord's call: for each friend, a card (not a trump) and which copy of it.
function friendPicker(view, myTurn, act) {
  const trump = trumpOf(view.rank, view.trump_suit);
  const faces = [];
  for (const s of TR_SUIT_LINE) {
    for (const r of [...RANKS].reverse()) {
      const c = r + s;
      if (tractorKey(c, trump)[0] !== TR_TRUMP) faces.push(c);
    }
  }
  const n = view.friend_calls || 1;
  const decks = view.decks || 2;
  const rows = Array.from({ length: n }, (_, i) => {
    const card = el("select", { class: "call-card", "aria-label": `friend ${i + 1}: card` },
      faces.map((c, j) => el("option", { value: c, selected: j === i }, cardLabel(c))));
    const nth = el("select", { class: "call-nth", "aria-label": `friend ${i + 1}: copy` },
      Array.from({ length: decks }, (_, k) => el("option", { value: k + 1 }, `${ordinal(k + 1)} copy`)));
    return { node: el("span", { class: "call-row" }, `Friend ${i + 1}: `, card, nth), card, nth };
  });
  return el("div", { class: "raise-box friend-picker" }, rows.map((r) => r.node),
    el("button", { type: "button", class: "action", disabled: !myTurn,
      onclick: () => act({ type: "call", calls: rows.map((r) => ({ card: r.card.value, nth: Number(r.nth.value) })) }) }, "Call"));
}

// ---------------------------------------------------------------- rummy

// Rummy views (rules/rummy/game.py): `variant` indian (two decks, printed jokers, a wild
// rank cut per deal, declare) or gin (one deck, knock, lay off). Hands are grouped as
// the view's `arrangement` says (the rules' own best arrangement).
const RUMMY_HOW = {
  gin: "gin", knock: "knock", undercut: "undercut", declare: "declaration",
  wrong_declaration: "wrong declaration", drops: "the others dropped", void: "void deal",
};

function rummyRules(view) {
  const indian = (view && view.variant) !== "gin";
  const wild = indian && Number.isInteger(view.wild_rank) ? view.wild_rank : null;
  return { indian, wild };
}
const rankIndex = (p) => RANKS.indexOf(p.rank);
const isWild = (p, rules) => !!p && (p.joker ? rules.indian : rules.wild !== null && rankIndex(p) === rules.wild);

function rummyPoints(card, rules) {
  const p = parseCard(card);
  if (!p || p.joker || isWild(p, rules)) return 0;
  const r = rankIndex(p);
  if (!rules.indian) return r === 12 ? 1 : Math.min(r + 2, 10);
  return r >= 9 ? 10 : r + 2;
}
const pointsOf = (cards, rules) => cards.reduce((t, c) => t + rummyPoints(c, rules), 0);

// The hand at its best as the server's rules group it (the view's `arrangement`, and
// `arrangements` per seat when every hand is shown): {melds: [{kind, cards, jokers,
// wild}], leftover, deadwood, counted, valid}. Without one, every card is deadwood.
function rummyArrangement(arr, cards, rules) {
  if (arr && Array.isArray(arr.melds)) return arr;
  const left = [...(cards || [])];
  return { melds: [], leftover: left, deadwood: pointsOf(left, rules), counted: pointsOf(left, rules), valid: false };
}

// A run in rank order (aces high after a king), a set by suit.
function meldOrder(m) {
  const jok = [...m.wild];
  const nat = [...m.cards];
  for (const c of jok) nat.splice(nat.indexOf(c), 1);
  if (m.kind !== "run") return [...nat, ...jok];
  const hasKing = nat.some((c) => parseCard(c).rank === "K");
  const pos = (c) => { const r = rankIndex(parseCard(c)); return r === 12 ? (hasKing ? 13 : 0) : r + 1; };
  return [...nat.sort((a, b) => pos(a) - pos(b)), ...jok];
}

const groupsText = (groups) => (Array.isArray(groups) && groups.length ? groups.map((g) => `[${cardsText(g)}]`).join(" ") : "–");

function rummyDealResultText(r, names, view) {
  const how = String(r.how);
  const pts = r.points || [];
  const word = RUMMY_HOW[how] || how;
  if ((view && view.variant === "gin") || ["gin", "knock", "undercut"].includes(how)) {
    if (r.winner === null || r.winner === undefined) return word;
    return `${seatName(r.winner, names, null)} wins ${Math.max(0, ...pts)} (${word})`;
  }
  const charged = pts.map((p, i) => (p ? `${seatName(i, names, null)} ${p}` : null)).filter(Boolean).join(", ");
  const head = typeof r.winner === "number" ? `${seatName(r.winner, names, null)} wins` : word;
  return `${head} (${word}); charged ${charged || "nobody"}`;
}

// Event lines, worded as server/terminal/rummy_text.py's rummy_event.
function rummyEventLine(e, names, me) {
  const [actor, you] = subject(e.seat, names, me);
  const card = cardLabel(String(e.card));
  switch (e.kind) {
    case "deal":
      return `Deal ${e.deal} · ${seatName(e.dealer, names, me)} deals · upcard ${cardLabel(String(e.upcard))}${e.wild_card ? ` · wild card ${cardLabel(String(e.wild_card))}` : ""}`;
    case "hand":
      return you ? `You are dealt ${plural((e.cards || []).length, "card")}` : null;
    case "draw":
      if (e.from === "discard") return `${actor} ${verb("take", you)} ${card} from the discard pile`;
      if ("card" in e) return `${actor} ${verb("draw", you)} ${card} from the stock`;
      return you ? null : `${actor} draws from the stock`; // the drawer's twin event has the card
    case "reshuffle":
      return `The stock ran out: the discard pile is shuffled into a new stock (${plural(e.cards, "card")})`;
    case "discard":
      return `${actor} ${verb("discard", you)} ${card}`;
    case "drop":
      return `${actor} ${verb("drop", you)} out of the deal (${plural(e.points, "point")})`;
    case "declare":
      return `${actor} ${verb("declare", you)}, discarding ${card}: ${groupsText(e.groups)}${e.valid ? "" : " — a wrong declaration!"}`;
    case "knock":
      if (e.gin) return `${actor} ${you ? "go" : "goes"} gin, discarding ${card}: ${groupsText(e.groups)}`;
      return `${actor} ${verb("knock", you)} with ${e.points} deadwood, discarding ${card}: ${groupsText(e.groups)} · deadwood ${cardsText(e.deadwood)}`;
    case "layoff":
      return `${actor} ${you ? "lay" : "lays"} off ${card} on meld ${typeof e.meld === "number" ? e.meld + 1 : e.meld}`;
    case "deal_end": {
      const totals = (e.totals || []).map((t, i) => `${seatName(i, names, me)} ${t}`).join("  ");
      const gin = ["gin", "knock", "undercut"].includes(String(e.how));
      return `Deal over: ${rummyDealResultText(e, names, { variant: gin ? "gin" : "" })} · totals ${totals}`;
    }
    case "game_over":
      return `Game over: ${e.summary}`;
    default:
      return null;
  }
}

// Deadwood a knock keeps: the hand less the discard and the action's groups.
function knockDeadwood(a, view) {
  const rest = [...(view.hand || [])];
  for (const c of [a.card, ...(a.groups || []).flat()]) {
    const i = rest.findIndex((x) => sameCard(x, c));
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  return pointsOf(rest, rummyRules(view));
}

function rummyLabel(a, view) {
  const card = a.card ? cardLabel(String(a.card)) : "";
  switch (a.type) {
    case "draw": {
      if (a.from !== "discard") return "Draw from the stock";
      const pile = view.pile || [];
      return `Take ${pile.length ? cardLabel(pile[pile.length - 1]) : "the top card"} from the discard pile`;
    }
    case "discard":
      return `Discard ${card}`;
    case "knock": {
      const dead = knockDeadwood(a, view);
      return dead === 0 ? `Gin! discard ${card}` : `Knock with ${card}${dead === null ? "" : ` (deadwood ${dead})`}`;
    }
    case "declare":
      return `Declare, discarding ${card}`;
    case "layoff": {
      const melds = view.table || [];
      const on = Number.isInteger(a.meld) && melds[a.meld] ? cardsText(melds[a.meld]) : `meld ${a.meld}`;
      return `Lay off ${card} on ${on}`;
    }
    case "done":
      return "Done laying off";
    case "drop":
      return "Drop out of the deal";
    case "next_deal":
      return "Deal the next hand";
    default:
      return String(a.type).replace("_", " ");
  }
}

function cardBack(label) {
  return el("span", { class: "card back" }, label || "");
}

// The deadwood is counted on its group's label (`deadNote` adds to it), nowhere else.
function rummyMeldsNode(given, cards, rules, cardFor, deadNote = "") {
  const arr = rummyArrangement(given, cards, rules);
  // Cards a meld uses as jokers come last (meldOrder) and are marked.
  const group = (label, cs, cls, wild = []) => el("div", { class: `rm-group ${cls}` }, el("span", { class: "tr-group-label" }, label),
    el("div", { class: "cards" }, cs.map((c, i) => {
      const node = cardFor ? cardFor(c) : cardNode(c, { class: "mini" });
      if (i >= cs.length - wild.length) {
        node.classList.add("as-joker");
        node.title = `${node.title ? `${node.title} · ` : ""}used as a joker`;
      }
      return node;
    })));
  const runs = arr.melds.filter((m) => m.kind === "run").sort((a, b) => a.jokers - b.jokers);
  const sets = arr.melds.filter((m) => m.kind === "set");
  const nodes = [...runs, ...sets].map((m) => group(m.kind === "run" ? (m.jokers ? "run" : "pure run") : "set", meldOrder(m), "meld", m.wild));
  if (arr.leftover.length) nodes.push(group(`deadwood · ${arr.deadwood}${deadNote}`, sortHand(arr.leftover), "dead"));
  return { node: el("div", { class: "rm-hand" }, nodes), arr };
}

function rummySeat(view, s, names, me, toAct, rules, showHand) {
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
  let hand = null;
  let given = null;
  // Your own hand is drawn below the table (showHand false), even once all are shown.
  if (s === me && !showHand) hand = null;
  else if (Array.isArray(view.hands) && Array.isArray(view.hands[s])) [hand, given] = [view.hands[s], (view.arrangements || [])[s]];
  else if (s === me && Array.isArray(view.hand)) [hand, given] = [view.hand, view.arrangement];
  if (hand) {
    const { node, arr } = rummyMeldsNode(given, hand, rules, null);
    kids.push(node);
    if (rules.indian) kids.push(el("div", { class: "small" }, `counted ${arr.counted}`));
    else if (!arr.leftover.length) kids.push(el("div", { class: "small" }, "gin: no deadwood"));
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

function rummyBoard(view, names, me, toAct, ctl = {}) {
  const gin = view.variant === "gin";
  const rules = rummyRules(view);
  const n = (view.hand_sizes || []).length;
  const bottom = typeof me === "number" && me >= 0 ? me : 0;
  const phase = String(view.phase || "");
  const info = [el("strong", {}, gin ? "Gin rummy" : "Indian rummy"), `Deal ${view.deal}`, `Phase: ${phase.replace("_", " ")}`];
  if (gin) {
    info.push(view.target ? `Game to ${view.target}` : "One deal", `Knock at ${view.knock_limit} or less`);
    if ((view.boxes || []).some(Boolean)) info.push(`Deals won ${view.boxes.join(" – ")}`);
  } else {
    info.push(view.pool ? `Pool ${view.pool}: out at ${view.pool} (fewest wins)` : "One deal (fewest points wins)");
    if (view.wild_card) {
      const w = RANKS[view.wild_rank] || "?";
      info.push(el("span", {}, "Wild card ", cardNode(view.wild_card, { class: "mini" }),
        `: ${rankText(w)}s${view.wild_card === "SJ" || view.wild_card === "BJ" ? " (a joker was cut: aces are wild)" : ""} and printed jokers are wild`));
    }
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
  if (gin && phase === "layoff") {
    const melds = view.table || [];
    const rest = [...(view.knocker_hand || [])];
    for (const c of melds.flat()) { const i = rest.indexOf(c); if (i >= 0) rest.splice(i, 1); }
    const dead = rest.length ? ` (${cardsText(sortHand(rest))})` : "";
    centre.append(el("div", { class: "rm-knock" },
      el("div", {}, `${seatName(view.knocker, names, me)} knocked with ${view.knocker_deadwood} deadwood${dead}:`),
      el("div", { class: "rm-hand" }, melds.map((m, i) => el("div", { class: "rm-group meld" }, el("span", { class: "tr-group-label" }, `meld ${i + 1}`), cardsRow(m, ""))))));
  }
  const last = view.last_deal;
  if (last && (phase === "deal_over" || phase === "over")) centre.append(el("div", { class: "won" }, `Deal result: ${rummyDealResultText(last, names, view)}`));
  const others = [];
  for (let i = 1; i < n; i++) others.push((bottom + i) % n);
  // The viewer sits at the bottom (spectators and replays: the first seat), as in poker.
  return el("div", { class: "felt poker rummy" },
    el("div", { class: "board-info" }, info.map((x) => el("span", {}, x))),
    el("div", { class: "pk-row top" }, others.map((s) => rummySeat(view, s, names, me, toAct, rules, !ctl.handBelow))),
    centre,
    n ? el("div", { class: "pk-row bottom" }, rummySeat(view, bottom, names, me, toAct, rules, !ctl.handBelow)) : null);
}

function rummyNote(view, legal) {
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
function rummyHand(view, legal, myTurn, act) {
  const rules = rummyRules(view);
  const hand = view.hand || [];
  const cardFor = (c) => {
    if (!myTurn) return cardNode(c);
    const discard = legal.find((a) => a.type === "discard" && sameCard(a.card, c));
    const lays = legal.filter((a) => a.type === "layoff" && sameCard(a.card, c));
    const a = discard || (lays.length === 1 ? lays[0] : null);
    const anyCardAction = legal.some((x) => x.type === "discard" || x.type === "layoff");
    if (a) return cardNode(c, { class: "legal", onclick: () => act(a), title: rummyLabel(a, view) });
    return cardNode(c, { class: anyCardAction ? "dim" : "", title: view.taken && sameCard(view.taken, c) && !rules.indian ? "just taken from the pile: it may not be thrown back" : undefined });
  };
  const beforeDiscard = !rules.indian && hand.length > 10 ? " (before your discard)" : "";
  const { node, arr } = rummyMeldsNode(view.arrangement, hand, rules, cardFor, beforeDiscard);
  let summary;
  if (rules.indian) {
    const runs = arr.melds.filter((m) => m.kind === "run");
    summary = `${plural(arr.melds.length, "meld")} (${plural(runs.length, "run")}, ${runs.filter((m) => !m.jokers).length} pure) · would be charged ${Math.min(arr.counted, 80)}${arr.valid ? " · ready to declare" : ""}`;
  } else {
    summary = arr.leftover.length ? "" : "gin: no deadwood";
  }
  return summary ? [node, el("div", { class: "small muted rm-summary" }, summary)] : [node];
}

function rummyControls(legal, view, myTurn, act) {
  const order = ["draw", "drop", "knock", "declare", "layoff", "done", "next_deal"];
  return legal.filter((a) => a.type !== "discard")
    .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type))
    .map((a) => el("button", { type: "button", class: `action${["knock", "declare"].includes(a.type) ? " primary" : ""}`, disabled: !myTurn, onclick: () => act(a), "data-action": a.type }, rummyLabel(a, view)));
}

// ---------------------------------------------------------------- dispatch

// Event lines for a table's log or a replay step, in the game's words.
// `view` is the state the events start from (tractor: the trump, landlord and trick).
function makeNarrator(game, inTrick = 0, view = null) {
  if (game === "poker") return (e, names, me) => pokerEventLine(e, names, me);
  if (game === "bridge") return bridgeNarrator(inTrick);
  if (game === "tractor") return tractorNarrator(view);
  if (game === "rummy") {
    // A replay with every card sees a stock draw twice (the drawer's copy with the card,
    // everyone else's without): say it once.
    let last = null;
    return (e, names, me) => {
      const twin = last && e.kind === "draw" && !("card" in e) && last.kind === "draw" && last.seat === e.seat && "card" in last;
      last = e;
      return twin ? null : rummyEventLine(e, names, me);
    };
  }
  return (e, names, me) => eventLine(e, names, me);
}

// A replay step's action in the game's words (`view`: the position it was taken in).
function gameActionLabel(game, a, view = {}) {
  if (game === "poker") return pokerLabel(a, {}).toLowerCase();
  if (game === "bridge" && a.type === "call") return callText(a.call);
  if (game === "bridge" && a.type === "claim") return `claim ${a.tricks} more ${a.tricks === 1 ? "trick" : "tricks"}`;
  if (game === "tractor" && a.type === "play") return `play ${tractorLabel(a, view || {})}`;
  if (game === "tractor") return tractorLabel(a, view || {}).replace(/^[A-Z]/, (x) => x.toLowerCase());
  if (game === "rummy") return rummyLabel(a, view || {}).replace(/^[A-Z]/, (x) => x.toLowerCase());
  return actionLabel(a);
}

// The game's result line (tractor: "seats 0 and 2" as the team names).
function gameSummary(game, text, names) {
  return game === "tractor" ? teamSummary(text, names) : text;
}
