"""Safe on a shared node: the local cluster speaks TLS with credentials of its own and listens on
loopback only, with no dashboard unless asked for; TLS files are private whatever was there
before, and card caches are checked before they are trusted."""
import hashlib
import json
import os
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request

import psutil
import pytest

from pipeline.cluster.clusters import open_cluster
from pipeline.cluster.security import dashboard_bind
from pipeline.cluster.slurm import slurm_cluster_kwargs
from pipeline.run_errors import ConfigError
from pipeline.state.config import validate
from workers.engine import carddb

from .helpers import ROOT, command, compose

# What another local user would try: plain TCP, TLS without certificates, TLS with credentials
# of their own. Run in a separate process, each attempt in a thread of its own with a deadline:
# an attempt that gets no answer (a busy machine can stall a refused client well past its own
# timeout) counts as refused, and one that connects later is still reported at the end.
INTRUDER = r"""
import os, sys, threading
from distributed import Client
from distributed.security import Security

def attempt(target, credentials, said):
    try:
        kwargs = {"security": Security.temporary()} if credentials else {}
        Client(target, timeout=5, **kwargs).close()
        said.append("CONNECTED")
    except Exception as exc:
        said.append(f"refused ({type(exc).__name__})")

answers = []
for address in sys.argv[1:]:
    for label, target, credentials in [("tcp", address.replace("tls://", "tcp://"), False),
                                       ("tls without certificates", address, False),
                                       ("tls with other credentials", address, True)]:
        said = []
        thread = threading.Thread(target=attempt, args=(target, credentials, said), daemon=True)
        thread.start()
        thread.join(20)
        answers.append((label, target, said, bool(said)))
        print(said[0] if said else "refused (no answer in 20 s)", label, target, flush=True)
for label, target, said, answered in answers:
    if not answered and said == ["CONNECTED"]:
        print("CONNECTED late", label, target, flush=True)
os._exit(0)  # without waiting for the refused clients' clean-up
"""


def _listening(pids):
    found = []
    for pid in pids:
        try:
            found += [c.laddr for c in psutil.Process(pid).net_connections(kind="inet") if c.status == "LISTEN"]
        except psutil.Error:
            pass
    return found


def test_the_local_cluster_refuses_clients_without_its_credentials():
    cfg = compose("cluster.n_workers=1").cluster
    with open_cluster(cfg) as client:
        assert client.submit(sum, [40, 2]).result(timeout=60) == 42  # the run's own client works
        info = client.scheduler_info()
        workers = list(info["workers"])
        nannies = [w["nanny"] for w in info["workers"].values()]
        addresses = [client.scheduler.address, *workers, *nannies]
        assert addresses and all(a.startswith("tls://127.0.0.1:") for a in addresses), addresses
        # Everything the cluster listens on is on the loopback interface, and is one of its
        # TLS addresses: no HTTP server (dashboard, info or metrics pages) by default.
        me = psutil.Process()
        sockets = _listening([me.pid] + [p.pid for p in me.children(recursive=True)])
        assert sockets and all(s.ip == "127.0.0.1" for s in sockets), sockets
        assert {s.port for s in sockets} == {int(a.rpartition(":")[2]) for a in addresses}, sockets
        assert "dashboard" not in info["services"]
        tried = subprocess.run([sys.executable, "-c", INTRUDER, *addresses], capture_output=True,
                               text=True, timeout=300, cwd=ROOT)
        lines = tried.stdout.splitlines()
        assert len(lines) == 3 * len(addresses), tried.stdout + tried.stderr[-2000:]
        assert all(line.startswith("refused") for line in lines), tried.stdout
        assert client.submit(sum, [1, 2]).result(timeout=60) == 3  # and the cluster is unharmed


def test_dashboards_bind_loopback_unless_a_host_is_named(tmp_path, monkeypatch):
    assert dashboard_bind(None) == "127.0.0.1:0"
    assert dashboard_bind(":8787") == dashboard_bind("8787") == "127.0.0.1:8787"
    assert dashboard_bind("0.0.0.0:8787") == "0.0.0.0:8787"  # asked for explicitly
    monkeypatch.chdir(tmp_path)  # the SLURM options create their log folder here
    kwargs = slurm_cluster_kwargs(compose("cluster=slurm").cluster)
    assert kwargs["scheduler_options"]["dashboard_address"] == "127.0.0.1:0"
    assert kwargs["scheduler_options"]["dashboard"] is False  # off unless asked for
    kwargs = slurm_cluster_kwargs(compose("cluster=slurm", "cluster.dashboard=true",
                                          "cluster.slurm.dashboard_address=:8788").cluster)
    assert kwargs["scheduler_options"]["dashboard_address"] == "127.0.0.1:8788"
    assert kwargs["scheduler_options"]["dashboard"] is True


