// A tournament's standings, read again every two seconds while games are still to be
// played: scores, Elo with its 95% interval, the crosstable, the games under way and
// the latest games, each linked to its replay.
"use strict";
const $ = (id) => document.getElementById(id);
const name = decodeURIComponent(location.pathname.split("/").pop());

function row(table, cells, header) {
  const tr = document.createElement("tr");
  for (const c of cells) {
    const td = document.createElement(header ? "th" : "td");
    if (c instanceof Node) td.appendChild(c);
    else td.textContent = c;
    // numbers (and the signed Elo, the interval, "3/4") line up on the right
    if (!header && (typeof c === "number" || /^[-+±∞\d./ ]+$/.test(String(c)))) td.className = "num";
    tr.appendChild(td);
  }
  table.appendChild(tr);
}

function signed(x) {
  return (x >= 0 ? "+" : "") + Math.round(x);
}

function render(data) {
  $("title").textContent = `${data.tournament}: ${data.game}`;
  $("progress").textContent = data.remaining
    ? `${data.games} of ${data.planned} games played, ${data.remaining} to go (updating)`
    : `all ${data.planned} games played`;
  const st = $("standings");
  st.replaceChildren();
  const head = ["#", "agent", "games", "+", "=", "-", "score", "%", "Elo", "± (95%)"];
  if (data.contest_scored) head.push("contest points");
  row(st, head, true);
  data.lines.forEach((l, i) => {
    const cells = [i + 1, l.name, l.games, l.wins, l.draws, l.losses, l.points, (100 * l.share).toFixed(1),
      signed(l.rating.elo), l.rating.error === null ? "∞" : Math.round(l.rating.error)];
    if (data.contest_scored) cells.push(l.contest_points);
    row(st, cells);
  });
  const ct = $("crosstable");
  ct.replaceChildren();
  row(ct, ["", ...data.agents.map((a, i) => `${i + 1}`)], true);
  data.agents.forEach((a, i) => {
    row(ct, [`${i + 1} ${a}`, ...data.agents.map((b, j) =>
      i === j ? "" : data.meetings[i][j] ? `${data.crosstable[i][j]}/${data.meetings[i][j]}` : "")]);
  });
  const running = data.remaining ? data.running : [];
  $("running-box").hidden = !running.length;
  const ut = $("running");
  ut.replaceChildren();
  row(ut, ["game", "first", "second", "moves", "started"], true);
  for (const g of running) {
    row(ut, [g.number, g.players[0], g.players[1], g.plies, new Date(g.started).toLocaleTimeString()]);
  }
  const rt = $("recent");
  rt.replaceChildren();
  row(rt, ["game", "first", "second", "result", "reason", "plies"], true);
  for (const g of data.recent) {
    const link = document.createElement("a");
    link.href = `/replay?tournament=${encodeURIComponent(data.tournament)}&game=${g.number}`;
    link.textContent = g.number;
    row(rt, [link, g.players[0], g.players[1], g.result, g.reason, g.plies]);
  }
  return data.remaining > 0;
}

async function refresh() {
  try {
    const response = await fetch(`/api/tournaments/${encodeURIComponent(name)}`);
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    $("error").textContent = "";
    if (!render(data)) return; // finished: nothing more will change
  } catch (e) {
    $("error").textContent = e.message;
  }
  setTimeout(refresh, 2000);
}

refresh();
