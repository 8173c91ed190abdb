"""State encoders: pure functions (state, player) -> fixed-length float32 vector, from `player`'s
view, registered by name with a version number.

A value network saved with an encoder's name and version refuses to load against another
version, so change an encoder's output (a slot, its order, the card vocabulary) only together
with its version number. Encoders only read the state: they draw nothing from its random
stream and change no field.

- "protocol15" (v1): the 15 raw features of the protocol's neural-net score
  (`workers.players.scores.state_features`), in `player_strategy_nn.json` order.
- "teo60" (v1): 60 values after Teo, Wang and Zhu (2016): each side's minions as
  (health, attack, ready) triples in a canonical order, then nine facts per player.
- "rich" (v1): per player the facts of Table I of Swiechowski et al. (2018), each board as the
  sum of per-minion vectors (order invariant), and the own hand as a bag of cards over a frozen
  card vocabulary (`workers/data/encoder_cards_v1.json`).

`ENCODERS[name].names` names every slot; `describe(name)` prints them.
"""
from __future__ import annotations

import json
import struct
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .. import DATA
from ..engine.entities import Minion, Player
from ..engine.state import GameState
from .scores import state_features

MAX_BOARD = 7
HERO_CLASSES = ("WARRIOR", "SHAMAN", "ROGUE", "PALADIN", "HUNTER", "DRUID", "WARLOCK", "MAGE",
                "PRIEST")  # one-hot order of the "rich" encoder (workers.engine.game.HEROES order)


@dataclass(frozen=True)
class Encoder:
    name: str
    version: int
    names: tuple[str, ...]  # one per slot
    fn: Callable[[GameState, int], np.ndarray]
    doc: str = ""

    @property
    def size(self) -> int:
        return len(self.names)

    def __call__(self, g: GameState, player: int) -> np.ndarray:
        return self.fn(g, player)


ENCODERS: dict[str, Encoder] = {}


def register(name: str, version: int, names, doc: str = ""):
    def wrap(fn):
        ENCODERS[name] = Encoder(name, version, tuple(names), fn, doc)
        return fn
    return wrap


def get_encoder(name: str) -> Encoder:
    try:
        return ENCODERS[name]
    except KeyError:
        raise ValueError(f"unknown state encoder {name!r}: expected one of {', '.join(ENCODERS)}") from None


def encode(name: str, g: GameState, player: int) -> np.ndarray:
    return get_encoder(name)(g, player)


def describe(name: str) -> str:
    enc = get_encoder(name)
    lines = [f"{enc.name} v{enc.version}: {enc.size} values. {enc.doc}".rstrip()]
    lines += [f"  {i:4d}  {slot}" for i, slot in enumerate(enc.names)]
    return "\n".join(lines)


def _ready(g: GameState, m: Minion) -> bool:
    """Whether the minion can attack now (its owner to act) or at the start of its owner's next
    turn (the other side: summoning sickness and spent attacks do not count, a freeze does,
    since a minion frozen now is still frozen then)."""
    return m.can_attack() if m.owner == g.current else m.ready()


# --------------------------------------------------------------------------- protocol15
PROTOCOL15_NAMES = (
    "own hero health", "enemy hero health", "own hero attack", "enemy hero attack",
    "own hand cost", "own hand size", "enemy hand size", "own deck size", "enemy deck size",
    "own minion attack", "enemy minion attack", "own minion health", "enemy minion health",
    "own taunt health", "enemy taunt health",
)


@register("protocol15", 1, PROTOCOL15_NAMES,
          "workers.players.scores.state_features: the protocol's neural-net score inputs (a hero's "
          "weapon counts on its owner's turn only, as SabberStone reports it).")
def protocol15(g: GameState, player: int) -> np.ndarray:
    return np.array(state_features(g, player), dtype=np.float32)


# --------------------------------------------------------------------------- teo60
TEO_PLAYER_FACTS = ("hero health", "hero armour", "hand size", "deck size", "mana crystals",
                    "mana left", "weapon attack", "weapon durability", "secrets")