class _NoRoute:
    """A UDP socket on a host without a route off it (no default route)."""

    def __init__(self, *args):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def connect(self, address):
        raise OSError(101, "Network is unreachable")


def test_the_scheduler_of_slurm_workers_is_never_advertised_on_loopback(tmp_path, monkeypatch):
    """Worker jobs run on other nodes: a loopback address would take them to their own node.
    (tests/slurm/test_nodes.py runs this on a head node in a network namespace of its own.)"""
    from pipeline.cluster import slurm
    monkeypatch.chdir(tmp_path)
    kwargs = slurm_cluster_kwargs(compose("cluster=slurm").cluster)
    host = kwargs["scheduler_options"]["host"]  # chosen by the pipeline, as Dask would
    assert not host.startswith("127.") and host == slurm.scheduler_host()
    assert kwargs["worker_extra_args"][-2:] == ["--preload", "pipeline.cluster.job_worker"]
    # cluster.slurm.interface names the interface for the scheduler and the workers: no host then
    kwargs = slurm_cluster_kwargs(compose("cluster=slurm", "cluster.slurm.interface=eth7").cluster)
    assert "host" not in kwargs["scheduler_options"] and kwargs["interface"] == "eth7"

    # No route off the host, and its name resolves to Debian's 127.0.1.1: its one other interface.
    monkeypatch.setattr(slurm.socket, "socket", _NoRoute)
    monkeypatch.setattr(slurm.socket, "getaddrinfo", lambda *a: [(2, 2, 17, "", ("127.0.1.1", 0))])
    monkeypatch.setattr(slurm, "_ipv4_interfaces", lambda: [("eth0", "10.1.2.3")])
    assert slurm.scheduler_host() == "10.1.2.3"
    # ... an unresolvable name (socket.gaierror) likewise
    def unresolvable(*args):
        raise slurm.socket.gaierror(-2, "Name or service not known")
    monkeypatch.setattr(slurm.socket, "getaddrinfo", unresolvable)
    assert slurm.scheduler_host() == "10.1.2.3"
    # with several, the user says which: one error naming them
    monkeypatch.setattr(slurm, "_ipv4_interfaces", lambda: [("eth0", "10.1.2.3"), ("ib0", "10.9.0.1")])
    with pytest.raises(ConfigError, match=r"set cluster.slurm.interface .*eth0 10.1.2.3, ib0 10.9.0.1\)"):
        slurm.scheduler_host()
    # a name that resolves to an address of the network is taken as it is
    monkeypatch.setattr(slurm.socket, "getaddrinfo", lambda *a: [(2, 2, 17, "", ("10.9.0.1", 0))])
    assert slurm.scheduler_host() == "10.9.0.1"


@pytest.mark.parametrize("overrides", [["cluster.dashboard_address=:8787"],
                                       ["cluster=slurm", "cluster.slurm.dashboard_address=:8787"]])
def test_a_dashboard_address_without_the_dashboard_is_refused(overrides):
    with pytest.raises(ConfigError, match="add cluster.dashboard=true"):
        validate(compose(*overrides))


def _get(url) -> int:
    try:
        return urllib.request.urlopen(url, timeout=20).status
    except urllib.error.HTTPError as exc:
        return exc.code


