// cardtable browser client: the lobby's tables and the moves between them (open, join, watch,
// resume, close) and the create-table form's options.

import { clockSummary } from "./clock.js";
import { send } from "./connection.js";
import { $, el } from "./dom.js";
import { openReplay } from "./replay.js";
import { load, S, save, STORE } from "./state.js";
import { renderTable } from "./table.js";
import { showTab } from "./tabs.js";

export function renderLobby() {
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
      `${s.name}: ${seatHolder(s)}`));
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
      el("td", {}, t.table), el("td", {}, t.name),
      el("td", {}, words(t.game), clock ? el("div", { class: "muted small" }, clock) : null,
        t.fixed_deal ? el("div", { class: "muted small", title: "The table's creator chose the cards (and knows them)." }, "fixed deal") : null),
      el("td", {}, el("span", { class: `badge ${t.status}` }, t.status), t.spectators ? ` 👁 ${t.spectators}` : ""),
      el("td", {}, el("div", { class: "seat-chips" }, seats)),
      el("td", {}, el("div", { class: "row-buttons" }, buttons)));
  }));
  const gone = S.mySeats.filter((s) => !S.tables.has(s.table));
  $("#my-seats").replaceChildren(...(gone.length ? [el("p", { class: "muted" },
    `You also hold seats at: ${gone.map((s) => `#${s.table}`).join(", ")}`)] : []));
}

// Who a lobby seat is: a player who left a live game or is away past the grace
// period still names the seat, and the bot now playing it is said beside.
function seatHolder(s) {
  if (s.kind === "empty") return "empty";
  if (s.kind === "bot") return `bot ${s.bot}`;
  return s.bot ? `${s.player} (bot ${s.bot} standing in)` : s.player;
}

// `status`: the table's last known status (a reload knows it from the stored table).
export function openTable(table, seat, seatToken, info, status = "") {
  S.cur = {
    table, seat: seat ?? null, seat_token: seatToken ?? null, version: 0,
    info: info || S.tables.get(table) || null, view: null, legal: null, toAct: [], status, log: [], pending: false,
    analyses: {}, // board -> analysis message
  };
  persistCurrent();
  showTab("table");
  renderTable();
}

export function closeTable() {
  S.cur = null;
  save(STORE.current, null);
  renderTable();
  // Only the table's own tab gives way: a replay or the lobby on screen stays.
  if (!$("#table").classList.contains("hidden")) showTab("lobby");
}

export function persistCurrent() {
  const c = S.cur;
  save(STORE.current, c ? { table: c.table, seat: c.seat, seat_token: c.seat_token, version: c.version, status: c.status } : null);
}

export function joinTable(table, seat) {
  openTable(table, null, null);
  send({ type: "join", table, seat: seat ?? undefined });
}

export function spectate(table) {
  openTable(table, null, null);
  send({ type: "spectate", table });
}

export function resumeTable(table) {
  const stored = load(STORE.seats, {})[table] || {};
  openTable(table, stored.seat ?? null, stored.seat_token ?? null);
  sendResume(table, 0, stored.seat_token);
}

// A resume is answered by a snapshot, or by an error if the table is gone (onError).
export function sendResume(table, since, seatToken) {
  const id = send({ type: "resume", table, since, seat_token: seatToken || undefined });
  if (id !== null) S.tableRequests.set(id, { kind: "resume", table });
}

// Deep links, followed once after the first welcome: #replay=ID, #table=ID.
export function followDeepLink() {
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

// The create-table form draws each option the game's schema names (welcome's
// `options`): a menu for a choice, a box for a switch, a number field with the
// schema's bounds, a text field otherwise; the default is preselected, and only
// options changed from their defaults are sent (the JSON box can add more).
export function renderOptionForm() {
  const game = $("#create-game").value;
  const schema = (S.optionSchemas || {})[game] || {};
  $("#create-form").dataset.game = game;
  const rows = Object.entries(schema).map(([name, option]) => {
    const label = option.title || name;
    const tip = (option.description || "").split("\n")[0];
    const unset = optional(option);
    const prop = unset ? { ...unset, default: option.default } : option;
    let input;
    if (Array.isArray(prop.enum)) {
      const none = unset ? [el("option", { value: "", selected: prop.default === null }, "(unset)")] : [];
      input = el("select", { "data-option": name }, ...none, ...prop.enum.map((v) =>
        el("option", { value: v, selected: v === prop.default }, words(v))));
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

// A name as people read it: crazy_eights, one_each -> crazy eights, one each.
function words(name) {
  return String(name).replaceAll("_", " ");
}

// An option that may be left unset (a type or nothing): its type, else null.
function optional(prop) {
  if (!Array.isArray(prop.anyOf) || !prop.anyOf.some((t) => t.type === "null")) return null;
  return prop.anyOf.find((t) => t.type !== "null") || null;
}

// The options the form changed from their defaults.
export function formOptions() {
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
    if (value === "" && optional(prop)) value = prop.default; // left unset
    if (value !== prop.default) out[name] = value;
  }
  return out;
}
