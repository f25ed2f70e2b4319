// cardtable browser client: the turn clock. A frame's `clock` (snapshot and update,
// docs/protocol.md) says who is on the clock and how much time they had when it was built;
// connection.js keeps it with the time it arrived, and this counts down from there.

import { el } from "./dom.js";
import { S } from "./state.js";

// "30 s a turn + 120 s bank" for a table with a turn clock, else "".
export function clockSummary(info) {
  if (!info.turn_seconds) return "";
  return `${info.turn_seconds} s a turn${info.time_bank ? ` + ${info.time_bank} s bank` : ""}`;
}

// Seconds `seat` has left as of `now`: the turn time runs first, then the seat's bank.
export function clockLeft(clock, seat, now = performance.now()) {
  const gone = Math.max(0, (now - clock.at) / 1000);
  const turn0 = typeof clock.turn_left === "number" ? clock.turn_left : 0;
  const bank0 = Array.isArray(clock.banks) && typeof clock.banks[seat] === "number" ? clock.banks[seat] : 0;
  return { turn: Math.max(0, turn0 - gone), bank: Math.max(0, bank0 - Math.max(0, gone - turn0)) };
}

// Whether the update `msg` is the server's stand-in move for the viewer's own seat: the
// seat was on the clock with its time all but gone (as counted here), the viewer sent
// nothing at that version, and the update moved the seat. Frames do not name who made a
// move, and another seat's last-second move looks the same, so only one's own is told.
export function ranOutOfTime(cur, msg, now = performance.now()) {
  const clock = cur.clock;
  const me = cur.seat;
  if (msg.type !== "update" || !clock || typeof me !== "number" || !(clock.seats || []).includes(me)) return false;
  if (cur.actVersion === cur.version && cur.lastAction) return false;
  const { turn, bank } = clockLeft(clock, me, now);
  // The countdown here started when the frame arrived, so it runs a little behind.
  return turn + bank < 2 && msg.events.some((e) => e.seat === me);
}

export function clockFormat(seconds) {
  const s = Math.ceil(Math.max(0, seconds));
  const [h, m, r] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return `${h ? `${h}:${String(m).padStart(2, "0")}` : m}:${String(r).padStart(2, "0")}`;
}

// A countdown beside each seat on the clock (on the board and in the seat list),
// drawn with the table and ticked by tickClocks without redrawing anything else.
export function drawClocks() {
  for (const node of document.querySelectorAll("#table .clock")) node.remove();
  const clock = S.cur && S.cur.clock;
  if (!clock || !Array.isArray(clock.seats)) return;
  for (const seat of clock.seats) {
    for (const spot of document.querySelectorAll(`#board .seat-label[data-seat="${seat}"], #seats li[data-seat="${seat}"]`)) {
      spot.append(el("span", { class: "clock", "data-seat": seat, title: "time left to act, then the time bank" }));
    }
  }
  tickClocks();
}

export function tickClocks() {
  const clock = S.cur && S.cur.clock;
  if (!clock) return;
  for (const node of document.querySelectorAll("#table .clock")) {
    const { turn, bank } = clockLeft(clock, Number(node.dataset.seat));
    const onBank = turn <= 0 && bank > 0; // without a bank the turn time runs down to 0:00
    node.textContent = onBank ? `bank ${clockFormat(bank)}` : clockFormat(turn);
    node.className = `clock${onBank ? " bank" : ""}${turn + bank <= 10 ? " low" : ""}`;
  }
}
