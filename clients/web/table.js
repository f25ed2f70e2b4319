// cardtable browser client: the table on screen (seats, board, hand, controls, the turn's note,
// the log) and the board drawing it shares with replays.

import { actionLabel, isCard, isCardPlay, labelFor, plural, resultText, sameCard, seatName, sortHand, valueText } from "./cards.js";
import { clockFormat, clockSummary, drawClocks } from "./clock.js";
import { send } from "./connection.js";
import { $, cardNode, el } from "./dom.js";
import { drawingOf } from "./games.js";
import { openReplay } from "./replay.js";
import { isOver, S } from "./state.js";

// The seats' names as the game gives them (table info), or numbered before it comes.
export function tableNames(info, view) {
  if (info && info.seats) return info.seats.map((s) => s.name);
  const n = view && Array.isArray(view.stacks) ? view.stacks.length
    : view && Array.isArray(view.hand_sizes) ? view.hand_sizes.length : 4;
  return Array.from({ length: n }, (_, i) => `Seat ${i + 1}`);
}

export function renderTable() {
  const cur = S.cur;
  $("#table-empty").classList.toggle("hidden", !!cur);
  $("#table-main").classList.toggle("hidden", !cur);
  $("#tab-table").textContent = cur ? `Table #${cur.table}` : "Table";
  if (!cur) return;
  const info = cur.info;
  const view = cur.view || {};
  const names = tableNames(info, view);
  const me = cur.seat;
  const clockInfo = info ? clockSummary(info) : "";
  $("#table-title").replaceChildren(`#${cur.table} ${info ? info.name : ""}`, clockInfo ? el("small", { class: "muted" }, ` · ${clockInfo}`) : "");
  const status = cur.status || (info && info.status) || "…";
  $("#table-status").textContent = me === null ? `${status} · watching` : `${status} · you are ${seatName(me, names, null)}`;
  $("#table-status").className = `badge ${status}`;
  const waiting = status === "waiting";
  $("#btn-start").classList.toggle("hidden", !waiting);
  $("#btn-addbot").classList.toggle("hidden", !(waiting && info && info.seats.some((s) => s.kind === "empty")));
  // Autoplay: a bot plays for your seat until you switch it off (or act yourself).
  const mine = info && me !== null ? info.seats.find((s) => s.seat === me) : null;
  const auto = !!(mine && mine.kind === "human" && mine.bot);
  $("#btn-autoplay").classList.toggle("hidden", !(status === "live" && mine && mine.kind === "human"));
  $("#btn-autoplay").textContent = auto ? "Take back my seat" : "Autoplay";
  $("#btn-autoplay").dataset.on = auto ? "1" : "";

  // seats
  $("#seats").replaceChildren(...(info ? info.seats : []).map((s) => {
    const bits = [el("strong", {}, names[s.seat] ?? s.name), " "];
    if (s.kind === "bot") bits.push(el("span", { class: "tag bot" }, `bot ${s.bot}`));
    else if (s.kind === "human") {
      bits.push(s.player || "player");
      if (s.bot) bits.push(" ", el("span", { class: "tag bot" }, `bot ${s.bot} standing in`));
      else if (!s.connected) bits.push(" ", el("span", { class: "tag away" }, "away"));
    } else bits.push(el("span", { class: "muted" }, "empty"));
    if (s.seat === me) bits.push(" ", el("span", { class: "tag you" }, "you"));
    const banks = cur.clock && info.time_bank ? cur.clock.banks || [] : [];
    if (s.kind === "human" && typeof banks[s.seat] === "number" && !(cur.clock.seats || []).includes(s.seat)) {
      bits.push(" ", el("span", { class: "muted small" }, `bank ${clockFormat(banks[s.seat])}`));
    }
    const acting = cur.toAct.includes(s.seat);
    return el("li", { class: acting ? "acting" : "", "data-seat": s.seat }, ...bits);
  }));

  // result
  const over = isOver(status);
  const result = view.result || lastGameOver(cur.log);
  $("#result").classList.toggle("hidden", !over);
  if (over) {
    $("#result").replaceChildren(
      el("strong", {}, `Game ${status}. `), resultText(result, names, cur.hints), " ",
      el("button", { type: "button", onclick: () => openReplay(cur.table, "all") }, `Replay game ${cur.table}`));
  }

  // board, hand, actions
  // The hand is drawn below the board, as clickable cards (bridge: dummy's on the table).
  const legal = cur.legal || [];
  // `myTurn`: the controls answer (any legal action, also one the rules allow out of
  // turn, such as a bridge claim); `onTurn`: the table waits for this seat.
  const myTurn = status === "live" && legal.length > 0 && !cur.pending;
  const onTurn = myTurn && me !== null && cur.toAct.includes(me);
  const d = drawingOf(view.game);
  const ctl = { legal, labels: cur.labels, hints: cur.hints || {}, labelOf: labelFor(legal, cur.labels),
    myTurn, act, rerender: renderTable, handBelow: true };
  renderBoard($("#board"), view, { names, me, toAct: cur.toAct, skip: ["hand"], ...ctl });
  const hand = Array.isArray(view.hand) ? view.hand : null;
  $("#hand-area").classList.toggle("hidden", me === null && !legal.length);
  $("#hand-title").textContent = hand ? `Your hand (${hand.length})` : "";
  const cardPlays = legal.filter(isCardPlay);
  if (d && d.hand && hand) $("#hand").replaceChildren(...d.hand(view, ctl, renderTable));
  else {
    $("#hand").replaceChildren(...(hand ? sortHand(hand) : []).map((c) => {
      const action = myTurn ? cardPlays.find((a) => sameCard(a.card, c)) : undefined;
      return action
        ? cardNode(c, { class: "legal", onclick: () => act(action), title: ctl.labelOf(action) })
        : cardNode(c, { class: myTurn && cardPlays.length ? "dim" : "" });
    }));
  }
  const others = legal.filter((a) => !(hand && isCardPlay(a) && hand.some((c) => sameCard(c, a.card))));
  const controls = d && d.controls
    ? d.controls(legal, view, ctl)
    : others.map((a) => el("button", { type: "button", class: "action", disabled: !myTurn, onclick: () => act(a) }, ctl.labelOf(a)));
  $("#actions").replaceChildren(...controls);
  const said = onTurn && d && d.note ? d.note(view, legal, me) : null;
  let note = "";
  if (cur.pending) note = "sending…";
  else if (said) note = `Your turn: ${said}`;
  else if (onTurn) note = "Your turn: " + (cardPlays.length ? "click a highlighted card." : "choose an action.");
  else if (status === "live" && cur.toAct.length) {
    note = `Waiting for ${cur.toAct.map((s) => seatName(s, names, me)).join(", ")}…`;
    if (myTurn) note += " You may act out of turn below.";
  }
  else if (waiting) note = "Waiting for players; “Start” fills empty seats with bots.";
  $("#turn-note").textContent = note;

  renderAnalyses(cur, view, names);
  drawClocks();

  // event log, newest last: the server's narration of each event
  const lines = cur.log.map((x) => x.line).filter(Boolean);
  const log = $("#log");
  log.replaceChildren(...lines.slice(-200).map((l) => el("li", {}, l)));
  log.scrollTop = log.scrollHeight;
}

