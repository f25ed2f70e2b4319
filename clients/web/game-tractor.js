// cardtable browser client: the tractor table, the hand picker and its controls. The words and
// everything that takes the rules to work out — labels, event lines, the hand in trump order with
// each card's points, the suit to follow, the cards a friend call may name, the sides, a round's
// result — come from the server: the frame's labels and hints (rules/tractor/presentation.py).

import { cardLabel, cardsText, plural, rankText, seatName } from "./cards.js";
import { cardNode, cardsRow, el } from "./dom.js";

export const ordinal = (n) => `${n}${{ 1: "st", 2: "nd", 3: "rd" }[n] || "th"}`;
export const friendCallText = (c) => `the ${ordinal(c.nth)} ${cardLabel(String(c.card))}`;

export function playedCards(cards, cls = "mini") {
  return el("div", { class: "cards small tr-played" }, (cards || []).map((c) => cardNode(c, { class: cls })));
}

export function tractorSpot(view, s, names, me, toAct, place, ctl) {
  const trick = view.trick || [];
  const play = trick.find((p) => p.seat === s);
  const side = view.landlord_side || [];
  const tags = [];
  if (view.landlord === s) tags.push(el("span", { class: "tag role" }, "landlord"));
  else if (side.includes(s)) tags.push(el("span", { class: "tag friend" }, "friend"));
  if (view.phase === "draw" && view.declarer === s) tags.push(el("span", { class: "tag role" }, "declarer"));
  if (view.phase === "draw" && view.drawer === s) tags.push(el("span", { class: "tag" }, "to draw"));
  if (view.takeback === s) tags.push(el("span", { class: "tag" }, "may take back"));
  const hints = ctl.hints || {};
  const bits = [plural((view.hand_sizes || [])[s] ?? 0, "card")];
  if (!hints.teams && Array.isArray(view.levels)) bits.push(`level ${rankText(view.levels[s])}`);
  if (Array.isArray(view.seat_points) && view.seat_points.length) bits.push(`${view.seat_points[s]} pts`);
  const acting = (toAct || []).includes(s);
  const kids = [el("div", { class: "seat-label", "data-seat": s }, seatName(s, names, me), " ", tags),
    el("div", { class: "muted small seat-info" }, bits.join(" · "))];
  let groups = null;
  if (Array.isArray(hints.hands) && Array.isArray(hints.hands[s])) groups = hints.hands[s];
  else if (s === me && Array.isArray(hints.hand) && !ctl.handBelow) groups = hints.hand;
  if (groups) kids.push(tractorHandGroups(groups, null, "mini"));
  const winning = play && view.trick_winner === s;
  kids.push(el("div", { class: `played${winning ? " winning" : ""}` },
    play ? playedCards(play.cards, play.cards.length > 2 ? "mid" : "") : el("span", { class: "slot" }),
    winning && trick.length > 1 ? el("div", { class: "win-mark" }, "winning") : null));
  return el("div", { class: `spot ${place}${acting ? " acting" : ""}` }, kids);
}

// A hand as the hints group it: trumps first, then each suit, highest first; a card
// that scores shows its points.
export function tractorHandGroups(groups, cardFor, cls = "") {
  return el("div", { class: "tr-hand" }, (groups || []).map((g) =>
    el("div", { class: "tr-group" }, g.label ? el("span", { class: "tr-group-label" }, g.label) : null,
      el("div", { class: "cards" }, g.cards.map((c, i) => {
        const node = cardFor ? cardFor(c, g.label, i) : cardNode(c, { class: cls });
        const points = (g.points || [])[i];
        if (points) node.title = `${node.title ? `${node.title} · ` : ""}${plural(points, "point")}`;
        return node;
      })))));
}

export function trickList(plays, names, me) {
  return el("div", { class: "tr-trick-list" }, (plays || []).map((p) =>
    el("span", { class: "lt" }, playedCards(p.cards), el("small", {}, seatName(p.seat, names, me)))));
}

