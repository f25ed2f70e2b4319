// cardtable browser client (games.js): the one registry of per-game drawings. What a game
// says — the move buttons' labels, the event log's lines, display hints such as a hand in
// the game's order — comes from the server in every frame (labels, narration, hints), so
// the page knows no game's rules. What differs per game is only how its table is drawn:
// each game-<name>.js module exports its `drawing`: its table (`board`), and where it has
// them its hand below the table, its controls, the turn's note, how it draws the analysis
// messages it gets (bridge's double-dummy tables) and what it does when the table moved
// on under an action (`late`, `retry`). A game without an entry gets the generic drawing
// (table.js: a trick table, or the view's fields).

import { drawing as bridge } from "./game-bridge.js";
import { drawing as crazy_eights } from "./game-crazy_eights.js";
import { drawing as poker } from "./game-poker.js";
import { drawing as rummy } from "./game-rummy.js";
import { drawing as tractor } from "./game-tractor.js";

const DRAWINGS = { poker, bridge, tractor, rummy, crazy_eights };

export function drawingOf(game) {
  return Object.hasOwn(DRAWINGS, game) ? DRAWINGS[game] : null;
}
