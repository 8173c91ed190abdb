"""The config of the pipeline runs a tool makes (tools.scale, tools.loop_study), composed and
checked before anything runs: a bad setting or override is one `error:` line and exit 2, as
`python -m pipeline` gives it, never a child run's traceback, and nothing is written."""
from __future__ import annotations

import sys


def checked_config(*overrides: str):
    """The validated config of `python -m pipeline OVERRIDES`; SystemExit(2) after one line."""
    from hydra import compose, initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    from pipeline.__main__ import override_error
    from pipeline.driver import CONF_DIR
    from pipeline.run_errors import PipelineError
    from pipeline.state.config import validate
    try:
        with initialize_config_dir(config_dir=CONF_DIR, version_base="1.3"):
            cfg = compose("config", overrides=list(overrides))
    except (HydraException, OmegaConfBaseException) as exc:
        fail(f"bad config override: {override_error(exc)}")
    try:
        return validate(cfg)
    except PipelineError as exc:
        fail(str(exc))


def fail(message: str):
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)
