// cardtable browser client: the cards' spellings and the small words every drawing shares (card
// labels, counts, seat names, results, actions' labels). Pure: no page, no state.

export const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export const SUIT_ORDER = { S: 0, H: 1, C: 2, D: 3 }; // alternating colours in a hand

export const RANKS = "23456789TJQKA";

export function parseCard(text) {
  if (typeof text !== "string") return null;
  const t = text.trim().toUpperCase();
  if (t === "BJ" || t === "RJ") return { joker: "big", key: 53, label: "BJ", red: true };
  if (t === "SJ" || t === "LJ") return { joker: "small", key: 52, label: "SJ", red: false };
  const m = /^(10|[2-9TJQKA])([CDHS♣♦♥♠])$/.exec(t);
  if (!m) return null;
  const rank = m[1] === "10" ? "T" : m[1];
  const suit = { "♣": "C", "♦": "D", "♥": "H", "♠": "S" }[m[2]] || m[2];
  return {
    rank,
    suit,
    spelling: rank + suit,
    label: (rank === "T" ? "10" : rank) + SUITS[suit],
    red: suit === "H" || suit === "D",
    key: "CDHS".indexOf(suit) * 13 + RANKS.indexOf(rank),
  };
}

export const isCard = (t) => parseCard(t) !== null;

// "1 card", "2 cards": every count shown goes through here.
export const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

export const cardLabel = (t) => (isCard(t) ? parseCard(t).label : String(t));

export const sameCard = (a, b) => {
  const x = parseCard(a);
  const y = parseCard(b);
  return x !== null && y !== null && x.key === y.key;
};

export function sortHand(cards) {
  const order = (c) => {
    const p = parseCard(c);
    if (!p) return [9, 0];
    if (p.joker) return [4, -p.key];
    return [SUIT_ORDER[p.suit], -RANKS.indexOf(p.rank)];
  };
  return [...cards].sort((a, b) => {
    const x = order(a);
    const y = order(b);
    return x[0] - y[0] || x[1] - y[1];
  });
}

export function valueText(v) {
  if (typeof v === "string") return cardLabel(v);
  if (Array.isArray(v)) {
    if (v.length === 0) return "–";
    if (v.every((x) => typeof x === "string")) return v.map(cardLabel).join(" ");
    if (v.every((x) => typeof x === "number")) return v.join(" ");
    if (v.every(Array.isArray)) return v.map(valueText).join(" | ");
  }
  if (typeof v === "boolean") return v ? "yes" : "no";
  if (typeof v === "number") return String(v);
  return JSON.stringify(v);
}

export function seatName(seat, names, me) {
  if (typeof seat !== "number") return String(seat);
  const n = names[seat] || `Seat ${seat}`;
  return seat === me ? `${n} (you)` : n;
}

// An action without the server's label (a frame from an older server): its fields.
export function actionLabel(a) {
  const rest = Object.entries(a).filter(([k]) => k !== "type");
  if (a.type === "play" && rest.length === 1 && rest[0][0] === "card") return cardLabel(a.card);
  return [a.type, ...rest.map(([k, v]) => (k === "card" || k === "cards" ? valueText(v) : `${k}=${valueText(v)}`))].join(" ");
}

export const isCardPlay = (a) => a.type === "play" && Object.keys(a).length === 2 && isCard(a.card);

// The result line; `hints.result`, where the game gives one, is its summary in the
// table's words.
export function resultText(result, names, hints = {}) {
  if (!result) return "no result recorded";
  let out = hints.result || result.summary || "";
  if (Array.isArray(result.scores)) {
    const per = result.scores.map((s, i) => `${seatName(i, names, null)} ${s}`).join(", ");
    out = out ? `${out} (scores: ${per})` : `scores: ${per}`;
  }
  return out || JSON.stringify(result);
}

// The server's label of a legal action (the frame's `labels`, in `legal`'s order).
export function labelFor(legal, labels) {
  return (a) => {
    const i = (legal || []).indexOf(a);
    return labels && i >= 0 && typeof labels[i] === "string" ? labels[i] : actionLabel(a);
  };
}

export const cardsText = (cards) => (Array.isArray(cards) && cards.length ? cards.map(cardLabel).join(" ") : "–");

export const rankText = (r) => (r === "T" ? "10" : String(r ?? "?"));
