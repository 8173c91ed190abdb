"""Checks that must hold after every action of every game (used by the soak and fuzz runs)."""
from __future__ import annotations

from workers.engine.state import MAX_BOARD, MAX_HAND, MAX_MANA, MAX_SECRETS, GameState


class InvariantViolation(AssertionError):
    pass


def check_invariants(g: GameState) -> None:
    """Raise InvariantViolation naming the first broken rule."""
    uids = set()

    def place(entity, zone):
        if entity.uid in uids:
            raise InvariantViolation(f"entity {entity!r} is in more than one zone (again in {zone})")
        uids.add(entity.uid)

    for p in g.players:
        who = f"player {p.index}"
        if len(p.hand) > MAX_HAND:
            raise InvariantViolation(f"{who} holds {len(p.hand)} cards")
        if len(p.board) > MAX_BOARD:
            raise InvariantViolation(f"{who} has {len(p.board)} minions")
        if len(p.secrets) > MAX_SECRETS:
            raise InvariantViolation(f"{who} has {len(p.secrets)} secrets")
        # Overload locking more than the crystals leaves mana below 0, as in SabberStone.
        if not 0 <= p.max_mana <= MAX_MANA or not -p.overload_locked <= p.mana <= MAX_MANA:
            raise InvariantViolation(f"{who} has {p.mana}/{p.max_mana} mana")
        hero = p.hero
        if hero.health > hero.max_health or hero.armor < 0:
            raise InvariantViolation(f"{who}'s hero has {hero.health}/{hero.max_health} (+{hero.armor})")
        if not g.done and hero.health <= 0:
            raise InvariantViolation(f"{who}'s hero is dead but the game goes on")
        if p.weapon is not None and p.weapon.durability <= 0:
            raise InvariantViolation(f"{who}'s weapon is left at {p.weapon.durability} durability")
        place(hero, f"{who} hero")
        if p.weapon is not None:
            place(p.weapon, f"{who} weapon")
        for zone, cards in (("deck", p.deck), ("hand", p.hand), ("secrets", p.secrets)):
            for card in cards:
                place(card, f"{who} {zone}")
        for m in p.board:
            place(m, f"{who} board")
            if m.owner != p.index:
                raise InvariantViolation(f"{m!r} on {who}'s board has owner {m.owner}")
            if m.damage < 0 or m.atk < 0:
                raise InvariantViolation(f"{m!r} has negative damage or attack")
            if not g.done and (m.health <= 0 or m.destroyed):
                raise InvariantViolation(f"dead minion {m!r} left on {who}'s board")
    if g.done and g.winner not in (-1, 0, 1):
        raise InvariantViolation(f"game over without a result (winner={g.winner})")
    # What is kept as in play (GameState._recount_in_play) says at least what is there.
    if g.heard is not None:
        kept = (g.heard, g.cost_auras_in_play, g.auras_in_play)
        fresh = g.copy()
        fresh._recount_in_play()
        there = (fresh.heard, fresh.cost_auras_in_play, fresh.auras_in_play)
        if not all(k >= t for k, t in zip(kept, there)):
            raise InvariantViolation(f"kept as in play {kept}, but in play: {there}")
