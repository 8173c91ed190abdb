"""The top decks of each run: the best by objective, and the elite of each region of the
archive (each measure's range cut into REGIONS blocks), with cards, measures, win rate, code."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..behavior_space import describe
from .runs import Run, deck_space, grid_spec

REGIONS = 4


def _deck(run: Run, i: int, space, behavior, region: str | None = None) -> dict:
    from workers.protocol.results import TARGET_NAMES
    a = run.archive
    deck = a["solution"][i]
    targets = {name: float(v) for name, v in zip(TARGET_NAMES, a["targets"][i])}
    return {"run": str(run.path), "algorithm": run.algorithm, "seed": run.seed, "region": region,
            "eval_id": int(a["eval_id"][i]), "objective_name": behavior.objective,
            "objective": float(a["objective"][i]),
            "measures": {name: float(v) for name, v in zip(behavior.measures, a["measures"][i])},
            "win_rate": targets["win_rate"], "targets": targets,
            "deck_code": space.deck_code(deck), "cards": space.describe(deck)}


def run_decks(run: Run, top: int) -> dict:
    space, spec = deck_space(run), grid_spec(run)
    a = run.archive
    behavior = spec.behavior
    best = [_deck(run, int(i), space, behavior) for i in np.argsort(-a["objective"], kind="stable")[:top]]
    if spec.kind == "cvt":  # cells are not a grid: each measure's range in REGIONS equal blocks
        lower = np.array([lo for lo, _ in spec.ranges])
        width = np.array([hi - lo for lo, hi in spec.ranges])
        blocks = np.clip(((np.asarray(a["measures"]) - lower) / width * REGIONS).astype(np.int64), 0, REGIONS - 1)
    else:  # each measure's cells in REGIONS blocks
        cells = np.array(np.unravel_index(a["index"], spec.dims)).T
        blocks = cells // np.array([max(1, -(-d // REGIONS)) for d in spec.dims])
    region_of = [", ".join(f"{describe(m)} block {b + 1}" for m, b in zip(behavior.measures, row)) for row in blocks]
    regions = []
    for name in sorted(set(region_of)):
        members = [i for i, r in enumerate(region_of) if r == name]
        regions.append(_deck(run, max(members, key=lambda i: a["objective"][i]), space, behavior, name))
    return {"run": str(run.path), "algorithm": run.algorithm, "seed": run.seed, "best": best, "regions": regions}


def _md(d: dict) -> list[str]:
    where = f" [{d['region']}]" if d["region"] else ""
    said = "".join(f", {describe(name)} {v:.2f}" for name, v in d["measures"].items())
    return [f"- {describe(d['objective_name'])} {d['objective']:+.2f}, win rate {d['win_rate']:.1%}{said}"
            f"{where} (evaluation {d['eval_id']})",
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
