"""Small helpers around the SLURM command-line tools, as a user would call them."""
import subprocess
import time


def sbatch(*args, cwd) -> str:
    done = subprocess.run(["sbatch", "--parsable", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, f"sbatch failed: {done.stderr}"
    return done.stdout.strip().split(";")[0]


def jobs_named(name: str) -> dict[str, str]:
    """Job id -> state of this user's pending or running jobs with this name."""
    out = subprocess.run(["squeue", "-h", "--name", name, "-o", "%i %T"], capture_output=True,
                         text=True, timeout=60).stdout
    return dict(line.split() for line in out.splitlines() if line.strip())


def job_state(job_id: str) -> str:
    """RUNNING, PENDING, COMPLETED, FAILED, CANCELLED, ... ('' once SLURM forgot the job)."""
    out = subprocess.run(["scontrol", "-o", "show", "job", job_id], capture_output=True, text=True,
                         timeout=60).stdout
    for field in out.split():
        if field.startswith("JobState="):
            return field.split("=", 1)[1]
    return ""


ENDED = ("COMPLETED", "FAILED", "CANCELLED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "PREEMPTED", "")


def wait_job(job_id: str, timeout: float) -> str:
    end = time.time() + timeout
    while time.time() < end:
        state = job_state(job_id)
        if state in ENDED:
            return state
        time.sleep(1.0)
    raise AssertionError(f"job {job_id} still {job_state(job_id)} after {timeout:.0f} s")


def scancel(job_id: str) -> None:
    subprocess.run(["scancel", job_id], check=True, timeout=60)
