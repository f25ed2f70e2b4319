// cardtable browser client: files in and out. A file from another program (a PBN or LIN
// bridge file, a PHH or site hand history) is sent to the server, which stores its games;
// a stored game comes back in a named format as a download.

import { plural } from "./cards.js";
import { send } from "./connection.js";
import { $, el } from "./dom.js";
import { openReplay } from "./replay.js";
import { requestGames } from "./tabs.js";

// An import_file message carries a part of the file; each must stay within the
// server's 64 KiB frames as JSON, and a file of 1 MiB within the burst of messages.
export const FRAME_BYTES = 60 * 1024;
export const PART_CHARS = 40 * 1024;

// UTF-8 bytes of a string (surrogate pairs: four).
export function utf8Length(str) {
  let n = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < str.length) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

export function importParts(text, base) {
  const parts = [];
  const bytes = (msg) => utf8Length(JSON.stringify(msg));
  let at = 0;
  do {
    let n = Math.min(PART_CHARS, text.length - at);
    for (let size = bytes({ ...base, text: text.slice(at, at + n), more: true }); n > 1 && size > FRAME_BYTES;
      size = bytes({ ...base, text: text.slice(at, at + n), more: true })) n = Math.floor((n * FRAME_BYTES * 0.95) / size);
    parts.push(text.slice(at, at + n));
    at += n;
  } while (at < text.length);
  return parts;
}

export async function importFile(file, format) {
  const text = await file.text();
  const base = { type: "import_file", filename: file.name.slice(0, 255) };
  if (format) base.format = format;
  const parts = importParts(text, base);
  $("#import-status").textContent = `importing ${file.name}…`;
  parts.forEach((part, i) => send({ ...base, text: part, ...(i < parts.length - 1 ? { more: true } : {}) }));
}

export function onImported(msg) {
  const before = msg.games.filter((g) => g.stored_before).length;
  const again = before ? `; ${plural(before, "game")} of it stored before, kept once` : "";
  $("#import-status").textContent = `imported ${plural(msg.games.length - before, "game")} (${msg.format})${again}`;
  requestGames();
  if (msg.games.length) openReplay(msg.games[0].game_id, "all");
}

export function onExported(msg) {
  const url = URL.createObjectURL(new Blob([msg.text], { type: "text/plain" }));
  const link = el("a", { href: url, download: `game-${msg.game_id}.${msg.format}` });
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

// A file the server refused: said beside the import form.
export function onFileError(code, text) {
  if (code === "bad_file" || code === "unknown_format") $("#import-status").textContent = `not imported: ${text}`;
}
