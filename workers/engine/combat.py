"""Combat: who may attack as a hero, and a fight, its triggers and its two blows (a layer of
GameState: see zones.py; who may be attacked is moves._defenders)."""
from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from .effects import Effects
from .entities import Hero, Minion, Player

GOREHOWL: Final = "EX1_411"  # the one weapon whose attacks on minions cost Attack, not Durability


def _count_attack(attacker: Hero | Minion) -> None:
    """One more attack this turn. Each class on its own: on the Hero | Minion union the compiled
    code would look the field up by name."""
    if isinstance(attacker, Hero):
        attacker.attacks += 1
    else:
        attacker.attacks += 1


@mypyc_attr(acyclic=True)
class Combat(Effects):
    __slots__ = ()

    def hero_atk(self, p: Player) -> int:
        value = p.hero.turn_atk
        if p.weapon is not None and p.index == self.current:
            value += p.weapon.atk + p.weapon.aura_atk
        return value

    def hero_can_attack(self, p: Player) -> bool:
        """The attacker rule for the hero of `p` (see _attacks): not frozen, some Attack, an
        attack left this turn (two with a Windfury weapon)."""
        h = p.hero
        if h.frozen or self.hero_atk(p) <= 0:
            return False
        windfury = p.weapon is not None and p.weapon.cdef.kw_windfury
        return h.attacks < (2 if windfury else 1)

    def attack(self, attacker: Hero | Minion, defender: Hero | Minion) -> None:
        pi = self.current
        p = self.players[pi]
        # SabberStone processes no deaths between "when ... attacks" triggers and the blows: a
        # fighter they doomed cancels the attack, the rest waits until after the fight.
        self.proposed_defender = defender  # Misdirection, Noble Sacrifice may change it
        if self.fire2("attack", attacker, defender):
            defender = self.proposed_defender
        if p.enchants or self.players[1 - pi].enchants:  # Blessing of Wisdom
            self._enchant_attack(attacker)
        if self.done or not self.alive(attacker) or not self.alive(defender):
            if isinstance(attacker, Hero) or attacker in p.board:
                _count_attack(attacker)
            if attacker.immune and p.enchants:  # Gladiator's Longbow: only while attacking
                self._end_enchants(("attacking",))
            return
        _count_attack(attacker)
        counter = defender.atk if not isinstance(defender, Hero) else 0  # read before the blows
        if isinstance(attacker, Hero):
            self._hit(attacker, defender, self.hero_atk(p))
            if counter > 0:
                self._hit(defender, attacker, counter, counter=True)
            if p.weapon is not None:
                if p.weapon.cdef.id == GOREHOWL and isinstance(defender, Minion):
                    p.weapon.atk -= 1  # it costs Attack instead of Durability
                else:
                    p.weapon.durability -= 1
            if attacker.immune and p.enchants:  # Gladiator's Longbow: only while attacking
                self._end_enchants(("attacking",))
        else:
            attacker.stealth = False
            self._hit(attacker, defender, attacker.atk)
            if counter > 0:
                self._hit(defender, attacker, counter, counter=True)
        self.fire2("after_attack", attacker, defender)

    def _hit(self, source: Hero | Minion, target: Hero | Minion, amount: int, counter: bool = False) -> None:
        """One blow of a fight (`counter`: the defender's). Freeze and Poisonous act in combat
        only, as in SabberStone, where a poisonous minion also destroys a hero that attacked it
        and was hurt (a SabberStone quirk: the hero's player loses)."""
        taken = self.damage(source, target, amount)
        if isinstance(source, Minion):
            if taken and source.cdef.kw_freeze:  # even when silenced
                target.frozen = True
            if taken and source.poisonous and (counter or isinstance(target, Minion)):
                target.destroyed = True
