"""The head node of the DSA-ME deck search (`python -m pipeline`). Imports `workers`, never
`tools`.

Packages, bottom to top; each imports only those below it:
- `errors`, `deck_space` (the pool, the deck encoding, random decks, mutation, deck files and
  codes), `card_data` (the card facts the deck space needs).
- `cluster`: Dask clusters (local, SLURM, an address), TLS, stop signals, the evaluation client
  and the tasks it sends to workers.
- `state`: a run's folder: the config's checks and identity, the HDF5 checkpoint, the lock.
- `search`: archives, emitters, the surrogate and its inner loop, the deck search (MAP-Elites,
  DSA-ME and baselines), the strategy search (CMA-ME), and the files a search keeps up to date
  in its run folder. A new algorithm is a module here and a conf/algorithm/ file.
- `report`: reports over finished runs (`python -m pipeline.report`).
- `driver` (with `__main__`): the Hydra entry point.
"""
from . import float_paths  # noqa: F401  (first: it pins the CPU code path of numba, torch and MKL)
import workers  # noqa: F401  (installs the finder that names moved module paths)
