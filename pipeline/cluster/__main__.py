"""`python -m pipeline.cluster tls DIR`: TLS credentials for a SLURM job's Dask cluster, written
to DIR and printed as the shell exports that point Dask at them (slurm/dsa_me_srun.sbatch).
`python -m pipeline.cluster host`: the address of this host that workers on other nodes reach
its Dask scheduler at (never loopback; see slurm.scheduler_host)."""
import sys

from ..run_errors import ConfigError
from .security import write_tls_files
from .slurm import scheduler_host

if len(sys.argv) == 3 and sys.argv[1] == "tls":
    write_tls_files(sys.argv[2])
elif len(sys.argv) == 2 and sys.argv[1] == "host":
    try:
        print(scheduler_host(choose="set DSAME_SCHEDULER_HOST to the address of the interface"))
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)
else:
    print("usage: python -m pipeline.cluster tls DIR | host", file=sys.stderr)
    sys.exit(2)
