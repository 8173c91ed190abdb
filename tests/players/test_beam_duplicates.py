"""With the protocol's scores, a beam level drops duplicate states after the sort, hashing only
the children the new beam is chosen from (workers/players/play.py, beam_level); it must keep
the same children in the same order as dropping them as they come, which any other score
gets. Both ways, on every level of plans from the states of protocol games."""
from __future__ import annotations

from workers.engine.game import new_game
from workers.players.play import BeamSearchPlayer, beam_level, play_game
from workers.players.scores import aggro_score, cached_score, control_score
from workers.protocol.evaluate import card_library, default_opponents, miracle_rogue


def _plan_levels(root, me, score) -> list:
    """Each level's new beam (its lines) and the turn-ending children (value, line)."""
    beam = [(root.copy(), ())]
    levels = []
    for _ in range(13):
        ended: list = []
        beam, _n = beam_level(beam, me, score, 4, ended)
        levels.append(([line for _s, line in beam], [(value, line) for value, line, _e in ended]))
        if not beam:
            break
    return levels


def test_duplicates_dropped_after_the_sort_keep_the_same_beam():
    states = []
    opponents = default_opponents()
    for k, opponent in enumerate(opponents[:3]):
        g = new_game(card_library(), [miracle_rogue(), list(opponent.cards)], ["ROGUE", opponent.hero_class], 20 + k)
        player = BeamSearchPlayer(cached_score("nn"), 7 + k, depth=4, width=2)
        player.observer = lambda s: states.append(s.copy()) if not s.done else None
        play_game(g, [player, BeamSearchPlayer(aggro_score, 9 + k, depth=4, width=2)])
    assert len(states) > 60
    compared = 0
    for score in (cached_score("nn"), aggro_score, control_score):
        def as_other(g, me, score=score):  # the same score, not known to beam_level as one
            return score(g, me)
        for s in states[::3]:
            late = _plan_levels(s, s.current, score)
            assert late == _plan_levels(s, s.current, as_other)
            compared += len(late)
    assert compared > 100
