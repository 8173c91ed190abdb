"""index.html: the table, the verdicts, every figure and the decks on one static page (no
scripts, relative links only, so it opens from disk or any web server)."""
from __future__ import annotations

import html
from pathlib import Path

from ..behavior_space import describe

STYLE = """body{font-family:sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0;font-size:90%}td,th{border:1px solid #bbb;padding:3px 6px;text-align:left}
th{background:#eee}img{max-width:100%;border:1px solid #ddd;margin:.5em 0}code{font-size:85%;word-break:break-all}
.sig{color:#075}.ns{color:#666}.note{background:#fff6d6;border-left:4px solid #d9a400;padding:.4em .8em}"""


def md_table(text: str) -> str:
    """The Markdown tables this report writes (plus their caption lines) as HTML."""
    out, rows = [], []

    def flush():
        if rows:
            head, body = rows[0], [r for r in rows[2:]]
            out.append("<table><tr>" + "".join(f"<th>{html.escape(c)}</th>" for c in head) + "</tr>"
                       + "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in r) + "</tr>" for r in body)
                       + "</table>")
            rows.clear()
    for line in text.splitlines():
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
        else:
            flush()
            if line.strip():
                out.append(f"<p>{html.escape(line)}</p>")
    flush()
    return "\n".join(out)


def _verdicts(stats: list[dict], why_none: str) -> str:
    if why_none:
        return f"<p>{html.escape(why_none)}</p>"
    items = []
    for r in stats:
        cls = "sig" if r["p_adjusted"] == r["p_adjusted"] and r["p_adjusted"] < 0.05 else "ns"
        items.append(f"<li class='{cls}'><b>{html.escape(r['test'])}</b>: {html.escape(r['verdict'])}</li>")
    return "<ul>" + "".join(items) + "</ul>" if items else "<p>No tests (fewer than two algorithms).</p>"


def _figure(name: str, caption: str) -> str:
    pdf = name.replace(".png", ".pdf")
    return (f"<figure><img src='{html.escape(name)}' alt='{html.escape(caption)}'>"
            f"<figcaption>{html.escape(caption)} (<a href='{html.escape(pdf)}'>PDF</a>)</figcaption></figure>")


def _decks(all_decks: list[dict], labels: dict[str, str], shown: int = 3) -> str:
    parts = []
    for rd in all_decks:
        best = rd["best"][:shown]
        names = [describe(best[0]["objective_name"]), "win rate", *map(describe, best[0]["measures"])] if best else []
        parts.append(f"<h3>{html.escape(labels.get(rd['algorithm'], rd['algorithm']))}, seed {rd['seed']}</h3><table>"
                     "<tr>" + "".join(f"<th>{html.escape(n)}</th>" for n in names)
                     + "<th>Deck code</th><th>Cards</th></tr>")
        for d in best:
            parts.append(f"<tr><td>{d['objective']:+.2f}</td><td>{d['win_rate']:.1%}</td>"
                         + "".join(f"<td>{v:.2f}</td>" for v in d["measures"].values())
                         + f"<td><code>{html.escape(d['deck_code'])}</code></td>"
                         f"<td><details><summary>{len(d['cards'])} entries</summary>{html.escape(', '.join(d['cards']))}"
                         "</details></td></tr>")
        parts.append("</table>")
    return "\n".join(parts)


def write_page(out: Path, *, title: str, runs_text: str, table_md: str, stats: list[dict],
               figures: list[tuple[str, str]], mse_md: str, transfer_md: str, all_decks: list[dict],
               labels: dict[str, str], extra_html: str = "", notes: list[str] = (),
               archives: list[tuple[str, str]] = (), stats_note: str = "") -> Path:
    body = [f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(runs_text)}</p>",
            "<h2>Table 1</h2>", md_table(table_md), "<p><a href='table1.csv'>CSV</a> · <a href='table1.md'>Markdown</a></p>",
            "<h2>Statistics</h2>", _verdicts(stats, stats_note), "<p><a href='statistics.csv'>p-values (CSV)</a> · "
            "<a href='statistics.md'>Markdown</a></p>", "<h2>Figures</h2>",
            *[_figure(name, caption) for name, caption in figures],
            *[f"<p class='note'>{html.escape(n)}</p>" for n in notes],
            *(["<h2>Archives to explore</h2><p>Each run's final archive as a page: hover a cell for its "
               "numbers, click it for its deck and deck code.</p><ul>"]
              + [f"<li><a href='{html.escape(f)}'>{html.escape(label)}</a></li>" for f, label in archives]
              + ["</ul>"] if archives else []),
            "<h2>Surrogate analyses</h2>", md_table(mse_md) or "<p>No run holds a surrogate model.</p>",
            md_table(transfer_md), "<h2>Top decks</h2>",
            "<p>The best three of each run; all of them and the elite of each archive region in "
            "<a href='decks.md'>decks.md</a> and <a href='decks.json'>decks.json</a>.</p>",
            _decks(all_decks, labels), extra_html]
    if not table_md:  # strategy searches only: no deck-search sections
        body = [f"<h1>{html.escape(title)}</h1>", f"<p>{html.escape(runs_text)}</p>", extra_html]
    page = (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<link rel='icon' href='data:,'><style>{STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
    path = out / "index.html"
    path.write_text(page)
    return path
