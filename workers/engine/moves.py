"""What the player to act may do, and at what cost: card costs, targets and the legal moves, in
SabberStone's order (a layer of GameState: see zones.py)."""
from __future__ import annotations

from functools import partial
from typing import Any, Final

from mypy_extensions import mypyc_attr

from .actions import ATTACK, END, HERO_POWER, PLAY, PLAY_OPTION_1, PLAY_OPTION_2, Action
from .cardspec import TargetSpec
from .combat import Combat
from .entities import Card, Hero, Minion, Player
from .zones import MAX_BOARD, MAX_HAND, MAX_SECRETS, NO_TARGET

# The untargeted moves, built once and shared (tuples never change): most legal moves are
# minions played at a position, and a new tuple per move was much of legal_moves' time. (Typed
# as plain tuples, so the compiled code passes the objects on instead of rebuilding them.)
_PLAY_AT: Final[tuple[tuple[tuple, ...], ...]] = tuple(tuple((PLAY, i, NO_TARGET, pos) for pos in range(MAX_BOARD + 1))
                        for i in range(MAX_HAND))
# _PLAY_AT[i][:n] for every n: a minion card's n position moves, appended in one extend.
_PLAY_AT_FIRST: Final[tuple[tuple[tuple[tuple, ...], ...], ...]] = tuple(
    tuple(at[:n] for n in range(MAX_BOARD + 2)) for at in _PLAY_AT)
_PLAY_UNTARGETED: Final[tuple[tuple, ...]] = tuple((PLAY, i, -1, -1) for i in range(MAX_HAND))
_POWER_UNTARGETED: Final[tuple] = (HERO_POWER, -1, -1, -1)
_as_action = partial(tuple.__new__, Action)  # a (kind, index, target, position) tuple as an Action
_END: Final = END
_NO_MODIFIERS: Final[list[Minion]] = []  # shared: callers only read it


