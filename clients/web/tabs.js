// cardtable browser client: the page's tabs, and the stored games' list the Replays tab shows.

import { send } from "./connection.js";
import { $ } from "./dom.js";
import { S } from "./state.js";

export function showTab(name) {
  for (const b of document.querySelectorAll(".tab")) b.classList.toggle("active", b.dataset.tab === name);
  for (const p of document.querySelectorAll(".pane")) p.classList.toggle("hidden", p.id !== name);
  // Each time: a game that ended since, or was just imported, is in the list.
  if (name === "replays" && S.connected) requestGames();
}

export function requestGames() {
  const status = $("#games-status").value;
  send({ type: "list_games", limit: 100, status: status || undefined });
}
