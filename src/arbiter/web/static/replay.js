// Stepping through a stored game: a record file chosen on the start page (several
// games: choose one), ?tournament=NAME&game=N from the server's database, or
// a game of the contest server (arbiter host: /games/ID, or ?contest=ID). The
// positions come from the server, which replays every move through the rules.
"use strict";
import { Board } from "/static/board.js";

const $ = (id) => document.getElementById(id);
let games = [];
let replay = null;
let board = null;
let at = 0;
// a contest game: each visible seat's transcript cut at its replies ("! reply N")
let seatLogs = [];
let logSeat = null;
const LIVE_EVERY = 1000; // ms between two looks at a game being played

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// the last ply the list shows: a game a program's fault ended has one more row, the
// move it did not make
const lastPly = () => replay.frames.length - 1 + (replay.fault ? 1 : 0);

function show(ply) {
  at = Math.max(0, Math.min(ply, lastPly()));
  const frame = replay.frames[Math.min(at, replay.frames.length - 1)];
  board.draw({ pieces: frame.pieces, last: frame.last, selected: [], targets: [], origins: [] });
  document.querySelectorAll("#moves li").forEach((li) => {
    li.classList.toggle("current", Number(li.dataset.ply) === at);
  });
  const current = document.querySelector("#moves li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
  const moves = replay.frames.length - 1;
  $("status").textContent = at > moves
    ? `move ${at}: ${replay.fault.reason} (${replay.fault.detail})`
    : at ? `after move ${at} of ${moves}${replay.live ? " (being played)" : ""}` : "the start";
  showLog();
}

// the part of a transcript for move `ply`: for a move of the log's seat, what it was
// sent and wrote up to that reply; otherwise what it has been sent since its last
function showLog() {
  if (logSeat === null || !seatLogs[logSeat]) return;
  const parts = seatLogs[logSeat];
  let replies = 0;
  const upTo = Math.min(at, replay.frames.length - 1);
  for (let i = 1; i <= upTo; i++) if (replay.frames[i].seat === logSeat) replies++;
  const own = at > 0 && at <= replay.frames.length - 1 && replay.frames[at].seat === logSeat;
  const part = own ? replies - 1 : replies;
  $("seat-log").textContent = parts[Math.min(part, parts.length - 1)] || "";
}

// a transcript cut after each "! reply N" line
function cutLog(text) {
  const parts = [[]];
  for (const line of text.split("\n")) {
    parts[parts.length - 1].push(line);
    if (/^\s*[\d.]+ ! reply \d+,/.test(line)) parts.push([]);
  }
  return parts.map((lines) => lines.join("\n"));
}

async function loadLogs() {
  const visible = (replay.logs || []).map((url, seat) => [url, seat]).filter(([url]) => url);
  seatLogs = [];
  $("seat-log-box").hidden = !visible.length;
  if (!visible.length) return;
  for (const [url, seat] of visible) {
    const response = await fetch(url);
    seatLogs[seat] = response.ok ? cutLog(await response.text()) : ["(no transcript)"];
  }
  $("log-seat").replaceChildren(...visible.map(([, seat]) => {
    const option = document.createElement("option");
    option.value = seat;
    option.textContent = `${replay.players[seat]} (${replay.seat_names[seat]})`;
    return option;
  }));
  // the program at fault first, else the first the viewer may see
  const faulty = replay.fault && visible.some(([, seat]) => seat === replay.fault.seat);
  logSeat = faulty ? replay.fault.seat : visible[0][1];
  $("log-seat").value = logSeat;
  $("log-seat").onchange = () => {
    logSeat = Number($("log-seat").value);
    showLog();
  };
}

async function open(index) {
  replay = games[index];
  const layout = await api("GET", `/api/games/${replay.game}/board`);
  board = new Board($("board"), layout, () => {});
  $("title").textContent = `replay: ${replay.title}`;
  const side = (seat) => {
    const swatch = document.createElement("i");
    swatch.className = `swatch c-${layout.colours[seat]}`;
    return [swatch, `${replay.players[seat]} (${replay.seat_names[seat]})`];
  };
  $("players").replaceChildren(...side(0), " vs ", ...side(1));
  $("result").textContent = replay.live ? replay.result.text : `Result: ${replay.result.text}`;
  if (replay.round !== undefined) {
    $("contest-back").hidden = false;
    $("round").textContent = replay.round > 0
      ? `· round ${replay.round}${replay.phase === "final" ? " of the final" : ""}`
      : `· candidate evaluation ${-replay.round}`;
  }
  linkLogs();
  listMoves();
  await loadLogs();
  show(0);
}

function linkLogs() {
  // a contest game: the transcript and standard error of each seat the viewer may
  // see (their own program's, or every one for the organiser)
  const logs = (replay.logs || []).map((url, seat) => [url, seat]).filter(([url]) => url);
  $("logs").hidden = !logs.length;
  $("logs").replaceChildren(...logs.flatMap(([url, seat], i) => {
    const link = document.createElement("a");
    link.href = url;
    link.textContent = `${replay.players[seat]}'s transcript and standard error`;
    return i ? [" · ", link] : [link];
  }));
}

function listMoves() {
  const list = $("moves");
  list.replaceChildren();
  // two columns, lichess's way: a move number, the first player's move, the second's;
  // each move with the seconds it was charged
  replay.frames.slice(1).forEach((frame, i) => {
    const li = document.createElement("li");
    li.textContent = frame.text;
    if (replay.times && replay.times[i] !== undefined) {
      const time = document.createElement("small");
      time.className = "time";
      time.textContent = ` ${replay.times[i].toFixed(2)}s`;
      li.appendChild(time);
    }
    if (i % 2 === 0) li.dataset.no = `${i / 2 + 1}.`;
    li.dataset.ply = i + 1;
    li.onclick = () => show(i + 1);
    list.appendChild(li);
  });
  if (replay.fault) {
    const li = document.createElement("li");
    const ply = replay.frames.length;
    li.className = "fault";
    li.id = "fault";
    const wrote = replay.fault.offending === null ? "" : ` ${JSON.stringify(replay.fault.offending)}`;
    li.textContent = `✗${wrote} ${replay.fault.reason}`;
    li.title = replay.fault.detail;
    if ((ply - 1) % 2 === 0) li.dataset.no = `${(ply - 1) / 2 + 1}.`;
    li.dataset.ply = ply;
    li.onclick = () => show(ply);
    list.appendChild(li);
  }
}

// a game being played: its moves as they come, the board following the last move
// unless the viewer stepped back; the result (and logs) once it ends
async function follow(id) {
  const latest = await api("GET", `/api/contest/games/${id}`);
  const atEnd = at >= lastPly();
  const grew = latest.frames.length !== replay.frames.length || latest.live !== replay.live;
  replay = latest;
  games[0] = latest;
  if (grew) {
    listMoves();
    $("result").textContent = replay.live ? replay.result.text : `Result: ${replay.result.text}`;
    if (!replay.live) {
      linkLogs();
      await loadLogs();
    }
    show(atEnd ? lastPly() : at);
  }
  if (replay.live) setTimeout(() => follow(id).catch(() => setTimeout(() => follow(id), LIVE_EVERY)), LIVE_EVERY);
}

async function start() {
  const query = new URLSearchParams(location.search);
  const hosted = location.pathname.match(/^\/games\/(\d+)$/);
  const contestGame = query.get("contest") || (hosted && hosted[1]);
  if (contestGame) {
    games = [await api("GET", `/api/contest/games/${Number(contestGame)}`)];
  } else if (query.get("tournament")) {
    const t = encodeURIComponent(query.get("tournament"));
    games = [await api("GET", `/api/tournaments/${t}/games/${Number(query.get("game"))}`)];
  } else {
    const text = sessionStorage.getItem("replay-text");
    if (!text) throw new Error("no game to replay: choose a record file on the start page");
    games = await api("POST", "/api/replays", { text });
    // lines that are no game record are left out, and said
    if (games[0].skipped && games[0].skipped.length) {
      $("error").textContent = `Left out: ${games[0].skipped.join("; ")}`;
    }
  }
  if (games.length > 1) {
    $("choose-box").hidden = false;
    games.forEach((g, i) => {
      const option = document.createElement("option");
      option.value = i;
      option.textContent = `${i + 1}: ${g.players[0]} vs ${g.players[1]}, ${g.result.result}`;
      $("choose").appendChild(option);
    });
    $("choose").onchange = () => open(Number($("choose").value));
  }
  await open(0);
  if (replay.live) setTimeout(() => follow(Number(contestGame)), LIVE_EVERY);
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(lastPly());
  let playing = null;
  const stop = () => {
    clearInterval(playing);
    playing = null;
    $("play").textContent = "Play ▶";
  };
  const play = () => {
    if (at >= replay.frames.length - 1) show(0);
    $("play").textContent = "Pause ⏸";
    playing = setInterval(() => {
      if (at >= replay.frames.length - 1) stop();
      else show(at + 1);
    }, Number($("pace").value));
  };
  $("play").onclick = () => (playing ? stop() : play());
  $("pace").onchange = () => {
    if (playing) {
      stop();
      play();
    }
  };
  $("flip").onclick = () => {
    board.flip();
    show(at);
  };
  document.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: lastPly(),
      ArrowUp: 0, ArrowDown: lastPly() };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
}

start().catch((e) => ($("error").textContent = e.message));
