// cardtable browser client: the table on screen (seats, board, hand, controls, the turn's note,
// the log).

import { renderBoard, tableNames } from "./board.js";
import { isCardPlay, labelFor, resultText, sameCard, seatName, sortHand } from "./cards.js";
import { clockFormat, clockSummary, drawClocks } from "./clock.js";
import { send } from "./connection.js";
import { $, cardNode, el } from "./dom.js";
import { drawingOf } from "./games.js";
import { openReplay } from "./replay.js";
import { isOver, S } from "./state.js";

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
  // Ending the whole match by agreement (docs/protocol.md, "Ending the match").
  const votes = (status === "live" && info && info.end_votes) || [];
  const seated = !!(status === "live" && mine && mine.kind === "human" && info.agreed_end);
  $("#btn-end-match").classList.toggle("hidden", !seated || votes.includes(me));
  $("#btn-end-match").textContent = votes.length ? "Agree to end the match" : "Propose ending the match";
  $("#btn-keep-playing").classList.toggle("hidden", !seated || !votes.length);
  const pending = ((info && info.end_needed) || []).filter((s) => !votes.includes(s));
  const who = (list) => list.map((s) => seatName(s, names, me)).join(", ");
  $("#end-vote").classList.toggle("hidden", !votes.length);
  $("#end-vote").textContent = votes.length
    ? `Ending the match: agreed ${who(votes)}${pending.length ? `; waiting for ${who(pending)}` : ""}`
    : "";

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
