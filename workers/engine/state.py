"""The game state and its narrow interface: legal actions, apply, copy, hash, result.

Rules follow Basic + Classic Hearthstone as of late 2019, as SabberStone (the paper's
simulator) plays them. Randomness lives in the state (`rng`, one int), so a copy carries its
random stream; planners reseed copies so they cannot see real random outcomes (a deck's order
is not random: it was shuffled at game start). Effects mark damage and deaths; `resolve` then
removes the dead in play order, runs death triggers and deathrattles and re-applies auras until
nothing changes.

This module is compiled with mypyc (native.py): its fields and locals keep one type each.
"""
from __future__ import annotations

from functools import partial
from operator import attrgetter, itemgetter
from typing import Any, Callable, Final

from mypy_extensions import i64

from .actions import (ATTACK, END, END_TURN, HERO_POWER, OPTION_OF_KIND, PLAY, PLAY_OPTION_1,
                      PLAY_OPTION_2, Action)
from .cardspec import HEARD_EVENTS, CardDef, Script, TargetSpec
from .entities import Card, Hero, Minion, Player, Weapon
from .native import compiled
from .rng import GOLDEN, MASK64, advance, below_halves, join, mix_below, split
from ..errors import IllegalActionError

# Final: the compiled engine inlines them instead of looking each use up by name.
MAX_HAND: Final = 10
MAX_BOARD: Final = 7
MAX_MANA: Final = 10
MAX_SECRETS: Final = 5
GOREHOWL: Final = "EX1_411"  # the one weapon whose attacks on minions cost Attack, not Durability
# Marks rebuilt from the board by minions' auras (the others last until the end of the turn).
AURA_MARKS: Final = ("spell_double", "heal_to_damage")  # Prophet Velen, Auchenai Soulpriest
TURN_LIMIT: Final = 100  # total turns; a game this long is a draw (fatigue ends real games sooner)
NO_TARGET: Final = -1
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
# Final, as the constants above: the compiled code keeps them in C statics, not looked up by name.
_first: Final = itemgetter(0)
_order: Final = attrgetter("order")
_uid: Final = attrgetter("uid")
_END: Final = END
_NO_LISTENERS: Final[list[tuple[int, Any, tuple]]] = []  # shared: callers only read it
_NO_MODIFIERS: Final[list[Minion]] = []  # shared: callers only read it
_NOTHING_HEARD: Final[frozenset[str]] = frozenset()
# state_hash's mixing: 62 bits kept, so the compiled code (64-bit integers, wrapping) and plain
# Python (exact integers, then masked) compute the same value.
_HASH_MASK: Final = (1 << 62) - 1
_HASH_MULTIPLIER: Final = 0x2545F4914F6CDD1D  # odd: the product is one-to-one in the bits kept
_NO_WINNER: Final = 2  # the winner, None while the game goes on (-1: a draw, 0 or 1)
_EMPTY_TUPLE_HASH: Final = hash(())
# Told (g, method name, its arguments) as play_card, summon, equip, transform, use_hero_power or
# start_turn begins: how the card tests check that a card entered play (tests/engine/scenario.py),
# since the compiled engine's methods cannot be wrapped. Empty in play (a Final list: the
# compiled code tests it without looking a module variable up); set with set_entry_watcher.
_entry_watcher: Final[list[Callable[[GameState, str, tuple], None]]] = []


def set_entry_watcher(watch: Callable[[GameState, str, tuple], None] | None):
    """Make `watch` (None: nobody) the entry watcher; returns the one before."""
    previous = _entry_watcher[0] if _entry_watcher else None
    _entry_watcher.clear()
    if watch is not None:
        _entry_watcher.append(watch)
    return previous


def _mix(h: i64, v: i64) -> i64:
    """`v` mixed into the hash `h` (state_hash): multiplied in after an exclusive or, the high
    bits folded back down."""
    h = ((h ^ v) * _HASH_MULTIPLIER) & _HASH_MASK
    return h ^ (h >> 29)


COMPILED: Final = compiled()  # whether this module runs compiled (state_hash's form)


