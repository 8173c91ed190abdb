"""The games the report's transfer analysis has played, kept as `transfer.json` in the report
folder itself, not in the temporary folder a report is assembled in: each piece is written there
as it comes back, so whatever ends a report (an error, a stop, a second stop after the
transfer, a kill) the next report into that folder finds every game played. One file serves
every behaviour space of a report: a run's entry is keyed by its path and evaluations."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

from .runs import ReportError

TRANSFER_CACHE = "transfer.json"
UNFINISHED = "unfinished"  # the entry of the transfers a stop cut short: run key -> targets so far


class TransferCache:
    """`claim()` is called before the first write: it makes the report folder if there is none."""

    def __init__(self, folder: Path, claim: Callable[[], None] = lambda: None):
        self.path, self._claim = Path(folder) / TRANSFER_CACHE, claim
        try:
            self.entries = json.loads(self.path.read_text()) if self.path.is_file() else {}
            if not isinstance(self.entries, dict) or not isinstance(self.entries.setdefault(UNFINISHED, {}), dict):
                raise ValueError("not a JSON object of runs")
        except ValueError as exc:
            raise ReportError(f"{self.path} is not the report's transfer cache ({exc}); move it away to play the "
                              "transfer again") from None

    def row(self, key: str) -> dict | None:
        """The finished transfer of the run `key`, or None."""
        return self.entries.get(key)

    def played(self, key: str) -> list:
        """The targets of the decks of an unfinished transfer played so far."""
        return self.entries[UNFINISHED].get(key, [])

    def keep(self, key: str, targets: list) -> None:
        self.entries[UNFINISHED][key] = [list(t) for t in targets]
        self._save()

    def finish(self, key: str, row: dict) -> None:
        self.entries[key] = row
        self.entries[UNFINISHED].pop(key, None)
        self._save()

    def _save(self) -> None:
        """Written whole and renamed into place, a stop meanwhile deferred to the end."""
        from ..cluster.stops import stops_deferred
        with stops_deferred():
            self._claim()
            tmp = self.path.with_name(f".{TRANSFER_CACHE}.tmp-{os.getpid()}")
            tmp.write_text(json.dumps(self.entries))
            os.replace(tmp, self.path)
