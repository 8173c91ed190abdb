"""The search algorithms, as small parts composed by an ask/tell loop: `archives`, `emitters`,
`surrogate` with its compiled `inner_loop`/`inner_kernel`, `deck_search` (MAP-Elites, DSA-ME and
the baselines), `strategy_search` (CMA-ME over a player's weights), and `run_files` (metrics,
heatmap, best decks: what a search keeps up to date in its run folder). Imports
`pipeline.state` and below."""


def search_class(kind: str):
    """The search that runs algorithm.kind: the strategy search for cma_me, else a deck search."""
    if kind == "cma_me":
        from .strategy_search import StrategySearch
        return StrategySearch
    from .deck_search import Search
    return Search
