// cardtable browser client: what every game's layout shares, and the dispatch to
// each game's words. The layouts of poker, bridge, tractor and rummy tables are in
// game-<name>.js, loaded after this file and before app.js (whose helpers el, cardNode,
// parseCard, sortHand, seatName and teams they use at run time). Everything here reads the
// games' views and events (rules/poker, rules/bridge, rules/tractor, rules/rummy), worded
// as the terminal client words them.
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

const cardsText = (cards) => (Array.isArray(cards) && cards.length ? cards.map(cardLabel).join(" ") : "–");
const rankText = (r) => (r === "T" ? "10" : String(r ?? "?"));

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
