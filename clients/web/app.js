// cardtable browser client: lobby, table, replays. Plain JS, no build step.
// It speaks the websocket protocol of protocol/messages.py; the session token and
// the seat tokens live in localStorage so a reload or a server restart resumes.
"use strict";

const PROTOCOL = 1;
const STORE = {
  token: "cardtable.token",
  name: "cardtable.name",
  current: "cardtable.current", // {table, seat, seat_token, version} of the table on screen
  seats: "cardtable.seats", // {tableId: {seat, seat_token}} for every seat we took
};
// Close codes after which reconnecting by itself would only repeat the failure.
const NO_RETRY = new Set([4000, 4002, 4008, 4011]);
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternating colours in a hand
const RANKS = "23456789TJQKA";

// ---------------------------------------------------------------- state

const S = {
  ws: null,
  connected: false,
  retry: 0,
  retryTimer: null,
  nextId: 1,
  player: null,
  name: "",
  games: [],
  tables: new Map(), // lobby: table id -> TableInfo
  mySeats: [], // welcome.seats
  cur: null, // {table, seat, seat_token, version, info, view, legal, toAct, status, log, clock}
  replay: null, // {gameId, game, viewer, status, total, steps, result, index}
  tableRequests: new Map(), // request id -> {kind: "resume" | "leave", table}, until answered
};

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) {
    if (kid === null || kid === undefined || kid === false) continue;
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return node;
};
const load = (key, fallback) => {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
};
const save = (key, value) => {
  if (value === null || value === undefined) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
};

// ---------------------------------------------------------------- cards

function parseCard(text) {
  if (typeof text !== "string") return null;
  const t = text.trim().toUpperCase();
  if (t === "BJ" || t === "RJ") return { joker: "big", key: 53, label: "BJ", red: true };
  if (t === "SJ" || t === "LJ") return { joker: "small", key: 52, label: "SJ", red: false };
  const m = /^(10|[2-9TJQKA])([CDHS♣♦♥♠])$/.exec(t);
  if (!m) return null;
  const rank = m[1] === "10" ? "T" : m[1];
  const suit = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" }[m[2]] || m[2];
  return {
    rank,
    suit,
    spelling: rank + suit,
    label: (rank === "T" ? "10" : rank) + SUITS[suit],
    red: suit === "H" || suit === "D",
    key: "CDHS".indexOf(suit) * 13 + RANKS.indexOf(rank),
  };
}
const isCard = (t) => parseCard(t) !== null;
// "1 card", "2 cards": every count shown goes through here.
const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
const cardLabel = (t) => (isCard(t) ? parseCard(t).label : String(t));
const sameCard = (a, b) => {
  const x = parseCard(a);
  const y = parseCard(b);
  return x !== null && y !== null && x.key === y.key;
};
function sortHand(cards) {
  const order = (c) => {
    const p = parseCard(c);
    if (!p) return [9, 0];
    if (p.joker) return [4, -p.key];
    return [SUIT_ORDER[p.suit], -RANKS.indexOf(p.rank)];
  };
  return [...cards].sort((a, b) => {
    const x = order(a);
    const y = order(b);
    return x[0] - y[0] || x[1] - y[1];
  });
}
function cardNode(text, extra = {}) {
  const p = parseCard(text);
  const cls = ["card", p && p.red ? "red" : "", extra.class || ""].join(" ").trim();
  const tag = extra.onclick ? "button" : "span";
  return el(tag, { ...extra, class: cls, type: extra.onclick ? "button" : undefined, "data-card": text },
    p ? p.label : String(text));
}

// ---------------------------------------------------------------- text

function valueText(v) {
  if (typeof v === "string") return cardLabel(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return "–";
    if (v.every((x) => typeof x === "string")) return v.map(cardLabel).join(" ");
    if (v.every((x) => typeof x === "number")) return v.join(" ");
    if (v.every(Array.isArray)) return v.map(valueText).join(" | ");
  }
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "number") return String(v);
  return JSON.stringify(v);
}