@mypyc_attr(acyclic=True)
class Moves(Combat):
    __slots__ = ()

    def cost_modifiers(self) -> list[Minion]:
        """The minions whose cost auras act now (callers only read the list: with none, one
        shared empty list, so the common case allocates nothing)."""
        self._count_in_play_if_stale()
        if not self.cost_auras_in_play:
            return _NO_MODIFIERS
        out: list[Minion] | None = None
        for p in self.players:
            for m in p.board:
                if m.cost_aura_source and not m.silenced:
                    if out is None:
                        out = []
                    out.append(m)
        return _NO_MODIFIERS if out is None else out

    def cost_of(self, owner: int, card: Card, modifiers: list[Minion] | None = None) -> int:
        """What `card` costs `owner` now; `modifiers` (from cost_modifiers) saves a board scan."""
        cdef = card.cdef
        own_cost = cdef.script.cost  # hooks are read as fields, then called
        value: int = own_cost(self, owner, card) if own_cost else cdef.cost
        value += card.cost_mod
        for m in (self.cost_modifiers() if modifiers is None else modifiers):
            aura = m.cdef.cost_aura
            change: int = aura(self, m.owner, m, owner, card)  # type: ignore[misc]
            value += change
        if cdef.type == "SPELL":
            p = self.players[owner]
            if p.free_spells_turns:
                return 0
            value -= p.spell_discount
        return value if value > 0 else 0

    def targets_for(self, owner: int, spec: TargetSpec, by_spell: bool,
                    by_power: bool = False) -> list[Hero | Minion]:
        """Valid targets in SabberStone's order: heroes (own, then enemy), then minions (enemy
        ones before own ones), each board left to right."""
        out: list[Hero | Minion] = []
        side = spec.side  # "any": both sides; "enemy" or "friendly": one
        if spec.kind != "minion":
            if side != "enemy":
                out.append(self.players[owner].hero)
            if side != "friendly":
                out.append(self.players[1 - owner].hero)
        if spec.kind != "hero":
            if side != "friendly":
                self._minion_targets(self.players[1 - owner].board, True, by_spell, by_power, out)
            if side != "enemy":
                self._minion_targets(self.players[owner].board, False, by_spell, by_power, out)
        where = spec.where
        if where is not None:
            out = [e for e in out if where(self, e)]
        return out

    @staticmethod
    def _minion_targets(board: list[Minion], enemy: bool, by_spell: bool, by_power: bool,
                        out: list[Hero | Minion]) -> None:
        for m in board:
            if m.doomed():
                continue
            if enemy and m.stealth:
                continue
            if (by_spell or by_power) and not m.silenced and (
                    (by_spell and m.cdef.kw_spell_proof) or (by_power and m.cdef.kw_power_proof)):
                continue
            out.append(m)

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to act, END first, in a fixed order."""
        return list(map(_as_action, self.legal_moves()))

    def legal_moves(self) -> list[tuple]:
        """`legal_actions()` as plain (kind, index, target, position) tuples, in the same order.
        Building a NamedTuple costs several times a plain tuple, and the random player builds
        every legal action to use one; `apply` takes either form."""
        if self.done:
            return []
        moves = self.front_moves()
        self._attacks(moves, -1)
        return moves

    def front_moves(self) -> list[tuple]:
        """The part of `legal_moves()` before its attacks (END, the card plays, the hero power),
        for a game not over. With `attack_count` and `attack_move`, a random player draws from
        the whole list (`len(front) + attack_count()` moves) and builds only the attack it drew,
        the same move as `legal_moves()[k]`."""
        pi = self.current
        p = self.players[pi]
        moves: list[tuple] = [_END]
        if p.hand:
            self._card_moves(pi, p, moves)
        power = p.hero.power
        if p.hero.power_uses == 0 and power.cost <= p.mana:
            script = power.script
            if script.requires is None or script.requires(self, pi):
                if script.target is not None:
                    for t in self.targets_for(pi, script.target, False, by_power=True):
                        moves.append((HERO_POWER, -1, t.uid, -1))
                else:
                    moves.append(_POWER_UNTARGETED)
        return moves

    def attack_count(self) -> int:
        """How many attacks end `legal_moves()` (its moves after `front_moves()`)."""
        return self._attacks(None, -1)

    def attack_move(self, k: int) -> tuple:
        """The `k`-th attack of `legal_moves()` (0 <= k < attack_count()), built alone."""
        moves: list[tuple] = []
        self._attacks(moves, k)
        return moves[0]

    # The attack rule, in one place: who may attack (Minion.can_attack, hero_can_attack) and
    # whom (_defenders, and a Charge mark's minions only). legal_moves, attack_count and
    # attack_move all walk the attacks through _attacks, so they cannot disagree.
    def _attacks(self, moves: list[tuple] | None, k: int) -> int:
        """The attacks of the player to act, in legal_moves' order: each attacker that may
        attack (the minions in board order, then the hero) against each defender it may attack,
        in _defenders' order. Appends them all to `moves` (k < 0) or only the `k`-th (k >= 0;
        then it stops there); without `moves`, only counts them (no tuple, no list). Returns
        how many it walked."""
        pi = self.current
        p = self.players[pi]
        board = p.board
        defenders: list[int] | None = None  # made only when listing
        found = False  # an attacker, and so the defenders (found once, at the first one)
        full = 0  # how many defenders
        hero_open = False  # whether the enemy hero is among them (then the last)
        barred: Any = None
        n = 0
        for i in range(len(board) + 1):
            if i < len(board):
                m = board[i]
                if not m.can_attack():
                    continue
                a = m.uid
            elif self.hero_can_attack(p):
                a = p.hero.uid
            else:
                break
            if not found:
                found = True
                if moves is not None:
                    defenders = []
                full, hero_open = self._defenders(1 - pi, defenders)
                barred = self.marks and self.marked(pi, "no_hero_attack")  # Charge (the spell)
            # a barred attacker may attack minions only: every defender but the hero, the last
            count = full - 1 if hero_open and barred and a in barred else full
            if moves is not None and defenders is not None:
                if k < 0:
                    for j in range(count):
                        moves.append((ATTACK, a, defenders[j], -1))
                elif k < count:
                    moves.append((ATTACK, a, defenders[k], -1))
                    return n + k + 1
                else:
                    k -= count
            n += count
        return n

    def _defenders(self, side: int, out: list[int] | None) -> tuple[int, bool]:
        """Whom `side`'s enemy may attack: the minions of `side` that are not stealthed and not
        doomed; only the Taunts among them, if there are any, otherwise those and the hero
        (last). Returns how many, and whether the hero is among them; with `out`, appends their
        uids in board order (without, no list is made)."""
        board = self.players[side].board
        visible = 0
        taunts = 0
        for m in board:
            if m.stealth or m.doomed():
                continue
            visible += 1
            if m.taunt:
                taunts += 1
        if out is not None:
            for m in board:
                if (m.taunt or not taunts) and not (m.stealth or m.doomed()):
                    out.append(m.uid)
            if not taunts:
                out.append(self.players[side].hero.uid)
        if taunts:
            return taunts, False
        return visible + 1, True

    def _card_moves(self, pi: int, p: Player, moves: list) -> None:
        """Append the plays of the cards in hand to `moves`."""
        mana = p.mana
        board = p.board
        board_full = len(board) >= MAX_BOARD
        combo_active = p.cards_played > 0
        modifiers = self.cost_modifiers()
        for i, card in enumerate(p.hand):
            cdef = card.cdef
            script = cdef.script
            ctype = cdef.type
            if script.cost is None and not modifiers:
                # cost_of without its rarely needed parts (the printed cost cannot be negative)
                cost = cdef.cost + card.cost_mod
                if ctype == "SPELL":
                    cost = 0 if p.free_spells_turns else cost - p.spell_discount
            else:
                cost = self.cost_of(pi, card, modifiers)
            if cost > mana:
                continue
            if script.requires is not None and not script.requires(self, pi):
                continue
            if script.choose_one is not None:
                if not (ctype == "MINION" and board_full):
                    self._option_moves(pi, i, script.choose_one, ctype == "MINION", len(board), moves)
                continue
            # a combo card targets differently once another card was played this turn
            if combo_active and script.combo is not None:
                spec = script.combo_target
            else:
                spec = script.target
            if ctype == "MINION":
                if board_full:
                    continue
                n_positions = len(board) + 1  # every position, as SabberStone offers them
                if spec is not None:
                    targets = self.targets_for(pi, spec, False)
                    if targets:
                        for t in targets:
                            for pos in range(n_positions):
                                moves.append((PLAY, i, t.uid, pos))
                        continue
                moves.extend(_PLAY_AT_FIRST[i][n_positions])
            elif ctype == "SPELL":
                if cdef.kw_secret and (len(p.secrets) >= MAX_SECRETS or
                                                  any(s.cdef.id == cdef.id for s in p.secrets)):
                    continue
                if spec is not None:
                    for t in self.targets_for(pi, spec, True):
                        moves.append((PLAY, i, t.uid, -1))
                else:
                    moves.append(_PLAY_UNTARGETED[i])
            else:  # weapon
                if spec is not None:
                    targets = self.targets_for(pi, spec, False)
                    if targets:
                        for t in targets:
                            moves.append((PLAY, i, t.uid, -1))
                        continue
                moves.append(_PLAY_UNTARGETED[i])

    def _option_moves(self, pi: int, i: int, options: tuple, is_minion: bool, board_size: int,
                      moves: list) -> None:
        """The plays of the Choose One card at hand index `i`: option 1's, then option 2's, each
        with the option card's own requirement and targets (SabberStone's order). An option
        with a target spec needs a target, a minion's too (SabberStone's REQ_TARGET_TO_PLAY)."""
        for kind, option_id in zip((PLAY_OPTION_1, PLAY_OPTION_2), options):
            script = self.library[option_id].script
            if script.requires is not None and not script.requires(self, pi):
                continue
            targets: list[int] = [NO_TARGET]
            if script.target is not None:
                targets = [t.uid for t in self.targets_for(pi, script.target, not is_minion)]
            for t in targets:
                if is_minion:
                    for pos in range(board_size + 1):
                        moves.append((kind, i, t, pos))
                else:
                    moves.append((kind, i, t, -1))
