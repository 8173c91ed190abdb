"""The suite's watchdog (tests/watchdog.py) ends a test that C code holds, and names it: here a
real one, HDF5 looping on the damaged checkpoint of issue 53, which pytest-timeout's signal
could not interrupt."""
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HANGS = ROOT / "tests/pipeline/data/v1_hang_damaged.h5"


def test_a_test_stuck_in_c_code_is_ended_and_named(tmp_path):
    (tmp_path / "test_stuck.py").write_text(f'''
import io
import h5py

def test_reads_a_file_hdf5_loops_on():
    with h5py.File(io.BytesIO(open({str(HANGS)!r}, "rb").read()), "r") as f:
        f.attrs.get("format")

def test_after_it():
    pass
''')
    (tmp_path / "pytest.ini").write_text("[pytest]\ntimeout = 2\n")
    start = time.monotonic()
    for workers in ([], ["-n", "1"]):
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.watchdog",
                               "-c", str(tmp_path / "pytest.ini"), "--rootdir", str(tmp_path), *workers,
                               str(tmp_path / "test_stuck.py")],
                              cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "DSAME_WATCHDOG_MARGIN": "3"})
        said = done.stdout + done.stderr
        assert done.returncode != 0, said
        if workers:  # xdist names the test and goes on with the next one
            assert "crashed while running 'test_stuck.py::test_reads_a_file_hdf5_loops_on'" in said, said
            assert "1 failed, 1 passed" in said, said
        else:  # the stack dump, written past pytest's capture
            assert "Timeout (0:00:05)!" in said and "in test_reads_a_file_hdf5_loops_on" in said, said
    assert time.monotonic() - start < 60
