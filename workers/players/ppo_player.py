"""A policy trained with MaskablePPO (sb3-contrib; workers.learning.ppo trains it) as a player.

The policy sees the state through an encoder (workers.players.encoders, from the acting
player's view) and `symlog` (sign(x) log(1 + |x|): counts, healths and card tallies of any size
come out within a few units, with no statistics to carry along), and picks one index of
workers.players.action_space among the legal ones: its most probable action (`deterministic`,
the default) or a sample drawn on the player's own seeded stream.

A saved policy is sb3's zip with one more member, `hearthstone.json`: the encoder's name and
version and the observation transform, so that a policy is never fed another encoder's vector.
"""
from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np

from ..engine.rng import GOLDEN, MASK64, derive, mix
from ..engine.state import GameState
from .action_space import ACTION_SIZE, legal_action_map
from .encoders import ENCODERS
from .play import play_turn

INFO_MEMBER = "hearthstone.json"
INFO_FORMAT = 1


class PolicyError(ValueError):
    pass


def symlog(x: np.ndarray) -> np.ndarray:
    return np.sign(x) * np.log1p(np.abs(x))


def policy_info(encoder: str) -> dict:
    return {"format": INFO_FORMAT, "encoder": encoder, "encoder_version": ENCODERS[encoder].version,
            "transform": "symlog", "action_size": ACTION_SIZE}


def write_info(path: str | Path, encoder: str) -> None:
    """Add the member that load_policy checks to a zip saved by sb3 (`model.save`)."""
    with zipfile.ZipFile(path, "a") as z:
        z.writestr(INFO_MEMBER, json.dumps(policy_info(encoder)))