class GameState:
    __slots__ = ("players", "current", "turn", "rng", "next_uid", "next_order", "winner", "done",
                 "random_events", "library", "auras_live",
                 "marks",  # ((player, kind, value), ...): a player's effects (see mark)
                 # What may be in play, kept between recounts (see _recount_in_play); None: to recount
                 "heard", "cost_auras_in_play", "auras_in_play",
                 "proposed_defender")  # set during an attack only (redirecting secrets), never copied
    players: list[Player]
    current: int
    turn: int
    rng: int
    next_uid: int
    next_order: int
    winner: Any
    done: bool
    random_events: int
    library: dict[str, CardDef]
    auras_live: bool
    marks: tuple
    heard: frozenset[str] | None
    cost_auras_in_play: bool
    auras_in_play: bool
    proposed_defender: Any

    # ------------------------------------------------------------------ copying and identity
    def copy(self) -> "GameState":
        new = GameState.__new__(GameState)
        new.players = [self.players[0].copy(), self.players[1].copy()]
        new.current = self.current
        new.turn = self.turn
        new.rng = self.rng
        new.next_uid = self.next_uid
        new.next_order = self.next_order
        new.winner = self.winner
        new.done = self.done
        new.random_events = self.random_events
        new.library = self.library
        new.auras_live = self.auras_live  # some aura field may be non-zero (see refresh_auras)
        new.marks = self.marks  # a tuple
        new.heard = self.heard  # a frozenset
        new.cost_auras_in_play = self.cost_auras_in_play
        new.auras_in_play = self.auras_in_play
        return new

    def state_hash(self) -> int:
        """Hash of the state as SabberStone's planner tells states apart (`Game.Hash` without
        entity ids): the hand in creation order of its cards, so playing one or the other of
        two identical cards can leave different hands, and each minion's order of play, so
        the same minions played in another order make another state. Every state the beam
        search reaches is hashed: compiled, the fields are mixed one by one into a 62-bit
        value (`_mixed_hash`: native integers, nothing boxed or built); in plain Python, where
        each mix would be a call, the hash of one flat tuple of the same fields
        (`_hash_key`). The two tell the same states apart (a test checks them field by
        field); the values differ, as hash values of strings differ between processes."""
        if COMPILED:
            return self._mixed_hash()
        return hash(self._hash_key())

    def _mixed_hash(self) -> int:
        """state_hash of the compiled engine: each sequence after its length, a card by the
        hash of its id."""
        h = _mix(_mix(_mix(0, self.current), 1 if self.done else 0),
                 _NO_WINNER if self.winner is None else self.winner)
        h = _mix(h, hash(self.marks))
        for p in self.players:
            hero = p.hero
            h = _mix(_mix(_mix(_mix(h, hero.health), hero.armor), hero.turn_atk), hero.attacks)
            h = _mix(_mix(_mix(h, 1 if hero.frozen else 0), hero.power_uses), p.mana)
            h = _mix(_mix(_mix(h, p.max_mana), p.cards_played), p.minions_played)
            h = _mix(_mix(_mix(h, p.spell_discount), p.fatigue), p.free_spells_turns)
            h = _mix(_mix(_mix(h, len(p.deck)), hash(p.pending_cards)), hash(p.died_this_turn))
            h = _mix(h, hash(self._enchant_keys(p)) if p.enchants else _EMPTY_TUPLE_HASH)
            h = _mix(_mix(h, p.overload_owed), p.overload_locked)
            w = p.weapon
            if w is None:
                h = _mix(h, 0)
            else:
                h = _mix(_mix(_mix(_mix(h, 1), hash(w.cdef.id)), w.atk), w.durability)
            # The hand in creation order: each card mixed with its place in uid order, summed
            # (no sorted copy).
            hand = p.hand
            cards: i64 = 0
            for c in hand:
                place = 0
                for other in hand:
                    if other.uid < c.uid:
                        place += 1
                cards += _mix(_mix(_mix(0, place), hash(c.cdef.id)), c.cost_mod)
            h = _mix(_mix(h, len(hand)), cards & _HASH_MASK)
            h = _mix(h, len(p.secrets))
            for c in p.secrets:
                h = _mix(h, hash(c.cdef.id))
            h = _mix(h, len(p.board))
            for m in p.board:
                # (max health, damage) tells states apart as (health, max health)
                h = _mix(_mix(_mix(h, hash(m.cdef.id)), m.order), m.atk)
                h = _mix(_mix(_mix(h, m.max_health), m.damage), m.attacks)
                flags = (m.sick | m.frozen << 1 | m.taunt << 2 | m.divine_shield << 3
                         | m.stealth << 4 | m.silenced << 5 | m.windfury << 6 | m.poisonous << 7)
                h = _mix(_mix(_mix(h, flags), m.spell_damage), m.counter)
                h = _mix(h, m.destroy_at_start_of)
        return h

    def _hash_key(self) -> tuple:
        """state_hash of the plain Python engine: the fields as one flat tuple (a tuple per
        hand, zone and board)."""
        parts = [self.current, self.done, self.winner, self.marks]
        for p in self.players:
            h = p.hero
            w = p.weapon
            hand = p.hand
            if len(hand) > 1:
                hand = sorted(hand, key=_uid)
            parts += (
                h.health, h.armor, h.turn_atk, h.attacks, h.frozen, h.power_uses, p.mana,
                p.max_mana, p.cards_played, p.minions_played, p.spell_discount, p.fatigue,
                p.free_spells_turns, len(p.deck), p.pending_cards, p.died_this_turn,
                self._enchant_keys(p) if p.enchants else (),
                (w.cdef.id, w.atk, w.durability) if w else None,
                tuple([c.key for c in hand]),
                tuple([c.cdef.id for c in p.secrets]) if p.secrets else (),
                # (max health, damage) tells states apart as (health, max health)
                tuple([(m.cdef.id, m.order, m.atk, m.max_health, m.damage, m.attacks, m.sick,
                        m.frozen, m.taunt, m.divine_shield, m.stealth, m.silenced, m.windfury,
                        m.spell_damage, m.counter, m.poisonous, m.destroy_at_start_of)
                       for m in p.board]),
            )
            if p.overload_owed or p.overload_locked:  # only then, so the usual state's key stays short
                parts.append((p.overload_owed, p.overload_locked))
        return tuple(parts)

    # ------------------------------------------------------------------ randomness
    def rand(self, n: int) -> int:
        """A uniform integer in [0, n) from the state's own stream. A choice among one is no
        randomness (SabberStone raises its random event only with several candidates)."""
        if n <= 1:
            return 0
        self.rng = (self.rng + GOLDEN) & MASK64
        self.random_events += 1
        return mix_below(self.rng, n)

    def choice(self, items):
        return items[self.rand(len(items))] if items else None

    def shuffle(self, items: list) -> None:
        """Shuffle `items` in place (Fisher-Yates on the state's stream: each swap is one rand(),
        drawn here on the stream's halves)."""
        n = len(items)
        if n < 2:
            return
        high, low = split(self.rng)
        for i in range(n - 1, 0, -1):
            high, low = advance(high, low)
            j = below_halves(high, low, i + 1)
            items[i], items[j] = items[j], items[i]
        self.rng = join(high, low)
        self.random_events += n - 1

    def sample(self, items, k: int) -> list:
        """`k` distinct items at random; all of them, in order and with no random event, when
        there are no more than `k` (SabberStone's random tasks are random only then)."""
        pool = list(items)
        if len(pool) <= k:
            return pool
        picked: list = []
        while pool and len(picked) < k:
            picked.append(pool.pop(self.rand(len(pool))))
        return picked

    # ------------------------------------------------------------------ lookups
    @property
    def player(self) -> Player:
        return self.players[self.current]

    @property
    def opponent(self) -> Player:
        return self.players[1 - self.current]

    def new_uid(self) -> int:
        self.next_uid += 1
        return self.next_uid

    def card(self, card_id: str) -> CardDef:
        return self.library[card_id]

    def entity(self, uid: int):
        for p in self.players:
            if p.hero.uid == uid:
                return p.hero
            for m in p.board:
                if m.uid == uid:
                    return m
        return None

    def owner_of(self, entity) -> int:
        return entity.owner

    def characters(self, side: int | None = None) -> list:
        """Heroes and minions; `side` restricts to one player."""
        sides = (side,) if side is not None else (self.current, 1 - self.current)
        out: list = []
        for i in sides:
            p = self.players[i]
            out.append(p.hero)
            out.extend(p.board)
        return out

    def minions(self, side: int | None = None) -> list[Minion]:
        if side is not None:
            return list(self.players[side].board)
        return self.players[self.current].board + self.players[1 - self.current].board

    def alive(self, entity: Hero | Minion) -> bool:
        if isinstance(entity, Hero):
            return entity.health > 0
        return not entity.doomed() and entity in self.players[entity.owner].board

    def spell_power(self, owner: int) -> int:
        return sum(m.spell_damage for m in self.players[owner].board if not m.silenced)

    def has_room(self, owner: int) -> bool:
        """Whether `owner`'s board can take another minion (also a `requires` hook as is)."""
        return len(self.players[owner].board) < MAX_BOARD

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

    def position_of(self, minion: Minion) -> int:
        return self.players[minion.owner].board.index(minion)

    def adjacent(self, minion: Minion) -> list[Minion]:
        board = self.players[minion.owner].board
        i = board.index(minion)
        return [board[j] for j in (i - 1, i + 1) if 0 <= j < len(board)]

    # ------------------------------------------------------------------ costs
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

    # ------------------------------------------------------------------ targeting
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

    # ------------------------------------------------------------------ legal actions
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

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: tuple, check: bool = True) -> None:
        """Play one action. With `check`, an action not in `legal_actions()` raises, and its
        numbers may be of any integer type (numpy's too); unchecked, they are Python ints."""
        if check:
            if action not in self.legal_moves():
                raise IllegalActionError(f"illegal action {action!r} for player {self.current}")
            action = tuple(map(int, action))
        kind: int
        index: int
        target: int
        position: int
        kind, index, target, position = action
        if kind == END_TURN:
            self.end_turn()
            return
        if kind == PLAY:
            if not self.play_card(index, target, position):
                return  # settled: a resolve now would change nothing
        elif kind == ATTACK:
            self.attack(self.entity(index), self.entity(target))
        elif kind == HERO_POWER:
            self.use_hero_power(target)
        elif not self.play_card(index, target, position, OPTION_OF_KIND[kind]):  # Choose One
            return
        self.resolve()

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
        del p.hand[hand_index]
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
            p.secrets.append(card)
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
        new_weapon = Weapon(card.uid, card.cdef)
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

    # ------------------------------------------------------------------ combat
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
            # (Each type on its own: on the Hero | Minion union the compiled code would look the
            # field up by name, here and below.)
            if isinstance(attacker, Hero):
                attacker.attacks += 1
            elif attacker in p.board:
                attacker.attacks += 1
            if attacker.immune and p.enchants:  # Gladiator's Longbow: only while attacking
                self._end_enchants(("attacking",))
            return
        if isinstance(attacker, Hero):
            attacker.attacks += 1
        else:
            attacker.attacks += 1
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

    # ------------------------------------------------------------------ effects
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
        new = Minion(self.new_uid(), self.library[card_id], minion.owner, minion.order)
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
        minion = Minion(self.new_uid() if uid is None else uid, cdef, owner, self.next_order)
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
            card = p.deck.pop()
            p.drawn_this_turn += 1  # a burnt card counts, fatigue does not (as in SabberStone)
            if len(p.hand) >= MAX_HAND:
                continue  # overdraw: the card is burnt
            p.hand.append(card)
            drawn.append(card)
            self.fire2("draw", owner, card)
        return drawn

    def give(self, owner: int, card_id: str) -> Card | None:
        """Put a new copy of a card into `owner`'s hand (lost when the hand is full)."""
        p = self.players[owner]
        if len(p.hand) >= MAX_HAND:
            return None
        card = Card(self.new_uid(), self.library[card_id])
        p.hand.append(card)
        return card

    def discard_random(self, owner: int, count: int = 1) -> list[Card]:
        p = self.players[owner]
        lost = []
        for _ in range(count):
            if not p.hand:
                break
            lost.append(p.hand.pop(self.rand(len(p.hand))))
        return lost

    def return_to_hand(self, minion: Minion) -> None:
        """Bounce a minion to its owner's hand as a fresh card (destroyed if the hand is full)."""
        p = self.players[minion.owner]
        if minion not in p.board:
            return
        p.board.remove(minion)
        if len(p.hand) < MAX_HAND:
            p.hand.append(Card(self.new_uid(), minion.cdef))

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
            new_weapon = Weapon(self.new_uid(), self.library[new_weapon])
        p = self.players[owner]
        old = p.weapon
        p.weapon = new_weapon
        if new_weapon.cdef.triggers:
            self.heard = None
        if old is not None:
            self._weapon_destroyed(owner, old)
        return new_weapon

    def destroy_weapon(self, owner: int) -> None:
        p = self.players[owner]
        if p.weapon is not None:
            old = p.weapon
            p.weapon = None
            self._weapon_destroyed(owner, old)

    def _weapon_destroyed(self, owner: int, weapon: Weapon) -> None:
        for fn in weapon.cdef.script.deathrattles:
            fn(self, owner, weapon, -1)

    def gain_armor(self, owner: int, amount: int) -> None:
        self.players[owner].hero.armor += amount

    def gain_mana(self, owner: int, amount: int) -> None:
        p = self.players[owner]
        p.mana = min(MAX_MANA, p.mana + amount)

    # ------------------------------------------------------------------ player effects
    def mark(self, owner: int, kind: str, value=None) -> None:
        """An effect on `owner`: until the end of the turn (Ice Block's Immune, Kirin Tor Mage,
        Charge, Commanding Shout, Shadow Madness), or while an aura lasts (AURA_MARKS)."""
        self.marks += ((owner, kind, value),)

    def marked(self, owner: int, kind: str) -> list:
        """The values of `owner`'s `kind` marks (one per mark)."""
        return [value for who, what, value in self.marks if who == owner and what == kind]

    def unmark(self, owner: int, kind: str, value=None) -> None:
        self.marks = tuple(m for m in self.marks if not (
            m[0] == owner and m[1] == kind and (value is None or m[2] == value)))

    def _end_turn_marks(self) -> None:
        marks = self.marks
        self.marks = tuple(m for m in marks if m[1] in AURA_MARKS)
        for owner, kind, value in marks:
            if kind == "borrowed":  # Shadow Madness: back to the other side, if still here
                for m in self.players[owner].board:
                    if m.uid == value:
                        self.take_control(m, 1 - owner)

    # ------------------------------------------------------------------ triggers
    def fire(self, event: str, *args) -> bool:
        """Run every hook listening to `event`, in play order; False when none ran (so nothing
        changed). Events and their args:
        play_card/cast_spell/after_spell/secret_played/draw (player, card); summon (minion);
        death (minion, position); damage (character, amount, source); heal (character, amount);
        attack/after_attack (attacker, defender); turn_start/turn_end (player)."""
        if event not in HEARD_EVENTS:
            return False  # no card listens to it
        return self._run_hooks(event, self._listeners(event), args)

    def _run_hooks(self, event: str, listeners: list[tuple[int, Any, tuple]], args: tuple) -> bool:
        """fire's work, for `listeners` = self._listeners(event)."""
        for owner, me, hooks in listeners:
            for hook in hooks:
                hook(self, owner, me, *args)
        ran = len(listeners) > 0
        # Secrets only trigger on their owner's opponent's turn.
        waiting = self.players[1 - self.current].secrets
        if waiting:
            for card in list(waiting):
                spec = card.cdef.script.secret
                if spec is not None and spec[0] == event and card in waiting:
                    ran = True
                    if spec[1](self, 1 - self.current, card, *args):
                        waiting.remove(card)
                        self.fire("secret_revealed", 1 - self.current, card)
        return ran

    # fire with one, two or three arguments, for the engine's own frequent events: the same
    # result, without packing the arguments into a tuple when nothing hears the event (by far
    # the usual case), and with one scan for the listeners; written out three times, so plain
    # Python makes no more calls than one `fire(event, *args)`. (No HEARD_EVENTS test: an event no card hears
    # is not in `heard`, and no secret waits for it.)
    def fire1(self, event: str, a: Any) -> bool:
        listeners = self._listeners(event)
        if listeners is _NO_LISTENERS and not self.players[1 - self.current].secrets:
            return False  # nothing hears it: what fire would return
        return self._run_hooks(event, listeners, (a,))

    def fire2(self, event: str, a: Any, b: Any) -> bool:
        listeners = self._listeners(event)
        if listeners is _NO_LISTENERS and not self.players[1 - self.current].secrets:
            return False
        return self._run_hooks(event, listeners, (a, b))

    def fire3(self, event: str, a: Any, b: Any, c: Any) -> bool:
        listeners = self._listeners(event)
        if listeners is _NO_LISTENERS and not self.players[1 - self.current].secrets:
            return False
        return self._run_hooks(event, listeners, (a, b, c))

    def fire_secrets(self, event: str, *args) -> bool:
        """Only the waiting secrets' part of `fire`, for events no minion listens to (Counterspell,
        Mirror Entity, Spellbender, Ice Block): no board scan. Whether one was revealed."""
        owner = 1 - self.current
        waiting = self.players[owner].secrets
        revealed = False
        for card in list(waiting):
            spec = card.cdef.script.secret
            if spec is not None and spec[0] == event and card in waiting:
                if spec[1](self, owner, card, *args):
                    waiting.remove(card)
                    revealed = True
                    self.fire("secret_revealed", owner, card)
        return revealed

    def _listeners(self, event: str) -> list[tuple[int, Any, tuple]]:
        """(owner, entity, hooks) of every minion and weapon listening to `event`, in play order.
        A minion about to die still reacts, except to deaths (SabberStone)."""
        if event not in self._count_in_play_if_stale():
            return _NO_LISTENERS  # by far the usual answer, given without a scan of the boards
        listeners: list[tuple[int, int, Any, tuple]] | None = None  # mostly none: no list, no sort
        for p in self.players:
            for m in p.board:
                if not m.listens:  # most minions: no triggers, no lookup
                    continue
                triggers = m.cdef.triggers
                if event in triggers and not m.silenced and (event != "death" or not m.doomed()):
                    if listeners is None:
                        listeners = []
                    listeners.append((m.order, m.owner, m, triggers[event]))
            w = p.weapon
            if w is not None:
                triggers = w.cdef.triggers
                if triggers and event in triggers:
                    if listeners is None:
                        listeners = []
                    listeners.append((0, p.index, w, triggers[event]))
        if listeners is None:
            return _NO_LISTENERS
        if len(listeners) > 1:
            listeners.sort(key=_first)
        return [(owner, me, hooks) for _, owner, me, hooks in listeners]

    def _count_in_play_if_stale(self) -> frozenset[str]:
        """`heard`, recounted first (with the aura flags) if an entry or exit made the counts
        stale: what every reader of the counts asks first."""
        heard = self.heard
        if heard is None:
            heard = self._recount_in_play()
        return heard

    def _entered_or_left(self, minion: Minion) -> None:
        """`minion` entered or left play: the counts are stale if they count it (recounted
        when next asked)."""
        if minion.counts_in_play():
            self.heard = None

    def _recount_in_play(self) -> frozenset[str]:
        """Count what is in play and keep it until a minion or weapon that has triggers, an
        aura or a cost aura enters play (summon, transform, equip) or such a minion dies:
        `heard`, the events some minion or weapon in play has triggers for;
        `cost_auras_in_play` and `auras_in_play`, whether some minion has a cost aura, an aura
        or enrage (silenced or not). Between recounts each can only say more than is there, so
        the scans they stand in for find nothing when they say nothing. (A minion that becomes
        a copy of another in play, Faceless Manipulator's and Mirror Entity's, adds nothing:
        the original was counted. The soak and fuzz runs check the rule after every action.)
        Returns `heard`."""
        events: set[str] | None = None
        cost_auras = auras = False
        for p in self.players:
            for m in p.board:
                if m.listens:
                    if events is None:
                        events = set()
                    events.update(m.cdef.triggers)
                if m.cost_aura_source:
                    cost_auras = True
                if m.aura_source:
                    auras = True
            w = p.weapon
            if w is not None and w.cdef.triggers:
                if events is None:
                    events = set()
                events.update(w.cdef.triggers)
        heard = _NOTHING_HEARD if events is None else frozenset(events)
        self.heard = heard
        self.cost_auras_in_play = cost_auras
        self.auras_in_play = auras
        return heard

    # ------------------------------------------------------------------ auras and deaths
    def refresh_auras(self) -> None:
        """Recompute every aura and enrage effect from scratch (cheap when there are none)."""
        self._count_in_play_if_stale()
        if not self.auras_in_play and not self.auras_live:
            return  # no source, and every aura field is zero already
        sources = []
        for p in self.players:
            for m in p.board:
                if m.aura_source and not m.silenced and self._aura_active(m):
                    sources.append(m)
        # With no source now and none applied last time, every aura field is already zero.
        if sources or self.auras_live:
            self._apply_auras(sources)

    @staticmethod
    def _aura_active(m: Minion) -> bool:
        """Whether a minion with an aura or enrage has an effect now (an undamaged enrage
        minion has none, so it need not force a recompute)."""
        script = m.cdef.script
        return script.aura is not None or m.damage > 0

    def _apply_auras(self, sources: list[Minion]) -> None:
        old_health = []
        if self.marks:  # the auras below mark their players again (Velen, Auchenai)
            self.marks = tuple(m for m in self.marks if m[1] not in AURA_MARKS)
        for p in self.players:
            if p.weapon is not None:
                p.weapon.aura_atk = 0
            for m in p.board:
                if m.aura_health:
                    old_health.append((m, m.aura_health))
                m.aura_atk = m.aura_health = 0
                m.aura_charge = m.aura_windfury = False
        if len(sources) > 1:
            sources.sort(key=_order)
        for m in sources:
            script = m.cdef.script
            aura, enrage = script.aura, script.enrage  # read as fields, then called
            if aura is not None:
                aura(self, m.owner, m)
            if enrage is not None and m.damage > 0:
                enrage(self, m.owner, m)
        for m, old in old_health:
            if m.aura_health < old:  # a lost health aura takes its health, not damage, away
                m.damage = max(0, m.damage - (old - m.aura_health))
        self.auras_live = bool(sources)

    def _refresh_and_find_dead(self) -> list[Minion] | None:
        """refresh_auras(), destroy broken weapons, then return the minions to remove (None for
        none). Usually there are no auras and no broken weapons: then one board pass does all."""
        players = self.players
        sources: list[Minion] | None = None  # made only when there is one
        dead: list[Minion] | None = None
        self._count_in_play_if_stale()
        auras = self.auras_in_play
        for p in players:
            for m in p.board:
                if auras and m.aura_source and not m.silenced and self._aura_active(m):
                    if sources is None:
                        sources = []
                    sources.append(m)
                if m.doomed():
                    if dead is None:
                        dead = []
                    dead.append(m)
        stale = False
        if sources is not None or self.auras_live:
            self._apply_auras(sources if sources is not None else [])
            stale = True  # auras change health
        for p in players:
            if p.weapon is not None and p.weapon.durability <= 0:
                self.destroy_weapon(p.index)
                stale = True  # its deathrattle may change the boards
        if stale:
            dead = None
            for p in players:
                for m in p.board:
                    if m.doomed():
                        if dead is None:
                            dead = []
                        dead.append(m)
        return dead

    def resolve(self) -> None:
        """Process deaths round by round until none are left, as SabberStone does. Each round
        first checks the heroes (the first dead hero found decides the game); then the dead
        minions leave the board, each one's "whenever a minion dies" listeners are chosen, and
        only then, minion by minion in order of play, those triggers and its deathrattles run."""
        while not self.done:
            dead = self._refresh_and_find_dead()
            if self._heroes_dead() or dead is None:
                return
            if len(dead) > 1:
                dead.sort(key=_order)
            positions: list[int] = []
            for m in dead:
                board = self.players[m.owner].board
                position = board.index(m)
                positions.append(position)
                del board[position]
                self._entered_or_left(m)
                self.players[m.owner].died_this_turn += (m.cdef.id,)
            self.refresh_auras()
            # chosen before any runs (the same for each death)
            listeners = self._listeners("death")
            for k, m in enumerate(dead):
                position = positions[k]
                for owner, me, hooks in listeners:
                    for hook in hooks:
                        hook(self, owner, me, m, position)
                if self.players[1 - self.current].secrets:  # secrets on a death (Redemption)
                    self.fire("died", m, position)
                for fn in m.deathrattles:
                    fn(self, m.owner, m, position)

    def _heroes_dead(self) -> bool:
        """End the game if a hero is dead (both: a draw); whether it is over."""
        hero = self.players[0].hero
        h0 = hero.health <= 0 or hero.destroyed
        hero = self.players[1].hero
        h1 = hero.health <= 0 or hero.destroyed
        if h0 or h1:
            self.done = True
            self.winner = -1 if (h0 and h1) else (1 if h0 else 0)
        return self.done

    # ------------------------------------------------------------------ turns
    def start_turn(self) -> None:
        """SabberStone's order: ready the player and its mana, run start-of-turn effects and
        their deaths, then draw (and process deaths again)."""
        if _entry_watcher:
            _entry_watcher[0](self, "start_turn", ())
        pi = self.current
        p = self.players[pi]
        for side in self.players:
            side.died_this_turn = ()
            side.drawn_this_turn = 0
        p.turns += 1
        p.max_mana = min(MAX_MANA, p.max_mana + 1)
        p.mana = p.max_mana
        if p.overload_owed or p.overload_locked:
            # Overload: what was owed is locked for this turn. As in SabberStone (remaining mana
            # = crystals - used - locked), a lock larger than the crystals leaves mana below 0.
            p.overload_locked, p.overload_owed = p.overload_owed, 0
            p.mana -= p.overload_locked
        p.used_mana = 0
        p.cards_played = p.minions_played = 0
        p.hero.attacks = 0
        p.hero.power_uses = 0
        for m in p.board:
            m.attacks = 0
            m.sick = False
            if m.stealth_until_next_turn:
                m.stealth = m.stealth_until_next_turn = False
        changed = self.fire1("turn_start", pi)
        for side in self.players:  # "at the start of your next turn, destroy it" (Nightmare),
            for m in side.board:  # after the minions' own start-of-turn effects, as in SabberStone
                if m.destroy_at_start_of == pi:
                    m.destroyed = changed = True
        if changed:
            self.resolve()
            if self.done:
                return
        self.draw(pi)
        self.resolve()

    def end_turn(self) -> None:
        pi = self.current
        p = self.players[pi]
        if self.fire1("turn_end", pi):
            self.resolve()  # (as in attack: a no-op when no hook ran)
        if p.enchants or self.players[1 - pi].enchants:  # effects that end with this turn
            self._end_enchants(("overwhelm", "immune", "attacking"))
            self.resolve()
        if self.done:
            return
        if self.marks:  # this turn's effects end; Shadow Madness gives its minions back
            self._end_turn_marks()
            self.resolve()
            if self.done:
                return
        if p.pending_cards:  # Headcrack's combo: back in hand at the end of this turn (SabberStone)
            pending, p.pending_cards = p.pending_cards, ()
            for card_id in pending:
                self.give(pi, card_id)
        for side in self.players:
            side.hero.turn_atk = 0
            for m in side.board:
                m.turn_atk = 0
        # Frozen characters that could have attacked and did not thaw at the end of their own
        # turn; a minion played this turn stays frozen (SabberStone: not exhausted, no attacks).
        if p.hero.frozen and p.hero.attacks == 0:
            p.hero.frozen = False
        for m in p.board:
            if m.frozen and m.attacks == 0 and not m.sick:
                m.frozen = False
        p.spell_discount = 0
        if p.free_spells_turns:
            p.free_spells_turns -= 1
        self.refresh_auras()
        self.current = 1 - pi
        self.turn += 1
        if self.turn > TURN_LIMIT:
            self.done = True
            self.winner = -1
            return
        self.start_turn()

    def _enchant_keys(self, p: Player) -> tuple:
        """p.enchants for state_hash: each kind with its minion's order of play (as the minions
        are hashed, no entity ids); 0 for a hero."""
        keys = []
        for kind, uid in p.enchants:
            target = self.entity(uid)
            if target is not None:
                keys.append((kind, target.order if isinstance(target, Minion) else 0))
        return tuple(keys)

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

    # ------------------------------------------------------------------ results
    def result(self, player) -> int:
        """+1 won, -1 lost, 0 drawn or still running, from `player`'s view (any integer type:
        callers pass numpy's too)."""
        if not self.done or self.winner == -1:
            return 0
        return 1 if self.winner == player else -1
