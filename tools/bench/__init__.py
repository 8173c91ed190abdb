"""Benchmarks (`make bench`, `python -m tools.bench`): the engine's figures (engine_costs.py), then the
head node's (head_node.py; alone: `python -m tools.bench.head_node [--quick] [--surrogate-only]`).
Each figure is one `name: value` line with its goal or anchor beside it."""
