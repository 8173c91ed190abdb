"""Significance tests across algorithms, each with a plain-words verdict.

- one-way ANOVA per metric across algorithms (scipy);
- two-way ANOVA, surrogate type (online / offline) x ancillary data (3 / 12 targets), on the
  paper's 2 x 2 design (DSA-ME, DSA-ME (ad), Offline DSA-ME, Offline DSA-ME (ad)) when both
  factors have two levels among the runs (statsmodels, type II sums of squares);
- Welch t-tests between every pair of algorithms per metric, Bonferroni-corrected over the
  pairs of that metric (statsmodels' multipletests).
"""
from __future__ import annotations

import csv
import itertools
import math
import warnings
from pathlib import Path

import numpy as np

from .runs import LABELS
from .table import METRICS

ALPHA = 0.05
FACTORS = {"dsa_me": ("online", "without"), "dsa_me_ad": ("online", "with"),
           "offline_dsa_me": ("offline", "without"), "offline_dsa_me_ad": ("offline", "with")}
NAMES = {key: header for key, header, _ in METRICS}


def _p(p: float) -> str:
    return "n/a" if p is None or math.isnan(p) else (f"{p:.2g}" if p >= 1e-4 else f"{p:.1e}")


def _quiet(fn, *args, **kw):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kw)


def one_way(values: dict[str, dict[str, list[float]]]) -> list[dict]:
    from scipy.stats import f_oneway
    rows = []
    for key, header, _ in METRICS:
        groups = {a: v[key] for a, v in values.items()}
        testable = len(groups) >= 2 and sum(len(g) for g in groups.values()) > len(groups)
        stat, p = (_quiet(f_oneway, *groups.values()) if testable else (math.nan, math.nan))
        stat, p = float(stat), float(p)
        if math.isnan(p):
            verdict = "not testable (needs two algorithms, repeated trials and some variance)"
        elif p < ALPHA:
            verdict = f"the algorithms differ in {header} (F = {stat:.2f}, p = {_p(p)})"
        else:
            verdict = f"no significant difference in {header} between the algorithms (p = {_p(p)})"
        rows.append({"test": "one-way ANOVA", "metric": key,
                     "hypothesis": f"all algorithms have the same mean {header}",
                     "statistic": stat, "p_value": p, "p_adjusted": p, "verdict": verdict})
    return rows


def two_way(values: dict[str, dict[str, list[float]]]) -> list[dict]:
    """Present only when the runs hold both levels of both factors."""
    design = {a: FACTORS[a] for a in values if a in FACTORS}
    if len({t for t, _ in design.values()}) < 2 or len({d for _, d in design.values()}) < 2:
        return []
    import pandas as pd
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm
    rows = []
    for key, header, _ in METRICS:
        frame = pd.DataFrame([{"y": y, "surrogate": design[a][0], "ancillary": design[a][1]}
                              for a in design for y in values[a][key]])
        full = len(design) == 4 and len(frame) > 4
        formula = "y ~ C(surrogate) * C(ancillary)" if full else "y ~ C(surrogate) + C(ancillary)"
        if len(frame) <= (4 if full else 3):
            continue
        table = _quiet(anova_lm, _quiet(smf.ols(formula, data=frame).fit), typ=2)
        effects = {"C(surrogate)": "surrogate type (online vs offline)",
                   "C(ancillary)": "ancillary data (with vs without)",
                   "C(surrogate):C(ancillary)": "the interaction of surrogate type and ancillary data"}
        for term, words in effects.items():
            if term not in table.index:
                continue
            stat, p = float(table.loc[term, "F"]), float(table.loc[term, "PR(>F)"])
            if math.isnan(p):
                verdict = f"not testable for {words} (no variance)"
            elif p < ALPHA:
                verdict = f"{words} has a significant effect on {header} (F = {stat:.2f}, p = {_p(p)})"
            else:
                verdict = f"no significant effect of {words} on {header} (p = {_p(p)})"
            rows.append({"test": "two-way ANOVA", "metric": key,
                         "hypothesis": f"{words} does not change {header}",
                         "statistic": stat, "p_value": p, "p_adjusted": p, "verdict": verdict})
    return rows


