// the standings are pushed by the server (server-sent events), never polled
const events = new EventSource("/api/events");
events.addEventListener("standings", (e) => {
  const data = JSON.parse(e.data);
  const body = document.querySelector("#standings tbody");
  const head = document.querySelector("#standings thead tr");
  const heading = (text, cls) => { const th = document.createElement("th"); th.textContent = text; if (cls) th.className = cls; return th; };
  head.replaceChildren(heading("#", "n"), heading("entrant"), heading("points", "n"), heading("games", "n"),
    heading("+", "n wide"), heading("=", "n wide"), heading("−", "n wide"),
    ...(data.contest_scored ? [heading("contest", "n")] : []), heading("irreg.", "n"), heading("Elo ± 95%", "n"));
  const cell = (text, cls) => { const td = document.createElement("td"); td.textContent = text; if (cls) td.className = cls; return td; };
  body.replaceChildren(...data.rows.map((row, i) => {
    const tr = document.createElement("tr");
    if (row.disqualified) tr.className = "disqualified";
    const link = document.createElement("a"); link.href = `/contestants/${row.name}`; link.textContent = row.name;
    const name = document.createElement("td"); name.appendChild(link);
    if (row.disqualified) name.append(" (disqualified)");
    tr.append(cell(i + 1, "n"), name, cell(row.points, "n"), cell(row.games, "n"),
      cell(row.wins, "n wide"), cell(row.draws, "n wide"), cell(row.losses, "n wide"));
    if (data.contest_scored) tr.append(cell(row.contest_points, "n"));
    tr.append(cell(row.faults ?? 0, "n"), cell(`${row.elo} ± ${row.error ?? "∞"}`, "n"));
    return tr;
  }));
  if (data.ranking) document.getElementById("ranking").textContent = `Ranked by ${data.ranking.rule}.`;
  document.getElementById("phase").textContent = data.phase === "final"
    ? "The final: its games alone count." : "Test rounds.";
  document.getElementById("next-round").textContent = data.next_round ?? "";
  document.getElementById("rounds").textContent = data.rounds.map(
    (r) => `round ${r.number}${r.phase === "final" ? " (final)" : ""}: ${r.state}`).join(" · ");
});
