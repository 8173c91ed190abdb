"""The trading agent: the opponent of Teo et al. 2016 (seed 001), Hearthbreaker's `TradeAgent`
(hand-coded rules, no search), written for the built-in engine.

A turn is: play cards, attack, play cards again.

Playing cards (Hearthbreaker's `PossiblePlays`, a mana curve): among every set of the cards
that can be played now (by cost; The Coin adds one mana; the hero power may join the set if
unused and the hero has more than 2 health), the set chosen is, in this order of priority:
one without the hero power while mana is below 6 (so the power is used early only when no card
can be played), the least mana left unspent, the most expensive cards (costs compared from the
largest down), not spending The Coin. Its first card is played (the hero power first, then The
Coin, then hand order), and the sets are counted again. Nothing is played once the own board
holds 7 minions. A minion goes to the leftmost position (Hearthbreaker's `choose_index` is 0);
a Choose One card plays its first legal option (its `choose_option`).

Targets: Hearthbreaker sends a play to a friendly target when the card's battlecry buffs, to an
enemy when it deals damage, and otherwise to a friendly character whenever one may be targeted
(so its damage spells could hit its own side). Here the effect is observed instead: the play is
tried on a copy against each legal target; if it leaves the targets worse off in total (attack
+ health, a hero's health + armour, all of it if removed), an enemy is chosen: the defender of
the last trade if it is a legal target, else a random enemy minion, else the enemy hero;
otherwise a random friendly target. Random choices use the player's seeded stream.

Attacking (Hearthbreaker's `Trades`): every legal attack of a minion on a minion is a trade
valued by the change in v(own minion) - v(enemy minion) after the exchange, +1 when the own
minion survives and the enemy's dies, with v = ((attack + 0.5) * health^1.5 + 0.5 * taunt)^0.4
(0 when dead); an attack on the hero is worth 0.2 x attack, or everything if that attack alone
is lethal. When the attackers' total attack is lethal and no taunt stands in the way, only the
hero is attacked. While the enemy has a taunt, a trade's value adds the best next trade after it
(played on a copy), as Hearthbreaker's two-step `TradeSequence` does. Trades worth -1 or less
are never made; the best is made (ties: the engine's move order) until none is left.

What differs from Hearthbreaker: the exchange is computed with current attack (it mixes base and
current attack), with divine shield and poisonous (it ignores both); it truncates the taunt
sequences to the 3 or 4 *lowest*-valued trades when there are 8 or more (a sort left
unreversed), which is not kept; the hero attacks the enemy hero with its weapon (it never lets
the hero attack, which would waste the weapons of the Hunter and Paladin decks); targets are
chosen by the observed effect (above).
"""
from __future__ import annotations

from ..engine.actions import ATTACK, END, HERO_POWER, PLAY, PLAY_OPTION_1, PLAY_OPTION_2
from ..engine.game import THE_COIN
from ..engine.rng import GOLDEN, MASK64, derive, mix
from ..engine.state import MAX_BOARD, GameState
from .game_counters import GameCounters
from .play import Observer, play_turn

HUGE = 1e9  # a lethal trade
PHASES = ("play", "attack", "play")  # a turn: play cards, attack, play cards again


def minion_value(atk: int, health: int, taunt: bool) -> float:
    """Hearthbreaker's value of a minion with these stats (0 when dead)."""
    if health <= 0:
        return 0.0
    return ((atk + 0.5) * health ** 1.5 + (0.5 if taunt else 0.0)) ** 0.4


def exchange(attacker, defender) -> tuple[int, int]:
    """The healths of attacker and defender after they fight (damage both ways, a divine
    shield absorbs it, poison kills a damaged minion)."""
    def after(target, source) -> int:
        hit = source.atk
        if hit <= 0 or target.divine_shield:
            return target.health
        if source.poisonous:
            return 0
        return target.health - hit
    return after(attacker, defender), after(defender, attacker)


