"""What a run writes is private to its user (folders 0700, files 0600, set whatever the umask),
and so is the card cache folder whose plain SHA-256 digests guard only against accidents."""
import os
import stat

from .helpers import run_pipeline


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
