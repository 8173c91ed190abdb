"""archive.html: a real archive as one page to explore. The grid of cells coloured by fitness,
both measures on the axes; hovering a cell shows its numbers, clicking it shows its deck (cards,
mana curve, results, Hearthstone deck code with a copy button).

One self-contained file: the data is inline JSON, the grid inline SVG drawn by an inline
script, no network. The data keeps only the cards that some elite holds and each deck as
(card, copies) pairs, so the paper's full 40 x 40 archive stays well under a megabyte.
"""
from __future__ import annotations

import html
import json

import numpy as np

from ..behavior_space import describe
from ..deck_space import DeckSpace
from .archives import ArchiveSpec, plane, voronoi_cells


def page_data(arrays: dict[str, np.ndarray], spec: ArchiveSpec, space: DeckSpace, title: str,
              centroids: np.ndarray | None = None) -> dict:
    """What the page's script draws, from archive arrays (pipeline.search.archives.archive_arrays
    or a checkpoint's real_archive group). A CVT archive (its `centroids` given) is drawn as its
    Voronoi cells for two measures, as its elites projected on the first two for three."""
    from workers.protocol.results import TARGET_NAMES
    shapes = None
    if centroids is not None:
        dims, ranges = (1, 1), spec.ranges[:2]
        if len(spec.dims) == 2:
            polygons = voronoi_cells(centroids, spec.ranges)
            shapes = [[[round(float(x), 4), round(float(y), 4)] for x, y in polygons[int(c)]] for c in arrays["index"]]
    else:
        arrays, dims, ranges = plane(arrays, spec)  # a third measure: each cell's best over it
    solutions = np.asarray(arrays["solution"])
    if len(solutions) and solutions.shape[1] != space.size:
        raise ValueError(f"the archive's decks have {solutions.shape[1]} card slots, the deck space {space.size}")
    used = np.flatnonzero(solutions.sum(axis=0)) if len(solutions) else np.zeros(0, dtype=np.int64)
    slot = {int(c): k for k, c in enumerate(used)}
    elites = []
    for i in range(len(solutions)):
        deck = solutions[i]
        held = np.flatnonzero(deck)
        elites.append({
            "cell": int(arrays["index"][i]),
            **({"poly": shapes[i]} if shapes is not None else {}),
            "f": round(float(arrays["objective"][i]), 4),
            "m": [round(float(v), 4) for v in arrays["measures"][i]],
            "t": [round(float(v), 4) for v in arrays["targets"][i]],
            "id": int(arrays["eval_id"][i]),
            "deck": [[slot[int(c)], int(deck[c])] for c in held],
            "code": space.deck_code(deck),
        })
    names = spec.behavior.measures
    axes = [describe(names[0]), describe(names[1]) if len(names) > 1 else ""]
    if len(names) == 3:
        axes[1] += (f" (elites projected; CVT, {len(centroids)} cells)" if centroids is not None
                    else f" (each cell: the best over {describe(names[2])})")
    return {
        "title": title, "dims": [int(d) for d in dims],
        "ranges": [[float(lo), float(hi)] for lo, hi in ranges],
        "measures": axes, "names": [describe(n) for n in names],
        "fitness": describe(spec.behavior.objective), "fitness_range": list(spec.objective_range),
        "cvt": centroids is not None,
        "targets": [[name, describe(name) + (" (fitness)" if name == spec.behavior.objective else "")]
                    for name in TARGET_NAMES],
        "cards": [[space.names[c], int(space.costs[c]), space.cards[c].type] for c in used],
        "elites": elites,
    }


def render(data: dict) -> str:
    """The page for page_data's dict."""
    payload = json.dumps(data, separators=(",", ":")).replace("</", "<\\/")  # no early </script>
    return (PAGE.replace("__TITLE__", html.escape(data["title"]))
            .replace("__DATA__", payload).replace("__SCRIPT__", SCRIPT))


