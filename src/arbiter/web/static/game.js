// A live game: a person against an engine, or two engines. The server's snapshot is
// the whole truth; a click asks the server which cells may follow, and a finished
// path is sent as the move. Snapshots arrive over a WebSocket as the game goes on.
"use strict";
import { Board } from "/static/board.js";

const sid = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);
let board = null;
let snap = null;
let clicks = [];
let targets = [];
let stopHere = false; // the clicks are a move that could also go on
let tick = null;

function fmt(seconds) {
  if (seconds === null || seconds === undefined) return "∞";
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  return `${m}:${(s % 60).toFixed(1).padStart(4, "0")}`;
}

// the contest site puts its CSRF token in the page; arbiter serve has none
function csrfHeaders(headers) {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? { ...headers, "X-CSRF-Token": meta.content } : headers;
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: csrfHeaders({ "Content-Type": "application/json" }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function showError(message) {
  $("error").textContent = message || "";
}

function render() {
  const s = snap;
  $("title").textContent = `${s.title}: ${s.players[0]} (${s.seat_names[0]}) vs ${s.players[1]} (${s.seat_names[1]})`;
  document.title = `arbiter: ${s.title}`;
  const view = {
    pieces: s.pieces,
    last: s.last,
    selected: clicks,
    targets: s.your_turn ? (clicks.length ? targets : []) : [],
    origins: s.your_turn && !clicks.length ? s.origins : [],
    forced: Boolean(s.forced),
  };
  board.draw(view);
  const list = $("moves");
  list.replaceChildren();
  s.moves.forEach((m, i) => {
    const li = document.createElement("li");
    li.textContent = m.text + (m.note ? `  (${m.note})` : "");
    li.dataset.ply = i + 1;
    if (i % 2 === 0) li.dataset.no = `${i / 2 + 1}.`; // two columns: a number, then each side
    if (i === s.moves.length - 1) li.classList.add("current");
    list.appendChild(li);
  });
  list.parentElement.scrollTop = list.parentElement.scrollHeight;
  let status = "";
  if (s.result) status = "";
  else if (s.your_turn) {
    status = "Your move" + (s.forced ? `: ${s.forced}` : "");
    if (stopHere) {
      const at = clicks[clicks.length - 1];
      const cell = board && board.layout.cells.find((c) => c.id === at);
      const where = cell ? cell.label : "the last landing square";
      status += ` (the chain may go on: click ${where} again to end it there)`;
    }
  } else if (s.thinking) status = `${s.players[s.to_move]} is thinking…`;
  $("status").textContent = status;
  $("result").textContent = s.result ? `Result: ${s.result.text}` : "";
  $("undo").disabled = !s.can_undo;
  $("resign").disabled = !s.your_turn;
  $("undo").hidden = $("resign").hidden = s.human === null;
  drawClocks();
}

function drawClocks() {
  const s = snap;
  // the lower clock is the seat whose side is drawn at the bottom of the board
  const below = board.flipped ? 1 - board.layout.bottom : board.layout.bottom;
  ["clock-1", "clock-0"].forEach((id, row) => {
    const seat = row ? below : 1 - below;
    let left = s.clocks[seat];
    const running = !s.result && s.to_move === seat;
    if (running && left !== null && s.per_move === null) {
      left -= s.running_for + (performance.now() - s.received) / 1000;
    }
    const box = $(id);
    box.classList.toggle("running", running);
    box.textContent = "";
    const who = document.createElement("span");
    const swatch = document.createElement("i");
    swatch.className = `swatch c-${board.layout.colours[seat]}`;
    who.append(swatch, `${s.players[seat]} (${s.seat_names[seat]})`);
    const time = document.createElement("span");
    time.textContent = s.per_move !== null ? `${s.per_move} s/move` : fmt(left);
    box.append(who, time);
  });
}

function receive(data) {
  if (data.error) {
    showError(data.error);
    return;
  }
  // a move's answer and the socket race: a snapshot older than the one shown is dropped
  if (snap && data.version < snap.version) return;
  data.received = performance.now();
  const moved = !snap || snap.ply !== data.ply || snap.your_turn !== data.your_turn;
  snap = data;
  if (moved) {
    clicks = [];
    targets = [];
    stopHere = false;
  }
  render();
}

async function click(cell) {
  if (!snap || !snap.your_turn) return;
  showError("");
  if (stopHere && cell === clicks[clicks.length - 1]) {
    return send(clicks);
  }
  let next;
  if (clicks.length && targets.includes(cell)) next = [...clicks, cell];
  else if (snap.origins.includes(cell)) next = [cell];
  else {
    clicks = [];
    targets = [];
    stopHere = false;
    render();
    return;
  }
  try {
    const found = await api("POST", `/api/sessions/${sid}/continuations`, { clicks: next });
    if (found.complete && !found.next.length) return send(next);
    clicks = next;
    targets = found.next;
    stopHere = found.complete;
    render();
  } catch (e) {
    showError(e.message);
  }
}

async function send(path) {
  try {
    receive(await api("POST", `/api/sessions/${sid}/move`, { clicks: path }));
  } catch (e) {
    showError(e.message);
    clicks = [];
    targets = [];
    stopHere = false;
    render();
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/sessions/${sid}/live`);
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (!snap || !snap.result) setTimeout(connect, 1000);
  };
}

async function start() {
  try {
    const first = await api("GET", `/api/sessions/${sid}`);
    const layout = await api("GET", `/api/games/${first.game}/board`);
    board = new Board($("board"), layout, click);
    if (first.human !== null && first.human !== layout.bottom) board.flipped = true;
    receive(first);
    connect();
  } catch (e) {
    showError(e.message);
  }
  $("flip").onclick = () => {
    board.flip();
    render();
  };
  $("undo").onclick = async () => {
    try {
      receive(await api("POST", `/api/sessions/${sid}/undo`));
    } catch (e) {
      showError(e.message);
    }
  };
  $("resign").onclick = async () => {
    try {
      receive(await api("POST", `/api/sessions/${sid}/resign`));
    } catch (e) {
      showError(e.message);
    }
  };
  tick = setInterval(() => snap && !snap.result && drawClocks(), 200);
}

start();
