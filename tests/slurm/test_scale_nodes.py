"""`make scale --slurm` at a small N: the stand-in workers as SLURM worker jobs on the three-host
cluster (slurm/nodes_slurm.sh), the driver on its controller, reached over TLS and the hosts'
network; one line per mode in the form of the local figures."""
import json
import re
import subprocess
import sys

import pytest

from tests.pipeline.test_scale import LINE

from .conftest import NODES_DIR, ROOT

pytestmark = pytest.mark.timeout(600)


def test_scale_on_the_three_host_cluster_prints_its_line(shared, tmp_path):
    runs = shared  # a folder the nodes see (not this machine's /tmp)
    done = subprocess.run(
        [sys.executable, "-m", "tools.scale", "--slurm", "--slots", "4", "--modes", "on", "--budget", "40",
         "--table", str(runs / "table.npz"), "--runs-dir", str(runs), "--json", str(tmp_path / "scale.json"),
         "--calibration-decks", "3", "--calibration-games", "6", "--overhead-tasks", "50",
         "opponents.games=24", "algorithm.initial=20", "algorithm.inner.iterations=100", "surrogate.epochs=2"],
        cwd=ROOT, capture_output=True, text=True, timeout=540, env={**__import__("os").environ,
                                                                    "SLURM_NODES_DIR": str(NODES_DIR)})
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("scale ")]
    assert len(lines) == 1 and lines[0].startswith("scale N=4 steady_state=on slurm: "), done.stdout
    assert LINE.match(lines[0].replace(" slurm:", ":")), lines[0]
    figures, = json.loads((tmp_path / "scale.json").read_text())
    assert figures["slurm"] and figures["evaluations"] == 40 and 0 < figures["busy_share"] <= 1
    # the worker jobs ran on the compute nodes and reached the controller's scheduler over TLS
    logs = sorted((runs / "slurm-logs").glob("dsame-scale-*.err"))
    assert len(logs) == 2, logs
    hosts = {m for log in logs for m in re.findall(r"Start worker at: +tls://([\d.]+):", log.read_text())}
    assert len(hosts) == 2, hosts
    assert (runs / "N4-steady_state-on-slurm" / "checkpoint.h5").is_file()
