"""Every card of the pool and of the fixed decks is implemented and has a text test."""
import subprocess
import sys
from pathlib import Path

from workers.engine.coverage import report, required_cards


def test_every_required_card_is_implemented_and_tested():
    lines, done, total = report()
    assert total == len(required_cards()) == 201
    missing = [line for line in lines if "MISSING" in line or "UNTESTED" in line]
    assert done == total, "\n".join(missing)


def test_coverage_command_ends_with_the_summary_line():
    root = Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-m", "workers.engine", "coverage"], cwd=root,
                         capture_output=True, text=True)
    assert out.stdout.strip().splitlines()[-1] == "required_cards_implemented: 201/201"
    assert out.returncode == 0
