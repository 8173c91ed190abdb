"""The top decks of each run: the best by objective, and the elite of each region of the
archive (the grid cut into REGIONS x REGIONS blocks), with cards, measures, win rate, code."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .runs import Run, deck_space, grid_spec

REGIONS = 4


def _deck(run: Run, i: int, space, region: str | None = None) -> dict:
    from workers.protocol.results import TARGET_NAMES
    a = run.archive
    deck = a["solution"][i]
    targets = {name: float(v) for name, v in zip(TARGET_NAMES, a["targets"][i])}
    return {"run": str(run.path), "algorithm": run.algorithm, "seed": run.seed, "region": region,
            "eval_id": int(a["eval_id"][i]), "objective": float(a["objective"][i]),
            "turns": float(a["measures"][i][0]), "hand_size": float(a["measures"][i][1]),
            "win_rate": targets["win_rate"], "targets": targets,
            "deck_code": space.deck_code(deck), "cards": space.describe(deck)}


def run_decks(run: Run, top: int) -> dict:
    space, spec = deck_space(run), grid_spec(run)
    a = run.archive
    best = [_deck(run, int(i), space) for i in np.argsort(-a["objective"], kind="stable")[:top]]
    cells = np.array(np.unravel_index(a["index"], spec.dims)).T  # (turns cell, hand-size cell)
    size = [max(1, -(-d // REGIONS)) for d in spec.dims]
    region_of = [f"turns block {c[0] // size[0] + 1}, hand block {c[1] // size[1] + 1}" for c in cells]
    regions = []
    for name in sorted(set(region_of)):
        members = [i for i, r in enumerate(region_of) if r == name]
        regions.append(_deck(run, max(members, key=lambda i: a["objective"][i]), space, name))
    return {"run": str(run.path), "algorithm": run.algorithm, "seed": run.seed, "best": best, "regions": regions}


def _md(d: dict) -> list[str]:
    where = f" [{d['region']}]" if d["region"] else ""
    return [f"- health difference {d['objective']:+.2f}, win rate {d['win_rate']:.1%}, turns {d['turns']:.2f}, "
            f"hand size {d['hand_size']:.2f}{where} (evaluation {d['eval_id']})",
            f"  - deck code: `{d['deck_code']}`", f"  - cards: {', '.join(d['cards'])}"]


def write_decks(runs: list[Run], out: Path, top: int) -> list[dict]:
    all_decks = [run_decks(r, top) for r in runs]
    lines = ["# Top decks per run", ""]
    for rd, run in zip(all_decks, runs):
        lines += [f"## {run.label}, seed {run.seed} ({run.path})", "", f"### Best {len(rd['best'])} by objective", ""]
        for d in rd["best"]:
            lines += _md(d)
        lines += ["", "### The elite of each archive region", ""]
        for d in rd["regions"]:
            lines += _md(d)
        lines.append("")
    (out / "decks.md").write_text("\n".join(lines))
    (out / "decks.json").write_text(json.dumps(all_decks, indent=1))
    return all_decks
