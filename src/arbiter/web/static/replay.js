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

function show(ply) {
  at = Math.max(0, Math.min(ply, replay.frames.length - 1));
  const frame = replay.frames[at];
  board.draw({ pieces: frame.pieces, last: frame.last, selected: [], targets: [], origins: [] });
  document.querySelectorAll("#moves li").forEach((li) => {
    li.classList.toggle("current", Number(li.dataset.ply) === at);
  });
  const current = document.querySelector("#moves li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
  $("status").textContent = at ? `after move ${at} of ${replay.frames.length - 1}` : "the start";
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
  $("result").textContent = `Result: ${replay.result.text}`;
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
  show(0);
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
  $("first").onclick = () => show(0);
  $("prev").onclick = () => show(at - 1);
  $("next").onclick = () => show(at + 1);
  $("last").onclick = () => show(replay.frames.length - 1);
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
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: replay.frames.length - 1,
      ArrowUp: 0, ArrowDown: replay.frames.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
}

start().catch((e) => ($("error").textContent = e.message));