def trade_value(attacker, defender) -> float:
    mine, theirs = exchange(attacker, defender)
    before = (minion_value(attacker.atk, attacker.health, attacker.taunt)
              - minion_value(defender.atk, defender.health, defender.taunt))
    after = (minion_value(attacker.atk, mine, attacker.taunt)
             - minion_value(defender.atk, theirs, defender.taunt))
    return after - before + (1.0 if mine > 0 and theirs <= 0 else 0.0)


def _hero_health(hero) -> int:
    return hero.health + hero.armor


class TradePlayer:
    """Hearthbreaker's TradeAgent rules (see the module docstring)."""

    def __init__(self, seed: int):
        self.stream = derive(seed, 0x54524144)
        self.last_defender = -1  # uid of the last trade's defender (spells aim there)
        self.phase = 0  # the index in PHASES of the turn's current phase
        self.observer: Observer | None = None  # called with the game after every action
        self.counters: GameCounters | None = None  # the evaluated player's statistics, when counted

    def _rand(self, n: int) -> int:
        self.stream = (self.stream + GOLDEN) & MASK64
        return mix(self.stream) % n

    # ------------------------------------------------------------------ attacking
    def trades(self, g: GameState) -> list[tuple[float, tuple]]:
        """(value, attack move) of every legal attack the rules allow, in move order."""
        me = g.current
        own, opp = g.players[me], g.players[1 - me]
        attacks = [m for m in g.legal_moves() if m[0] == ATTACK]
        if not attacks:
            return []
        taunt = any(m.taunt for m in opp.board)
        by_uid = {m.uid: m for m in own.board + opp.board}
        hero_uid = opp.hero.uid
        ready = {m[1] for m in attacks}
        total = sum(by_uid[a].atk if a in by_uid else g.hero_atk(own) for a in ready)
        lethal = not taunt and total >= _hero_health(opp.hero)
        out = []
        for move in attacks:
            attacker_uid, defender_uid = move[1], move[2]
            if defender_uid == hero_uid:
                atk = by_uid[attacker_uid].atk if attacker_uid in by_uid else g.hero_atk(own)
                out.append((HUGE if lethal or atk >= _hero_health(opp.hero) else 0.2 * atk, move))
            elif attacker_uid in by_uid and not lethal:  # the hero attacks no minion
                out.append((trade_value(by_uid[attacker_uid], by_uid[defender_uid]), move))
        return out

    def best_trade(self, g: GameState) -> tuple | None:
        options = [(v, m) for v, m in self.trades(g) if v > -1]
        if not options:
            return None
        if any(m.taunt for m in g.players[1 - g.current].board):
            options = [(v + self._next_trade_value(g, m), m) for v, m in options]
        best = options[0]
        for option in options[1:]:
            if option[0] > best[0]:
                best = option
        return best[1]

    def _next_trade_value(self, g: GameState, move: tuple) -> float:
        """The best trade after `move` (played on a copy): Hearthbreaker's second step."""
        child = g.copy()
        child.apply(move, check=False)
        if child.done:
            return HUGE if child.winner == g.current else 0.0
        values = [v for v, _ in self.trades(child)]
        return max(values) if values else 0.0

    # ------------------------------------------------------------------ playing cards
    def card_moves(self, g: GameState) -> dict[int, list[tuple]]:
        """Hand index -> its legal plays (option 1 of a Choose One card if it has any)."""
        out: dict[int, list[tuple]] = {}
        for m in g.legal_moves():
            if m[0] in (PLAY, PLAY_OPTION_1, PLAY_OPTION_2):
                out.setdefault(m[1], []).append(m)
        for i, moves in out.items():
            first = [m for m in moves if m[0] != PLAY_OPTION_2]
            out[i] = first or moves
        return out

    def chosen_play(self, g: GameState) -> list:
        """The best set of plays by the mana curve's order: hand indices, and -1 for the hero
        power, in the order they would be played; [] when nothing is worth playing."""
        me = g.current
        p = g.players[me]
        if len(p.board) >= MAX_BOARD:
            return []
        playable = self.card_moves(g)
        coin = [i for i in playable if p.hand[i].cdef.id == THE_COIN]
        cards = [(i, g.cost_of(me, p.hand[i])) for i in sorted(playable) if p.hand[i].cdef.id != THE_COIN]
        power_ok = any(m[0] == HERO_POWER for m in g.legal_moves()) and p.hero.health > 2
        power_cost = p.hero.power.cost
        best_key, best = None, []
        for use_coin in ([False, True] if coin else [False]):
            mana = p.mana + (1 if use_coin else 0)
            for subset in _subsets(cards, mana):
                for power in ([False, True] if power_ok and power_cost <= mana - sum(c for _, c in subset)
                              else [False]):
                    if not subset and not power:
                        continue  # nothing, or The Coin alone
                    costs = [c for _, c in subset] + ([power_cost] if power else []) + ([0] if use_coin else [])
                    wasted = mana - sum(costs)
                    key = (not (power and p.mana < 6), -wasted, tuple(sorted(costs, reverse=True)) + (0,) * 12,
                           not use_coin)
                    if best_key is None or key > best_key:
                        best_key = key
                        best = ([-1] if power else []) + (coin[:1] if use_coin else []) + [i for i, _ in subset]
        return best

    def play_move(self, g: GameState, index: int) -> tuple:
        """The move that plays hand card `index`: leftmost position, target by the rule above."""
        if index == -1:
            moves = [m for m in g.legal_moves() if m[0] == HERO_POWER]
        else:
            moves = self.card_moves(g)[index]
        leftmost = min(m[3] for m in moves)
        moves = [m for m in moves if m[3] == leftmost]
        targets = sorted({m[2] for m in moves})
        if targets == [-1]:
            return moves[0]
        target = self.choose_target(g, moves[0], targets)
        return next(m for m in moves if m[2] == target)

    def choose_target(self, g: GameState, move: tuple, targets: list[int]) -> int:
        me = g.current
        harm = 0.0
        for t in targets:
            child = g.copy()
            child.apply(move[:2] + (t,) + move[3:], check=False)
            harm += _worth(child, t) - _worth(g, t)
        enemy_minions = [m.uid for m in g.players[1 - me].board if m.uid in targets]
        enemy_hero = g.players[1 - me].hero.uid
        friendly = [t for t in targets if t not in enemy_minions and t != enemy_hero]
        if harm < 0:
            if self.last_defender in enemy_minions:  # (those are legal targets, none a hero)
                return self.last_defender
            if enemy_minions:
                return enemy_minions[self._rand(len(enemy_minions))]
            if enemy_hero in targets:
                return enemy_hero
        elif friendly:
            return friendly[self._rand(len(friendly))]
        return targets[self._rand(len(targets))]

    # ------------------------------------------------------------------ the turn
    def choose(self, g: GameState, phase: str) -> tuple | None:
        """The next move of a phase ("play" or "attack"), None when the phase is over."""
        if phase == "attack":
            move = self.best_trade(g)
            if move is not None:
                self.last_defender = move[2]
            return move
        plan = self.chosen_play(g)
        return self.play_move(g, plan[0]) if plan else None

    def next_move(self, g: GameState) -> tuple:
        """The turn's next move: the current phase's, or once it has none the next phase's;
        END after the last phase."""
        while self.phase < len(PHASES):
            move = self.choose(g, PHASES[self.phase])
            if move is not None:
                return move
            self.phase += 1
        return END

    def take_turn(self, g: GameState) -> None:
        self.phase = 0
        play_turn(g, self.next_move, self.counters, self.observer)  # the whole turn is one planning round


def _subsets(cards: list[tuple[int, int]], mana: int):
    """Every subset of (hand index, cost) whose costs fit in `mana`, in hand order."""
    def grow(start: int, left: int, chosen: list):
        yield list(chosen)
        for k in range(start, len(cards)):
            if cards[k][1] <= left:
                chosen.append(cards[k])
                yield from grow(k + 1, left - cards[k][1], chosen)
                chosen.pop()
    return grow(0, mana, [])


def _worth(g: GameState, uid: int) -> float:
    """Attack + health of a minion (0 once gone), health + armour of a hero."""
    for p in g.players:
        if p.hero.uid == uid:
            return float(_hero_health(p.hero))
        for m in p.board:
            if m.uid == uid:
                return float(m.atk + m.health) if m.health > 0 else 0.0
    return 0.0
