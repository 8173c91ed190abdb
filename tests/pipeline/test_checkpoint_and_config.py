import h5py
import numpy as np
import pytest
from hydra import compose, initialize_config_dir

from pipeline.state import checkpoint as ckpt
from pipeline.state.config import identity_hash, validate
from pipeline.driver import CONF_DIR
from pipeline.run_errors import CheckpointError, ConfigError


def _save(path, **kw):
    ckpt.save(path, config_yaml="a: 1\n", identity="abc", state={"rng": {"x": 2 ** 100}, "n": 3},
              arrays={"evaluations": {"decks": np.ones((3, 180), np.int16)},
                      "real_archive": {"index": np.arange(3)}},
              blobs={"surrogate": b"\x00\x01bytes"}, **kw)


def test_round_trip_and_no_temporary_file_left(tmp_path):
    path = tmp_path / ckpt.FILENAME
    _save(path)
    _save(path)  # replacing an existing checkpoint
    assert [p.name for p in tmp_path.iterdir()] == [ckpt.FILENAME]
    saved = ckpt.load(path)
    assert saved.state == {"rng": {"x": 2 ** 100}, "n": 3}
    assert saved.blobs["surrogate"] == b"\x00\x01bytes"
    assert np.array_equal(saved.arrays["evaluations"]["decks"], np.ones((3, 180)))


def test_corrupt_and_foreign_files_are_named(tmp_path):
    truncated = tmp_path / "truncated.h5"
    _save(truncated)
    truncated.write_bytes(truncated.read_bytes()[:300])
    with pytest.raises(CheckpointError, match="truncated.h5 is damaged: the file fails its checksum"):
        ckpt.load(truncated)
    foreign = tmp_path / "foreign.h5"
    with h5py.File(foreign, "w") as f:
        f["x"] = [1, 2]
    with pytest.raises(CheckpointError, match="foreign.h5 has no verified header: .* or another HDF5 file"):
        ckpt.load(foreign)
    with pytest.raises(CheckpointError, match="no checkpoint at"):
        ckpt.load(tmp_path / "absent.h5")


def _cfg(*overrides):
    with initialize_config_dir(config_dir=CONF_DIR, version_base="1.3"):
        return compose("config", overrides=list(overrides))


def test_defaults_are_the_papers():
    cfg = validate(_cfg())
    a = cfg.algorithm
    assert (a.name, a.budget, a.initial, a.inner.iterations, a.inner.batch_size) == ("dsa_me", 10000, 100, 100000, 10)
    assert (cfg.opponents.games, cfg.strategy.player, cfg.surrogate.lr, cfg.surrogate.batch_size,
            cfg.surrogate.epochs, list(cfg.surrogate.hidden)) == (200, "beam", 0.01, 64, 20, [128, 32, 16])
    assert list(cfg.archive.dims) == [40, 40]


@pytest.mark.parametrize("algorithm, expect", [
    ("map_elites", {"kind": "map_elites"}), ("random_search", {"kind": "random_search"}),
    ("lsa_me", {"model": "linear"}), ("dsa_me_ad", {"targets": 12}),
    ("dsa_me_no_reset", {"reset": False}),
    ("offline_dsa_me_ad", {"targets": 12, "train_online": False}),
])
def test_each_algorithm_is_one_config(algorithm, expect):
    extra = ["algorithm.offline.path=x.h5"] if algorithm.startswith("offline") else []
    cfg = validate(_cfg(f"algorithm={algorithm}", *extra))
    for key, value in expect.items():
        assert cfg.algorithm[key] == value


