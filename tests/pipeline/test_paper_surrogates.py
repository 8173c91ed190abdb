"""tools.tf_checkpoint and tools.paper_surrogates: a TF checkpoint read without TensorFlow, the
paper's surrogate predicting as its MLP does (in numpy and in the inner loop's kernel), its
calibration against real evaluations, and the landscape study's statistics taken from it.

EvoStone2's checkpoints cannot be fetched in CI, so the tests write checkpoints of the same
format (TF's tensor bundle: a LevelDB table indexing raw float32 tensors) with
`write_tf_checkpoint_standin`, a minimal writer of that format made for these tests."""
import struct

import numpy as np
import pytest

from pipeline.deck_space import DeckSpace
from pipeline.search.inner_kernel import predict_batch
from tools import landscape_study, paper_surrogates
from tools.tf_checkpoint import TFCheckpointError, read_checkpoint

LAYER_SIZES = (180, 8, 4, 4, 3)


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        out.append((value & 0x7F) | (0x80 if value > 0x7F else 0))
        value >>= 7
        if not value:
            return bytes(out)


def _field(number: int, value) -> bytes:
    if isinstance(value, bytes):
        return _varint(number << 3 | 2) + _varint(len(value)) + value
    return _varint(number << 3) + _varint(value)


def _block(entries) -> bytes:
    """One table block, keys prefix-compressed against the previous one."""
    out, previous = bytearray(), b""
    for key, value in entries:
        shared = 0
        while shared < min(len(key), len(previous)) and key[shared] == previous[shared]:
            shared += 1
        out += _varint(shared) + _varint(len(key) - shared) + _varint(len(value)) + key[shared:] + value
        previous = key
    return bytes(out) + struct.pack("<II", 0, 1)  # one restart point, at 0


def write_tf_checkpoint_standin(prefix, tensors: dict, dtype_code: int = 1) -> None:
    """STAND-IN for a checkpoint TensorFlow saved: the same files and bytes for float32 tensors."""
    data, entries = bytearray(), [(b"", _field(1, 1))]  # the bundle's header entry
    for name in sorted(tensors):
        array = np.asarray(tensors[name], dtype="<f4")
        shape = b"".join(_field(2, _field(1, d)) for d in array.shape)
        entry = _field(1, dtype_code) + _field(2, shape) + _field(4, len(data)) + _field(5, array.nbytes)
        entries.append((name.encode(), entry))
        data += array.tobytes()
    body = _block(entries)
    index_block = _block([(b"\xff", _varint(0) + _varint(len(body)))])
    index_offset = len(body) + 5  # each block is followed by a 5-byte trailer
    footer = (_varint(0) + _varint(0) + _varint(index_offset) + _varint(len(index_block))).ljust(40, b"\0")
    index = body + b"\0" * 5 + index_block + b"\0" * 5 + footer + bytes(8)
    open(f"{prefix}.index", "wb").write(index)
    open(f"{prefix}.data-00000-of-00001", "wb").write(bytes(data))


def paper_like_tensors(seed=0) -> dict:
    rng = np.random.default_rng(seed)
    tensors = {"beta2_power": np.float32(0.999 ** 150)}
    for i, (n_in, n_out) in enumerate(zip(LAYER_SIZES, LAYER_SIZES[1:]), start=1):
        tensors[f"fc{i}/w"] = rng.normal(0, 0.3, (n_in, n_out))
        tensors[f"fc{i}/b"] = rng.normal(0, 0.3, n_out)
        tensors[f"fc{i}/w/Adam"] = np.zeros((n_in, n_out))  # slots the paper's checkpoints keep too
    tensors["fc4/b"] = tensors["fc4/b"] + np.array([0.0, 9.0, 4.0])  # turns and hand size near the real ones
    return tensors


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    from .helpers import run_pipeline
    run_dir = tmp_path_factory.mktemp("paper_surrogates") / "run"
    run_pipeline("algorithm=map_elites", run_dir=run_dir)
    return run_dir / "checkpoint.h5"


@pytest.fixture
def model_dir(tmp_path):
    folder = tmp_path / "fixed_model"
    folder.mkdir()
    write_tf_checkpoint_standin(folder / "model.ckpt", paper_like_tensors())
    return folder


def test_a_checkpoint_reads_back_every_tensor_with_its_shape(tmp_path):
    tensors = paper_like_tensors()
    write_tf_checkpoint_standin(tmp_path / "model.ckpt", tensors)
    read = read_checkpoint(tmp_path / "model.ckpt")
    assert sorted(read) == sorted(tensors)
    for name, array in tensors.items():
        assert read[name].shape == np.shape(array)
        assert np.array_equal(read[name], np.asarray(array, dtype=np.float32))


def test_a_missing_truncated_or_non_float_checkpoint_is_refused_by_name(tmp_path):
    write_tf_checkpoint_standin(tmp_path / "model.ckpt", paper_like_tensors())
    data = tmp_path / "model.ckpt.data-00000-of-00001"
    data.write_bytes(data.read_bytes()[:100])
    with pytest.raises(TFCheckpointError, match="does not fit the data file"):
        read_checkpoint(tmp_path / "model.ckpt")
    data.unlink()
    with pytest.raises(TFCheckpointError, match="data-00000-of-00001: no such file"):
        read_checkpoint(tmp_path / "model.ckpt")
    write_tf_checkpoint_standin(tmp_path / "double", {"w": np.zeros(3)}, dtype_code=2)
    with pytest.raises(TFCheckpointError, match="tensor w is not float32"):
        read_checkpoint(tmp_path / "double")
    (tmp_path / "short.index").write_bytes(b"\0" * 10)
    (tmp_path / "short.data-00000-of-00001").write_bytes(b"")
    with pytest.raises(TFCheckpointError, match="too short"):
        read_checkpoint(tmp_path / "short")