export function tractorBoard(view, names, me, toAct, ctl = {}) {
  const hints = ctl.hints || {};
  const n = (view.hand_sizes || []).length || 4;
  const bottom = typeof me === "number" && me >= 0 ? me : 0;
  const fixed = !!hints.teams;
  const [ta, tb] = hints.teams || ["", ""];
  const phase = String(view.phase || "");
  const info = [el("strong", {}, `Round ${view.round ?? "–"}`), `Playing ${rankText(view.rank)}s`];
  const trump = view.trump_suit;
  const text = (hints.trump || {}).text || "not fixed yet";
  info.push(el("span", { class: `trump-suit${trump === "H" || trump === "D" ? " red" : ""}` },
    trump === null || trump === undefined ? "Trump not fixed yet" : trump === "NT" ? "No trump" : `Trump ${text}`));
  if (hints.landlord) info.push(hints.landlord);
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
  if (ended && hints.round_result) centre.append(el("div", { class: "tr-result" }, hints.round_result));
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

export function tractorNote(view, legal) {
  const has = (t) => legal.some((a) => a.type === t);
  if (has("confirm")) return "keep your play, or take it back before the next player answers.";
  if (view.phase === "draw") {
    const decl = has("declare") ? " You may declare trump." : "";
    return has("draw") ? `draw a card (or “Draw all”).${decl}` : `declare or pass.${decl}`;
  }
  if (view.phase === "overbid") {
    return "overbid to take the kitty: declare (it must still stand once everyone has passed), or pass.";
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
export const TR = { sig: "", picked: [], auto: false, accepted: new Set() };

export function tractorPickSync(view) {
  const sig = `${view.phase}|${(view.hand || []).join(" ")}`;
  if (sig !== TR.sig) {
    TR.sig = sig;
    TR.picked = [];
  }
}
// A picked card is remembered by its spelling and copy number (two decks: 5♠ twice).
export const pickKey = (c, i) => `${c}#${i}`;

export function tractorHand(view, ctl, rerender) {
  const { legal, myTurn } = ctl;
  const hints = ctl.hints || {};
  tractorPickSync(view);
  const picking = myTurn && legal.some((a) => a.type === "play" || a.type === "bury");
  const groups = hints.hand || [];
  // The suit led, where the hand holds some: those cards are the ones to pick.
  const follow = groups.some((g) => g.label === hints.follow) ? hints.follow : null;
  const seen = {};
  return [tractorHandGroups(groups, (c, label) => {
    seen[c] = (seen[c] || 0) + 1;
    const key = pickKey(c, seen[c]);
    if (!picking) return cardNode(c);
    const on = TR.picked.includes(key);
    const suits = follow === null || label === follow;
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

export const pickedCards = () => TR.picked.map((k) => k.split("#")[0]);

// What "draw all" does now (clients/terminal/tractor_text.py auto_draw_step): draw; or stop
// when a declaration not yet let pass is on offer (declaring stays the player's choice).
export function tractorAutoStep(legal, view) {
  if (view.phase !== "draw" || !legal.length) return "off";
  const offered = legal.filter((a) => a.type === "declare").map((a) => a.cards.join(" "));
  if (offered.some((d) => !TR.accepted.has(d))) return "stop";
  return legal.some((a) => a.type === "draw") ? "draw" : "wait";
}

export function tractorControls(legal, view, ctl) {
  const { myTurn, act, labelOf } = ctl;
  const rerender = ctl.rerender;
  const nodes = [];
  const btn = (label, onclick, extra = {}) => el("button", { type: "button", class: "action", disabled: !myTurn, onclick, ...extra }, label);
  const phase = view.phase;
  if (phase === "draw") {
    // Drawing (or passing) lets the declarations now on offer go by: "draw all" then
    // draws on past them, and stops again only for a new one.
    const letGo = () => { for (const x of legal) if (x.type === "declare") TR.accepted.add(x.cards.join(" ")); };
    for (const a of legal) {
      const go = a.type === "declare" ? () => act(a) : () => { letGo(); act(a); };
      nodes.push(btn(labelOf(a), go, { "data-action": a.type }));
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
    const label = kind === "bury"
      ? `Bury picked cards (${picked.length}/${need})`
      : `Play picked${picked.length ? ` ${cardsText(picked)}` : " cards"}${need ? ` · ${picked.length}/${need}` : ""}`;
    nodes.push(el("button", { type: "button", class: "action primary", id: "play-picked", disabled: !myTurn || !ok,
      onclick: () => act({ type: kind, cards: picked }) }, label));
    nodes.push(el("button", { type: "button", disabled: !picked.length, onclick: () => { TR.picked = []; rerender(); } }, "Clear"));
    // Quick picks: the server's list is a representative subset (every single is a click
    // away, so only several-card entries and burials are offered).
    const quick = legal.filter((a) => a.type === kind && (kind === "bury" || a.cards.length > 1));
    if (quick.length) {
      nodes.push(el("div", { class: "quick" }, el("span", { class: "muted small" }, kind === "bury" ? "Suggested burials:" : "Suggested plays:"),
        quick.map((a) => btn(labelOf(a), () => act(a), { class: "action quick-play" }))));
    }
  }
  const calls = legal.filter((a) => a.type === "call");
  if (calls.length) {
    nodes.push(el("div", { class: "quick" }, el("span", { class: "muted small" }, "Suggested calls:"), calls.map((a) => btn(labelOf(a), () => act(a)))));
    nodes.push(friendPicker(view, ctl.hints || {}, myTurn, act));
  }
  for (const a of legal.filter((x) => !["play", "bury", "call"].includes(x.type))) {
    nodes.push(btn(labelOf(a), () => act(a), { "data-action": a.type }));
  }
  return nodes;
}

// The landlord's call: for each friend, a card (not a trump: the hints list them) and
// which copy of it.
export function friendPicker(view, hints, myTurn, act) {
  const faces = hints.callable || [];
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

// The table moved on while an action was on its way. Mostly a takeback window closing
// (the previous player kept its play, or the next one played, maybe the round's last
// card): keeping or taking back a play is then moot, and a play or draw whose trick has
// not changed is sent once more at the new version. True when handled without a message.
export function tractorLate(cur, code, page) {
  const a = cur.lastAction;
  if ((a.type === "confirm" || a.type === "takeback")
    && ["stale_version", "game_over", "nothing_to_take_back", "not_your_turn"].includes(code)) {
    page.rerender();
    return true;
  }
  if (code !== "stale_version" || cur.retries >= 5) return false;
  if (cur.version === cur.actVersion) {
    cur.retryOnUpdate = a; // the update that made it stale is still on its way
    return true;
  }
  tractorRetry(cur, a, page);
  return true;
}

export function tractorRetry(cur, a, page) {
  const view = cur.view || {};
  if (JSON.stringify(view.trick || null) !== cur.actTrick) return;
  if (!(cur.legal || []).some((x) => x.type === a.type)) return;
  page.act(a, cur.retries + 1);
}

export const drawing = { board: tractorBoard, hand: tractorHand, controls: tractorControls, note: tractorNote, late: tractorLate, retry: tractorRetry };
