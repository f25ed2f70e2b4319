// cardtable browser client: every message the server sends, dispatched to the lobby, the table,
// the replays, the files and the statistics.

import { ranOutOfTime } from "./clock.js";
import { hello, send, setConn, showError } from "./connection.js";
import { $, el } from "./dom.js";
import { onExported, onFileError, onImported } from "./files.js";
import { drawingOf } from "./games.js";
import { closeTable, followDeepLink, openTable, persistCurrent, renderLobby, renderOptionForm, sendResume } from "./lobby.js";
import { onReplay, renderGames } from "./replay.js";
import { offerStatsGames, renderStats } from "./stats.js";
import { isOver, load, S, save, STORE } from "./state.js";
import { act, renderTable } from "./table.js";

export function handle(msg) {
  if (msg.type !== "error" && msg.id !== undefined) S.tableRequests.delete(msg.id);
  switch (msg.type) {
    case "welcome":
      return onWelcome(msg);
    case "tables":
      S.tables = new Map(msg.tables.map((t) => [t.table, t]));
      return renderLobby();
    case "table":
      return onTableInfo(msg.table);
    case "table_created":
      onTableInfo(msg.table);
      if (S.pendingCreate === msg.id) {
        openTable(msg.table.table, null, null, msg.table);
        if (S.createWatch) {
          // A watcher is not seated, so it starts the table itself after spectating.
          send({ type: "spectate", table: msg.table.table });
          if (S.startAfterWatch) send({ type: "start", table: msg.table.table });
        }
      }
      return;
    case "joined":
      return onJoined(msg);
    case "left":
      if (S.cur && S.cur.table === msg.table) closeTable();
      return;
    case "snapshot":
    case "update":
      return onState(msg);
    case "ack":
      return;
    case "error":
      return onError(msg);
    case "games":
      return renderGames(msg.games);
    case "stats":
      return renderStats(msg);
    case "replay":
      return onReplay(msg);
    case "analysis":
      return onAnalysis(msg);
    case "imported":
      return onImported(msg);
    case "exported":
      return onExported(msg);
    default:
      return;
  }
}

export function onWelcome(msg) {
  S.connected = true;
  S.player = msg.player;
  S.name = msg.name;
  S.games = msg.games;
  S.optionSchemas = msg.options || {};
  S.formats = msg.formats || {};
  S.mySeats = msg.seats || [];
  save(STORE.token, msg.token);
  setConn(`connected as ${msg.name}`, true);
  if (document.activeElement !== $("#name")) $("#name").value = msg.name;
  const sel = $("#create-game");
  const chosen = sel.value;
  sel.replaceChildren(...msg.games.map((g) => el("option", { value: g, selected: g === chosen }, g)));
  renderOptionForm();
  offerStatsGames(msg.statistics || []);
  send({ type: "list_tables" });
  // Back after a drop, a reload or a server restart: re-attach to the table on screen.
  const cur = load(STORE.current, null);
  if (cur && cur.table) {
    if (!S.cur || S.cur.table !== cur.table) openTable(cur.table, cur.seat, cur.seat_token, null, cur.status);
    sendResume(cur.table, S.cur.view ? cur.version || 0 : 0, cur.seat_token);
  }
  renderLobby();
  followDeepLink();
}

export function onTableInfo(info) {
  if (info.status === "waiting" || info.status === "live") S.tables.set(info.table, info);
  else S.tables.delete(info.table);
  if (S.cur && S.cur.table === info.table) {
    S.cur.info = info;
    renderTable();
  }
  renderLobby();
}

export function onJoined(msg) {
  const seats = load(STORE.seats, {});
  seats[msg.table] = { seat: msg.seat, seat_token: msg.seat_token };
  save(STORE.seats, seats);
  if (!S.cur || S.cur.table !== msg.table) openTable(msg.table, msg.seat, msg.seat_token);
  S.cur.seat = msg.seat;
  S.cur.seat_token = msg.seat_token;
  persistCurrent();
}

export function onState(msg) {
  if (!S.cur || S.cur.table !== msg.table) return;
  const cur = S.cur;
  if (msg.type === "update") {
    // Not a server event: the log line saying why a move was made for us.
    if (ranOutOfTime(cur, msg)) cur.log.push({ line: "Your time ran out: a bot played for you." });
    const said = msg.narration || [];
    msg.events.forEach((e, i) => cur.log.push({ event: e, line: said[i] ?? null }));
  }
  cur.view = msg.view;
  cur.version = msg.version;
  cur.status = msg.status;
  cur.toAct = msg.to_act || [];
  cur.legal = msg.legal || null;
  cur.labels = msg.labels || null;
  cur.hints = msg.hints || {};
  // The turn clock as of this frame (older servers send none); counted down locally.
  cur.clock = msg.clock ? { ...msg.clock, at: performance.now() } : null;
  cur.seat = msg.seat;
  cur.pending = false;
  persistCurrent();
  renderTable();
  if (cur.retryOnUpdate) {
    const a = cur.retryOnUpdate;
    cur.retryOnUpdate = null;
    const d = drawingOf((cur.view || {}).game);
    if (d && d.retry) d.retry(cur, a, { act, rerender: renderTable });
  }
}

// A board's double-dummy table, computed by the server after the board ended (and sent
// again after every snapshot, so a late viewer or a reload gets it too).
export function onAnalysis(msg) {
  if (!S.cur || S.cur.table !== msg.table) return;
  S.cur.analyses[msg.board] = msg;
  renderTable();
}

export function onError(msg) {
  const text = `${msg.message}${msg.reason && msg.reason !== msg.code ? ` (${msg.reason})` : ""}`;
  onFileError(msg.code, text);
  if (msg.code === "bad_token") {
    // The server forgot this session (a new database): start a fresh one.
    save(STORE.token, null);
    save(STORE.current, null);
    S.cur = null;
    showError("session expired", "starting a new session");
    hello();
    return;
  }
  const asked = S.tableRequests.get(msg.id);
  S.tableRequests.delete(msg.id);
  if (asked && (msg.code === "unknown_table" || msg.code === "bad_seat_token")) {
    // Leaving a table the server no longer has, or a table we have since moved away
    // from, needs no word; nor one whose game had ended (the server drops finished
    // tables after a while, and a restart does not bring them back).
    const cur = S.cur && S.cur.table === asked.table ? S.cur : null;
    if (asked.kind === "leave" || !cur) return;
    if (!isOver(cur.status)) showError("table gone", `table ${cur.table}: ${text}`);
    closeTable();
    return;
  }
  if (S.cur) S.cur.pending = false;
  const late = S.cur && S.cur.lastAction ? drawingOf((S.cur.view || {}).game) : null;
  if (late && late.late && late.late(S.cur, msg.code, { act, rerender: renderTable })) return;
  showError(msg.code, text);
  if (S.cur) renderTable();
}
