"""What a PPO run writes: its learning curve (CSV and PNG, rewritten after each evaluation), its
policy file, and its progress lines. Shared by plain training (ppo) and self-play (selfplay)."""
from __future__ import annotations

import csv
import sys
from pathlib import Path
from typing import Callable

from ..players.ppo_player import write_info
from .intervals import wilson_interval


class Curve:
    """The learning curve's rows, written to CSV and PNG after each evaluation."""

    def __init__(self, out: Path, against: list, x: str = "steps",
                 title: str = "MaskablePPO: greedy policy, mirror matches on the six decks"):
        self.out, self.against, self.rows, self.x, self.title = out, against, [], x, title

    def add(self, row: dict) -> None:
        self.rows.append(row)
        fields = list(self.rows[0])
        tmp = self.out / "curve.csv.tmp"
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(self.rows)
        tmp.replace(self.out / "curve.csv")
        self.plot()

    def plot(self) -> None:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6.4, 4.0))
        steps = [r[self.x] for r in self.rows]
        for name in self.against:
            rate = [r[f"{name}_rate"] for r in self.rows]
            ax.plot(steps, rate, marker="o", label=f"against {name}")
            ax.fill_between(steps, [r[f"{name}_lo"] for r in self.rows], [r[f"{name}_hi"] for r in self.rows],
                            alpha=0.2)
        ax.axhline(0.5, color="grey", lw=0.8, ls="--")
        ax.set_xlabel("environment steps" if self.x == "steps" else f"training {self.x}")
        ax.set_ylabel("win rate (95% Wilson interval)")
        ax.set_ylim(0, 1)
        ax.set_title(self.title, fontsize="medium", wrap=True)
        ax.legend()
        fig.tight_layout()
        fig.savefig(self.out / "curve.png", dpi=120)
        plt.close(fig)


def save_policy(model, path: Path, encoder: str) -> None:
    tmp = path.with_name(path.stem + ".tmp.zip")
    model.save(str(tmp))
    write_info(tmp, encoder)
    tmp.replace(path)


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def add_rates(row: dict, against: list, points_of: Callable[[str], float], games: int) -> None:
    """The curve's columns of each opponent name in `against`, in that order: `name_rate`,
    the policy's points (`points_of(name)`, a draw is half) per game of `games`, and its 95%
    Wilson interval `name_lo`, `name_hi`, each rounded to 4 places."""
    for name in against:
        points = points_of(name)
        lo, hi = wilson_interval(points, games)
        row.update({f"{name}_rate": round(points / games, 4), f"{name}_lo": round(lo, 4),
                    f"{name}_hi": round(hi, 4)})


def rates_text(row: dict, against: list, digits: int) -> str:
    """The progress line's rates of a curve row: "name rate [lo, hi]" per opponent."""
    return ", ".join(f"{n} {row[f'{n}_rate']:.{digits}f} [{row[f'{n}_lo']:.{digits}f}, {row[f'{n}_hi']:.{digits}f}]"
                     for n in against)