def read_info(path: str | Path) -> dict:
    try:
        with zipfile.ZipFile(path) as z:
            info = json.loads(z.read(INFO_MEMBER))
    except (OSError, zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise PolicyError(f"policy {path} is not a policy saved by workers.learning.ppo "
                          f"({type(exc).__name__}: no readable {INFO_MEMBER})") from None
    encoder = info.get("encoder")
    if info.get("format") != INFO_FORMAT or encoder not in ENCODERS or info.get("transform") != "symlog":
        raise PolicyError(f"policy {path}: unknown format or encoder in {INFO_MEMBER}: {info}")
    if info.get("encoder_version") != ENCODERS[encoder].version or info.get("action_size") != ACTION_SIZE:
        raise PolicyError(f"policy {path} was trained with {encoder} v{info.get('encoder_version')} and "
                          f"{info.get('action_size')} actions; this code has v{ENCODERS[encoder].version} and "
                          f"{ACTION_SIZE}: train it again")
    return info


def numpy_actor(policy) -> list | None:
    """The actor's layers as numpy arrays [(weight: outputs x inputs, bias, activation), ...], or
    None where the network is not a plain MLP on the flat observation (then torch computes it)."""
    import torch.nn as nn
    from stable_baselines3.common.torch_layers import FlattenExtractor
    extractor = getattr(policy, "pi_features_extractor", policy.features_extractor)
    if not isinstance(extractor, FlattenExtractor):
        return None
    modules = list(policy.mlp_extractor.policy_net) + [policy.action_net]
    layers = []
    for m in modules:
        if isinstance(m, nn.Linear):
            layers.append([m.weight.detach().numpy().copy(), m.bias.detach().numpy().copy(), None])
        elif isinstance(m, (nn.ReLU, nn.Tanh)) and layers and layers[-1][2] is None:
            layers[-1][2] = type(m).__name__
        else:
            return None
    return [tuple(layer) for layer in layers]


class Policy:
    """A MaskablePPO model and its encoder: the distribution over legal actions of a state.

    The actor's weights are copied once into numpy, and the output layer is computed only at
    the legal actions: about 0.1 ms a decision, where sb3's masked distribution over all 4,162
    actions took 13.6 ms on 2 cores. The copy is the policy as it is now; build a new Policy
    after training it further.
    """

    def __init__(self, model, encoder: str):
        import torch
        self.model, self.encoder, self.torch = model, ENCODERS[encoder], torch
        if model.observation_space.shape != (self.encoder.size,):
            raise PolicyError(f"the policy's observations have shape {model.observation_space.shape}, "
                              f"the {encoder} encoder gives {self.encoder.size} values")
        self.layers = numpy_actor(model.policy)

    def observe(self, g: GameState, player: int) -> np.ndarray:
        return symlog(self.encoder.fn(g, player).astype(np.float32))

    def probabilities(self, g: GameState, player: int, mask: np.ndarray) -> np.ndarray:
        """The policy's distribution over the legal actions (zero elsewhere)."""
        if self.layers is None:
            return self.torch_probabilities(g, player, mask)
        x = self.observe(g, player)
        for weight, bias, activation in self.layers[:-1]:
            x = weight @ x + bias
            if activation == "ReLU":
                np.maximum(x, 0.0, out=x)
            elif activation == "Tanh":
                np.tanh(x, out=x)
        # the output layer only at the legal actions: a few dozen of its 4,162 rows
        legal = np.flatnonzero(mask)
        weight, bias, _ = self.layers[-1]
        logits = (weight[legal] @ x + bias[legal]).astype(np.float64)
        p = np.zeros(len(mask))
        p[legal] = np.exp(logits - logits.max())
        return p / p.sum()

    def torch_probabilities(self, g: GameState, player: int, mask: np.ndarray) -> np.ndarray:
        """The same distribution through sb3's own masked policy (any network shape)."""
        policy = self.model.policy
        with self.torch.no_grad():
            if policy.training:
                policy.set_training_mode(False)
            dist = policy.get_distribution(self.torch.as_tensor(self.observe(g, player)[None, :]),
                                           action_masks=mask[None, :])
            return dist.distribution.probs[0].numpy()


def load_policy(path: str | Path) -> Policy:
    """The policy saved at `path`; a missing, foreign or outdated file is one PolicyError."""
    path = Path(path)
    if not path.is_file():
        raise PolicyError(f"policy {path} does not exist (train one with "
                          "python -m workers.learning.ppo train-ppo --steps N)")
    info = read_info(path)
    from sb3_contrib import MaskablePPO
    try:
        model = MaskablePPO.load(str(path), device="cpu")
    except Exception as exc:  # sb3 raises many kinds on a damaged file
        raise PolicyError(f"policy {path} could not be loaded: {type(exc).__name__}: {exc}") from None
    try:
        return Policy(model, info["encoder"])
    except PolicyError as exc:
        raise PolicyError(f"policy {path}: {exc}") from None


class PPOPlayer:
    """Plays the policy's action, one at a time, until its turn ends."""

    def __init__(self, policy: Policy, seed: int, deterministic: bool = True):
        self.policy = policy
        self.deterministic = deterministic
        self.stream = derive(seed, 0x50504F)
        self.observer = None  # called with the game after every action (soak checks)
        self.counters = None  # the evaluated player's statistics (GameCounters), when counted

    def choose(self, g: GameState) -> tuple:
        legal = legal_action_map(g)
        if len(legal) == 1:
            return next(iter(legal.values()))
        mask = np.zeros(ACTION_SIZE, dtype=bool)
        mask[list(legal)] = True
        p = self.policy.probabilities(g, g.current, mask)
        if self.deterministic:
            index = int(np.argmax(p))
        else:
            self.stream = (self.stream + GOLDEN) & MASK64
            u = mix(self.stream) / 2.0 ** 64
            index = min(int(np.searchsorted(np.cumsum(p), u * p.sum(), side="right")), ACTION_SIZE - 1)
        if index not in legal:  # the mask rules this out; it would be a bug of the mapping
            raise AssertionError(f"policy chose action {index}, which is not legal")
        return legal[index]

    def take_turn(self, g: GameState) -> None:
        play_turn(g, self.choose, self.counters, self.observer)  # the whole turn is one planning round
