// cardtable browser client: the websocket (connecting with backoff, the session, sending). What
// the server sends goes to the one handler the entry module installs (messages.js), so this
// module imports none of the page's views and every view can import `send`.

import { $, el } from "./dom.js";
import { load, NO_RETRY, PROTOCOL, S, STORE } from "./state.js";

let dispatch = () => {};

// The handler of every message the server sends (set once, before connecting).
export function onMessage(handler) {
  dispatch = handler;
}

export function send(msg) {
  if (!S.ws || S.ws.readyState !== WebSocket.OPEN) {
    showError("not connected", "the message was not sent; reconnecting…");
    return null;
  }
  const id = S.nextId++;
  S.ws.send(JSON.stringify({ ...msg, id }));
  return id;
}

export function setConn(text, up) {
  const c = $("#conn");
  c.textContent = text;
  c.className = `conn ${up ? "up" : "down"}`;
}

export function connect() {
  clearTimeout(S.retryTimer);
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/`);
  S.ws = ws;
  setConn("connecting…", false);
  ws.onopen = () => {
    S.retry = 0;
    hello();
  };
  ws.onmessage = (ev) => {
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch {
      return;
    }
    dispatch(msg);
  };
  ws.onclose = (ev) => {
    if (S.ws !== ws) return;
    S.connected = false;
    if (NO_RETRY.has(ev.code)) {
      setConn(`disconnected: ${ev.reason || ev.code}`, false);
      const again = el("button", { type: "button", onclick: () => connect() }, "Reconnect");
      $("#conn").append(" ", again);
      return;
    }
    const delay = Math.min(500 * 2 ** S.retry, 5000);
    S.retry += 1;
    setConn(`offline (${ev.code || "no connection"}); retrying in ${(delay / 1000).toFixed(1)}s`, false);
    S.retryTimer = setTimeout(connect, delay);
  };
}

export function hello() {
  const msg = { type: "hello", protocol: PROTOCOL };
  const token = load(STORE.token, null);
  const name = (load(STORE.name, "") || "").trim();
  if (token) msg.token = token;
  else if (name) msg.name = name;
  send(msg);
}

export function showError(code, text) {
  const box = $("#errors");
  const item = el("div", { class: "error" }, el("strong", {}, code), " ", text,
    el("button", { type: "button", class: "close", onclick: () => item.remove(), title: "dismiss" }, "×"));
  box.append(item);
  setTimeout(() => item.remove(), 8000);
}
