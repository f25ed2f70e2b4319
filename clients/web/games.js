// cardtable browser client: the one registry of per-game drawings. What a game says —
// the move buttons' labels, the event log's lines, display hints such as a hand in the
// game's order — comes from the server in every frame (labels, narration, hints), so
// the page knows no game's rules. What differs per game is only how its table is drawn:
// game-<name>.js, which this file loads for every game in DRAWINGS, after itself and
// before app.js (whose helpers el, cardNode, seatName and the like they use at run time).
"use strict";

function cardsRow(cards, cls = "mini") {
  return el("div", { class: "cards small" }, (cards || []).map((c) => cardNode(c, { class: cls })));
}
const cardsText = (cards) => (Array.isArray(cards) && cards.length ? cards.map(cardLabel).join(" ") : "–");
const rankText = (r) => (r === "T" ? "10" : String(r ?? "?"));

// A game's drawing: its table (`board`), and where it has them its hand below the table,
// its controls, the turn's note, how it draws the analysis messages it gets (bridge's
// double-dummy tables: a board's, a card's, the par) and what
// it does when the table moved on under an action (`late`, `retry`). A game without an
// entry gets the generic drawing (app.js: a trick table, or the view's fields). Each entry
// is resolved when called, after every game-<name>.js has loaded.
const DRAWINGS = {
  poker: () => ({ board: pokerBoard, controls: pokerControls }),
  bridge: () => ({ board: bridgeBoard, controls: bridgeControls, note: bridgeNote,
    analysis: { board: ddTableNode, play: cardScoresNode, par: parText } }),
  tractor: () => ({ board: tractorBoard, hand: tractorHand, controls: tractorControls, note: tractorNote, late: tractorLate, retry: tractorRetry }),
  rummy: () => ({ board: rummyBoard, hand: rummyHand, controls: rummyControls, note: rummyNote }),
  crazy_eights: () => ({ board: crazyEightsBoard, hand: crazyEightsHand, controls: crazyEightsControls, note: crazyEightsNote }),
};

function drawingOf(game) {
  return Object.hasOwn(DRAWINGS, game) ? DRAWINGS[game]() : null;
}

// Every drawing's script, so that a game's drawing is its module and its entry above. A
// script written while the page is parsed runs before the parser goes on: in entry order,
// before clock.js and app.js.
if (typeof document !== "undefined" && document.readyState === "loading") {
  for (const game of Object.keys(DRAWINGS)) document.write(`<script src="/game-${game}.js"></script>`);
}
