// cardtable browser client: stored games and the replay viewer (paged, as any viewer the server
// allows, with the analysis where the game has one).

import { renderBoard, tableNames } from "./board.js";
import { actionLabel, plural, resultText, seatName, sortHand } from "./cards.js";
import { send } from "./connection.js";
import { $, cardNode, el } from "./dom.js";
import { drawingOf } from "./games.js";
import { S } from "./state.js";
import { showTab } from "./tabs.js";

export function renderGames(games) {
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
export const replayPage = (analysis) => (analysis ? 200 : 2000);

export function openReplay(gameId, viewer, analysis = false, index = 0) {
  showTab("replays");
  const v = viewer ?? (S.replay && S.replay.gameId === gameId ? S.replay.viewer : "spectator");
  S.replay = { gameId, viewer: v, steps: [], index, total: 0, loading: true, analysis };
  if (analysis) $("#rp-analysis").replaceChildren(el("p", { class: "muted" }, "computing the double-dummy analysis…"));
  send({ type: "replay", game_id: gameId, viewer: v, start: 0, limit: replayPage(analysis), analysis: analysis || undefined });
}

export function onReplay(msg) {
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

export function renderReplay() {
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
  // The game's own file formats (the welcome lists them); none: nothing to export.
  const formats = (S.formats || {})[r.game] || [];
  $("#export-form").classList.toggle("hidden", !formats.length);
  const kept = $("#export-format").value;
  $("#export-format").replaceChildren(...formats.map((f) =>
    el("option", { value: f, selected: f === kept }, f)));
  $("#rp-dd").checked = !!r.analysis;
  r.index = Math.max(0, Math.min(r.index, r.steps.length - 1));
  const step = r.steps[r.index];
  const slider = $("#rp-slider");
  slider.max = String(r.steps.length - 1);
  slider.value = String(r.index);
  $("#rp-pos").textContent = `step ${step.seq} / ${r.total - 1}`;
  const me = typeof r.viewer === "number" ? r.viewer : null;
  // Who chose the step's action and what it was, then what happened, in the game's words.
  // A secret step (a Tractor pass seen by another seat) names no seat.
  $("#rp-action").textContent = step.seq === 0
    ? "The deal"
    : step.seat === null
      ? step.label || ""
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

export function stepReplay(to) {
  const r = S.replay;
  if (!r || !r.steps.length) return;
  r.index = Math.max(0, Math.min(to, r.steps.length - 1));
  renderReplay();
}
