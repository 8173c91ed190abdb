"""What the commands print: errors for unknown config options, --help texts."""
import subprocess
import sys

import pytest

from .helpers import ROOT, run_pipeline


@pytest.mark.parametrize("override, closest, options", [
    ("algorithm=dsa_mee", "algorithm=dsa_me", ("cma_me", "dsa_me", "map_elites", "random_search")),
    ("experiment=smok", "experiment=smoke", ("paper", "smoke", "strategy_paper", "strategy_smoke")),
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