function seatName(seat, names, me) {
  if (typeof seat !== "number") return String(seat);
  const n = names[seat] || `Seat ${seat}`;
  return seat === me ? `${n} (you)` : n;
}

// An action without the server's label (a frame from an older server): its fields.
function actionLabel(a) {
  const rest = Object.entries(a).filter(([k]) => k !== "type");
  if (a.type === "play" && rest.length === 1 && rest[0][0] === "card") return cardLabel(a.card);
  return [a.type, ...rest.map(([k, v]) => (k === "card" || k === "cards" ? valueText(v) : `${k}=${valueText(v)}`))].join(" ");
}
const isCardPlay = (a) => a.type === "play" && Object.keys(a).length === 2 && isCard(a.card);

// The result line; `hints.result`, where the game gives one, is its summary in the
// table's words.
function resultText(result, names, hints = {}) {
  if (!result) return "no result recorded";
  let out = hints.result || result.summary || "";
  if (Array.isArray(result.scores)) {
    const per = result.scores.map((s, i) => `${seatName(i, names, null)} ${s}`).join(", ");
    out = out ? `${out} (scores: ${per})` : `scores: ${per}`;
  }
  return out || JSON.stringify(result);
}

// ---------------------------------------------------------------- connection

function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    showError("not connected", "the message was not sent; reconnecting…");
    return null;
  }
  const id = S.nextId++;
  S.ws.send(JSON.stringify({ ...msg, id }));
  return id;
}

function setConn(text, up) {
  const c = $("#conn");
  c.textContent = text;
  c.className = `conn ${up ? "up" : "down"}`;
}