@pytest.mark.parametrize("override, message", [
    ("+algorithm.colour=red", "algorithm.colour"),
    ("algorithm.targets=7", "algorithm.targets=7 is not one of 3, 12"),
    ("strategy.player=greedy", "strategy.player='greedy'"),
    ("algorithm.budget=many", "algorithm.budget"),
    ("algorithm=offline_dsa_me", "needs algorithm.offline.path"),
])
def test_bad_values_name_the_key(override, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(")):
        validate(_cfg(override))


def test_identity_ignores_how_the_run_is_spread():
    base = identity_hash(validate(_cfg()))
    assert identity_hash(validate(_cfg("cluster.n_workers=7", "cluster.games_per_task=5", "progress=false"))) == base
    assert identity_hash(validate(_cfg("seed=1"))) != base


def test_the_slurm_cluster_config_makes_a_job_script(tmp_path):
    from dask_jobqueue import SLURMCluster
    from pipeline.cluster.slurm import slurm_cluster_kwargs
    cfg = validate(_cfg("cluster=slurm", f"cluster.slurm.log_directory={tmp_path / 'logs'}"))  # not results/
    with SLURMCluster(**slurm_cluster_kwargs(cfg.cluster)) as cluster:
        script = cluster.job_script()
    assert "#SBATCH -t 12:00:00" in script and "--nworkers 20" in script and "--nthreads 1" in script


def test_presets():
    smoke, paper = validate(_cfg("experiment=smoke")), validate(_cfg("experiment=paper"))
    smoke_random = validate(_cfg("experiment=smoke_random"))
    assert smoke.strategy.player == "beam" and smoke.algorithm.budget < 1000  # make run: the protocol's players
    assert smoke_random.strategy.player == "random" and smoke_random.algorithm.budget < 1000
    assert paper.strategy.player == "beam" and paper.algorithm.budget == 10000
    assert paper.opponents.games == 200 and paper.algorithm.inner.iterations == 100000


def test_the_head_node_launcher_config_composes():
    pytest.importorskip("hydra_plugins.hydra_submitit_launcher")
    from hydra import compose, initialize_config_dir
    with initialize_config_dir(config_dir=CONF_DIR, version_base="1.3"):
        cfg = compose("config", overrides=["hydra/launcher=head_node"], return_hydra_config=True)
    assert cfg.hydra.launcher.timeout_min == 900
    assert cfg.hydra.launcher._target_.endswith("SlurmLauncher")


@pytest.mark.parametrize("value", ["1", "maybe", "'yes'"])
def test_hide_deck_order_must_be_a_bool(value):
    with pytest.raises(ConfigError, match="strategy.hide_deck_order must be true or false"):
        validate(_cfg(f"strategy.hide_deck_order={value}"))


def test_hide_deck_order_is_off_by_default_and_refused_with_sabberstone():
    assert validate(_cfg()).strategy.hide_deck_order is False
    assert validate(_cfg("strategy.hide_deck_order=true")).strategy.hide_deck_order is True
    with pytest.raises(ConfigError, match="strategy.hide_deck_order=true needs engine=builtin"):
        validate(_cfg("engine=sabberstone", "strategy.hide_deck_order=true"))


def test_the_old_name_of_steady_state_is_read_with_a_notice_and_keeps_the_identity(capsys):
    """algorithm.overlap was renamed algorithm.steady_state: the old key still works, says so, and
    a run keeps its folder and checkpoint identity whichever name its config uses."""
    from omegaconf import OmegaConf

    from pipeline.state.config import identity
    from .helpers import compose
    new = validate(compose("algorithm.steady_state=true"))
    old = validate(compose("algorithm.overlap=true"))
    assert "algorithm.overlap is now called algorithm.steady_state" in capsys.readouterr().err
    assert old.algorithm.steady_state is True and identity_hash(old) == identity_hash(new)
    assert identity_hash(validate(compose("algorithm.overlap=false"))) != identity_hash(new)
    # a config.yaml written before the rename (no steady_state key) has the same identity
    written = OmegaConf.to_container(new, resolve=True)
    written["algorithm"]["overlap"] = written["algorithm"].pop("steady_state")
    assert identity(OmegaConf.create(written)) == identity(new)
