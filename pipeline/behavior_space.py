"""The behaviour space a search asks about: an objective and 1 to 3 measures, each a statistic
that every evaluation records, named as in the results files (docs/pipeline.md#choosing-the-
behaviour-space). Deck-level statistics are known from the deck alone: the inner loop takes
their exact value instead of the surrogate's prediction.

The one place of these facts:
- `STATISTICS`, `DECK_LEVEL`, `N_TARGETS`: the statistics by name; those known from the deck;
  how many an evaluation returns;
- the paper's space, the default of `archive.*`: `DEFAULT_OBJECTIVE`, `DEFAULT_MEASURES`,
  `DEFAULT_DIMS`, `DEFAULT_RANGES` (conf/config.yaml shows the same values; a test checks that
  they agree);
- `KNOWN_OBJECTIVE_RANGES`: the objectives whose QD-score scale is known;
- `LABELS` and `describe`: each statistic's name in words, on axes, pages and tables;
- `BehaviorSpace`: one space (objective, measures, objective range), its columns and where the
  inner loop takes each value from (`FROM_*`); `card_features`: the deck-level features.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from workers.protocol.results import TARGET_NAMES

# Every statistic by name, in the column order of `statistics()`: the 12 an evaluation returns
# (the surrogate's targets), then the deck's crafting cost.
STATISTICS: tuple[str, ...] = (*TARGET_NAMES, "dust")
N_TARGETS = len(TARGET_NAMES)  # what every evaluation returns (and an "(ad)" surrogate learns)
DECK_LEVEL = ("deck_mana_sum", "deck_mana_variance", "num_minions", "num_spells", "dust")
DUST = {"free": 0, "common": 40, "rare": 100, "epic": 400, "legendary": 1600}  # per copy, by rarity
# The objective's range for the QD-score ((f - low) / (high - low) per elite) where it is known;
# any other objective needs archive.objective_range.
KNOWN_OBJECTIVE_RANGES = {"health_difference": (-30.0, 30.0), "win_rate": (0.0, 1.0)}
# The paper's space, archive.*'s default: the health difference over average own turns and
# average hand size, on a 40 x 40 grid.
DEFAULT_OBJECTIVE = "health_difference"
DEFAULT_MEASURES = ("turns", "hand_size")
DEFAULT_DIMS = (40, 40)
DEFAULT_RANGES = ((5.0, 15.0), (1.0, 7.0))
# Where the inner-loop kernel takes a deck-level statistic from: a column of `card_features`
# (summed over the deck's copies), or the variance of the cards' costs.
LINEAR_FEATURES = ("deck_mana_sum", "num_minions", "num_spells", "dust")
FROM_PREDICTION, FROM_DECK, FROM_COST_VARIANCE = 0, 1, 2


@dataclass(frozen=True)
class BehaviorSpace:
    objective: str = DEFAULT_OBJECTIVE
    measures: tuple[str, ...] = DEFAULT_MEASURES
    objective_range: tuple[float, float] = KNOWN_OBJECTIVE_RANGES[DEFAULT_OBJECTIVE]

    @classmethod
    def from_config(cls, archive) -> "BehaviorSpace":
        """From the config's `archive` (an OmegaConf node or a plain dict); a run's config.yaml
        from before these keys existed has the default space."""
        objective = str(archive.get("objective", DEFAULT_OBJECTIVE))
        given = archive.get("objective_range")
        bounds = KNOWN_OBJECTIVE_RANGES.get(objective) if given is None else (float(given[0]), float(given[1]))
        return cls(objective, tuple(str(m) for m in archive.get("measures", DEFAULT_MEASURES)), bounds)

    @property
    def names(self) -> tuple[str, ...]:
        """The objective, then the measures."""
        return (self.objective, *self.measures)

    @property
    def columns(self) -> np.ndarray:
        """Their columns of `statistics()`."""
        return np.array([STATISTICS.index(n) for n in self.names], dtype=np.int64)

    def surrogate_columns(self, n_targets: int) -> np.ndarray:
        """The statistics a surrogate of `n_targets` outputs learns: the objective and the
        measures (the 3-target variants, whatever their count), or all 12 targets ("(ad)")."""
        return np.arange(N_TARGETS) if n_targets == N_TARGETS else self.columns

    def surrogate_outputs(self, n_targets: int) -> int:
        return len(self.surrogate_columns(n_targets))

    def sources(self, n_targets: int) -> tuple[np.ndarray, np.ndarray]:
        """For the objective and each measure, where the inner loop takes it from: (kind, index)
        with kind FROM_PREDICTION (index: the surrogate's output), FROM_DECK (index: a column of
        `card_features`) or FROM_COST_VARIANCE."""
        predicted = [STATISTICS[c] for c in self.surrogate_columns(n_targets)]
        kinds, indices = [], []
        for name in self.names:
            if name in LINEAR_FEATURES:
                kinds.append(FROM_DECK), indices.append(LINEAR_FEATURES.index(name))
            elif name == "deck_mana_variance":
                kinds.append(FROM_COST_VARIANCE), indices.append(0)
            else:
                kinds.append(FROM_PREDICTION), indices.append(predicted.index(name))
        return np.array(kinds, dtype=np.int64), np.array(indices, dtype=np.int64)

    def statistics(self, targets: np.ndarray, decks: np.ndarray, space) -> np.ndarray:
        """Every statistic of these evaluations (rows): their 12 targets, then the decks' dust."""
        dust = np.asarray(decks, dtype=np.float64) @ card_features(space)[:, LINEAR_FEATURES.index("dust")]
        return np.concatenate([np.asarray(targets, dtype=np.float64).reshape(len(dust), -1), dust[:, None]], axis=1)

    def values(self, targets: np.ndarray, decks: np.ndarray, space) -> tuple[np.ndarray, np.ndarray]:
        """(objective, measures) of these evaluations."""
        chosen = self.statistics(targets, decks, space)[:, self.columns]
        return chosen[:, 0], chosen[:, 1:]


def card_features(space) -> np.ndarray:
    """Per pool card (rows) and LINEAR_FEATURES (columns): what one copy adds to the deck's
    mana sum, minion count, spell count and dust."""
    return np.array([[c.cost, c.type == "MINION", c.type == "SPELL", DUST[c.rarity]] for c in space.cards],
                    dtype=np.float64)


def describe(name: str) -> str:
    """A statistic's name in words (axes, pages, tables)."""
    return LABELS.get(name, name.replace("_", " "))


# Every statistic in words; the per-game ones are averages over a deck's games.
LABELS = {"health_difference": "health difference", "turns": "average number of own turns",
          "hand_size": "average hand size", "win_rate": "win rate", "damage_per_turn": "minion damage per turn",
          "cards_drawn_per_turn": "cards drawn per turn", "mana_spent_per_turn": "mana spent per turn",
          "mana_wasted_per_turn": "mana wasted per turn", "deck_mana_sum": "deck mana sum",
          "deck_mana_variance": "deck mana variance", "num_minions": "minion cards",
          "num_spells": "spell cards", "dust": "dust (crafting cost)"}
