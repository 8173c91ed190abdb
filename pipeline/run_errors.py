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
