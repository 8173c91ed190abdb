"""`python -m pipeline.cluster tls DIR`: TLS credentials for a SLURM job's Dask cluster, written
to DIR and printed as the shell exports that point Dask at them (slurm/dsa_me_srun.sbatch)."""
import sys

from .clusters import write_tls_files

if len(sys.argv) != 3 or sys.argv[1] != "tls":
    print("usage: python -m pipeline.cluster tls DIR", file=sys.stderr)
    sys.exit(2)
write_tls_files(sys.argv[2])
