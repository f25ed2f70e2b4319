// cardtable browser client: rummy tables, narration, the grouped hand and controls.
// Loaded after games.js (shared words, dispatch) and before app.js; the helpers of
// both are used at run time.
"use strict";

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
