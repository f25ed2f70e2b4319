// cardtable browser client: the one registry of per-game drawings. What a game says —
// the move buttons' labels, the event log's lines, display hints such as a hand in the
// game's order — comes from the server in every frame (labels, narration, hints), so
// the page knows no game's rules. What differs per game is only how its table is drawn:
// game-<name>.js, loaded after this file and before app.js (whose helpers el, cardNode,
// seatName and the like they use at run time).
"use strict";

function cardsRow(cards, cls = "mini") {
  return el("div", { class: "cards small" }, (cards || []).map((c) => cardNode(c, { class: cls })));
}
const cardsText = (cards) => (Array.isArray(cards) && cards.length ? cards.map(cardLabel).join(" ") : "–");
const rankText = (r) => (r === "T" ? "10" : String(r ?? "?"));

// A game's drawing: its table (`board`), and where it has them its hand below the table,
// its controls, the turn's note, how it draws the analysis messages it gets (bridge's
// double-dummy tables: a board's, a card's, the par) and what
// it does when the table moved on under an action (`late`, `retry`). Null: the generic
// drawing (app.js: a trick table, or the view's fields). Resolved when called, after
// every game-<name>.js has loaded.
function drawingOf(game) {
  switch (game) {
    case "poker":
      return { board: pokerBoard, controls: pokerControls };
    case "bridge":
      return { board: bridgeBoard, controls: bridgeControls, note: bridgeNote,
        analysis: { board: ddTableNode, play: cardScoresNode, par: parText } };
    case "tractor":
      return { board: tractorBoard, hand: tractorHand, controls: tractorControls, note: tractorNote, late: tractorLate, retry: tractorRetry };
    case "rummy":
      return { board: rummyBoard, hand: rummyHand, controls: rummyControls, note: rummyNote };
    default:
      return null;
  }
}
