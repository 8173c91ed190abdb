"""The paper's evaluation of a deck: decks and opponent files checked, the protocol's games
played (game g against opponent g mod 6, seeds derived from the evaluation seed), and their
records summarised into the objective, the measures and the statistics (`evaluate`,
`results`). Imports `workers.players` and below; `evaluate_deck` is the interface both engines
give the head node's worker tasks."""
