"""What a run computes is its config's, not the machine's: the surrogate's numbers on one CPU
code path whatever the environment asks (pipeline/float_paths.py), the same archive on one thread
or two, the steady-state loop resolved to numbers in config.yaml and the folder's name, and a
folder of a finished run's summaries refused untouched."""
import json
import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import yaml

from pipeline import float_paths

from .helpers import ROOT, TINY, assert_same_run, compose, final_state, run_pipeline

# What another machine's CPU would make the three libraries choose, asked through the environment.
OTHER_CPU = {"ATEN_CPU_CAPABILITY": "default", "MKL_CBWR": "AVX2", "NUMBA_CPU_NAME": "generic"}
ONE_THREAD = {"OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1", "NUMBA_NUM_THREADS": "1"}

# Trains the protocol's MLP on fixed data and predicts with torch and with the inner loop's kernel;
# prints a digest of the weights and both predictions. {after} runs after the pipeline's import.
SURROGATE_DIGEST = textwrap.dedent("""
    import hashlib, os
    import numpy as np
    import pipeline
    {after}
    from pipeline.deck_space import DeckSpace
    from pipeline.search.inner_kernel import predict_batch
    from pipeline.search.surrogate import Surrogate
    space = DeckSpace.from_pool_file()
    rng = np.random.default_rng(1)
    decks = space.random_decks(rng, 1000)
    y = decks @ rng.normal(size=(space.size, 3)) / 10 + rng.normal(size=(1000, 3))
    model = Surrogate("mlp", space.size, 3, seed=0, epochs=5)
    model.fit(decks, y, np.random.default_rng(2))
    digest = hashlib.sha256()
    for p in model.model.parameters():
        digest.update(p.detach().numpy().tobytes())
    digest.update(model.predict(decks[:300]).tobytes())
    digest.update(predict_batch(decks[:300], model.kernel_weights()).tobytes())
    print(digest.hexdigest())
""")

needs_pin = pytest.mark.skipif(not float_paths.PINNED, reason="this CPU cannot run the pinned AVX2 path")


