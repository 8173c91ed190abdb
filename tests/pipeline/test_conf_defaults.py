"""The defaults conf/ shows a user are the ones the code owns (one fact, one place: the code's
constant is the fact, the yaml shows it)."""
from pathlib import Path

import yaml

from pipeline import behavior_space
from pipeline.cluster.job_watch import MAX_FAILED_JOBS
from pipeline.cluster.slurm import FAULT_DEFAULTS
from pipeline.state.config import RootCfg

CONF = Path(__file__).resolve().parents[2] / "conf"


def test_the_root_configs_behaviour_space_is_behavior_spaces_default():
    archive = yaml.safe_load((CONF / "config.yaml").read_text())["archive"]
    assert archive["objective"] == behavior_space.DEFAULT_OBJECTIVE
    assert tuple(archive["measures"]) == behavior_space.DEFAULT_MEASURES
    assert tuple(archive["dims"]) == behavior_space.DEFAULT_DIMS
    assert tuple(map(tuple, archive["ranges"])) == behavior_space.DEFAULT_RANGES
    schema = RootCfg().archive  # the schema a config is merged onto
    assert (schema.objective, tuple(schema.measures), tuple(schema.dims), tuple(map(tuple, schema.ranges))) == (
        archive["objective"], tuple(archive["measures"]), tuple(archive["dims"]), tuple(map(tuple, archive["ranges"])))


def test_every_statistic_has_a_label():
    assert set(behavior_space.LABELS) == set(behavior_space.STATISTICS)


def test_the_slurm_configs_fault_settings_are_the_codes_defaults():
    slurm = yaml.safe_load((CONF / "cluster" / "slurm.yaml").read_text())["slurm"]
    assert slurm["max_failed_jobs"] == MAX_FAILED_JOBS
    assert {key: slurm[key] for key in FAULT_DEFAULTS} == FAULT_DEFAULTS
