// cardtable browser client: tractor tables, narration, the hand picker and controls.
// Loaded after games.js (shared words, dispatch) and before app.js; the helpers of
// both are used at run time.
"use strict";

// Tractor views (rules/tractor/game.py): four seats in fixed partnerships (0&2 v 1&3),
// or 5-8 seats in Finding Friends (`landlord_side`, `calls`, `seat_points`). The trump
// order is the rules' Φ (docs/tractor.md): natural suits 1..12, the trump suit 13..24,
// off-suit current-rank cards 25, the trump-suit one 26, jokers 27/28.
const TR_TRUMP = 4;
const TR_SUIT_LINE = ["S", "H", "C", "D"]; // natural suits in hand order, as the terminal
const TR_SYMBOL = { C: "♣", D: "♦", H: "♥", S: "♠" };
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