function connect() {
  clearTimeout(S.retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/`);
  S.ws = ws;
  setConn("connecting…", false);
  ws.onopen = () => {
    S.retry = 0;
    hello();
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    handle(msg);
  };
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    S.connected = false;
    if (NO_RETRY.has(ev.code)) {
      setConn(`disconnected: ${ev.reason || ev.code}`, false);
      const again = el("button", { type: "button", onclick: () => connect() }, "Reconnect");
      $("#conn").append(" ", again);
      return;
    }
    const delay = Math.min(500 * 2 ** S.retry, 5000);
    S.retry += 1;
    setConn(`offline (${ev.code || "no connection"}); retrying in ${(delay / 1000).toFixed(1)}s`, false);
    S.retryTimer = setTimeout(connect, delay);
  };
}

function hello() {
  const msg = { type: "hello", protocol: PROTOCOL };
  const token = load(STORE.token, null);
  const name = (load(STORE.name, "") || "").trim();
  if (token) msg.token = token;
  else if (name) msg.name = name;
  send(msg);
}

// ---------------------------------------------------------------- messages

function handle(msg) {
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
    case "replay":
      return onReplay(msg);
    case "analysis":
      return onAnalysis(msg);
    default:
      return;
  }
}

function onWelcome(msg) {
  S.connected = true;
  S.player = msg.player;
  S.name = msg.name;
  S.games = msg.games;
  S.optionSchemas = msg.options || {};
  S.mySeats = msg.seats || [];
  save(STORE.token, msg.token);
  setConn(`connected as ${msg.name}`, true);
  if (document.activeElement !== $("#name")) $("#name").value = msg.name;
  const sel = $("#create-game");
  const chosen = sel.value;
  sel.replaceChildren(...msg.games.map((g) => el("option", { value: g, selected: g === chosen }, g)));
  renderOptionForm();
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

function onTableInfo(info) {
  if (info.status === "waiting" || info.status === "live") S.tables.set(info.table, info);
  else S.tables.delete(info.table);
  if (S.cur && S.cur.table === info.table) {
    S.cur.info = info;
    renderTable();
  }
  renderLobby();
}

function onJoined(msg) {
  const seats = load(STORE.seats, {});
  seats[msg.table] = { seat: msg.seat, seat_token: msg.seat_token };
  save(STORE.seats, seats);
  if (!S.cur || S.cur.table !== msg.table) openTable(msg.table, msg.seat, msg.seat_token);
  S.cur.seat = msg.seat;
  S.cur.seat_token = msg.seat_token;
  persistCurrent();
}

function onState(msg) {
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
    if (d && d.retry) d.retry(cur, a);
  }
}

// A board's double-dummy table, computed by the server after the board ended (and sent
// again after every snapshot, so a late viewer or a reload gets it too).
function onAnalysis(msg) {
  if (!S.cur || S.cur.table !== msg.table) return;
  S.cur.analyses[msg.board] = msg;
  renderTable();
}

function onError(msg) {
  const text = `${msg.message}${msg.reason && msg.reason !== msg.code ? ` (${msg.reason})` : ""}`;
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
  if (late && late.late && late.late(S.cur, msg.code)) return;
  showError(msg.code, text);
  if (S.cur) renderTable();
}

function showError(code, text) {
  const box = $("#errors");
  const item = el("div", { class: "error" }, el("strong", {}, code), " ", text,
    el("button", { type: "button", class: "close", onclick: () => item.remove(), title: "dismiss" }, "×"));
  box.append(item);
  setTimeout(() => item.remove(), 8000);
}

// ---------------------------------------------------------------- lobby

function renderLobby() {
  const tbody = $("#tables tbody");
  const open = [...S.tables.values()].sort((a, b) => b.table - a.table);
  $("#no-tables").classList.toggle("hidden", open.length > 0);
  $("#table-count").textContent = open.length ? `(${open.length})` : "";
  const mine = new Set(S.mySeats.map((s) => s.table));
  const stored = load(STORE.seats, {});
  tbody.replaceChildren(...open.map((t) => {
    const free = t.seats.some((s) => s.kind === "empty");
    const seated = mine.has(t.table) || (S.cur && S.cur.table === t.table && S.cur.seat !== null);
    const seats = t.seats.map((s) => el("span", { class: `seat-chip ${s.kind}` },
      `${s.name}: ${s.kind === "empty" ? "empty" : s.kind === "bot" ? `bot ${s.bot}` : s.player}`));
    const buttons = [];
    if (S.cur && S.cur.table === t.table) {
      buttons.push(el("button", { type: "button", onclick: () => showTab("table") }, "Open"));
    } else if (seated && stored[t.table]) {
      buttons.push(el("button", { type: "button", onclick: () => resumeTable(t.table) }, "Resume"));
    } else if (t.status === "waiting" && free) {
      buttons.push(el("button", { type: "button", onclick: () => joinTable(t.table, null) }, "Join"));
    }
    buttons.push(el("button", { type: "button", onclick: () => spectate(t.table) }, "Watch"));
    if (t.status === "waiting") {
      buttons.push(el("button", { type: "button", onclick: () => send({ type: "start", table: t.table }) }, "Start with bots"));
    }
    const clock = clockSummary(t);
    return el("tr", {},
      el("td", {}, t.table), el("td", {}, t.name), el("td", {}, t.game, clock ? el("div", { class: "muted small" }, clock) : null),
      el("td", {}, el("span", { class: `badge ${t.status}` }, t.status), t.spectators ? ` 👁 ${t.spectators}` : ""),
      el("td", {}, el("div", { class: "seat-chips" }, seats)),
      el("td", {}, el("div", { class: "row-buttons" }, buttons)));
  }));
  const gone = S.mySeats.filter((s) => !S.tables.has(s.table));
  $("#my-seats").replaceChildren(...(gone.length ? [el("p", { class: "muted" },
    `You also hold seats at: ${gone.map((s) => `#${s.table}`).join(", ")}`)] : []));
}

// `status`: the table's last known status (a reload knows it from the stored table).
function openTable(table, seat, seatToken, info, status = "") {
  S.cur = {
    table, seat: seat ?? null, seat_token: seatToken ?? null, version: 0,
    info: info || S.tables.get(table) || null, view: null, legal: null, toAct: [], status, log: [], pending: false,
    analyses: {}, // board -> analysis message
  };
  persistCurrent();
  showTab("table");
  renderTable();
}

function closeTable() {
  S.cur = null;
  save(STORE.current, null);
  renderTable();
  // Only the table's own tab gives way: a replay or the lobby on screen stays.
  if (!$("#table").classList.contains("hidden")) showTab("lobby");
}

const isOver = (status) => status === "finished" || status === "abandoned";

function persistCurrent() {
  const c = S.cur;
  save(STORE.current, c ? { table: c.table, seat: c.seat, seat_token: c.seat_token, version: c.version, status: c.status } : null);
}

function joinTable(table, seat) {
  openTable(table, null, null);
  send({ type: "join", table, seat: seat ?? undefined });
}

function spectate(table) {
  openTable(table, null, null);
  send({ type: "spectate", table });
}

function resumeTable(table) {
  const stored = load(STORE.seats, {})[table] || {};
  openTable(table, stored.seat ?? null, stored.seat_token ?? null);
  sendResume(table, 0, stored.seat_token);
}

// A resume is answered by a snapshot, or by an error if the table is gone (onError).
function sendResume(table, since, seatToken) {
  const id = send({ type: "resume", table, since, seat_token: seatToken || undefined });
  if (id !== null) S.tableRequests.set(id, { kind: "resume", table });
}

// ---------------------------------------------------------------- the table

// The seats' names as the game gives them (table info), or numbered before it comes.
function tableNames(info, view) {
  if (info && info.seats) return info.seats.map((s) => s.name);
  const n = view && Array.isArray(view.stacks) ? view.stacks.length
    : view && Array.isArray(view.hand_sizes) ? view.hand_sizes.length : 4;
  return Array.from({ length: n }, (_, i) => `Seat ${i + 1}`);
}

// The server's label of a legal action (the frame's `labels`, in `legal`'s order).
function labelFor(legal, labels) {
  return (a) => {
    const i = (legal || []).indexOf(a);
    return labels && i >= 0 && typeof labels[i] === "string" ? labels[i] : actionLabel(a);
  };
}

function renderTable() {
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
  const myTurn = status === "live" && legal.length > 0 && !cur.pending;
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
  const said = myTurn && d && d.note ? d.note(view, legal, me) : null;
  let note = "";
  if (cur.pending) note = "sending…";
  else if (said) note = `Your turn: ${said}`;
  else if (myTurn) note = "Your turn: " + (cardPlays.length ? "click a highlighted card." : "choose an action.");
  else if (status === "live" && cur.toAct.length) note = `Waiting for ${cur.toAct.map((s) => seatName(s, names, me)).join(", ")}…`;
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
function renderAnalyses(cur, view, names) {
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

function lastGameOver(log) {
  for (let i = log.length - 1; i >= 0; i--) if (log[i].event && log[i].event.kind === "game_over") return log[i].event;
  return null;
}

// `retries`: how many times this action was sent again after the table moved on.
function act(action, retries = 0) {
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
function renderBoard(box, view, { names, me, toAct, skip = [], ...ctl }) {
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

function trickBoard(view, names, me, toAct, hints) {
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

function genericBoard(view, names, me, skip) {
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

// ---------------------------------------------------------------- replays

// The create-table form draws each option the game's schema names (welcome's
// `options`): a menu for a choice, a box for a switch, a number field with the
// schema's bounds, a text field otherwise; the default is preselected, and only
// options changed from their defaults are sent (the JSON box can add more).
function renderOptionForm() {
  const game = $("#create-game").value;
  const schema = (S.optionSchemas || {})[game] || {};
  $("#create-form").dataset.game = game;
  const rows = Object.entries(schema).map(([name, prop]) => {
    const label = prop.title || name;
    const tip = (prop.description || "").split("\n")[0];
    let input;
    if (Array.isArray(prop.enum)) {
      input = el("select", { "data-option": name }, ...prop.enum.map((v) =>
        el("option", { value: v, selected: v === prop.default }, String(v))));
    } else if (prop.type === "boolean") {
      input = el("input", { type: "checkbox", "data-option": name });
      input.checked = !!prop.default;
    } else if (prop.type === "integer" || prop.type === "number") {
      input = el("input", { type: "number", "data-option": name, value: prop.default ?? "" });
      if (prop.minimum !== undefined) input.min = prop.minimum;
      if (prop.maximum !== undefined) input.max = prop.maximum;
    } else if (prop.type === "string") {
      input = el("input", { "data-option": name, value: prop.default ?? "" });
    } else {
      return null; // lists and objects: the JSON box
    }
    return el("label", { title: tip }, `${label} `, input);
  }).filter(Boolean);
  $("#create-form").replaceChildren(...rows);
  $("#create-rules").classList.toggle("hidden", !rows.length);
}

function formOptions() {
  const game = $("#create-game").value;
  // The form shows another game's rules (the menu changed without an event): redraw.
  if ($("#create-form").dataset.game !== game) renderOptionForm();
  const schema = (S.optionSchemas || {})[game] || {};
  const out = {};
  for (const input of $("#create-form").querySelectorAll("[data-option]")) {
    const name = input.dataset.option;
    const prop = schema[name] || {};
    let value = input.type === "checkbox" ? input.checked : input.value;
    if (input.type === "number") value = value === "" ? prop.default : Number(value);
    if (value !== prop.default) out[name] = value;
  }
  return out;
}

function renderGames(games) {
  $("#games").replaceChildren(...games.map((g) => el("li", {},
    el("button", { type: "button", class: "linkish",
      // Finished games may be seen with every card; games in play as a spectator only.
      onclick: () => openReplay(g.game_id, g.status === "finished" || g.status === "abandoned" ? "all" : "spectator") },
      `#${g.game_id} ${g.game} · ${g.status} · ${plural(g.actions, "move")}`),
    el("div", { class: "muted small" }, `${g.name} · ${g.created_at.replace("T", " ").slice(0, 19)}`,
      g.result && g.result.summary ? ` · ${g.result.summary}` : ""))));
  if (!games.length) $("#games").replaceChildren(el("li", { class: "muted" }, "no stored games"));
}