TEO60_NAMES = tuple(
    [f"{side} minion {slot} {what}" for side in ("own", "enemy") for slot in range(MAX_BOARD)
     for what in ("health", "attack", "ready")] +
    [f"{side} {fact}" for side in ("own", "enemy") for fact in TEO_PLAYER_FACTS])


def _teo_board(g: GameState, board: list[Minion]) -> list:
    triples = []
    for m in board:
        triples.append((m.health, m.atk, 1 if _ready(g, m) else 0))
    # Canonical order: strongest first (attack, then health, then ready), zero-padded.
    triples.sort(key=lambda t: (-t[1], -t[0], -t[2]))
    flat = [v for t in triples[:MAX_BOARD] for v in t]
    return flat + [0] * (3 * MAX_BOARD - len(flat))


def _teo_player(p: Player) -> list:
    w = p.weapon
    return [p.hero.health, p.hero.armor, len(p.hand), len(p.deck), p.max_mana, p.mana,
            (w.atk + w.aura_atk) if w is not None else 0, w.durability if w is not None else 0,
            len(p.secrets)]


@register("teo60", 1, TEO60_NAMES,
          "After Teo, Wang and Zhu (2016). Slots 0-20: own minions, 21-41: enemy minions, "
          "7 slots per side of (health, attack, ready) sorted by attack, health, ready, "
          "descending, zero-padded; 'ready': can attack now (owner to act) or at its owner's "
          "next turn (not frozen, attack above 0, not 'can't attack'). Slots 42-50 own and "
          "51-59 enemy: hero health, armour, hand size, deck size, mana crystals, mana left "
          "unspent, weapon attack and durability (0 without a weapon), secrets in play.")
def teo60(g: GameState, player: int) -> np.ndarray:
    own, enemy = g.players[player], g.players[1 - player]
    return np.array(_teo_board(g, own.board) + _teo_board(g, enemy.board) + _teo_player(own)
                    + _teo_player(enemy), dtype=np.float32)


# --------------------------------------------------------------------------- rich
RICH_PLAYER_FACTS = ("deck count", "hand count", "mana crystals", "mana left", "fatigue",
                     "spell damage", "weapon attack", "weapon durability", "armour",
                     "hero health", "hero power used", "secrets") + tuple(
    f"class {c.lower()}" for c in HERO_CLASSES)
RICH_MINION_FACTS = ("minions", "attack", "health", "max health", "damaged", "ready", "taunt",
                     "divine shield", "stealth", "windfury", "charge", "frozen", "silenced",
                     "poisonous", "spell damage", "deathrattle", "trigger", "aura", "can't attack",
                     "mana cost")
_CLASS_INDEX = {c: i for i, c in enumerate(HERO_CLASSES)}


def _card_vocabulary(version: int = 1) -> tuple[str, ...]:
    spec = json.loads((DATA / f"encoder_cards_v{version}.json").read_text())
    if spec.get("version") != version:
        raise ValueError(f"encoder_cards_v{version}.json says version {spec.get('version')}")
    return tuple(c["id"] for c in spec["cards"])


RICH_CARDS = _card_vocabulary(1)
_CARD_INDEX = {card_id: i for i, card_id in enumerate(RICH_CARDS)}
_P, _M = len(RICH_PLAYER_FACTS), len(RICH_MINION_FACTS)
_BAG = 2 * _P + 2 * _M  # first slot of the hand's bag of cards
_HEAD_INTS = struct.Struct(f"{_BAG}i")  # the players' and boards' slots, packed as int32
RICH_NAMES = tuple(
    [f"{side} {fact}" for side in ("own", "enemy") for fact in RICH_PLAYER_FACTS] +
    [f"{side} board sum: {fact}" for side in ("own", "enemy") for fact in RICH_MINION_FACTS] +
    [f"own hand: {card_id}" for card_id in RICH_CARDS] + ["own hand: other card"])


