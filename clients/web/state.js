// cardtable browser client: the page's one state object, and what it keeps in localStorage.

export const PROTOCOL = 1;

export const STORE = {
  token: "cardtable.token",
  name: "cardtable.name",
  current: "cardtable.current", // {table, seat, seat_token, version} of the table on screen
  seats: "cardtable.seats", // {tableId: {seat, seat_token}} for every seat we took
};

// Close codes after which reconnecting by itself would only repeat the failure.
export const NO_RETRY = new Set([4000, 4002, 4008, 4011]);

export const S = {
  ws: null,
  connected: false,
  retry: 0,
  retryTimer: null,
  nextId: 1,
  player: null,
  name: "",
  games: [],
  formats: {}, // welcome.formats: game -> its file formats' names
  tables: new Map(), // lobby: table id -> TableInfo
  mySeats: [], // welcome.seats
  cur: null, // {table, seat, seat_token, version, info, view, legal, toAct, status, log, clock}
  replay: null, // {gameId, game, viewer, status, total, steps, result, index}
  tableRequests: new Map(), // request id -> {kind: "resume" | "leave", table}, until answered
};

export const load = (key, fallback) => {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? fallback : JSON.parse(raw);
  } catch {
    return fallback;
  }
};

export const save = (key, value) => {
  if (value === null || value === undefined) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
};

export const isOver = (status) => status === "finished" || status === "abandoned";