// With `analysis` (bridge, ended games) every step carries double-dummy scores; the
// server computes them on request, so those come in smaller pages and take a while.
const replayPage = (analysis) => (analysis ? 200 : 2000);

function openReplay(gameId, viewer, analysis = false, index = 0) {
  showTab("replays");
  const v = viewer ?? (S.replay && S.replay.gameId === gameId ? S.replay.viewer : "spectator");
  S.replay = { gameId, viewer: v, steps: [], index, total: 0, loading: true, analysis };
  if (analysis) $("#rp-analysis").replaceChildren(el("p", { class: "muted" }, "computing the double-dummy analysis…"));
  send({ type: "replay", game_id: gameId, viewer: v, start: 0, limit: replayPage(analysis), analysis: analysis || undefined });
}

function onReplay(msg) {
  const r = S.replay;
  // A page requested before the analysis box was toggled is not this replay's.
  const d = drawingOf(msg.game);
  if (!r || r.gameId !== msg.game_id || (d && d.analysis && !!msg.analysis !== !!r.analysis)) return;
  const first = r.steps.length === 0;
  Object.assign(r, { game: msg.game, status: msg.status, total: msg.total, result: msg.result, viewer: msg.viewer,
    names: msg.seat_names });
  r.steps.push(...msg.steps);
  if (first && msg.status !== "finished" && msg.status !== "abandoned" && msg.viewer !== "spectator") r.viewer = "spectator";
  if (r.steps.length < msg.total && msg.steps.length) {
    // Long games come in pages.
    send({ type: "replay", game_id: r.gameId, viewer: r.viewer, start: r.steps[r.steps.length - 1].seq + 1,
      limit: replayPage(r.analysis), analysis: r.analysis || undefined });
  }
  r.loading = false;
  renderReplay();
}