def _mkl_branch(env: dict, after: str = "") -> str:
    """The branch MKL runs in a fresh process, as MKL_CBWR spells it."""
    ask = (f"import os, pipeline\n{after}\nfrom pipeline.float_paths import describe_mkl_branch, mkl_branch\n"
           "print(describe_mkl_branch(mkl_branch()))")
    done = subprocess.run([sys.executable, "-c", ask], cwd=ROOT, env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@needs_pin
def test_mkl_runs_its_compatible_branch_whatever_the_environment_asks():
    """MKL keeps an ISA branch such as AVX2 on Intel CPUs only (elsewhere it runs its AUTO
    dispatch), so the pin asks for the one branch it keeps on any vendor's CPU, strictly."""
    assert _mkl_branch({"MKL_CBWR": "AVX2"}) == "COMPATIBLE,STRICT"
    # the control: asked after the pin, MKL runs another branch, and the reading says so
    assert _mkl_branch({}, after="os.environ['MKL_CBWR'] = 'AUTO'") == "AUTO"


def _digest(env: dict, after: str = "") -> str:
    done = subprocess.run([sys.executable, "-c", SURROGATE_DIGEST.format(after=after)], cwd=ROOT,
                          env={**os.environ, **env}, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


@needs_pin
def test_the_surrogates_numbers_do_not_follow_the_cpu_paths_the_environment_asks():
    here = _digest({})
    assert _digest({**OTHER_CPU, **ONE_THREAD}) == here
    # the control: the same requests made after the pin take effect and change the numbers, so
    # the equality above is the pin's doing, not the variables' having no effect
    override = f"os.environ.update({OTHER_CPU!r}); import numba; numba.config.reload_config()"
    assert _digest({}, after=override) != here


TINY_STEADY = ["algorithm.steady_state=true", "algorithm.lag=20", "algorithm.min_batch=10",
               "algorithm.budget=80", "surrogate.device=cpu"]


@needs_pin
def test_a_run_is_the_same_on_one_thread_or_two_and_whatever_cpu_paths_are_asked(tmp_path):
    two, one = tmp_path / "two", tmp_path / "one"
    run_pipeline(*TINY_STEADY, "cluster.n_workers=2", run_dir=two)
    env = {**os.environ, **OTHER_CPU, **ONE_THREAD}
    done = subprocess.run([sys.executable, "-m", "pipeline", *TINY, *TINY_STEADY, "cluster.n_workers=2",
                           f"run_dir={one}"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert_same_run(final_state(two), final_state(one))
    assert (two / "evaluations.csv").read_bytes() == (one / "evaluations.csv").read_bytes()
    timing = ("_s", "worker_game_time_share")
    rows = [[{k: v for k, v in json.loads(line).items() if not k.endswith(timing)}
             for line in (d / "metrics.jsonl").read_text().splitlines()] for d in (two, one)]
    assert rows[0] == rows[1] and len(rows[0]) >= 4
    # the head node's side again, on its recorded games, under the other environment
    replayed = subprocess.run([sys.executable, "-m", "tools.replay_search", str(two)], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=600)
    assert replayed.returncode == 0 and "the same: the search asked for the run's 80 decks" in replayed.stdout, \
        replayed.stdout + replayed.stderr[-2000:]
    assert "CPU paths pinned, MKL's branch COMPATIBLE,STRICT" in replayed.stdout  # said, to compare machines by


def test_replay_names_the_first_evaluation_where_a_search_chose_another_deck(tmp_path):
    """Another run's recorded games under this run's config: the search's first outer iteration
    after the random decks asks for decks the record does not hold."""
    run_dir = tmp_path / "run"
    run_pipeline(*TINY_STEADY, run_dir=run_dir)
    from pipeline.state import checkpoint as ckpt
    from tools.replay_search import replay
    saved = ckpt.load(run_dir / ckpt.FILENAME)
    assert replay(run_dir) == (80, None)
    assert replay(run_dir, upto=30) == (30, None)
    # the record with decks 40.. swapped pairwise: the replay stops at the first swapped one
    arrays = {group: dict(values) for group, values in saved.arrays.items()}
    arrays["evaluations"]["decks"][40:42] = arrays["evaluations"]["decks"][[41, 40]]
    ckpt.save(run_dir / ckpt.FILENAME, config_yaml=saved.config_yaml, identity=saved.identity, state=saved.state,
              arrays=arrays, blobs=saved.blobs)
    assert replay(run_dir) == (40, 40)


def test_config_yaml_and_the_folder_name_say_the_loop_a_run_resolved(tmp_path, monkeypatch):
    from pipeline.driver import _run_loop_and_dir
    monkeypatch.chdir(tmp_path)
    names = {}
    for workers, lag in ((1, 10), (6, 18)):  # auto: 3 decks a slot, at least 10
        cfg = compose("algorithm.steady_state=true", "algorithm.lag=auto", "algorithm.min_batch=auto",
                      "algorithm.budget=200", f"cluster.n_workers={workers}")
        resolved, run_dir, asked = _run_loop_and_dir(cfg, None)
        assert (resolved.algorithm.lag, resolved.algorithm.min_batch, asked) == (lag, lag // 2, None)
        names[workers] = run_dir.name
        # the number given is the same run as auto resolved to it
        same = compose("algorithm.steady_state=true", f"algorithm.lag={lag}", f"algorithm.min_batch={lag // 2}",
                       "algorithm.budget=200", f"cluster.n_workers={workers}")
        assert _run_loop_and_dir(same, None)[1] == run_dir
    assert names[1] != names[6]
    run_dir = tmp_path / "run"
    run_pipeline("algorithm.steady_state=true", "algorithm.lag=auto", "algorithm.min_batch=auto", run_dir=run_dir)
    written = yaml.safe_load((run_dir / "config.yaml").read_text())["algorithm"]
    assert (written["lag"], written["min_batch"]) == (10, 5)


@pytest.mark.parametrize("run", ["dsa_me-seed0", "map_elites-seed0"])
def test_a_folder_of_a_finished_runs_summaries_is_refused_and_left_unchanged(tmp_path, run):
    folder = tmp_path / run
    shutil.copytree(ROOT / "results" / "paper" / run, folder)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}
    algorithm = run.split("-")[0]
    done = subprocess.run([sys.executable, "-m", "pipeline", "experiment=paper", f"algorithm={algorithm}", "seed=0",
                           f"run_dir={folder}"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "holds a finished run's summaries" in lines[0] and "choose another run_dir" in lines[0]
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()} == before


OLD_RUN = ROOT / "tests" / "pipeline" / "data" / "steady_state_24084ff"  # begun with lag auto (4% of 500: 20)
OLD_OVERRIDES = ["experiment=smoke_random", "seed=3", "cluster.n_workers=2", "surrogate.hidden=[16,8]",
                 "progress=false"]


def test_a_run_begun_with_auto_resumes_under_the_numbers_it_kept_and_refuses_others(tmp_path):
    """A command naming the folder of a run begun with `lag: auto` and giving numbers (as
    experiment=paper now does) resumes it if they are the run's, and is refused otherwise."""
    from hydra import compose as hydra_compose, initialize_config_dir

    from pipeline.driver import CONF_DIR, _check_kept_loop, _run_loop_and_dir
    run_dir = tmp_path / "old"
    shutil.copytree(OLD_RUN, run_dir)
    with initialize_config_dir(config_dir=CONF_DIR, version_base="1.3"):
        cfg = hydra_compose("config", overrides=[*OLD_OVERRIDES, "algorithm.lag=20", f"run_dir={run_dir}"])
    began, folder, asked = _run_loop_and_dir(cfg, None)
    assert (began.algorithm.lag, began.algorithm.min_batch, folder, asked) == ("auto", "auto", run_dir, (20, "auto"))

    class Kept:  # what a resumed search holds: the lag from its checkpoint
        lag, algo = 20, began.algorithm
    _check_kept_loop(Kept, run_dir, asked)  # the run's own numbers: resumed
    before = {p.name: p.read_bytes() for p in run_dir.iterdir()}
    done = subprocess.run([sys.executable, "-m", "pipeline", *OLD_OVERRIDES, "algorithm.lag=10", f"run_dir={run_dir}"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "holds a run with algorithm.lag 20 and min_batch 10 (auto when it began), this command asks 10" in done.stderr
    assert {p.name: p.read_bytes() for p in run_dir.iterdir()} == before
