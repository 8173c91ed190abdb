"""Who can reach a cluster: TLS credentials made for the run (no one without them, another user
on a shared node included, can submit code to its workers), TLS files for a cluster started by
hand, and the scheduler's HTTP pages, off unless cluster.dashboard=true: the dashboard has no
login, and even on the loopback interface every local user can open it."""
from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import socket
import sys
import tempfile
from pathlib import Path

from ..run_errors import ConfigError

LOOPBACK = "127.0.0.1"
log = logging.getLogger(__name__)


def temporary_security():
    """Self-signed credentials made for this run: without them no one can talk to the scheduler,
    the workers or the nannies."""
    from distributed.security import Security
    try:
        return Security.temporary()
    except ImportError as exc:  # pragma: no cover - cryptography is a dependency
        raise ConfigError(f"TLS needs the cryptography package ({exc})") from None


# --- the scheduler's HTTP server -----------------------------------------------------------
def dashboard_bind(address) -> str:
    """Where a dashboard listens: null, a port or ":port" mean the loopback interface; only an
    address that names a host ("0.0.0.0:8787", "node1:8787") opens it to that host's interfaces."""
    text = str(address or "").strip()
    host, _, port = text.rpartition(":")
    return text if host else f"{LOOPBACK}:{port or 0}"


def http_pages(dashboard: bool):
    """Besides the dashboard, the scheduler's HTTP server serves JSON, info and metrics pages
    (workers, tasks, logs): with the dashboard off, none of them while the cluster starts."""
    import dask
    return contextlib.nullcontext() if dashboard else dask.config.set({"distributed.scheduler.http.routes": []})


def close_or_announce_dashboard(client, on: bool) -> None:
    """Off: the scheduler's HTTP server, serving nothing, is closed. On: one line says where the
    dashboard is and who can open it (it has no login)."""
    if not on:
        client.run_on_scheduler(_close_http_server)
        return
    host, port = client.run_on_scheduler(_http_address)
    if host in ("0.0.0.0", "::"):
        host, who = socket.gethostname(), "on every network interface: anyone who can reach this host"
    elif ipaddress.ip_address(host).is_loopback:
        who = "on loopback: every user of this host (from elsewhere: ssh -L)"
    else:
        who = f"anyone who can reach {host}"
    print(f"dashboard: http://{host}:{port}/status, no login; {who} can open it", file=sys.stderr)


def _close_http_server(dask_scheduler) -> None:
    dask_scheduler.http_server.stop()
    dask_scheduler.services.pop("dashboard", None)  # so no one is pointed at a closed port


def _http_address(dask_scheduler) -> tuple[str, int]:
    return dask_scheduler.http_server.address, dask_scheduler.http_server.port


def one_line_request_errors(record: logging.LogRecord) -> bool:
    """tornado logs a page that fails (any local user can make /json/identity.json fail) with a
    25-line traceback into the run's output: one line at debug level instead."""
    if record.exc_info and str(record.msg).startswith("Uncaught exception"):
        exc = record.exc_info[1]
        log.debug("dashboard: %s (%s: %s)", record.getMessage().splitlines()[0], type(exc).__name__, exc)
        return False
    return True


# --- credentials for a cluster started by hand -------------------------------------------
def _write_private(path: Path, text: str) -> None:
    """Write `text` to `path` readable by this user only, whatever was there before: a new file
    made 0600, then renamed over the old one (never opened through it, so neither its mode nor
    a link in its place carries over)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        os.fchmod(fd, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_tls_files(directory: str) -> None:
    """CA, certificate and key for a cluster started by hand (slurm/dsa_me_srun.sbatch): files
    readable by this user only, and the dask config variables that point at them."""
    from distributed.security import Security
    sec = Security.temporary()
    path = Path(directory)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    files = {"ca.pem": sec.tls_ca_file, "cert.pem": sec.tls_client_cert, "key.pem": sec.tls_client_key}
    for name, text in files.items():
        _write_private(path / name, text)
    env = {"DASK_DISTRIBUTED__COMM__REQUIRE_ENCRYPTION": "True",
           "DASK_DISTRIBUTED__COMM__TLS__CA_FILE": path / "ca.pem"}
    for role in ("SCHEDULER", "WORKER", "CLIENT"):
        env[f"DASK_DISTRIBUTED__COMM__TLS__{role}__CERT"] = path / "cert.pem"
        env[f"DASK_DISTRIBUTED__COMM__TLS__{role}__KEY"] = path / "key.pem"
    print("\n".join(f"export {k}={v}" for k, v in env.items()))
