"""The search algorithms, as small parts composed by an ask/tell loop.

- `archives`: the archive's spec, the real archive (ribs) and the surrogate's (SurrogateGrid),
  the paper's metrics; `sliding`: the sliding-boundary map;
- `emitters`: the protocol's deck mutation;
- `surrogate`: the torch surrogate; `inner_loop`: MAP-Elites on it, in two modes, whose
  compiled kernels are `inner_kernel` (the serial chain) and `batched_kernel` (the batched
  steps), taking the named tuples of `kernel_data`;
- `deck_search` (MAP-Elites, DSA-ME and the baselines), `strategy_search` (CMA-ME over a
  player's weights), and `search_class` below, which picks one by algorithm.kind;
- `run_files` (metrics, heatmap, best decks, CCDF), `archive_page` (archive.html): what a
  search keeps up to date in its run folder; `progress`: progress bars or log lines.

Imports `pipeline.state` and below."""


def search_class(kind: str):
    """The search that runs algorithm.kind: the strategy search for cma_me, else a deck search."""
    if kind == "cma_me":
        from .strategy_search import StrategySearch
        return StrategySearch
    from .deck_search import Search
    return Search
