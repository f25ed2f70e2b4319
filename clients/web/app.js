// cardtable browser client, the entry module (the only script index.html loads): it wires the
// page's controls, follows deep links and connects. Plain JS modules, no build step. The page
// speaks the websocket protocol (docs/protocol.md); the session token and the seat tokens live in
// localStorage, so a reload or a server restart resumes. No module sets a global: tests reach the
// page's state by importing state.js.

import { tickClocks } from "./clock.js";
import { connect, onMessage, send, showError } from "./connection.js";
import { $ } from "./dom.js";
import { importFile } from "./files.js";
import { closeTable, formOptions, renderOptionForm } from "./lobby.js";
import { handle } from "./messages.js";
import { openReplay, stepReplay } from "./replay.js";
import { load, S, save, STORE } from "./state.js";
import { requestStats } from "./stats.js";
import { requestGames, showTab } from "./tabs.js";

export function setup() {
  for (const b of document.querySelectorAll(".tab")) b.addEventListener("click", () => showTab(b.dataset.tab));
  $("#name").value = load(STORE.name, "") || "";
  $("#name").addEventListener("change", () => {
    const name = $("#name").value.trim();
    if ((S.cur || S.mySeats.length) && S.name && name !== S.name) {
      // Seats in play belong to this session and its name: say why it stays.
      $("#name").value = S.name;
      showError("name", `You play as ${S.name} while you hold a seat; change your name once you hold none.`);
      return;
    }
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
  // A house rule out of bounds inside the folded section: unfold it, or the browser
  // has nowhere to show why the form will not submit.
  $("#create").addEventListener("invalid", (ev) => {
    const section = ev.target.closest("details");
    if (section) section.open = true;
  }, true);
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
    else msg.seat = Number($("#create-seat").value || 1) - 1;  // shown from 1, as seats are named
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
  const endMatch = (agree) => {
    if (!S.cur || !S.cur.seat_token) return;
    send({ type: "end_match", table: S.cur.table, seat_token: S.cur.seat_token, agree });
  };
  $("#btn-end-match").addEventListener("click", () => endMatch(true));
  $("#btn-keep-playing").addEventListener("click", () => endMatch(false));
  $("#btn-leave").addEventListener("click", () => {
    if (!S.cur) return;
    const live = S.cur.status === "live" && S.cur.seat !== null;
    if (live && !confirm("Leave the game? A bot plays your seat for the rest of it; you cannot come back to it.")) return;
    const id = send({ type: "leave", table: S.cur.table });
    if (id !== null) S.tableRequests.set(id, { kind: "leave", table: S.cur.table });
    closeTable();
  });
  $("#btn-games").addEventListener("click", requestGames);
  $("#stats-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    requestStats();
  });
  $("#import-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    const file = $("#import-file").files[0];
    if (file) importFile(file, $("#import-format").value.trim());
  });
  $("#export-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (S.replay) send({ type: "export_game", game_id: S.replay.gameId, format: $("#export-format").value.trim() });
  });
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
  // Followed once: a reload later (seated at a table by then) must not open it again.
  if (location.hash) history.replaceState(null, "", location.pathname + location.search);
  onMessage(handle);
  connect();
}

window.addEventListener("DOMContentLoaded", setup);