// The newest ended board's double-dummy table under the board; older ones folded.
export function renderAnalyses(cur, view, names) {
  const box = $("#analysis");
  const d = drawingOf(view.game);
  const ended = d && d.analysis ? (view.results || []).map((r) => r.board) : [];
  const boards = d && d.analysis ? Object.keys(cur.analyses).map(Number).sort((a, b) => a - b) : [];
  const waiting = ended.filter((b) => !cur.analyses[b]).slice(-1);
  box.classList.toggle("hidden", !boards.length && !waiting.length);
  const nodes = [];
  if (waiting.length) nodes.push(el("p", { class: "muted" }, `Double-dummy analysis of board ${waiting[0]}: computing…`));
  const newest = boards[boards.length - 1];
  if (newest !== undefined) nodes.push(d.analysis.board(cur.analyses[newest], names));
  for (const b of boards.slice(0, -1).reverse()) {
    nodes.push(el("details", {}, el("summary", {}, `Board ${b}: ${d.analysis.par(cur.analyses[b].par)}`), d.analysis.board(cur.analyses[b], names)));
  }
  box.replaceChildren(...nodes);
}

export function lastGameOver(log) {
  for (let i = log.length - 1; i >= 0; i--) if (log[i].event && log[i].event.kind === "game_over") return log[i].event;
  return null;
}

// `retries`: how many times this action was sent again after the table moved on.
export function act(action, retries = 0) {
  const cur = S.cur;
  if (!cur || cur.pending) return;
  cur.retries = retries;
  const id = send({ type: "act", table: cur.table, seat_token: cur.seat_token, version: cur.version, action });
  cur.lastAction = action;
  cur.actVersion = cur.version;
  cur.actTrick = JSON.stringify((cur.view || {}).trick || null);
  if (id !== null) {
    cur.pending = true;
    renderTable();
  }
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
