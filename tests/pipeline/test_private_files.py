"""What a run writes is private to its user (folders 0700, files 0600, set whatever the umask),
and so is the card cache folder whose plain SHA-256 digests guard only against accidents."""
import os
import stat
import subprocess
import sys

import pytest

from pipeline.run_errors import ConfigError

from .helpers import ROOT, run_pipeline


def _mode(path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def _modes(run_dir) -> dict[str, int]:
    return {str(p.relative_to(run_dir)): _mode(p) for p in [run_dir, *run_dir.rglob("*")]}


def test_a_run_folder_and_everything_the_run_writes_are_private(tmp_path):
    run_dir = tmp_path / "results" / "run"
    umask = os.umask(0o022)  # the usual umask, which leaves new files readable by every user
    try:
        run_pipeline("algorithm.budget=20", run_dir=run_dir)
    finally:
        os.umask(umask)
    modes = _modes(run_dir)
    assert {"checkpoint.h5", "config.yaml", ".lock", "metrics.jsonl", "archive_heatmap.png", "best_decks.md",
            "best_decks.json", "ccdf.csv"} <= set(modes)
    assert modes == {name: 0o700 if (run_dir / name).is_dir() else 0o600 for name in modes}
    assert _mode(tmp_path / "results") == 0o700  # a parent the run created

    # A run folder of an older version (0755, files 0644) is made private when it is resumed.
    for path in [run_dir, *run_dir.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    assert "resuming" in run_pipeline("algorithm.budget=20", run_dir=run_dir).stderr
    assert _modes(run_dir) == modes


def test_the_card_cache_folder_is_private(tmp_path, monkeypatch, capsys):
    """Created 0700; one of ours open to others is closed with a note; another user's is refused
    (in the driver: one error line, exit 2)."""
    from pipeline.card_data import card_facts
    cache = tmp_path / "cache"
    monkeypatch.setenv("DSAME_CACHE_DIR", str(cache))
    umask = os.umask(0o022)
    try:
        assert card_facts(["CS2_182"])["CS2_182"]["cost"] == 4
    finally:
        os.umask(umask)
    assert _mode(cache) == 0o700
    cache.chmod(0o755)
    capsys.readouterr()
    card_facts(["CS2_182"])
    assert _mode(cache) == 0o700
    assert capsys.readouterr().err == f"note: the card cache {cache} was open to other users (mode 755); made it private (0700)\n"
    if os.geteuid() != 0:
        pytest.skip("needs root to give a folder to another user") if not os.environ.get("CI") else pytest.fail("CI runs as root")
    os.chown(cache, 65534, 65534)  # nobody
    with pytest.raises(ConfigError, match=f"the card cache {cache} belongs to user id 65534, not to you: set DSAME_CACHE_DIR"):
        card_facts(["CS2_182"])
    done = subprocess.run([sys.executable, "-m", "pipeline", "experiment=smoke", f"run_dir={tmp_path / 'run'}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "DSAME_CACHE_DIR": str(cache)})
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert done.stderr.startswith(f"error: the card cache {cache} belongs to user id 65534")
    assert not (tmp_path / "run").exists()
