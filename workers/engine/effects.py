"""What effects do to the game state: damage, healing, buffs, silence, summons, transforms,
draws, cards given and discarded, control, weapons, armour and mana, and the players' effects
that end with a turn or an attack. The card scripts are written with these (a layer of
GameState: see zones.py)."""
from __future__ import annotations

from mypy_extensions import mypyc_attr

from .cardspec import CardDef
from .deaths import Deaths
from .entities import Card, Hero, Minion, Weapon
from .zones import AURA_MARKS, MAX_BOARD, MAX_HAND, MAX_MANA, _entry_watcher


@mypyc_attr(acyclic=True)
class Effects(Deaths):
    __slots__ = ()

    def damage(self, source, target: Hero | Minion, amount: int) -> int:
        """Deal damage (divine shield and armour absorb first); returns the damage taken."""
        if amount <= 0 or target.immune:
            return 0
        if isinstance(target, Hero):
            if self.marks and self.marked(target.owner, "immune"):
                return 0  # Ice Block
            if amount >= target.health + target.armor and self.players[target.owner].secrets:
                self.fire_secrets("fatal_damage", target)  # Ice Block
                if self.marks and self.marked(target.owner, "immune"):
                    return 0
            absorbed = min(target.armor, amount)
            target.armor -= absorbed
            taken = amount - absorbed
            target.health -= taken
            if target.health <= 0:
                target.destroyed = True  # as for minions: healing it later does not save it
        else:
            if target.divine_shield:
                target.divine_shield = False
                return 0
            taken = amount
            if self.marks and amount >= target.health and self.marked(target.owner, "min_health"):
                taken = target.health - 1  # Commanding Shout: not below 1 Health this turn
                if taken <= 0:
                    return 0
            target.damage += taken
            if target.health <= 0:
                target.destroyed = True  # lethal damage sticks: a later heal or buff is too late
        if taken:
            self.fire3("damage", target, taken, source)
        return taken

    def spell_damage(self, owner: int, target, amount: int) -> int:
        amount += self.spell_power(owner)
        if self.marks:  # each Prophet Velen doubles it, Spell Damage included
            amount <<= len(self.marked(owner, "spell_double"))
        return self.damage(None, target, amount)

    def spell_heal(self, owner: int, target, amount: int) -> int:
        """Healing by a spell or a hero power (Prophet Velen doubles it, as in SabberStone)."""
        if self.marks:
            amount <<= len(self.marked(owner, "spell_double"))
        return self.heal(target, amount, owner)

    def heal(self, target: Hero | Minion, amount: int, owner: int | None = None) -> int:
        """Restore Health; `owner`: whose card heals (by default the player to act, who owns every
        healer of these card sets when it heals), for Auchenai Soulpriest."""
        if self.marks and self.marked(self.current if owner is None else owner, "heal_to_damage"):
            self.damage(None, target, amount)  # Auchenai Soulpriest: it deals damage instead
            return 0
        if isinstance(target, Hero):
            healed = min(amount, target.max_health - target.health)
            target.health += healed
        else:
            healed = min(amount, target.damage)
            target.damage -= healed
        if healed > 0:
            self.fire2("heal", target, healed)
        return healed

    def destroy(self, minion: Minion) -> None:
        minion.destroyed = True

    def freeze(self, character) -> None:
        character.frozen = True

    def buff(self, minion: Minion, atk: int = 0, health: int = 0) -> None:
        minion.atk_bonus += atk
        minion.health_bonus += health

    def silence(self, minion: Minion) -> None:
        minion.silenced = True
        if self.marks:  # Shadow Madness's enchantment is gone: the minion stays
            self.unmark(minion.owner, "borrowed", minion.uid)
        # Losing a health buff lowers max health; current health drops only to the new max.
        # (A negative bonus, e.g. a swapped Health, raises max health and leaves damage alone.)
        # SabberStone also takes away damage as large as the current health aura.
        minion.damage = max(0, minion.damage - max(0, minion.health_bonus + minion.aura_health))
        minion.atk_bonus = minion.health_bonus = minion.turn_atk = 0
        minion.taunt = minion.divine_shield = minion.stealth = minion.windfury = False
        minion.charge = minion.frozen = False
        # What the card has by itself stays in SabberStone: Poisonous, Can't Attack (and Freeze).
        keywords = minion.cdef.keywords
        minion.poisonous = "POISONOUS" in keywords
        minion.cant_attack = "CANT_ATTACK" in keywords
        minion.stealth_until_next_turn = False
        minion.destroy_at_start_of = -1
        minion.spell_damage = 0
        minion.deathrattles = ()
        minion.immune = False
        for side in self.players:  # its Blessing of Wisdom / Power Overwhelming go too
            if side.enchants:
                side.enchants = tuple(e for e in side.enchants if e[1] != minion.uid)

    def transform(self, minion: Minion, card_id: str) -> Minion:
        """Replace a minion with a fresh one of another card, in place. As in SabberStone, it
        is exhausted (unless it has Charge), has not attacked, and stays frozen if it was."""
        if _entry_watcher:
            _entry_watcher[0](self, "transform", (minion, card_id))
        board = self.players[minion.owner].board
        i = board.index(minion)
        new = Minion.new(self.new_uid(), self.library[card_id], minion.owner, minion.order)
        new.sick = not new.charge
        new.frozen = minion.frozen
        board[i] = new
        self._entered_or_left(new)
        return new

    def summon(self, owner: int, cdef: CardDef | str, position: int | None = None,
               announce: bool = True, uid: int | None = None) -> Minion | None:
        """Put a new minion on `owner`'s board; None when the board is full. A minion played
        from hand keeps its card's `uid`."""
        if _entry_watcher:
            _entry_watcher[0](self, "summon", (owner, cdef))
        if isinstance(cdef, str):
            cdef = self.library[cdef]
        board = self.players[owner].board
        if len(board) >= MAX_BOARD:
            return None
        self.next_order += 1
        minion = Minion.new(self.new_uid() if uid is None else uid, cdef, owner, self.next_order)
        minion.sick = not minion.charge  # SabberStone: a silence later does not exhaust it
        if position is None or position > len(board):
            position = len(board)
        board.insert(position, minion)
        self._entered_or_left(minion)
        self.refresh_auras()
        if announce:
            self.fire1("summon", minion)
        return minion

    def draw(self, owner: int, count: int = 1) -> list[Card]:
        """Draw the deck's top card (the list's end; the deck was shuffled once at game start, so
        a copy of the state draws the same cards, as SabberStone's clones do); an empty deck
        deals fatigue, a full hand burns the card."""
        p = self.players[owner]
        drawn = []
        for _ in range(count):
            if not p.deck:
                p.fatigue += 1
                self.damage(None, p.hero, p.fatigue)
                continue
            # (the flags asked here first: in play without copies, a draw makes no call)
            card = (self.deck_to_change(owner) if p.deck_shared else p.deck).pop()
            p.drawn_this_turn += 1  # a burnt card counts, fatigue does not (as in SabberStone)
            if len(p.hand) >= MAX_HAND:
                continue  # overdraw: the card is burnt
            # (no call unless the list is shared or has a hash value kept: see hand_to_change)
            (self.hand_to_change(owner) if p.hand_shared or p.hand_hash_of is not None else p.hand).append(card)
            drawn.append(card)
            self.fire2("draw", owner, card)
        return drawn

    def give(self, owner: int, card_id: str) -> Card | None:
        """Put a new copy of a card into `owner`'s hand (lost when the hand is full)."""
        p = self.players[owner]
        if len(p.hand) >= MAX_HAND:
            return None
        card = Card(self.new_uid(), self.library[card_id])
        self.hand_to_change(owner).append(card)
        return card

    def discard_random(self, owner: int, count: int = 1) -> list[Card]:
        p = self.players[owner]
        lost = []
        for _ in range(count):
            if not p.hand:
                break
            lost.append(self.hand_to_change(owner).pop(self.rand(len(p.hand))))
        return lost

    def return_to_hand(self, minion: Minion) -> None:
        """Bounce a minion to its owner's hand as a fresh card (destroyed if the hand is full)."""
        p = self.players[minion.owner]
        if minion not in p.board:
            return
        p.board.remove(minion)
        if len(p.hand) < MAX_HAND:
            self.hand_to_change(minion.owner).append(Card(self.new_uid(), minion.cdef))

    def take_control(self, minion: Minion, new_owner: int) -> None:
        """Move a minion to `new_owner`'s board; with that board full it is destroyed where it
        stands (SabberStone), its deathrattle on its old side."""
        new = self.players[new_owner].board
        if len(new) >= MAX_BOARD:
            minion.destroyed = True
            return
        self.players[minion.owner].board.remove(minion)
        minion.owner = new_owner
        minion.sick = not minion.charge
        minion.attacks = 0
        self.next_order += 1
        minion.order = self.next_order  # it enters a board: a new order of play, as in SabberStone
        new.append(minion)

    def equip(self, owner: int, new_weapon: Weapon | str) -> Weapon:
        if _entry_watcher:
            _entry_watcher[0](self, "equip", (owner, new_weapon))
        if isinstance(new_weapon, str):
            new_weapon = Weapon.new(self.new_uid(), self.library[new_weapon])
        p = self.players[owner]
        old = p.weapon
        p.weapon = new_weapon
        if new_weapon.cdef.triggers:
            self.heard = None
        if old is not None:
            self._weapon_destroyed(owner, old)
        return new_weapon

    def gain_armor(self, owner: int, amount: int) -> None:
        self.players[owner].hero.armor += amount

    def gain_mana(self, owner: int, amount: int) -> None:
        p = self.players[owner]
        p.mana = min(MAX_MANA, p.mana + amount)

    def random_enemy(self, owner: int):
        """A random living enemy character of `owner` (None when there is none)."""
        return self.choice([c for c in self.characters(1 - owner) if self.alive(c)])

    def random_missiles(self, owner: int, count: int) -> None:
        """`count` times 1 damage to a random enemy of `owner` still alive (missile spells)."""
        for _ in range(count):
            enemy = self.random_enemy(owner)
            if enemy is None:
                break
            self.damage(None, enemy, 1)

    def _end_turn_marks(self) -> None:
        marks = self.marks
        self.marks = tuple(m for m in marks if m[1] in AURA_MARKS)
        for owner, kind, value in marks:
            if kind == "borrowed":  # Shadow Madness: back to the other side, if still here
                for m in self.players[owner].board:
                    if m.uid == value:
                        self.take_control(m, 1 - owner)

    def _enchant_attack(self, attacker) -> None:
        """Blessing of Wisdom: its caster draws when the blessed minion attacks."""
        for side in self.players:
            for kind, uid in side.enchants:
                if kind == "wisdom" and uid == attacker.uid:
                    self.draw(side.index)

    def _end_enchants(self, ending: tuple) -> None:
        """End the effects of these kinds: at the end of a turn Power Overwhelming's minion dies
        and Immune ends; after an attack, Immune while attacking ends."""
        for side in self.players:
            kept: list[tuple] = []
            for kind, uid in side.enchants:
                target = self.entity(uid)
                if target is None:
                    continue  # gone from play: the effect is gone with it
                if kind not in ending:
                    kept.append((kind, uid))
                    continue
                if kind == "overwhelm":
                    target.destroyed = True
                else:
                    target.immune = False
            side.enchants = tuple(kept)