function renderReplay() {
  const r = S.replay;
  $("#replay-empty").classList.toggle("hidden", !!r);
  $("#replay-main").classList.toggle("hidden", !r);
  if (!r || !r.steps.length) return;
  const names = r.names || tableNames(null, r.steps[0].view);
  const d = drawingOf(r.game);
  const done = r.status === "finished" || r.status === "abandoned";
  $("#replay-title").textContent = `Game #${r.gameId} · ${r.game} · ${r.status}`;
  const viewers = [["spectator", "spectator"], ...(done ? [["all", "all cards"]] : []),
    ...(done ? names.map((nm, i) => [String(i), nm]) : [])];
  $("#replay-viewer").replaceChildren(...viewers.map(([v, label]) =>
    el("option", { value: v, selected: String(r.viewer) === v }, label)));
  $("#rp-dd-box").classList.toggle("hidden", !(done && d && d.analysis));
  $("#rp-dd").checked = !!r.analysis;
  r.index = Math.max(0, Math.min(r.index, r.steps.length - 1));
  const step = r.steps[r.index];
  const slider = $("#rp-slider");
  slider.max = String(r.steps.length - 1);
  slider.value = String(r.index);
  $("#rp-pos").textContent = `step ${step.seq} / ${r.total - 1}`;
  const me = typeof r.viewer === "number" ? r.viewer : null;
  // Who chose the step's action and what it was, then what happened, in the game's words.
  $("#rp-action").textContent = step.seq === 0
    ? "The deal"
    : `${seatName(step.seat, names, me)}: ${step.label || actionLabel(step.action || {})}`;
  $("#rp-events").replaceChildren(...(step.narration || []).filter(Boolean).map((l) => el("li", {}, l)));
  const toAct = Array.isArray(step.view.to_act) ? step.view.to_act : [];
  renderBoard($("#rp-board"), step.view, { names, me, toAct, hints: step.hints || {} });
  if (me !== null && Array.isArray(step.view.hand) && !d) {
    $("#rp-board").append(el("div", { class: "cards" }, sortHand(step.view.hand).map((c) => cardNode(c))));
  }
  const a = step.analysis || {};
  const drawn = d && d.analysis ? [a.play ? d.analysis.play(a.play, names) : null, a.board ? d.analysis.board(a.board, names) : null] : [];
  $("#rp-analysis").replaceChildren(...drawn.filter(Boolean));
  $("#rp-result").textContent = r.index === r.steps.length - 1 && r.result ? `Result: ${resultText(r.result, names, step.hints || {})}` : "";
}