def test_a_dashboard_asked_for_says_who_can_open_it_and_no_request_prints_a_traceback(tmp_path):
    """What another local user did: pages of the dashboard, and one that fails in distributed
    (/json/identity.json), whose traceback went into the run's output."""
    run = subprocess.Popen(command("cluster.dashboard=true", run_dir=tmp_path / "run"), cwd=ROOT,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        start = run.stderr.readline()
        assert start.startswith("dashboard: http://127.0.0.1:"), start
        assert "every user of this host" in start
        url = start.split()[1].rstrip(",").removesuffix("/status")
        assert _get(url + "/status") == 200
        # It fails once a worker has reported metrics of tasks it ran (keys that are tuples).
        answers = set()
        while 500 not in answers and run.poll() is None:
            answers.add(_get(url + "/json/identity.json"))
            time.sleep(0.2)
        assert 500 in answers, "the page did not fail: the test shows nothing"
        _, err = run.communicate(timeout=300)
    finally:
        run.kill()
    assert run.returncode == 0, err[-2000:]
    assert "Traceback" not in err and "tornado" not in err, err[-3000:]


def test_tls_files_are_private_whatever_was_there_before(tmp_path):
    folder = tmp_path / "tls"
    folder.mkdir(mode=0o755)
    (folder / "key.pem").write_text("old key")
    os.chmod(folder / "key.pem", 0o666)
    victim = tmp_path / "victim.txt"
    victim.write_text("not a certificate")
    (folder / "cert.pem").symlink_to(victim)  # a link planted in place of a file
    done = subprocess.run([sys.executable, "-m", "pipeline.cluster", "tls", str(folder)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    for name in ("ca.pem", "cert.pem", "key.pem"):
        path = folder / name
        assert path.is_file() and not path.is_symlink()
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, name
        assert f"={path}" in done.stdout
    assert "PRIVATE KEY" in (folder / "key.pem").read_text()
    assert victim.read_text() == "not a certificate"
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # no temporary files left


# --- card caches -------------------------------------------------------------------------
def _edit_cache(path, edit, keep_digest=True):
    """Change the cached payload; keep_digest=False recomputes the digest as a careful forger would."""
    head, _, body = path.read_bytes().partition(b"\n")
    payload = json.loads(body)
    edit(payload)
    body = json.dumps(payload, sort_keys=True).encode()
    header = json.loads(head)
    if not keep_digest:
        header["sha256"] = hashlib.sha256(body).hexdigest()
    path.write_bytes(json.dumps(header).encode() + b"\n" + body)


def _stronger_minions(rows):
    for row in rows:
        if row["type"] == "MINION":
            row["atk"], row["health"] = 12, 12


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv("DSAME_CACHE_DIR", str(tmp_path / "cache"))
    carddb.load_cards.cache_clear()
    yield tmp_path / "cache"
    carddb.load_cards.cache_clear()


def test_an_edited_engine_card_cache_is_rebuilt(cache_dir, capsys):
    yeti = carddb.load_cards()["CS2_182"]  # Chillwind Yeti, 4/5
    path = carddb.cache_path()
    assert (yeti.atk, yeti.health) == (4, 5) and path.is_file()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    _edit_cache(path, lambda rows: next(r for r in rows if r["id"] == "CS2_182").update(atk=9))
    carddb.load_cards.cache_clear()
    capsys.readouterr()
    assert carddb.load_cards()["CS2_182"].atk == 4
    warning = capsys.readouterr().err.splitlines()
    assert len(warning) == 1 and "rebuilding" in warning[0] and "digest" in warning[0]
    rows, problem = carddb.read_checked_cache(path, carddb.data_version())  # the file is whole again
    assert problem is None and next(r for r in rows if r["id"] == "CS2_182")["atk"] == 4
    # Damaged, or writable by others: rebuilt too.
    path.write_bytes(path.read_bytes()[:1000])
    carddb.load_cards.cache_clear()
    assert carddb.load_cards()["CS2_182"].atk == 4
    os.chmod(path, 0o666)
    assert carddb.read_checked_cache(path, carddb.data_version())[1] == "may be written by another user"
    carddb.load_cards.cache_clear()
    assert carddb.load_cards()["CS2_182"].health == 5
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


EVALUATE = r"""
import json, sys
from workers.protocol.evaluate import evaluate_deck
cards = [c["id"] for c in json.load(open("workers/data/miracle_rogue.json"))["cards"]]
print(json.dumps(evaluate_deck(cards, games=12, seed=5, player="random").targets()))
"""


def _evaluate_in_new_process(cache):
    done = subprocess.run([sys.executable, "-c", EVALUATE], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "DSAME_CACHE_DIR": str(cache)})
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout), done.stderr


def test_a_deck_plays_the_true_cards_after_its_cache_was_edited(tmp_path):
    """The attack: stronger minions in the cache changed a deck's win rate. Edited, the cache is
    rebuilt and the deck's results are the true ones; the control shows the edit would matter."""
    cache = tmp_path / "cache"
    true, _ = _evaluate_in_new_process(cache)
    path = cache / carddb.cache_path().name
    _edit_cache(path, _stronger_minions)
    again, stderr = _evaluate_in_new_process(cache)
    assert again == true and "rebuilding" in stderr
    _edit_cache(path, _stronger_minions, keep_digest=False)  # control: an edit that passes the check
    forged, _ = _evaluate_in_new_process(cache)
    assert forged != true


def test_an_edited_head_node_card_cache_is_rebuilt(cache_dir, capsys):
    from pipeline.card_data import card_facts
    assert card_facts(["CS2_182"])["CS2_182"]["cost"] == 4
    path = next(cache_dir.glob("head-node-cards-*.json"))
    _edit_cache(path, lambda facts: facts["CS2_182"].update(cost=1))
    capsys.readouterr()
    assert card_facts(["CS2_182"])["CS2_182"]["cost"] == 4
    assert "digest" in capsys.readouterr().err
    facts, problem = carddb.read_checked_cache(path, carddb.data_version())
    assert problem is None and facts["CS2_182"]["cost"] == 4
