// The start page: new games against an engine, engine matches to watch, replays of
// record files, and the tournaments of the server's database.
"use strict";
const $ = (id) => document.getElementById(id);
let games = [];

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

function fill(select, values, labels) {
  select.replaceChildren();
  values.forEach((v, i) => {
    const option = document.createElement("option");
    option.value = v;
    option.textContent = labels ? labels[i] : v;
    select.appendChild(option);
  });
}

function follow(form) {
  const game = games.find((g) => g.name === form.game.value);
  for (const select of form.querySelectorAll("select.engine")) fill(select, game.engines);
  const side = form.querySelector("select.side");
  if (side) fill(side, game.seat_names, game.seat_names.map((n, i) => `${n} (${i ? "second" : "first"})`));
}

async function start() {
  games = await api("GET", "/api/games");
  for (const form of [$("play"), $("watch")]) {
    fill(form.game, games.map((g) => g.name), games.map((g) => g.title));
    form.game.onchange = () => follow(form);
    follow(form);
  }
  $("play").onsubmit = async (event) => {
    event.preventDefault();
    const f = event.target;
    try {
      const s = await api("POST", "/api/sessions", {
        game: f.game.value, side: f.side.value, engine: f.engine.value,
        clock: f.clock.value, move_time: Number(f.move_time.value), position: f.position.value || null,
      });
      location.href = `/play/${s.id}`;
    } catch (e) {
      $("error").textContent = e.message;
    }
  };
  $("watch").onsubmit = async (event) => {
    event.preventDefault();
    const f = event.target;
    try {
      const s = await api("POST", "/api/matches", {
        game: f.game.value, engines: [f.a.value, f.b.value], move_time: Number(f.move_time.value),
      });
      location.href = `/play/${s.id}`;
    } catch (e) {
      $("error").textContent = e.message;
    }
  };
  try {
    const list = await api("GET", "/api/tournaments");
    $("tournaments-box").hidden = !list.length;
    for (const t of list) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/tournament/${encodeURIComponent(t.name)}`;
      a.textContent = `${t.name} (${t.game}, ${t.agents.length} agents, ${t.played} games)`;
      li.appendChild(a);
      $("tournaments").appendChild(li);
    }
  } catch (e) {
    // no database on this server
  }
}

// a record file chosen at once, before the games list has come, still opens its replay
$("record-file").onchange = async (event) => {
  const file = event.target.files[0];
  if (!file) return;
  sessionStorage.setItem("replay-text", await file.text());
  location.href = "/replay";
};

start().catch((e) => ($("error").textContent = e.message));