def test_the_paper_surrogate_predicts_as_its_mlp_in_numpy_and_in_the_inner_loops_kernel(model_dir):
    model = paper_surrogates.PaperSurrogate.load(model_dir)
    decks = DeckSpace.from_pool_file().random_decks(np.random.default_rng(1), 20)
    h = decks.astype(np.float64)
    tensors = paper_like_tensors()
    for i in range(1, 5):
        h = h @ np.float32(tensors[f"fc{i}/w"]) + np.float32(tensors[f"fc{i}/b"])
        h = np.where(h > 0, h, np.exp(h) - 1) if i < 4 else h
    predicted = model.predict(decks)
    assert np.allclose(predicted, h, atol=1e-9)
    assert np.allclose(predict_batch(decks.astype(np.int16), model.kernel_weights()), predicted, atol=1e-4)
    assert round(model.adam_steps) == 150


def test_a_checkpoint_without_the_mlps_layers_is_refused_and_the_tool_exits_2(tmp_path, capsys):
    write_tf_checkpoint_standin(tmp_path / "model.ckpt", {"fc1/w": np.zeros((2, 2))})
    assert paper_surrogates.main(["--models", str(tmp_path), "--checkpoints", str(tmp_path / "none.h5")]) == 2
    assert "no tensor 'fc1/b'" in capsys.readouterr().err


def test_calibration_says_how_far_the_predictions_spread_against_the_real_values():
    real = np.random.default_rng(2).normal(9, 1.3, 500)
    same = paper_surrogates.calibration(real, real)
    assert same["slope"] == pytest.approx(1) and same["r"] == pytest.approx(1) and same["mse"] == 0
    narrower = paper_surrogates.calibration(9 + (real - 9) / 2, real)  # predictions half as spread
    assert narrower["slope"] == pytest.approx(2) and narrower["sd"] == pytest.approx(real.std() / 2)


def test_the_tool_scores_a_runs_evaluations_and_runs_the_inner_loop_on_the_model(model_dir, small_run, capsys):
    assert paper_surrogates.main(["--models", str(model_dir), "--checkpoints", str(small_run)]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if line.startswith("| fixed_model | checkpoint.h5")]
    assert [row.split(" | ")[2] for row in rows] == list(paper_surrogates.STATISTICS)
    archive = next(line for line in out.splitlines() if line.startswith("| fixed_model | 150 |"))
    assert int(archive.split(" | ")[2].split(" ")[0]) > 0


def test_our_surrogate_trained_once_on_a_run_is_scored_on_the_other_evaluations_only(small_run, capsys):
    run = small_run.parent
    assert paper_surrogates.main(["--runs", str(run), "--checkpoints", str(small_run), "--train-once",
                                  "--cells", "ours", "--first", "10"]) == 0
    out = capsys.readouterr().out
    rows = [line.split(" | ") for line in out.splitlines() if line.startswith("| ours, trained once: run |")]
    scored = [row[1] for row in rows if row[2] in paper_surrogates.STATISTICS]
    assert scored == ["checkpoint.h5, first 10 (10)"] * 3  # not its own run's
    assert "elites on our cells" in out


def test_the_landscape_takes_its_three_statistics_from_the_paper_surrogate(model_dir, small_run):
    land = landscape_study.Landscape.trained([small_run], DeckSpace.from_pool_file())
    land.paper_model = paper_surrogates.PaperSurrogate.load(model_dir)
    land.noise_sd[:] = 0
    decks = DeckSpace.from_pool_file().random_decks(np.random.default_rng(3), 5)
    targets = land.targets(decks, np.arange(5), seed=0)
    assert np.allclose(targets[:, :3], land.paper_model.predict(decks))
    assert np.allclose(targets[:, 3:], land.model.predict(decks.astype(np.float32))[:, 3:], atol=1e-5)


def test_the_landscape_study_takes_the_paper_surrogate_and_the_noise_from_its_command_line(model_dir, small_run,
                                                                                           tmp_path, capsys):
    import json
    args = ["--data", str(small_run), "--paper-surrogate", str(model_dir), "--noise", "0", "0.5", "0",
            "--seeds", "0", "--budget", "200", "--out", str(tmp_path / "study")]
    assert landscape_study.main(args) == 0
    learned = json.loads((tmp_path / "study" / "landscape.json").read_text())
    assert learned["paper_surrogate"] == str(model_dir.resolve()) and learned["noise_sd"][:3] == [0, 0.5, 0]
    assert json.loads((tmp_path / "study" / "map_elites-ours-seed0-200.json").read_text())["evaluations"] == 200
    args[args.index("--paper-surrogate") + 1] = str(tmp_path / "nowhere")
    assert landscape_study.main(args) == 2
    assert "nowhere/model.ckpt.index: no such file" in capsys.readouterr().err
