"""95% intervals of win rates, shared by the learning curves (workers.learning.ppo) and the
tournament (tools.tournament)."""
from __future__ import annotations

import math

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


def wilson_interval(points: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial share `points / n` (a draw counted as half a
    point); unlike rate +- z SE it stays inside [0, 1] and keeps its coverage near 0 and 1."""
    if n <= 0:
        raise ValueError("the Wilson interval needs at least one game")
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