def pairwise(values: dict[str, dict[str, list[float]]]) -> list[dict]:
    from scipy.stats import ttest_ind
    from statsmodels.stats.multitest import multipletests
    rows = []
    for key, header, _ in METRICS:
        pairs = list(itertools.combinations(values, 2))
        raw = []
        for a, b in pairs:
            x, y = values[a][key], values[b][key]
            p = float(_quiet(ttest_ind, x, y, equal_var=False).pvalue) if min(len(x), len(y)) > 1 else math.nan
            raw.append((a, b, p))
        finite = [p for _, _, p in raw if not math.isnan(p)]
        adjusted = iter(multipletests(finite, method="bonferroni")[1] if finite else [])
        for a, b, p in raw:
            adj = math.nan if math.isnan(p) else float(next(adjusted))
            ma, mb = float(np.mean(values[a][key])), float(np.mean(values[b][key]))
            la, lb = LABELS.get(a, a), LABELS.get(b, b)
            if math.isnan(adj):
                verdict = f"{la} vs {lb}: not testable (needs two trials each and some variance)"
            elif adj < ALPHA:
                hi, lo = (la, lb) if ma > mb else (lb, la)
                verdict = (f"{hi} has a higher {header} than {lo} ({max(ma, mb):.2f} vs {min(ma, mb):.2f}, "
                           f"p = {_p(adj)} after Bonferroni)")
            else:
                verdict = (f"no significant difference in {header} between {la} and {lb} "
                           f"({ma:.2f} vs {mb:.2f}, p = {_p(adj)} after Bonferroni)")
            rows.append({"test": "pairwise Welch t-test", "metric": key,
                         "hypothesis": f"{la} and {lb} have the same mean {header}",
                         "statistic": math.nan, "p_value": p, "p_adjusted": adj, "verdict": verdict})
    return rows


def untestable(per_run: dict[str, list[dict[str, float]]]) -> str:
    """Why no test can be made on these runs at all, in a sentence; "" when some can."""
    trials = [len(ms) for ms in per_run.values()]
    if sum(trials) == 1:
        return "No significance tests: they compare algorithms over repeated trials, and this report holds one run."
    if len(trials) < 2:
        (algorithm,) = per_run
        return (f"No significance tests: they compare algorithms, and these {sum(trials)} runs are all of "
                f"{LABELS.get(algorithm, algorithm)}.")
    if max(trials) < 2:
        return (f"No significance tests: {len(trials)} algorithms of one trial each, so nothing shows how much a "
                "number varies between trials of one algorithm; run more seeds of each to test their differences.")
    return ""


def all_tests(per_run: dict[str, list[dict[str, float]]]) -> list[dict]:
    """per_run: algorithm -> the metrics of each of its trials; no rows where `untestable` says why."""
    if untestable(per_run):
        return []
    values = {a: {key: [m[key] for m in ms] for key, _, _ in METRICS} for a, ms in per_run.items()}
    return one_way(values) + two_way(values) + pairwise(values)


def write_stats(rows: list[dict], out: Path, why_none: str = "") -> None:
    """statistics.csv and statistics.md; `why_none`: the sentence said instead of tests."""
    columns = ["test", "metric", "hypothesis", "statistic", "p_value", "p_adjusted", "verdict"]
    with open(out / "statistics.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: (f"{row[k]:.6g}" if isinstance(row[k], float) else row[k]) for k in columns})
    if why_none:
        (out / "statistics.md").write_text(why_none + "\n")
        return
    lines = [f"Statistics (alpha = {ALPHA}; pairwise p-values Bonferroni-corrected per metric)", "",
             "| Test | Hypothesis | p | Verdict |", "|---|---|---|---|"]
    lines += [f"| {r['test']} | {r['hypothesis']} | {_p(r['p_adjusted'])} | {r['verdict']} |" for r in rows]
    (out / "statistics.md").write_text("\n".join(lines) + "\n")