def _rich_player(g: GameState, p: Player, head: list[int]) -> None:
    """Append `p`'s RICH_PLAYER_FACTS to `head`."""
    w = p.weapon
    spell_damage = 0
    for m in p.board:
        if not m.silenced:
            spell_damage += m.spell_damage
    head.extend((
        len(p.deck), len(p.hand), p.max_mana, p.mana, p.fatigue, spell_damage,
        (w.atk + w.aura_atk) if w is not None else 0, w.durability if w is not None else 0,
        p.hero.armor, p.hero.health, 1 if p.hero.power_uses else 0, len(p.secrets)))
    cls = _CLASS_INDEX.get(p.hero.cdef.card_class, -1)
    for i in range(len(HERO_CLASSES)):
        head.append(1 if i == cls else 0)


def _rich_board(g: GameState, board: list[Minion], head: list[int]) -> None:
    """Append the sums of `board`'s per-minion RICH_MINION_FACTS to `head`, in their order
    (native int locals: the compiled encoder adds them without boxing)."""
    count = atk_sum = health = max_health_sum = damaged = ready = taunt = divine_shield = 0
    stealth = windfury = charge = frozen = silenced = poisonous = spell_damage = 0
    deathrattle = trigger = aura = cant_attack = cost = 0
    for m in board:
        max_health = m.max_health
        live = not m.silenced
        cdef = m.cdef
        count += 1
        atk_sum += m.atk
        health += m.health
        max_health_sum += max_health
        damaged += 1 if m.damage > 0 else 0
        ready += 1 if _ready(g, m) else 0
        taunt += 1 if m.taunt else 0
        divine_shield += 1 if m.divine_shield else 0
        stealth += 1 if m.stealth else 0
        windfury += 1 if m.windfury or m.aura_windfury else 0
        charge += 1 if m.charge or m.aura_charge else 0
        frozen += 1 if m.frozen else 0
        silenced += 1 if m.silenced else 0
        poisonous += 1 if m.poisonous else 0
        spell_damage += m.spell_damage if live else 0
        deathrattle += 1 if m.deathrattles else 0
        trigger += 1 if live and cdef.triggers else 0
        aura += 1 if live and cdef.has_aura else 0
        cant_attack += 1 if m.cant_attack else 0
        cost += cdef.cost
    head.extend((count, atk_sum, health, max_health_sum, damaged, ready, taunt, divine_shield,
                 stealth, windfury, charge, frozen, silenced, poisonous, spell_damage, deathrattle,
                 trigger, aura, cant_attack, cost))


@register("rich", 1, RICH_NAMES,
          "Per player (own, then enemy) the Table I facts of Swiechowski et al. (2018): deck "
          "and hand count, mana crystals and mana left, fatigue counter, spell damage, weapon "
          "attack and durability, armour, hero health, hero power used this turn, secrets, "
          "hero class one-hot; then each board (own, enemy) as the sum of per-minion vectors "
          "(count, attack, health, max health, damaged, ready as in teo60, keywords, "
          "live spell damage, deathrattle, live trigger and aura, can't attack, mana cost); "
          "then the own hand as counts over the frozen card vocabulary "
          "(encoder_cards_v1.json) plus an 'other card' slot.")
def rich(g: GameState, player: int) -> np.ndarray:
    # The values go into numpy in two steps, the players and boards as one slice and the
    # hand's cards one by one: every numpy call costs far more than the Python arithmetic.
    own, enemy = g.players[player], g.players[1 - player]
    head: list[int] = []
    _rich_player(g, own, head)
    _rich_player(g, enemy, head)
    _rich_board(g, own.board, head)
    _rich_board(g, enemy.board, head)
    out = np.zeros(len(RICH_NAMES), dtype=np.float32)
    out[:_BAG] = np.frombuffer(_HEAD_INTS.pack(*head), dtype=np.int32)  # cheaper than from a list
    other = _BAG + len(RICH_CARDS)
    index = _CARD_INDEX
    bag: dict[int, int] = {}
    for card in own.hand:
        slot = _BAG + index[card.cdef.id] if card.cdef.id in index else other
        bag[slot] = bag.get(slot, 0) + 1
    for slot, count in bag.items():
        out[slot] = count
    return out


if __name__ == "__main__":  # python -m workers.players.encoders [NAME ...]: print the slots
    import sys
    for name in sys.argv[1:] or list(ENCODERS):
        print(describe(name))
