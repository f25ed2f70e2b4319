// cardtable browser client: the layouts of poker and bridge tables (loaded before app.js,
// whose helpers el, cardNode, parseCard, sortHand, seatName and teams it uses at run time).
// Everything here reads the games' views and events (rules/poker, rules/bridge).
"use strict";

const COMPASS = ["North", "East", "South", "West"];

// Seat names when no table info is at hand (replays): bridge's compass, poker's numbers.
function defaultSeatNames(game, n) {
  if (game === "bridge" || game === "whist") return COMPASS.slice(0, n || 4);
  return Array.from({ length: n }, (_, i) => (game === "poker" ? `Seat ${i + 1}` : `Seat ${i}`));
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
    el("div", { class: "seat-label" }, seatName(s, names, me), " ", marks),
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
        return e.seat === me ? `You are dealt ${(e.cards || []).length} cards` : null;
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
    const kids = [el("div", { class: "seat-label" }, seatName(s, names, me), " ", tags,
      el("span", { class: "muted" }, ` · ${(view.hand_sizes || [])[s]} cards`))];
    let cards = null;
    if (Array.isArray(view.hands) && Array.isArray(view.hands[s])) cards = view.hands[s];
    else if (s === view.dummy && Array.isArray(view.dummy_hand)) cards = view.dummy_hand;
    else if (s === me && Array.isArray(view.hand)) cards = view.hand;
    if (cards && !(s === me && ctl.handBelow)) kids.push(suitLines(cards, s === view.dummy ? dummyLegal : null));
    kids.push(el("div", { class: "played" }, played.has(s) ? cardNode(played.get(s)) : el("span", { class: "slot" })));
    return el("div", { class: `spot ${places[rel]}${acting ? " acting" : ""}` }, kids);
  });
  const centre = el("div", { class: "centre" });
  if (view.phase === "auction" || !view.contract) centre.append(auctionTable(view, names));
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
  return el("div", { class: "felt bridge" },
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
    `${callText(c.contract)} by ${c.declarers.split("").join("/")} (${c.tricks} tricks)`).join("; ");
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
    nodes.push(el("div", { class: "bidding-box" },
      el("div", { class: "bid-row" }, specials.map((a) => el("button", { type: "button", class: `action call-${a.call}`, disabled: !myTurn, onclick: () => act(a), "data-call": a.call }, callText(a.call)))),
      rows));
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

// ---------------------------------------------------------------- dispatch

// Event lines for a table's log or a replay step, in the game's words.
function makeNarrator(game, inTrick = 0) {
  if (game === "poker") return (e, names, me) => pokerEventLine(e, names, me);
  if (game === "bridge") return bridgeNarrator(inTrick);
  return (e, names, me) => eventLine(e, names, me);
}

// A replay step's action in the game's words.
function gameActionLabel(game, a) {
  if (game === "poker") return pokerLabel(a, {}).toLowerCase();
  if (game === "bridge" && a.type === "call") return callText(a.call);
  if (game === "bridge" && a.type === "claim") return `claim ${a.tricks} more tricks`;
  return actionLabel(a);
}
