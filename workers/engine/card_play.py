"""Playing a card from hand, in SabberStone's order of steps (paying, the card's effect, the
triggers around it and their deaths), and the hero power (a layer of GameState: see
zones.py)."""
from __future__ import annotations

from typing import Any, Callable

from mypy_extensions import mypyc_attr

from .cardspec import Script
from .entities import Card, Minion, Player, Weapon
from .moves import Moves
from .zones import NO_TARGET, _entry_watcher


@mypyc_attr(acyclic=True)
class CardPlay(Moves):
    __slots__ = ()

    def play_card(self, hand_index: int, target_uid: int, position: int, option: int = 0) -> bool:
        """Play a card from hand; whether its deaths are still to be resolved. False only when
        the play's last step was a resolve and nothing ran after it (resolve is idempotent: a
        second one finds no deaths and re-applies the same auras), which saves a resolve after
        most minions."""
        if _entry_watcher:
            _entry_watcher[0](self, "play_card", (hand_index, target_uid, position, option))
        pi = self.current
        p = self.players[pi]
        card = p.hand[hand_index]
        combo_active = self._pay_for(pi, p, hand_index)
        target: Any = self.entity(target_uid) if target_uid != NO_TARGET else None
        effect = self._effect_of(card.cdef.script, combo_active, option)
        ctype = card.cdef.type
        if ctype == "MINION":
            return self._play_minion(pi, p, card, effect, target, position)
        if ctype == "SPELL":
            return self._play_spell(pi, p, card, effect, target)
        if ctype == "WEAPON":
            return self._play_weapon(pi, card, effect, target)
        return True

    def _pay_for(self, pi: int, p: Player, hand_index: int) -> bool:
        """Take the card at `hand_index` from the hand of `p` (player `pi`) and pay for it: its
        mana, a card played (Combo), its Overload, Preparation's discount used up by a spell.
        Whether a Combo is active (a card was played before it this turn)."""
        card = p.hand[hand_index]
        cdef = card.cdef
        cost = self.cost_of(pi, card)
        # (no call unless the list is shared or has a hash value kept: see hand_to_change)
        (self.hand_to_change(pi) if p.hand_shared or p.hand_hash_of is not None else p.hand).pop(hand_index)
        p.mana -= cost
        p.used_mana += cost
        combo_active = p.cards_played > 0
        p.cards_played += 1
        if cdef.overload:
            p.overload_owed += cdef.overload
        if cdef.type == "SPELL":
            p.spell_discount = 0
        return combo_active

    def _effect_of(self, script: Script, combo_active: bool, option: int) -> Callable | None:
        """What a played card does: its Combo when active, else its play; for a Choose One
        option, that option card's play (on this card or minion)."""
        if option:
            return self.library[script.choose_one[option - 1]].script.play  # type: ignore[index]
        return script.combo if combo_active and script.combo is not None else script.play

    def _fire_played(self, pi: int, card: Card) -> bool:
        """A card was played: "whenever you cast a spell" triggers (a spell's), then "whenever
        you play a card" triggers (SabberStone's order). Whether any ran."""
        ran = card.cdef.type == "SPELL" and self.fire2("cast_spell", pi, card)
        return self.fire2("play_card", pi, card) or ran

    def _resolve_ends_game(self, ran: bool) -> bool:
        """A step of a play: resolve the deaths of what ran, if anything did (`ran`); whether
        that ended the game (then the play stops)."""
        if not ran:
            return False
        self.resolve()
        return self.done

    def _play_minion(self, pi: int, p: Player, card: Card, effect: Callable | None, target: Any,
                     position: int) -> bool:
        """play_card for a minion. SabberStone's order: the minion takes its place, "whenever
        you play a card" triggers and their deaths, the battlecry and its deaths, then the
        "after you summon" triggers and the enemy's secrets."""
        p.minions_played += 1
        if position < 0 or position > len(p.board):
            position = len(p.board)
        minion = self.summon(pi, card.cdef, position, announce=False, uid=card.uid)
        if self._resolve_ends_game(self._fire_played(pi, card)):
            return False
        if minion is None:
            return True
        if effect is not None and (target is None or self.alive(target)):
            effect(self, pi, minion, target)
        if self._resolve_ends_game(True):
            return False
        if minion not in p.board:
            return False
        return self._fire_minion_played(pi, p, minion)

    def _fire_minion_played(self, pi: int, p: Player, minion: Minion) -> bool:
        """A played minion that survived its battlecry: the enemy's Mirror Entity, "after you
        summon" triggers, then the enemy's Snipe and Repentance. Whether any ran (their deaths
        are still to be resolved)."""
        ran = False
        if self.players[1 - pi].secrets:
            self.fire_secrets("play_minion", minion)  # Mirror Entity
            ran = True
        if self.fire1("summon", minion):
            ran = True
        if minion in p.board and self.players[1 - pi].secrets:
            self.fire("play_minion", minion)  # after you play a minion (Snipe, Repentance)
            ran = True
        return ran

    def _play_spell(self, pi: int, p: Player, card: Card, effect: Callable | None,
                    target: Any) -> bool:
        """play_card for a spell: Counterspell first, then "whenever you cast a spell" and
        "whenever you play a card" triggers and their deaths, Spellbender, the spell (or the
        secret put in place) and its deaths, then "after you cast a spell" triggers
        (SabberStone's order)."""
        cdef = card.cdef
        if self.marks and cdef.is_secret:
            self.unmark(pi, "free_secret")  # Kirin Tor Mage's discount is used up
        # Counterspell (a secret on "counter") cancels the spell before anything reacts to it:
        # SabberStone's fast trigger invalidates every other trigger of the play.
        if self.players[1 - pi].secrets and self.fire_secrets("counter", pi, card):
            return True
        if self._resolve_ends_game(self._fire_played(pi, card)):
            return False
        if target is not None and self.players[1 - pi].secrets and isinstance(target, Minion):
            box = [target]  # Spellbender (a secret on "spell_target") may put another there
            self.fire_secrets("spell_target", pi, card, box)
            target = box[0]
        settled = False
        if cdef.is_secret:
            p.secrets = p.secrets + [card]  # a new list: an empty one may be shared (Player.copy)
            self.fire("secret_played", pi, card)
        elif effect is not None and (target is None or self.alive(target)):
            effect(self, pi, card, target)
            if self._resolve_ends_game(True):
                return False
            settled = True
        return self.fire2("after_spell", pi, card) or not settled

    def _play_weapon(self, pi: int, card: Card, effect: Callable | None, target: Any) -> bool:
        """play_card for a weapon: "whenever you play a card" triggers and their deaths, its
        battlecry, then it is equipped."""
        if self._resolve_ends_game(self._fire_played(pi, card)):
            return False
        new_weapon = Weapon.new(card.uid, card.cdef)
        if effect is not None:
            effect(self, pi, new_weapon, target)
        self.equip(pi, new_weapon)
        return True

    def use_hero_power(self, target_uid: int) -> None:
        if _entry_watcher:
            _entry_watcher[0](self, "use_hero_power", (target_uid,))
        pi = self.current
        p = self.players[pi]
        power = p.hero.power
        p.mana -= power.cost
        p.used_mana += power.cost
        p.hero.power_uses += 1
        target = self.entity(target_uid) if target_uid != NO_TARGET else None
        power.script.play(self, pi, p.hero, target)  # type: ignore[misc]
