"""Command-line tools on top of both `workers` and `pipeline`; nothing in those imports them.

`bench` (make bench), `fidelity` (make fidelity: the built-in engine against SabberStone's
records), `compare_engines`, `soak` and `invariants` (make soak, make fuzz), `tournament`,
`states` and `values` (logged states and value networks), `fuzz_inputs` (make fuzz-inputs: bad
inputs run as a user would, a test tool).
"""
