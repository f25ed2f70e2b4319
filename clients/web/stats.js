// cardtable browser client: the Stats tab, per-player statistics the rules of a game keep
// over its stored games (poker's tracker statistics), drawn for any game alike from the
// columns and units the server sends.

import { plural } from "./cards.js";
import { send } from "./connection.js";
import { $, el } from "./dom.js";

export function requestStats() {
  const player = $("#stats-player").value.trim();
  $("#stats-note").textContent = "computing (every stored game is replayed)…";
  send({ type: "stats", game: $("#stats-game").value, player: player || undefined });
}

// The games a welcome says keep statistics, offered in the tab's game menu.
export function offerStatsGames(games) {
  const sel = $("#stats-game");
  const chosen = sel.value;
  sel.replaceChildren(...games.map((g) => el("option", { value: g, selected: g === chosen }, g)));
}

// Any game's table the same way: the columns are the rules' own, with their units.
export function statCell(value, unit) {
  if (value === null || value === undefined) return "–";
  // JSON drops a float's ".0": the unit, not the number, says how to write it.
  if (unit === "count") return String(value);
  return unit === "%" ? value.toFixed(1) : value.toFixed(2);
}

export function renderStats(msg) {
  const cols = msg.columns || [];
  if (!cols.length) {
    $("#stats-note").textContent = `${msg.game} keeps no statistics.`;
    $("#stats-table").replaceChildren();
    $("#stats-columns").replaceChildren();
    return;
  }
  $("#stats-note").textContent = `${msg.game}: ${plural(msg.games, "stored game")}` + (msg.rows.length ? "" : " · no player found");
  const head = el("tr", {}, el("th", {}, "Player"), ...cols.map((c) => el("th", { title: c.description }, c.name)));
  const rows = msg.rows.map((r) => el("tr", {}, el("td", {}, r.player),
    ...r.values.map((v, i) => el("td", { class: "num" }, statCell(v, cols[i].unit)))));
  $("#stats-table").replaceChildren(head, ...rows);
  $("#stats-columns").replaceChildren(...cols.map((c) => el("li", {}, `${c.name}: ${c.description} (${c.unit})`)));
}
