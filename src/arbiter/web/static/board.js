// One SVG renderer for the five boards. It draws whatever layout the server gives
// (cells with centres, labels and shading; lines between points) and the pieces of a
// position; it decides nothing about the rules.
"use strict";

const SVG = "http://www.w3.org/2000/svg";

function el(name, attrs, parent) {
  const node = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export class Board {
  // svg: the <svg> element; layout: from /api/games/GAME/board; onClick(cell id)
  constructor(svg, layout, onClick) {
    this.svg = svg;
    this.layout = layout;
    this.onClick = onClick;
    this.flipped = false;
    this.view = { pieces: {}, last: [], selected: [], targets: [], origins: [], forced: false };
    svg.setAttribute("viewBox", `0 0 ${layout.width} ${layout.height}`);
    svg.classList.add("board", `board-${layout.game}`, `shape-${layout.shape}`);
    // a board of many small cells (Halma's 16x16) gets finer lines and labels
    if (layout.width > 10 && layout.shape === "square") svg.classList.add("board-wide");
    svg.setAttribute("role", "img");
  }

  flip() {
    this.flipped = !this.flipped;
    this.draw(this.view);
  }

  xy(cell) {
    const L = this.layout;
    return this.flipped ? [L.width - cell.x, L.height - cell.y] : [cell.x, cell.y];
  }

  draw(view) {
    this.view = view;
    const L = this.layout;
    const svg = this.svg;
    svg.replaceChildren();
    el("rect", { x: 0, y: 0, width: L.width, height: L.height, class: "ground" }, svg);
    const lines = el("g", { class: "lines" }, svg);
    for (const [x1, y1, x2, y2] of L.lines) {
      const [a, b] = this.flipped ? [L.width - x1, L.height - y1] : [x1, y1];
      const [c, d] = this.flipped ? [L.width - x2, L.height - y2] : [x2, y2];
      el("line", { x1: a, y1: b, x2: c, y2: d }, lines);
    }
    const last = new Set(view.last || []);
    const selected = new Set(view.selected || []);
    const targets = new Set(view.targets || []);
    const origins = new Set(view.origins || []);
    const cells = el("g", { class: "cells" }, svg);
    for (const cell of L.cells) {
      const [x, y] = this.xy(cell);
      const g = el("g", { class: `cell ${cell.shade}`, "data-cell": cell.id, "data-label": cell.label }, cells);
      if (L.shape === "square") {
        el("rect", { x: x - 0.5, y: y - 0.5, width: 1, height: 1, class: "tile" }, g);
      } else {
        el("circle", { cx: x, cy: y, r: L.shape === "hole" ? 0.3 : 0.12, class: "tile" }, g);
      }
      if (last.has(cell.id)) g.classList.add("last");
      if (selected.has(cell.id)) g.classList.add("selected");
      if (origins.has(cell.id)) g.classList.add(view.forced ? "must" : "movable");
      const label = el("text", { x: x - 0.46, y: y - 0.3, class: "label" }, g);
      if (L.shape === "hole") {
        label.setAttribute("x", x);
        label.setAttribute("y", y + 0.08);
        label.setAttribute("text-anchor", "middle");
      }
      label.textContent = cell.label;
      const piece = view.pieces[String(cell.id)];
      if (piece !== undefined) {
        const r = L.shape === "hole" ? 0.33 : 0.38;
        el("circle", { cx: x, cy: y, r, class: `piece p${piece[0]} c-${L.colours[Number(piece[0])]}` }, g);
        if (piece.includes("K")) {
          el("circle", { cx: x, cy: y, r: r * 0.5, class: "crown" }, g);
          g.classList.add("king");
        }
        g.setAttribute("data-piece", piece);
      }
      if (targets.has(cell.id)) {
        g.classList.add("target");
        el("circle", { cx: x, cy: y, r: 0.14, class: "dot" }, g);
      }
      // the whole cell takes the click, over everything drawn in it
      el("circle", { cx: x, cy: y, r: 0.5, class: "hit" }, g).addEventListener("click", () =>
        this.onClick(cell.id),
      );
    }
  }
}
