"""Errors a user can cause: each one is reported as a single line naming the problem."""
from __future__ import annotations


class PipelineError(Exception):
    """Base of every error that comes from bad input rather than a bug."""


class ConfigError(PipelineError):
    pass


class DeckSpaceError(PipelineError):
    """A deck, deck code, deck file or card pool that does not fit the deck space (the engine's
    own is workers.errors.DeckError)."""


class CheckpointError(PipelineError):
    pass


class RunDirError(PipelineError):
    pass


class EvaluationError(PipelineError):
    """Games failed inside the engine beyond the share a run accepts."""


class ClusterStartError(PipelineError):
    """The cluster did not start, after retries."""


class SchedulerLost(PipelineError):
    """The driver's Dask client lost its scheduler (`cause`); `saved`: the evaluations in the
    run's checkpoint then (None before the first)."""

    def __init__(self, cause: str, run_dir, saved: int | None):
        kept = (f"the checkpoint in {run_dir} holds {saved} evaluations; run the same command again to resume"
                if saved is not None else "no checkpoint was written yet; run the same command again to start")
        super().__init__(f"{cause}; {kept}")
        self.cause, self.saved = cause, saved