def archive_html(arrays: dict[str, np.ndarray], spec: ArchiveSpec, space: DeckSpace, title: str,
                 centroids: np.ndarray | None = None) -> str:
    return render(page_data(arrays, spec, space, title, centroids))


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title><link rel="icon" href="data:,">
<style>
body{font-family:sans-serif;margin:1em 2em;color:#222}
#main{display:flex;flex-wrap:wrap;gap:2em;align-items:flex-start}
#grid{flex:0 0 600px;width:600px;max-width:100%;height:auto;user-select:none}
#grid .cell{cursor:pointer}#grid .cell:hover,#grid .sel{stroke:#e4002b;stroke-width:2}
#tip{position:fixed;pointer-events:none;background:#fff;border:1px solid #888;padding:4px 7px;font-size:13px;display:none;box-shadow:1px 1px 4px #0003}
#deck{flex:1 1 340px;min-width:300px;max-width:620px}.cols{display:flex;flex-wrap:wrap;gap:1.5em}.cols>div{flex:1 1 230px}#deck table{border-collapse:collapse;font-size:14px;margin:.4em 0}
#deck td,#deck th{padding:1px 8px 1px 0;text-align:left}#deck td.n{text-align:right}
#deck-code{display:block;word-break:break-all;background:#f3f3f3;padding:4px;font-size:12px}
.muted{color:#666;font-size:90%}
</style></head><body>
<h1>__TITLE__</h1>
<p id="summary" class="muted"></p>
<div id="main"><svg id="grid" xmlns="http://www.w3.org/2000/svg"></svg>
<div id="deck" hidden></div></div>
<div id="tip"></div>
<script id="data" type="application/json">__DATA__</script>
<script>__SCRIPT__</script>
</body></html>
"""

SCRIPT = r"""
"use strict";
const D = JSON.parse(document.getElementById("data").textContent);
const VIRIDIS = ["#440154","#472d7b","#3b528b","#2c728e","#21918c","#28ae80","#5ec962","#addc30","#fde725"];
const [NX, NY] = D.dims, [[X0, X1], [Y0, Y1]] = D.ranges, [F0, F1] = D.fitness_range;
const L = 70, T = 20, W = 520, H = 440, CW = W / NX, CH = H / NY;  // plot area and cell size
const esc = s => String(s).replace(/[&<>"']/g, c => ({"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;","'":"&#39;"}[c]));
const fmt = (v, d = 2) => Number(v).toFixed(d);
const signed = v => (v >= 0 ? "+" : "") + fmt(v);
const WIN = D.targets.findIndex(t => t[0] === "win_rate");

function colour(f) {  // viridis on the fitness range, piecewise linear between 9 stops
  const x = Math.min(1, Math.max(0, (f - F0) / (F1 - F0))) * (VIRIDIS.length - 1);
  const i = Math.min(VIRIDIS.length - 2, Math.floor(x)), u = x - i;
  const rgb = k => parseInt(VIRIDIS[k].slice(1), 16);
  const a = rgb(i), b = rgb(i + 1);
  const ch = s => Math.round(((a >> s) & 255) * (1 - u) + ((b >> s) & 255) * u);
  return `rgb(${ch(16)},${ch(8)},${ch(0)})`;
}

function ticks(lo, hi, n) { return Array.from({length: n + 1}, (_, k) => lo + (hi - lo) * k / n); }

function drawGrid() {
  const svg = document.getElementById("grid");
  svg.setAttribute("viewBox", `0 0 ${L + W + 110} ${T + H + 60}`);
  const parts = [`<rect id="plot" x="${L}" y="${T}" width="${W}" height="${H}" fill="#f4f4f4" stroke="#999"/>`];
  const px = x => (L + (x - X0) / (X1 - X0) * W).toFixed(2), py = y => (T + H - (y - Y0) / (Y1 - Y0) * H).toFixed(2);
  D.elites.forEach((e, k) => {
    const tag = `class="cell" data-k="${k}" data-cell="${e.cell}" fill="${colour(e.f)}"`;
    if (e.poly) {  // a CVT archive's Voronoi cell
      parts.push(`<polygon ${tag} stroke="#fff" stroke-width="0.3" points="${e.poly.map(([x, y]) => px(x) + "," + py(y)).join(" ")}"/>`);
    } else if (D.cvt) {  // three measures: the elite at its first two
      parts.push(`<circle ${tag} cx="${px(e.m[0])}" cy="${py(e.m[1])}" r="4"/>`);
    } else {  // ribs' cell index: first measure's cell * NY + second's
      const i = Math.floor(e.cell / NY), j = e.cell % NY;
      parts.push(`<rect ${tag} x="${(L + i * CW).toFixed(2)}" y="${(T + H - (j + 1) * CH).toFixed(2)}" ` +
                 `width="${CW.toFixed(2)}" height="${CH.toFixed(2)}"/>`);
    }
  });
  for (const v of ticks(X0, X1, 5)) {
    const x = L + (v - X0) / (X1 - X0) * W;
    parts.push(`<line x1="${x}" x2="${x}" y1="${T + H}" y2="${T + H + 5}" stroke="#444"/>`,
               `<text x="${x}" y="${T + H + 18}" text-anchor="middle" font-size="12">${fmt(v, 1)}</text>`);
  }
  for (const v of ticks(Y0, Y1, 6)) {
    const y = T + H - (v - Y0) / (Y1 - Y0) * H;
    parts.push(`<line x1="${L - 5}" x2="${L}" y1="${y}" y2="${y}" stroke="#444"/>`,
               `<text x="${L - 8}" y="${y + 4}" text-anchor="end" font-size="12">${fmt(v, 1)}</text>`);
  }
  parts.push(`<text id="xlabel" x="${L + W / 2}" y="${T + H + 40}" text-anchor="middle" font-size="14">` +
             `${esc(D.measures[0])} (${X0} to ${X1}${D.cvt ? "" : `, ${NX} cells`})</text>`,
             `<text id="ylabel" transform="translate(18 ${T + H / 2}) rotate(-90)" text-anchor="middle" font-size="14">` +
             `${esc(D.measures[1])} (${Y0} to ${Y1}${D.cvt ? "" : `, ${NY} cells`})</text>`);
  const bx = L + W + 30;  // colour bar: fitness
  parts.push(`<defs><linearGradient id="vir" x1="0" y1="1" x2="0" y2="0">` +
             VIRIDIS.map((c, k) => `<stop offset="${k / (VIRIDIS.length - 1)}" stop-color="${c}"/>`).join("") +
             `</linearGradient></defs><rect x="${bx}" y="${T}" width="16" height="${H}" fill="url(#vir)" stroke="#999"/>`);
  for (const v of ticks(F0, F1, 4)) {
    const y = T + H - (v - F0) / (F1 - F0) * H;
    parts.push(`<text x="${bx + 20}" y="${y + 4}" font-size="12">${v}</text>`);
  }
  parts.push(`<text transform="translate(${bx + 58} ${T + H / 2}) rotate(90)" text-anchor="middle" font-size="13">` +
             `fitness: ${esc(D.fitness)}</text>`);
  svg.innerHTML = parts.join("");
  svg.addEventListener("mouseover", ev => hover(ev));
  svg.addEventListener("mousemove", ev => moveTip(ev));
  svg.addEventListener("mouseleave", () => { document.getElementById("tip").style.display = "none"; });
  svg.addEventListener("click", ev => select(ev.target.closest(".cell")));
}

function elite(node) { return node && node.classList.contains("cell") ? D.elites[+node.dataset.k] : null; }

function hover(ev) {
  const tip = document.getElementById("tip"), e = elite(ev.target);
  if (!e) { tip.style.display = "none"; return; }
  tip.innerHTML = `fitness <b>${signed(e.f)}</b> (${esc(D.fitness)})<br>win rate ${fmt(100 * e.t[WIN], 1)}%<br>` +
                  D.names.map((n, i) => `${esc(n)}: ${fmt(e.m[i])}`).join("<br>");
  tip.style.display = "block";
  moveTip(ev);
}

function moveTip(ev) {
  const tip = document.getElementById("tip");
  tip.style.left = (ev.clientX + 14) + "px";
  tip.style.top = (ev.clientY + 14) + "px";
}

function curve(cards) {  // mana curve: copies per cost 0 ... 7+, as SVG bars
  const n = Array(8).fill(0);
  for (const c of cards) n[Math.min(7, c.cost)] += c.k;
  const top = Math.max(...n, 1), bw = 30, bh = 80, pad = 16;  // pad: room for the tallest bar's count
  const h = v => v / top * bh;
  return `<svg id="curve" width="${8 * bw + 10}" height="${pad + bh + 24}">` + n.map((v, c) =>
    `<rect x="${c * bw + 5}" y="${pad + bh - h(v)}" width="${bw - 6}" height="${h(v)}" fill="#3b528b"/>` +
    `<text x="${c * bw + 17}" y="${pad + bh + 18}" text-anchor="middle" font-size="12">${c === 7 ? "7+" : c}</text>` +
    (v ? `<text x="${c * bw + 17}" y="${pad + bh - h(v) - 4}" text-anchor="middle" font-size="11">${v}</text>` : "")
  ).join("") + "</svg>";
}

function select(node) {
  const panel = document.getElementById("deck");
  document.querySelectorAll("#grid .sel").forEach(n => n.classList.remove("sel"));
  const e = elite(node);
  if (!e) { panel.hidden = true; panel.innerHTML = ""; return; }  // an empty cell shows nothing
  node.classList.add("sel");
  const cards = e.deck.map(([c, k]) => ({name: D.cards[c][0], cost: D.cards[c][1], type: D.cards[c][2], k}))
    .sort((a, b) => a.cost - b.cost || a.name.localeCompare(b.name));
  const cell = D.cvt ? `CVT cell ${e.cell + 1}` : `cell ${Math.floor(e.cell / NY) + 1}, ${e.cell % NY + 1} of ${NX} x ${NY}`;
  panel.innerHTML =
    `<h2>Fitness ${signed(e.f)}, win rate ${fmt(100 * e.t[WIN], 1)}%</h2>` +
    `<p class="muted">${cell}; evaluation ${e.id}</p>` +
    `<h3>Hearthstone deck code</h3><code id="deck-code">${esc(e.code)}</code>` +
    `<p><button id="copy" type="button">Copy deck code</button> <span id="copied" class="muted"></span></p>` +
    `<div class="cols"><div><h3>Deck</h3><table id="cards"><tr><th>copies</th><th>card</th><th>mana</th></tr>` +
    cards.map(c => `<tr><td class="n">${c.k}</td><td>${esc(c.name)}</td><td class="n">${c.cost}</td></tr>`).join("") +
    `</table></div><div><h3>Mana curve</h3>${curve(cards)}` +
    `<h3>Results</h3><table id="results">` +
    D.targets.map(([, label], k) => `<tr><td>${esc(label)}</td><td class="n">` +
      (k === WIN ? fmt(100 * e.t[k], 1) + "%" : fmt(e.t[k])) + `</td></tr>`).join("") +
    `</table><p class="muted">Over all games against the six opponents together: the archive keeps ` +
    `these ${D.targets.length} numbers per elite, not a breakdown by opponent.</p></div></div>`;
  panel.hidden = false;
  document.getElementById("copy").addEventListener("click", () => copy(e.code));
}

function copy(text) {  // the clipboard API where the page may use it, else a selection and execCommand
  const said = ok => { document.getElementById("copied").textContent = ok ? "copied" : "select the code and copy it"; };
  const fallback = () => {
    const range = document.createRange();
    range.selectNodeContents(document.getElementById("deck-code"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    let ok = false;
    try { ok = document.execCommand("copy"); } catch (err) { ok = false; }
    said(ok);
  };
  if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(() => said(true), fallback);
  else fallback();
}

function summary() {
  const n = D.elites.length, cells = NX * NY;
  if (!n) return "The archive is empty: no deck has been evaluated yet.";
  const best = D.elites.reduce((a, b) => (b.f > a.f ? b : a));
  const qd = D.elites.reduce((s, e) => s + (e.f - F0) / (F1 - F0), 0);
  return `${n} elites in ${cells} cells (${fmt(100 * n / cells, 1)}% coverage), QD-score ${fmt(qd)}, ` +
         `best fitness ${signed(best.f)}. Hover a cell for its numbers; click it for its deck.`;
}

drawGrid();
document.getElementById("summary").textContent = summary();
"""
