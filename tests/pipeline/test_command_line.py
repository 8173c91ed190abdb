"""What the commands print: errors for unknown config options, --help texts, a sweep's table,
progress in a log."""
import io
import subprocess
import sys

import pytest
from tqdm import tqdm

from pipeline.report.runs import find_run_dirs
from pipeline.search.progress import PlainProgress, progress_bar

from .helpers import ROOT, TINY, command, run_pipeline, saved_evaluations


@pytest.mark.parametrize("override, closest, options", [
    ("algorithm=dsa_mee", "algorithm=dsa_me", ("cma_me", "dsa_me", "map_elites", "random_search")),
    ("experiment=smok", "experiment=smoke", ("paper", "smoke", "smoke_random", "strategy_paper", "strategy_smoke")),
])
def test_an_unknown_group_option_lists_every_option_and_the_closest(override, closest, options):
    done = run_pipeline(override, check=False, timeout=120)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-2000:]
    assert all(f" {o}," in lines[0] or f" {o})" in lines[0] for o in options), lines[0]
    assert lines[0].endswith(f"did you mean {closest}?"), lines[0]


def test_an_option_like_none_gets_no_guess():
    done = run_pipeline("algorithm=xyzzy", check=False, timeout=120)
    assert done.returncode == 2 and "did you mean" not in done.stderr and "random_search" in done.stderr


def test_the_report_help_says_its_whole_description():
    done = subprocess.run([sys.executable, "-m", "pipeline.report", "--help"], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0
    assert "with an index.html to look at." in " ".join(done.stdout.split())


def _sweep(cwd, seeds):
    tiny = [o for o in TINY if not o.startswith(("algorithm.budget", "algorithm.initial"))]
    done = subprocess.run([sys.executable, "-m", "pipeline", "-m", *tiny, "algorithm.budget=20",
                           "algorithm.initial=20", "name=sweep", f"seed={seeds}"],
                          cwd=cwd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    _, _, table = done.stdout.partition("sweep results/multirun/sweep: ")
    return [line.split() for line in table.splitlines()[1:]], table.split()[0]


def test_a_sweep_links_each_job_folder_to_its_run_and_prints_where_each_went(tmp_path):
    rows, count = _sweep(tmp_path, "1,2")
    sweep = tmp_path / "results" / "multirun" / "sweep"
    jobs = sorted(p for p in sweep.iterdir() if p.is_dir())
    runs = sorted((tmp_path / "results").glob("sweep-dsa_me-seed*"))
    assert len(jobs) == len(runs) == 2 and all("progress" not in j.name for j in jobs), jobs
    assert [(j / "run").resolve() for j in jobs] == runs and all(saved_evaluations(r) == 20 for r in runs)
    assert count == "2" and rows == [[j.name, "->", f"results/{r.name}"] for j, r in zip(jobs, runs)]
    # Another sweep under the same name: its table lists its own runs only (seed 2 is resumed).
    rows, count = _sweep(tmp_path, "2,3")
    assert count == "2" and [r[2].split("-")[-2] for r in rows] == ["seed2", "seed3"], rows
    assert [d.name.split("-")[-2] for d in find_run_dirs([sweep])] == ["seed1", "seed2", "seed3"]
    assert len(find_run_dirs([tmp_path / "results"])) == 3  # each run once, linked or not


def test_progress_in_a_redirected_log_is_plain_lines(tmp_path):
    log = tmp_path / "log"
    with open(log, "w") as stderr:  # not a terminal
        done = subprocess.run(command("progress=true", run_dir=tmp_path / "run"), cwd=ROOT, stderr=stderr,
                              stdout=subprocess.DEVNULL, timeout=300)
    text = log.read_text()
    assert done.returncode == 0, text[-2000:]
    assert "\x1b" not in text and "\r" not in text, repr(text[:500])
    assert "evaluations: 60/60 (100%)" in text


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_plain_progress_writes_a_line_now_and_then(capsys, monkeypatch):
    with PlainProgress(total=2000, desc="inner loop", leave=False, every=0) as bar:
        bar.update(500)
        bar.update(1500)
    with PlainProgress(total=10, desc="evaluations", every=3600) as bar:
        bar.update(10)  # within the interval: only the last line of a kept bar
    lines = [line.split(", ")[0] for line in capsys.readouterr().err.splitlines()]
    assert lines == ["inner loop: 500/2,000 (25%)", "inner loop: 2,000/2,000 (100%)", "evaluations: 10/10 (100%)"]
    assert isinstance(progress_bar(True, total=1), PlainProgress)
    monkeypatch.setattr(sys, "stderr", _Terminal())
    assert isinstance(progress_bar(True, total=1), tqdm)
