// cardtable browser client: poker tables, events and controls.
// Loaded after games.js (shared words, dispatch) and before app.js; the helpers of
// both are used at run time.
"use strict";

const POT_NAMES = ["main", "side", "side 2", "side 3", "side 4", "side 5", "side 6", "side 7"];

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