function stepReplay(to) {
  const r = S.replay;
  if (!r || !r.steps.length) return;
  r.index = Math.max(0, Math.min(to, r.steps.length - 1));
  renderReplay();
}

// ---------------------------------------------------------------- page

function showTab(name) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".pane")) p.classList.toggle("hidden", p.id !== name);
  if (name === "replays" && !S.gamesLoaded && S.connected) {
    S.gamesLoaded = true;
    requestGames();
  }
}

function requestGames() {
  const status = $("#games-status").value;
  send({ type: "list_games", limit: 100, status: status || undefined });
}

function setup() {
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("#name").value = load(STORE.name, "") || "";
  $("#name").addEventListener("change", () => {
    const name = $("#name").value.trim();
    save(STORE.name, name || null);
    // A name belongs to a session: without a seat in play, start a new session with it.
    if (!S.cur && !S.mySeats.length && S.ws) {
      save(STORE.token, null);
      S.ws.close();
    }
  });
  setInterval(tickClocks, 250);
  $("#create-game").addEventListener("change", renderOptionForm);
  $("#create-spectate").addEventListener("change", () => {
    $("#create-seat").disabled = $("#create-spectate").checked;
  });
  $("#create").addEventListener("submit", (ev) => {
    ev.preventDefault();
    let options;
    try {
      options = JSON.parse($("#create-options").value || "{}");
      if (typeof options !== "object" || options === null || Array.isArray(options)) throw new Error("options must be a JSON object");
      options = { ...formOptions(), ...options };
    } catch (e) {
      showError("bad options", e.message);
      return;
    }
    const msg = { type: "create_table", game: $("#create-game").value, options, start: $("#create-start").checked };
    const name = $("#create-name").value.trim();
    if (name) msg.name = name;
    // The inputs' min and max are the server's limits; the form checks them.
    const turn = $("#create-turn").value;
    const bank = $("#create-bank").value;
    if (bank && !turn) {
      showError("no turn clock", "a time bank needs a turn clock");
      return;
    }
    if (turn) msg.turn_seconds = Number(turn);
    if (bank) msg.time_bank = Number(bank);
    const watch = $("#create-spectate").checked;
    // create_table with start but no seat would seat us anyway (first free seat).
    if (watch) msg.start = false;
    else msg.seat = Number($("#create-seat").value || 0);
    S.createWatch = watch;
    S.startAfterWatch = watch && $("#create-start").checked;
    S.pendingCreate = send(msg);
  });
  $("#btn-start").addEventListener("click", () => S.cur && send({ type: "start", table: S.cur.table }));
  $("#btn-addbot").addEventListener("click", () => S.cur && send({ type: "add_bot", table: S.cur.table }));
  $("#btn-autoplay").addEventListener("click", () => {
    if (!S.cur || !S.cur.seat_token) return;
    const on = !$("#btn-autoplay").dataset.on;
    send({ type: "autoplay", table: S.cur.table, seat_token: S.cur.seat_token, on });
  });
  $("#btn-leave").addEventListener("click", () => {
    if (!S.cur) return;
    const live = S.cur.status === "live" && S.cur.seat !== null;
    if (live && !confirm("Leave the game? A bot takes over your seat.")) return;
    const id = send({ type: "leave", table: S.cur.table });
    if (id !== null) S.tableRequests.set(id, { kind: "leave", table: S.cur.table });
    closeTable();
  });
  $("#btn-games").addEventListener("click", requestGames);
  $("#games-status").addEventListener("change", requestGames);
  $("#replay-viewer").addEventListener("change", () => {
    const v = $("#replay-viewer").value;
    const r = S.replay;
    if (!r) return;
    const keep = r.index;
    openReplay(r.gameId, /^\d+$/.test(v) ? Number(v) : v, r.analysis, keep);
  });
  $("#rp-first").addEventListener("click", () => stepReplay(0));
  $("#rp-dd").addEventListener("change", () => {
    const r = S.replay;
    if (r) openReplay(r.gameId, r.viewer, $("#rp-dd").checked, r.index);
  });
  $("#rp-prev").addEventListener("click", () => stepReplay((S.replay?.index ?? 0) - 1));
  $("#rp-next").addEventListener("click", () => stepReplay((S.replay?.index ?? 0) + 1));
  $("#rp-last").addEventListener("click", () => stepReplay(Infinity));
  $("#rp-slider").addEventListener("input", () => stepReplay(Number($("#rp-slider").value)));
  document.addEventListener("keydown", (ev) => {
    if ($("#replays").classList.contains("hidden") || ev.target.matches("input, textarea, select")) return;
    if (ev.key === "ArrowRight") stepReplay((S.replay?.index ?? 0) + 1);
    if (ev.key === "ArrowLeft") stepReplay((S.replay?.index ?? 0) - 1);
  });
  // Deep links: #replay=ID opens a replay, #table=ID watches or resumes a table.
  const hash = new URLSearchParams(location.hash.slice(1));
  S.deepLink = { replay: hash.get("replay"), table: hash.get("table") };
  connect();
}

// Deep links, followed once after the first welcome: #replay=ID, #table=ID.
function followDeepLink() {
  const link = S.deepLink;
  if (!link) return;
  S.deepLink = null;
  if (link.replay) openReplay(Number(link.replay), "all");
  else if (link.table && (!S.cur || S.cur.table !== Number(link.table))) {
    const id = Number(link.table);
    if (load(STORE.seats, {})[id]) resumeTable(id);
    else spectate(id);
  }
}

window.addEventListener("DOMContentLoaded", setup);
